"""Soil and dirt storage piles.

Spencer § 413-7B(5)(d):

    "Any soil or dirt storage piles containing more than 10 cubic yards of material should
    not be located with a downslope drainage length of less than 25 feet to a roadway or
    drainage channel. If remaining for more than seven days, they shall be stabilized by
    mulching, vegetative cover, tarps or other means. Erosion from piles which will be in
    existence for less than seven days shall be controlled by placing straw bales or filter
    fence barriers around the pile. In-street utility repair or construction soil or dirt
    storage piles located closer than 25 feet of a roadway or drainage channel must be
    covered with tarps or suitable alternative control if exposed for more than seven days,
    and the storm drain inlets must be protected with straw bales or other appropriate
    filtering barriers."

Gaps, each reported where it matters:
- a pile of exactly seven days is neither "more than" nor "less than" seven days;
- the setback sentence says "should", not "shall";
- the in-street sentence does not say whether inlet protection also waits for seven days
  (the stricter reading, always, is taken);
- the sentences on piles kept more than, or less than, seven days are not limited to piles
  over 10 cu yd: the stricter reading applies them to every pile (only the setback is
  limited to piles over 10 cu yd).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from shapely.geometry.base import BaseGeometry  # type: ignore[import-untyped]

from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.engineering.provisions import UNSTATED, Provisions
from siltfence.core.engineering.result import CheckResult, Method, Outcome, Step, make_result
from siltfence.core.engineering.units import fmt, to_float
from siltfence.core.quantities import FT

CHECK = "stockpile"


def nearest_distance_ft(pile: BaseGeometry, features: Iterable[BaseGeometry], field: str) -> float:
    """Least straight-line distance, ft, from a pile to roads or channels in EPSG:3071 metres."""
    distances = []
    for index, feature in enumerate(features):
        if not isinstance(feature, BaseGeometry) or feature.is_empty:
            raise EngineeringInputError(
                f"{field}[{index}]", "expected a non-empty shapely geometry"
            )
        distances.append(float(pile.distance(feature)) / FT)
    if not distances:
        raise EngineeringInputError(field, "give at least one roadway or drainage channel")
    return min(distances)


def check_stockpile(
    *,
    volume: object,
    days_in_place: object,
    stockpile_volume: object,
    stockpile_setback: object,
    stockpile_days: object,
    downslope_drainage_length: object | None = None,
    pile: BaseGeometry | None = None,
    roads_and_channels: Iterable[BaseGeometry] = (),
    in_street: bool = False,
    stabilized: bool = False,
    barrier_around: bool = False,
    inlets_protected: bool = False,
    runoff_leaves_site: bool = True,
    provisions: Provisions = UNSTATED,
) -> CheckResult:
    """Check one storage pile against the village's rules on storage piles.

    ``volume`` in cu yd; ``days_in_place`` in days (how long the pile will remain or has been
    exposed); ``downslope_drainage_length`` in ft along the path runoff takes from the pile to
    the nearest roadway or drainage channel, or else ``pile`` and ``roads_and_channels`` as
    shapely geometries in EPSG:3071 metres (the straight-line distance is used: no drainage
    path is shorter than it). ``stabilized``: mulch, vegetative cover, tarps or similar;
    ``barrier_around``: straw bales or filter fence around the pile; ``in_street``: an
    in-street utility repair or construction pile. ``stockpile_volume`` (cu yd),
    ``stockpile_setback`` (ft) and ``stockpile_days`` (days) are the thresholds of the
    village's data.
    """
    cite = provisions.cite(CHECK)
    cubic_yards = to_float(volume, "yd**3", field="volume")
    days = to_float(days_in_place, "day", field="days_in_place")
    volume_limit = to_float(stockpile_volume, "yd**3", field="stockpile_volume")
    setback = to_float(stockpile_setback, "ft", field="stockpile_setback")
    day_limit = to_float(stockpile_days, "day", field="stockpile_days")
    if downslope_drainage_length is not None and pile is not None:
        raise EngineeringInputError(
            "downslope_drainage_length", "give the drainage length or the pile's geometry, not both"
        )
    notes: list[str] = []
    length: float | None
    if downslope_drainage_length is not None:
        length = to_float(downslope_drainage_length, "ft", field="downslope_drainage_length")
    elif pile is not None:
        if not isinstance(pile, BaseGeometry) or pile.is_empty:
            raise EngineeringInputError("pile", "expected a non-empty shapely geometry")
        length = nearest_distance_ft(pile, roads_and_channels, "roads_and_channels")
        notes.append(
            "The drainage length is the straight-line distance from the geometries, a lower bound "
            "on the real downslope path; a longer path may be shown."
        )
    else:
        length = None

    inputs = {
        "volume": fmt(cubic_yards, "yd**3"),
        "days_in_place": fmt(days, "day"),
        "downslope_drainage_length": "not given" if length is None else fmt(length, "ft"),
        "in_street": "yes" if in_street else "no",
        "stabilized": "yes" if stabilized else "no",
        "barrier_around": "yes" if barrier_around else "no",
        "inlets_protected": "yes" if inlets_protected else "no",
        "stockpile_volume": fmt(volume_limit, "yd**3"),
        "stockpile_setback": fmt(setback, "ft"),
        "stockpile_days": fmt(day_limit, "day"),
    }
    method = Method(
        name=f"Thresholds of {cite}",
        formula=f"setback >= {setback:g} ft if volume > {volume_limit:g} cu yd; stabilize if "
        f"days > {day_limit:g}; barrier if days < {day_limit:g}; in street: tarps if days > "
        f"{day_limit:g}, inlets protected",
    )
    common = partial(
        make_result,
        id="stockpile",
        title="Soil storage pile",
        citation=cite,
        inputs=inputs,
        method=method,
    )
    steps: list[Step] = [
        Step.of("pile volume", "as given", cubic_yards, "yd**3"),
        Step.of("days in place", "as given", days, "day"),
    ]
    if length is not None:
        steps.append(
            Step.of("downslope drainage length", "to the nearest roadway or channel", length, "ft")
        )

    if not runoff_leaves_site and not in_street:
        return common(
            steps=steps,
            result=Outcome.INFO,
            says=f"Runoff does not leave the site, so {provisions.scope(CHECK)} does not apply.",
        )

    problems: list[str] = []
    fixes: list[str] = []
    open_items: list[str] = []
    held: list[str] = []
    day_text = fmt(day_limit, "day")

    if in_street:
        # The in-street sentence is its own rule: such piles sit in the street, so the setback
        # cannot apply to them; tarps and inlet protection stand in for it.
        if days > day_limit and not stabilized:
            problems.append(
                f"an in-street pile exposed {fmt(days, 'day')} (more than {day_text}) is not "
                "covered"
            )
            fixes.append("cover it with tarps or a suitable alternative")
        elif days > day_limit:
            held.append(f"it is covered for its {fmt(days, 'day')}")
        if inlets_protected:
            held.append("the storm drain inlets are protected")
        else:
            problems.append("the storm drain inlets near an in-street pile are not protected")
            fixes.append(
                "protect the storm drain inlets with straw bales or other filtering barriers"
            )
        notes.append(
            "The in-street sentence does not say whether inlet protection also waits for seven "
            "days; it is asked for at once (the stricter reading)."
        )
    else:
        if cubic_yards <= volume_limit:
            held.append(
                f"a pile of {fmt(cubic_yards, 'yd**3')} is not more than "
                f"{fmt(volume_limit, 'yd**3')}, so the setback does not apply to it"
            )
            notes.append(
                "The sentences on stabilizing piles kept more than seven days and ringing "
                f"piles kept less than seven days are not limited to piles over "
                f"{volume_limit:g} cu yd; they are applied to every pile (the stricter reading)."
            )
        elif length is None:
            open_items.append("the downslope drainage length to a roadway or drainage channel")
        elif length < setback:
            problems.append(
                f"its downslope drainage length of {fmt(length, 'ft')} is less than "
                f"{fmt(setback, 'ft')}"
            )
            fixes.append(
                f"move the pile to at least {fmt(setback, 'ft')} of downslope drainage length"
            )
            notes.append(
                "The setback sentence says 'should not', not 'shall not'; the stricter reading "
                "treats it as a requirement."
            )
        else:
            held.append(f"it has {fmt(length, 'ft')} of downslope drainage length")
        if days > day_limit:
            if not stabilized:
                problems.append(
                    f"it remains {fmt(days, 'day')} (more than {day_text}) and is not stabilized"
                )
                fixes.append("stabilize it by mulching, vegetative cover, tarps or other means")
            else:
                held.append(f"it is stabilized for its {fmt(days, 'day')}")
        elif days < day_limit:
            if not barrier_around:
                problems.append(
                    f"it remains {fmt(days, 'day')} (less than {day_text}) with no barrier "
                    "around it"
                )
                fixes.append("place straw bales or filter fence around it")
            else:
                held.append(f"it has a barrier around it for its {fmt(days, 'day')}")
        else:
            notes.append(
                f"A pile of exactly {day_text} is neither 'more than' nor 'less than' seven days; "
                "either stabilization or a barrier around it is accepted here."
            )
            if not (stabilized or barrier_around):
                problems.append(
                    f"it remains exactly {day_text} with neither stabilization nor a barrier"
                )
                fixes.append("stabilize it, or place straw bales or filter fence around it")
            else:
                held.append("it is stabilized or has a barrier around it")

    steps.append(Step.words("findings", f"rules of {cite}", "; ".join(problems) or "none"))
    if problems:
        joined = "; ".join(fixes)
        return common(
            steps=steps,
            result=Outcome.FAIL,
            says=f"The pile does not meet {cite}: " + "; ".join(problems) + ".",
            fix=joined[0].upper() + joined[1:] + f" ({cite}).",
            notes=notes,
        )
    if open_items:
        return common(
            steps=steps,
            result=Outcome.NEEDS_ACTION,
            says=f"A pile over {fmt(volume_limit, 'yd**3')} needs "
            + "; ".join(open_items)
            + f" ({cite}).",
            fix=(
                f"Show that the pile has at least {fmt(setback, 'ft')} of downslope drainage "
                f"length ({cite})."
            ),
            notes=notes,
        )
    return common(
        steps=steps,
        result=Outcome.PASS,
        says=f"The pile meets {cite}: " + "; ".join(held) + ".",
        notes=notes,
    )
