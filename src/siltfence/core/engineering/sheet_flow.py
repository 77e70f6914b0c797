"""Sheet flow from adjacent areas across the disturbed area.

Spencer § 413-7B(5)(a):

    "Sheetflow runoff from adjacent areas greater than 10,000 square feet in area shall also
    be diverted around disturbed areas unless shown to have resultant runoff velocities of
    less than 0.5 feet/second across the disturbed area for the set of one-year design
    storms."

Velocity by kinematic-wave equilibrium on a wide plane (hydraulic radius = depth), with
Manning's equation:

    q = C i L                                 unit-width discharge at flow length L
    y = (q n / (1.49 S^0.5))^(3/5)            depth, US units (1.49 = (1 m / 0.3048 ft)^(1/3))
    V = q / y = (1.49 / n) y^(2/3) S^(1/2)    velocity

The arithmetic runs in SI, where the factor is exactly 1 and ``fluids.open_flow.V_Manning``
gives V from y. Manning's n for sheet flow is from TR-55 (USDA NRCS, Urban Hydrology for
Small Watersheds, Technical Release 55, 2nd ed. 1986), Table 3-1.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial

from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.engineering.provisions import UNSTATED, Provisions
from siltfence.core.engineering.result import CheckResult, Method, Outcome, Step, make_result
from siltfence.core.engineering.storms import DesignStorm, checked_storms
from siltfence.core.engineering.units import fmt, to_float
from siltfence.core.quantities import FT, INCH

CHECK = "sheet-flow"
# TR-55 (1986) limits sheet flow to 300 ft; past that it gathers into shallow concentrated
# flow, which is faster than this method says.
SHEET_FLOW_MAX_FT = 300.0
# All rain runs off unless told otherwise: the conservative reading of "resultant runoff".
DEFAULT_RUNOFF_COEFFICIENT = 1.0

TR55_CITATION = "TR-55 (USDA NRCS 1986), Table 3-1"
# Manning's n for sheet flow, TR-55 Table 3-1.
TR55_SHEET_FLOW_N: dict[str, tuple[float, str]] = {
    "smooth": (0.011, "smooth surfaces (concrete, asphalt, gravel or bare soil)"),
    "fallow": (0.05, "fallow (no residue)"),
    "cultivated_residue_20_or_less": (0.06, "cultivated soils, residue cover <= 20%"),
    "cultivated_residue_over_20": (0.17, "cultivated soils, residue cover > 20%"),
    "grass_short_prairie": (0.15, "grass, short-grass prairie"),
    "grass_dense": (0.24, "grass, dense grasses"),
    "grass_bermuda": (0.41, "grass, Bermudagrass"),
    "range": (0.13, "range (natural)"),
    "woods_light_underbrush": (0.40, "woods, light underbrush"),
    "woods_dense_underbrush": (0.80, "woods, dense underbrush"),
}
DEFAULT_SURFACE = "fallow"


def manning_n(surface: str) -> float:
    """TR-55 Table 3-1 sheet-flow n for a surface key of ``TR55_SHEET_FLOW_N``."""
    try:
        return TR55_SHEET_FLOW_N[surface][0]
    except KeyError:
        raise EngineeringInputError(
            "surface", f"unknown surface {surface!r}; use one of {', '.join(TR55_SHEET_FLOW_N)}"
        ) from None


@dataclass(frozen=True)
class SheetFlow:
    """Equilibrium sheet flow at the downslope end of a flow path, in feet and seconds."""

    unit_discharge_ft2_s: float
    depth_ft: float
    velocity_ft_s: float
    equilibrium_time_min: float


def sheet_flow(
    *,
    intensity_in_per_h: float,
    flow_length_ft: float,
    slope: float,
    n: float,
    runoff_coefficient: float = 1.0,
) -> SheetFlow:
    """Kinematic-wave equilibrium depth and velocity of sheet flow (plain numbers, US units)."""
    import fluids.open_flow

    excess = runoff_coefficient * intensity_in_per_h * INCH / 3600  # m/s
    q = excess * flow_length_ft * FT  # m²/s per metre of width
    depth = (q * n / slope**0.5) ** 0.6  # m
    velocity = float(fluids.open_flow.V_Manning(Rh=depth, S=slope, n=n))  # m/s, = q / depth
    # Kinematic-wave time for the plane to reach equilibrium: t_e = (n L / (i^(2/3) S^(1/2)))^(3/5).
    equilibrium = (n * flow_length_ft * FT / (excess ** (2 / 3) * slope**0.5)) ** 0.6
    return SheetFlow(
        unit_discharge_ft2_s=q / FT**2,
        depth_ft=depth / FT,
        velocity_ft_s=velocity / FT,
        equilibrium_time_min=equilibrium / 60,
    )


def length_at_velocity(
    *,
    velocity_ft_s: float,
    intensity_in_per_h: float,
    slope: float,
    n: float,
    runoff_coefficient: float = 1.0,
) -> float:
    """Flow length, ft, at which equilibrium sheet flow reaches ``velocity_ft_s``.

    From V = q^(2/5) (S^(1/2) / n)^(3/5): q = V^(5/2) n^(3/2) / S^(3/4), and L = q / (C i).
    """
    excess = runoff_coefficient * intensity_in_per_h * INCH / 3600
    q = (velocity_ft_s * FT) ** 2.5 * n**1.5 / slope**0.75
    return float(q / excess / FT)


def check_sheet_flow(
    *,
    adjacent_area: object,
    flow_length: object,
    slope: object,
    storms: Iterable[DesignStorm],
    adjacent_area_limit: object,
    velocity_limit: object,
    surface: str = DEFAULT_SURFACE,
    manning_n_value: object | None = None,
    runoff_coefficient: object = DEFAULT_RUNOFF_COEFFICIENT,
    runoff_leaves_site: bool = True,
    provisions: Provisions = UNSTATED,
) -> CheckResult:
    """Does sheet flow from an adjacent area cross the disturbed area slower than the limit?

    ``adjacent_area`` in sq ft; ``flow_length`` in ft, the sheet-flow path from its upslope
    start (in the adjacent area) to the downslope edge of the disturbed area, where the flow
    is fastest; ``slope`` in ft/ft (or "2 %"); ``surface`` a key of ``TR55_SHEET_FLOW_N``
    for the disturbed area, or ``manning_n_value`` to give n directly; ``storms`` the one-year
    design storms the village's data gives; ``adjacent_area_limit`` (sq ft) and
    ``velocity_limit`` (ft/s) the thresholds of the village's data (``sheet_flow_adjacent_area``
    and ``sheet_flow_velocity``).
    """
    cite = provisions.cite(CHECK)
    area = to_float(adjacent_area, "ft**2", field="adjacent_area")
    length = to_float(flow_length, "ft", field="flow_length", positive=True)
    s = to_float(slope, "ft/ft", field="slope", positive=True)
    if manning_n_value is None:
        n = manning_n(surface)
        n_text = f"{n:g} ({TR55_SHEET_FLOW_N[surface][1]}, {TR55_CITATION})"
    else:
        n = to_float(manning_n_value, "1", field="manning_n_value", positive=True)
        n_text = f"{n:g} (given)"
    c = to_float(runoff_coefficient, "1", field="runoff_coefficient", positive=True)
    if c > 1:
        raise EngineeringInputError("runoff_coefficient", f"must be at most 1, got {c:g}")
    area_limit = to_float(adjacent_area_limit, "ft**2", field="adjacent_area_limit")
    limit = to_float(velocity_limit, "ft/s", field="velocity_limit", positive=True)
    design = checked_storms(storms)

    inputs = {
        "adjacent_area": fmt(area, "ft**2"),
        "flow_length": fmt(length, "ft"),
        "slope": f"{s:g} ft/ft",
        "manning_n": n_text,
        "runoff_coefficient": f"{c:g}",
        "adjacent_area_limit": fmt(area_limit, "ft**2"),
        "velocity_limit": fmt(limit, "ft/s"),
        "runoff_leaves_site": "yes" if runoff_leaves_site else "no",
    }
    method = Method(
        name="Kinematic-wave equilibrium sheet flow, Manning's equation on a wide plane",
        formula="q = C i L; y = (q n / (1.49 S^0.5))^(3/5); V = q / y (US units)",
    )
    common = partial(
        make_result, id="sheet-flow", title="Sheet flow from adjacent areas", citation=cite
    )
    if not runoff_leaves_site:
        return common(
            inputs=inputs,
            method=method,
            steps=[],
            result=Outcome.INFO,
            says=f"Runoff does not leave the site, so {provisions.scope(CHECK)} does not apply.",
        )
    if area <= area_limit:
        return common(
            inputs=inputs,
            method=method,
            steps=[Step.of("adjacent area", "as given", area, "ft**2")],
            result=Outcome.INFO,
            says=(
                f"An adjacent area of {fmt(area, 'ft**2')} is not greater than "
                f"{fmt(area_limit, 'ft**2')}, so its sheet flow need not be diverted ({cite})."
            ),
        )

    steps: list[Step] = []
    flows: list[tuple[DesignStorm, SheetFlow]] = []
    for storm in design:
        flow = sheet_flow(
            intensity_in_per_h=storm.intensity_in_per_h,
            flow_length_ft=length,
            slope=s,
            n=n,
            runoff_coefficient=c,
        )
        flows.append((storm, flow))
        steps.append(
            Step.of(
                f"{storm.name}: unit discharge", "q = C i L", flow.unit_discharge_ft2_s, "ft**2/s"
            )
        )
        steps.append(
            Step.of(
                f"{storm.name}: flow depth", "y = (q n / (1.49 S^0.5))^(3/5)", flow.depth_ft, "ft"
            )
        )
        steps.append(Step.of(f"{storm.name}: velocity", "V = q / y", flow.velocity_ft_s, "ft/s"))
        steps.append(
            Step.of(
                f"{storm.name}: time to equilibrium",
                "t = (n L / (i^(2/3) S^(1/2)))^(3/5) (SI)",
                flow.equilibrium_time_min,
                "min",
            )
        )
    governing, fastest = max(flows, key=lambda pair: pair[1].velocity_ft_s)
    length_at_limit = length_at_velocity(
        velocity_ft_s=limit,
        intensity_in_per_h=governing.intensity_in_per_h,
        slope=s,
        n=n,
        runoff_coefficient=c,
    )
    steps.append(
        Step.of(
            f"flow length at which the {governing.name} reaches {fmt(limit, 'ft/s')}",
            "L = V^(5/2) n^(3/2) / (S^(3/4) C i) (SI)",
            length_at_limit,
            "ft",
        )
    )
    notes = [
        "Equilibrium flow is assumed: where a storm ends before the time to equilibrium, the real "
        "velocity is lower, so the check errs toward diversion.",
        "Channelized runoff from adjacent areas is a separate rule (divert if practical, else "
        "protect the channel) and is not checked here.",
    ]
    if provisions.chapter and provisions.design_storms:
        notes.insert(
            0,
            f"Design storms: {provisions.design_storms} unless values specific to the community "
            "are given.",
        )
    if manning_n_value is None and surface == DEFAULT_SURFACE:
        notes.append("Manning's n defaults to TR-55 'fallow (no residue)', bare graded soil.")
    slow = fastest.velocity_ft_s < limit
    too_long = length > SHEET_FLOW_MAX_FT
    if too_long:
        notes.append(
            f"A {fmt(length, 'ft')} path is longer than the {SHEET_FLOW_MAX_FT:g} ft that TR-55 "
            "allows for sheet flow; beyond it flow concentrates and runs faster than computed here."
        )
    if slow and not too_long:
        result, fix = Outcome.PASS, None
        says = (
            f"The fastest sheet flow, in the {governing.name}, is "
            f"{fmt(fastest.velocity_ft_s, 'ft/s')}, less than {fmt(limit, 'ft/s')}, so it need "
            f"not be diverted ({cite})."
        )
    elif slow:
        result = Outcome.NEEDS_ACTION
        says = (
            f"The computed sheet flow is {fmt(fastest.velocity_ft_s, 'ft/s')}, under "
            f"{fmt(limit, 'ft/s')}, but a {fmt(length, 'ft')} path is not sheet flow throughout, "
            f"so the velocity is not shown to be under the limit ({cite})."
        )
        fix = (
            "Show the velocity by a shallow-concentrated-flow method, or divert the runoff around "
            f"the disturbed area in a conveyance that will not erode ({cite})."
        )
    else:
        result = Outcome.FAIL
        says = (
            f"Sheet flow in the {governing.name} reaches {fmt(fastest.velocity_ft_s, 'ft/s')}, "
            f"not less than {fmt(limit, 'ft/s')}, so runoff from the {fmt(area, 'ft**2')} "
            f"adjacent area must be diverted around the disturbed area ({cite})."
        )
        fix = (
            "Divert the adjacent area's sheet flow around the disturbed area in a conveyance that "
            "will not erode it or the receiving channel, or shorten the sheet-flow path below "
            f"{fmt(length_at_limit, 'ft')} ({cite})."
        )
    return common(
        inputs=inputs,
        method=method,
        steps=steps,
        result=result,
        says=says,
        fix=fix,
        notes=notes,
    )
