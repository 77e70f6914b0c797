"""The areas a plan is judged by, measured from its site geometry, never retyped.

The disturbed area is the union of the ``disturbed_area`` polygons; the area disturbed at one
time is the largest union of the phases open on one day. Both are facts the determination
uses (the chapter's area triggers, and basins or fences).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

import shapely  # type: ignore[import-untyped]

from siltfence.core.engineering.geometry import area_ft2
from siltfence.core.engineering.plan import ControlPlan
from siltfence.core.engineering.result import CheckResult, Method, Outcome, Step, make_result
from siltfence.core.engineering.units import ACRE_FT2, fmt


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
    the largest kept. Overlapping polygons are counted once.
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
    for day in sorted({p.properties["start"] for p in phases}):
        open_ = [p for p in phases if p.properties["start"] <= day <= p.properties["end"]]
        measured = area_ft2(shapely.union_all([p.geometry for p in open_]))
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
