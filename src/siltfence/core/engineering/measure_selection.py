"""Basins or fences: which sediment control a site needs.

Spencer § 413-7B(5)(c)[2] and [3]:

    "[2] For sites with more than 10 acres disturbed at one time, or if a channel originates
    in the disturbed area, one or more sedimentation basins shall be constructed. ...
    [3] For sites with less than 10 acres disturbed at one time, filter fences, straw bales,
    or equivalent control measures shall be placed along all sideslope and downslope sides of
    the site. If a channel or area of concentrated runoff passes through the site, filter
    fences shall be placed along the channel edges to reduce sediment reaching the channel."

Gap: a site of exactly 10 acres is neither "more than" nor "less than" 10 acres. The
stricter reading (basins) is taken, and the answer says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from siltfence.core.engineering.provisions import UNSTATED, Provisions
from siltfence.core.engineering.result import CheckResult, Method, Outcome, Step, make_result
from siltfence.core.engineering.units import fmt, to_float
from siltfence.core.quantities import ACRE_FT2

CHECK = "sediment-measure"
# The rules the choice leads to: the checks of basins, and of fences and bales.
BASINS, FENCES = "sediment-basin", "fence-coverage"


class SedimentMeasure(StrEnum):
    SEDIMENTATION_BASINS = "sedimentation_basins"
    FENCES_OR_BALES = "fences_or_bales"


@dataclass(frozen=True)
class MeasureChoice:
    measure: SedimentMeasure
    citation: str
    reason: str
    gap: str | None  # set where the text covers neither case and the stricter reading was taken


def required_sediment_measure(
    *,
    area_disturbed_at_one_time: object,
    basin_area_at_one_time: object,
    channel_originates_in_disturbed_area: bool = False,
    provisions: Provisions = UNSTATED,
) -> MeasureChoice:
    """Basins or fences; ``area_disturbed_at_one_time`` in sq ft, the threshold in acres."""
    basin_cite, fence_cite = provisions.cite(BASINS), provisions.cite(FENCES)
    area = to_float(area_disturbed_at_one_time, "ft**2", field="area_disturbed_at_one_time")
    threshold = to_float(
        basin_area_at_one_time, "acre", field="basin_area_at_one_time", positive=True
    )
    acres = area / ACRE_FT2
    acres_text = fmt(acres, "acre")
    limit_text = fmt(threshold, "acre")
    if channel_originates_in_disturbed_area:
        return MeasureChoice(
            SedimentMeasure.SEDIMENTATION_BASINS,
            basin_cite,
            "a channel originates in the disturbed area",
            None,
        )
    if acres > threshold:
        return MeasureChoice(
            SedimentMeasure.SEDIMENTATION_BASINS,
            basin_cite,
            f"{acres_text} disturbed at one time is more than {limit_text}",
            None,
        )
    if acres < threshold:
        return MeasureChoice(
            SedimentMeasure.FENCES_OR_BALES,
            fence_cite,
            f"{acres_text} disturbed at one time is less than {limit_text}",
            None,
        )
    return MeasureChoice(
        SedimentMeasure.SEDIMENTATION_BASINS,
        basin_cite,
        f"exactly {limit_text} disturbed at one time",
        f"Exactly {limit_text} is neither 'more than' ({basin_cite}) nor 'less than' "
        f"({fence_cite}) {limit_text}; the stricter reading, basins, is taken. The "
        f"{provisions.authority} may read it otherwise.",
    )


def check_sediment_measure(
    *,
    area_disturbed_at_one_time: object,
    basin_area_at_one_time: object,
    channel_originates_in_disturbed_area: bool = False,
    runoff_leaves_site: bool = True,
    provisions: Provisions = UNSTATED,
) -> CheckResult:
    """Report which sediment control the village's rule calls for, with the reason."""
    choice = required_sediment_measure(
        area_disturbed_at_one_time=area_disturbed_at_one_time,
        channel_originates_in_disturbed_area=channel_originates_in_disturbed_area,
        basin_area_at_one_time=basin_area_at_one_time,
        provisions=provisions,
    )
    area = to_float(area_disturbed_at_one_time, "ft**2", field="area_disturbed_at_one_time")
    threshold = to_float(
        basin_area_at_one_time, "acre", field="basin_area_at_one_time", positive=True
    )
    inputs = {
        "area_disturbed_at_one_time": f"{fmt(area, 'ft**2')} ({fmt(area / ACRE_FT2, 'acre')})",
        "channel_originates_in_disturbed_area": "yes"
        if channel_originates_in_disturbed_area
        else "no",
        "basin_area_at_one_time": fmt(threshold, "acre"),
        "runoff_leaves_site": "yes" if runoff_leaves_site else "no",
    }
    method = Method(
        name="Threshold on area disturbed at one time",
        formula=f"basins if area > {threshold:g} acres or a channel originates on site; "
        f"fences or bales if area < {threshold:g} acres",
    )
    steps = [
        Step.of("area disturbed at one time", "sq ft / 43,560", area / ACRE_FT2, "acre"),
        Step.words(
            "sediment control required", "threshold", choice.measure.value.replace("_", " ")
        ),
    ]
    notes: list[str] = []
    if provisions.chapter:
        # Notes on the chapter's own wording: "either of the following", and its gap.
        notes.append(
            f"{provisions.cite(CHECK)} is met by 'either of the following': stabilization of "
            "inactive ground ([1]) is listed beside basins ([2]) and fences ([3]); the text does "
            "not say whether stabilization alone can stand in for them."
        )
        if choice.gap:
            notes.insert(0, choice.gap)
    if not runoff_leaves_site:
        return make_result(
            id="sediment-measure",
            title="Sediment control: basins or fences",
            citation=provisions.scope(CHECK),
            inputs=inputs,
            method=method,
            steps=steps[:1],
            result=Outcome.INFO,
            says=f"Runoff does not leave the site, so {provisions.scope(CHECK)} does not apply.",
        )
    if choice.measure is SedimentMeasure.SEDIMENTATION_BASINS:
        says = f"Sedimentation basins are required because {choice.reason} ({choice.citation})."
    else:
        says = (
            "Filter fences, straw bales or equivalent measures are required along all sideslope "
            f"and downslope sides because {choice.reason} ({choice.citation})."
        )
    return make_result(
        id="sediment-measure",
        title="Sediment control: basins or fences",
        citation=choice.citation,
        inputs=inputs,
        method=method,
        steps=steps,
        result=Outcome.INFO,
        says=says,
        notes=notes,
    )
