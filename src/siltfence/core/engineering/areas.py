"""The areas a plan is judged by, measured from its site geometry, never retyped.

The disturbed area is the union of the ``disturbed_area`` polygons; the area disturbed at one
time is the largest union of the phases open on one day. Both are facts the determination
uses (the chapter's area triggers, and basins or fences).
"""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass

import shapely  # type: ignore[import-untyped]
from shapely.geometry.base import BaseGeometry  # type: ignore[import-untyped]

from siltfence.core.engineering.geometry import area_ft2
from siltfence.core.engineering.plan import ControlPlan, SiteFeature
from siltfence.core.engineering.result import CheckResult, Method, Outcome, Step, make_result
from siltfence.core.engineering.units import fmt
from siltfence.core.quantities import ACRE_FT2, FT

# Each day's union is measured while the phases it unions, day after day, hold at most this
# many times the positions of all the phases; past it, the faces (see _open_by_start_day).
_UNION_ONCE_OVER = 4
# The faces' areas must add up to the area of the union of all the phases within this share;
# otherwise each day's union is measured (see _faces).
_FACES_AGREE = 1e-9


@dataclass(frozen=True)
class SiteAreas:
    disturbed_area_ft2: float
    area_disturbed_at_one_time_ft2: float
    at_one_time_on: datetime.date | None
    at_one_time_features: tuple[str, ...]
    result: CheckResult


def site_areas(plan: ControlPlan) -> SiteAreas:
    """Disturbed area (union of the disturbed_area polygons) and the most disturbed at once.

    Phases overlap by date (start and end inclusive). The area open at one time peaks on the
    day some phase starts, so the union of the phases open on each start day is measured and
    the largest kept (the first such day on a tie). Overlapping polygons are counted once.
    """
    phases = plan.of_kind("disturbed_area")
    steps: list[Step] = []
    if phases:
        union = shapely.union_all([p.geometry for p in phases])
        total = area_ft2(union)
        drawn = sum(area_ft2(p.geometry) for p in phases)
    else:
        total = drawn = 0.0
    steps.append(
        Step.of(
            f"disturbed_area polygons ({len(phases)}), each measured",
            "sum of polygon areas in EPSG:3071 (Wisconsin Transverse Mercator)",
            drawn,
            "ft**2",
        )
    )
    steps.append(
        Step.of(
            "disturbed area",
            "area of the union of the disturbed_area polygons (overlaps counted once)",
            total,
            "ft**2",
        )
    )
    best = 0.0
    best_day: datetime.date | None = None
    best_ids: tuple[str, ...] = ()
    for day, open_, measured in _open_by_start_day(phases, total):
        steps.append(
            Step.of(
                f"open on {day.isoformat()}: {', '.join(p.label for p in open_)}",
                "area of the union of the phases with start <= day <= end",
                measured,
                "ft**2",
            )
        )
        if measured > best:
            best, best_day, best_ids = measured, day, tuple(p.label for p in open_)
    steps.append(
        Step.of(
            "largest area disturbed at one time",
            "max over the start days of the area open that day",
            best,
            "ft**2",
        )
    )
    steps.append(Step.of("in acres", "sq ft / 43,560", best / ACRE_FT2, "acre"))
    result = make_result(
        id="site-areas",
        title="Areas measured from the site geometry",
        citation="the chapter",
        inputs={
            "disturbed_area polygons": str(len(phases)),
            "coordinate system": "GeoJSON WGS84 reprojected to EPSG:3071 (metres), given in ft",
        },
        method=Method(
            name="Polygon areas in Wisconsin Transverse Mercator",
            formula="disturbed area = area(union of disturbed_area); at one time = max over "
            "days d of area(union of phases with start <= d <= end)",
        ),
        steps=steps,
        result=Outcome.INFO,
        says=(
            f"The plan disturbs {fmt(total, 'ft**2')} ({fmt(total / ACRE_FT2, 'acre')}); at most "
            f"{fmt(best, 'ft**2')} ({fmt(best / ACRE_FT2, 'acre')}) at one time"
            + (f", from {best_day.isoformat()}" if best_day else "")
            + ". These are the facts the determination used."
        ),
        notes=[
            "WTM's scale error is under about 0.1% anywhere in Wisconsin.",
        ],
    )
    return SiteAreas(total, best, best_day, best_ids, result)


