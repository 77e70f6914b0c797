"""The areas a plan is judged by, measured from its site geometry, never retyped.

The disturbed area is the union of the ``disturbed_area`` polygons; the area disturbed at one
time is the largest union of the phases open on one day. Both are facts the determination
uses (the chapter's area triggers, and basins or fences).
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Iterator
from dataclasses import dataclass

import shapely  # type: ignore[import-untyped]

from siltfence.core.engineering.geometry import area_ft2
from siltfence.core.engineering.plan import ControlPlan, SiteFeature
from siltfence.core.engineering.result import CheckResult, Method, Outcome, Step, make_result
from siltfence.core.engineering.units import ACRE_FT2, FT, fmt

# The faces' areas must add up to the area of the union of all the phases (measured apart)
# within this share; otherwise each day's union is measured as it is (see _open_by_start_day).
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
) -> Iterator[tuple[datetime.date, list[SiteFeature], float]]:
    """Each start day in order, the phases open that day (in plan order) and the area, sq ft,
    of their union.

    One sweep over the days, not a union per day: the phases' outlines cut the site into
    faces, each inside a fixed set of phases (the planar arrangement, measured once). A face
    is disturbed on a day when a phase holding it is open, so the area open on a day is the
    sum of the faces a phase open that day holds, kept up to date as phases start and end.
    The work is the faces and the phases opening and closing, whatever the dates: a phase
    open until 2099 costs no more than one open for a week. Measuring the union anew for
    every start day instead grew with the phases times the days.
    """
    if not phases:
        return
    faces_of, face_m2 = _faces(phases, total_ft2)
    start = [p.properties["start"] for p in phases]
    end = [p.properties["end"] for p in phases]
    by_start = sorted(range(len(phases)), key=lambda i: start[i])
    by_end = sorted(range(len(phases)), key=lambda i: end[i])
    holders = [0] * len(face_m2)  # open phases holding each face
    disturbed: dict[int, float] = {}  # face -> its area, m2, while a phase holding it is open
    open_: set[int] = set()
    started = ended = 0
    for day in sorted(set(start)):
        while started < len(by_start) and start[by_start[started]] <= day:
            phase = by_start[started]
            started += 1
            open_.add(phase)
            if faces_of is not None:
                for face in faces_of[phase]:
                    holders[face] += 1
                    if holders[face] == 1:
                        disturbed[face] = face_m2[face]
        while ended < len(by_end) and end[by_end[ended]] < day:
            phase = by_end[ended]  # started already: start <= end < day
            ended += 1
            open_.discard(phase)
            if faces_of is not None:
                for face in faces_of[phase]:
                    holders[face] -= 1
                    if holders[face] == 0:
                        del disturbed[face]
        today = [phases[i] for i in sorted(open_)]
        if faces_of is None:
            measured = area_ft2(shapely.union_all([p.geometry for p in today]))
        else:
            measured = math.fsum(disturbed.values()) / FT**2
        yield day, today, measured


def _faces(
    phases: list[SiteFeature], total_ft2: float
) -> tuple[list[list[int]] | None, list[float]]:
    """The faces each phase holds (by index) and each face's area in m2, from the outlines of
    all the phases noded together and polygonized; a face belongs to the phases its interior
    point lies in (none: a hole, or ground the phases ring without covering).

    ``(None, [])`` when the faces the phases hold do not add up to the union's area: the
    caller then measures each day's union directly. It never happens with valid polygons;
    the check keeps the answer what the union gives if GEOS ever nodes otherwise.
    """
    geometries = [p.geometry for p in phases]
    outlines = shapely.union_all(shapely.boundary(geometries))
    faces = shapely.get_parts(shapely.polygonize(shapely.get_parts(outlines)))
    face_m2 = [float(a) for a in shapely.area(faces)]
    points = shapely.point_on_surface(faces)
    face_index, phase_index = shapely.STRtree(geometries).query(points, predicate="within")
    faces_of: list[list[int]] = [[] for _ in phases]
    held = set()
    for face, phase in zip(face_index.tolist(), phase_index.tolist(), strict=True):
        faces_of[phase].append(face)
        held.add(face)
    held_ft2 = math.fsum(face_m2[f] for f in held) / FT**2
    if abs(held_ft2 - total_ft2) > _FACES_AGREE * max(total_ft2, 1.0):
        return None, []
    return faces_of, face_m2