def _open_by_start_day(
    phases: list[SiteFeature], total_ft2: float
) -> list[tuple[datetime.date, list[SiteFeature], float]]:
    """Each start day in order, the phases open that day (in plan order) and the area, sq ft,
    of their union.

    One sweep over the start and end days finds the phases open on each start day, whatever
    the dates: a phase open until 2099 costs no more than one open for a week. The area is
    then measured one of two ways:

    - the union of the phases open that day, measured day by day, while the days' unions
      together hold at most a few times the plan's positions (a few phases, few days: most
      plans, measured exactly as before);
    - otherwise the faces: the phases' outlines cut the site into faces, each inside a fixed
      set of phases (measured once). A face is disturbed on a day when a phase holding it is
      open, so the area open on a day is the sum of the faces the open phases hold, kept up
      to date as phases start and end. Measuring the union anew for every start day of a
      plan with many phases grew with the phases times the days (1,000 phases: a minute).

    Both give the same areas to about 1e-11 of them. The sum of faces is exact for the
    faces, so two days with the same ground open tie exactly and the first is kept (their
    unions, measured apart, can differ in the last digit).
    """
    if not phases:
        return []
    geometries = [p.geometry for p in phases]
    days = _sweep(phases)
    positions = [int(n) for n in shapely.get_num_coordinates(geometries)]
    day_by_day = sum(positions[i] for _, _, _, open_ in days for i in open_)
    faces_of: list[list[int]] | None = None
    face_m2: list[float] = []
    if day_by_day > _UNION_ONCE_OVER * sum(positions):
        faces_of, face_m2 = _faces(geometries, total_ft2)
    holders = [0] * len(face_m2)  # open phases holding each face
    disturbed: dict[int, float] = {}  # face -> its area, m2, while a phase holding it is open
    measured: list[tuple[datetime.date, list[SiteFeature], float]] = []
    for day, started, ended, open_ in days:
        if faces_of is None:
            area = area_ft2(shapely.union_all([geometries[i] for i in open_]))
        else:
            for phase in started:
                for face in faces_of[phase]:
                    holders[face] += 1
                    if holders[face] == 1:
                        disturbed[face] = face_m2[face]
            for phase in ended:
                for face in faces_of[phase]:
                    holders[face] -= 1
                    if holders[face] == 0:
                        del disturbed[face]
            area = math.fsum(disturbed.values()) / FT**2
        measured.append((day, [phases[i] for i in open_], area))
    return measured


def _sweep(
    phases: list[SiteFeature],
) -> list[tuple[datetime.date, list[int], list[int], list[int]]]:
    """Each start day in order: the phases (by index) that start by it, those that ended
    before it (both since the day before), and those open on it, in plan order."""
    start = [p.properties["start"] for p in phases]
    end = [p.properties["end"] for p in phases]
    by_start = sorted(range(len(phases)), key=lambda i: start[i])
    by_end = sorted(range(len(phases)), key=lambda i: end[i])
    open_: set[int] = set()
    taken = done = 0
    days = []
    for day in sorted(set(start)):
        started: list[int] = []
        while taken < len(by_start) and start[by_start[taken]] <= day:
            started.append(by_start[taken])
            taken += 1
        ended: list[int] = []
        while done < len(by_end) and end[by_end[done]] < day:
            ended.append(by_end[done])  # started already: start <= end < day
            done += 1
        open_.update(started)
        open_.difference_update(ended)
        days.append((day, started, ended, sorted(open_)))
    return days


def _faces(
    geometries: list[BaseGeometry], total_ft2: float
) -> tuple[list[list[int]] | None, list[float]]:
    """The faces each phase holds (by index) and each face's area in m2, from the outlines of
    all the phases noded together and polygonized; a face belongs to the phases its interior
    point lies in (none: a hole, or ground the phases ring without covering).

    ``(None, [])`` when the faces the phases hold do not add up to the union's area: the
    caller then measures each day's union. It does not happen with valid polygons; the check
    keeps the answer the union's if GEOS ever nodes otherwise.
    """
    outlines = shapely.union_all(shapely.boundary(geometries))
    faces = shapely.get_parts(shapely.polygonize(shapely.get_parts(outlines)))
    face_m2 = [float(a) for a in shapely.area(faces)]
    points = shapely.point_on_surface(faces)
    face_index, phase_index = shapely.STRtree(geometries).query(points, predicate="within")
    faces_of: list[list[int]] = [[] for _ in geometries]
    held: set[int] = set()
    for face, phase in zip(face_index.tolist(), phase_index.tolist(), strict=True):
        faces_of[phase].append(face)
        held.add(face)
    held_ft2 = math.fsum(face_m2[f] for f in held) / FT**2
    if abs(held_ft2 - total_ft2) > _FACES_AGREE * max(total_ft2, 1.0):
        return None, []
    return faces_of, face_m2
