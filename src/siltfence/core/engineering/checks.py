"""The design checks a control plan calls for, each run with its values (DESIGN.md capability 3).

``design_checks`` runs a check for each thing the plan holds: dewatering, basins or fences
for the area disturbed at one time, each basin drawn, the fences along the edges, each sheet
flow, each storage pile, each stretch of inactive ground, tracking and inlet protection. The
geometry gives the areas and distances; the values come from ``values``; each check cites
what ``Provisions`` say.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import shapely  # type: ignore[import-untyped]

from siltfence.core.engineering.areas import SiteAreas
from siltfence.core.engineering.dewatering import check_dewatering
from siltfence.core.engineering.fence_coverage import (
    DEFAULT_TOLERANCE_FT,
    check_fence_coverage,
)
from siltfence.core.engineering.geometry import area_ft2
from siltfence.core.engineering.inlet_protection import check_inlet_protection
from siltfence.core.engineering.measure_selection import (
    SedimentMeasure,
    check_sediment_measure,
    required_sediment_measure,
)
from siltfence.core.engineering.plan import ControlPlan, SiteFeature
from siltfence.core.engineering.provisions import Provisions
from siltfence.core.engineering.result import CheckResult, Method, Outcome, Step, make_result
from siltfence.core.engineering.running import field_prefix, needs_values, not_required, run_check
from siltfence.core.engineering.sediment_basin import (
    DEFAULT_RUNOFF_COEFFICIENT as BASIN_DEFAULT_C,
)
from siltfence.core.engineering.sediment_basin import check_sediment_basin
from siltfence.core.engineering.sheet_flow import (
    DEFAULT_RUNOFF_COEFFICIENT as SHEET_DEFAULT_C,
)
from siltfence.core.engineering.sheet_flow import DEFAULT_SURFACE, check_sheet_flow
from siltfence.core.engineering.stabilization import check_stabilization
from siltfence.core.engineering.stockpiles import check_stockpile
from siltfence.core.engineering.storms import DesignStorm
from siltfence.core.engineering.tracking import check_tracking
from siltfence.core.engineering.units import fmt
from siltfence.core.engineering.values import Values
from siltfence.core.quantities import FT


def design_checks(plan: ControlPlan, values: Values, areas: SiteAreas) -> list[CheckResult]:
    """Every design check the plan's contents call for, in a fixed order."""
    checks: list[CheckResult] = []
    # Where the chapter limits its rules to runoff leaving the site, the plan says whether it
    # does; elsewhere every rule holds.
    leaves = plan.runoff_leaves_site if values.runoff_limited else True
    storms_key = "design_storms"

    if plan.dewatering is not None:
        d = plan.dewatering
        checks.append(
            run_check(
                values=values,
                names=["dewatering_particle_size"],
                id="dewatering",
                title="Site dewatering",
                where=d.field,
                subject="Dewatering",
                run=lambda v, cite: check_dewatering(
                    highest_pumping_rate=d.highest_pumping_rate,
                    device_area=d.device_area,
                    device_diameter=d.device_diameter,
                    particle_size=v["dewatering_particle_size"],
                    shown_free_of_particles=d.shown_free_of_particles,
                    provisions=cite,
                    **({"water_temperature": d.water_temperature} if d.water_temperature else {}),
                ),
            )
        )

    # Basins or fences, from the area disturbed at one time the geometry gave.
    measure = values.get("basin_area_at_one_time")
    basins = plan.of_kind("sediment_basin")
    if measure is None:
        checks.append(
            needs_values(
                id="sediment-measure",
                title="Sediment control: basins or fences",
                subject="Which sediment control the site needs",
                names=["basin_area_at_one_time"],
                values=values,
                inputs={
                    "area_disturbed_at_one_time": fmt(areas.area_disturbed_at_one_time_ft2, "ft**2")
                },
            )
        )
        need_basins = False
    else:
        checks.append(
            run_check(
                values=values,
                names=["basin_area_at_one_time"],
                id="sediment-measure",
                title="Sediment control: basins or fences",
                where="plan.site",
                subject="Sediment control for the area disturbed at one time",
                run=lambda v, cite: check_sediment_measure(
                    area_disturbed_at_one_time=areas.area_disturbed_at_one_time_ft2,
                    channel_originates_in_disturbed_area=plan.channel_originates_on_site,
                    basin_area_at_one_time=v["basin_area_at_one_time"],
                    runoff_leaves_site=leaves,
                    provisions=cite,
                ),
            )
        )
        choice = required_sediment_measure(
            area_disturbed_at_one_time=areas.area_disturbed_at_one_time_ft2,
            channel_originates_in_disturbed_area=plan.channel_originates_on_site,
            basin_area_at_one_time=measure.value,
        )
        need_basins = leaves and choice.measure is SedimentMeasure.SEDIMENTATION_BASINS
        if need_basins and not basins:
            checks.append(
                make_result(
                    id="sediment-basins-drawn",
                    title="Sedimentation basins drawn",
                    citation=measure.citation,
                    inputs={"sediment_basin features": "0"},
                    method=Method(
                        "Presence", "at least one sediment_basin when basins are required"
                    ),
                    steps=[Step.words("basins required because", measure.citation, choice.reason)],
                    result=Outcome.FAIL,
                    says=f"Sedimentation basins are required because {choice.reason}, and the "
                    f"plan draws none ({measure.citation}).",
                    fix=f"Draw one or more sedimentation basins (sediment_basin polygons with "
                    f"depth and drainage) meeting {measure.citation}.",
                )
            )

    for basin in basins:
        checks.append(_basin(plan, basin, values, storms_key, need_basins))

    perimeter = values.get("perimeter_fences")
    edges = plan.of_kind("downslope_edge", "sideslope_edge")
    if leaves and not need_basins and (perimeter is None or perimeter.value):
        checks.append(_fences(plan, edges, values))

    for entry in plan.sheet_flow:
        checks.append(_sheet(plan, entry, values, storms_key, leaves))

    roads = plan.of_kind("road", "drainage_channel")
    inlets, protected = _inlets(plan)
    for pile in plan.of_kind("stockpile"):
        checks.append(_stockpile(pile, roads, inlets, protected, values, leaves))

    for area in plan.inactive_areas:
        until = area.inactive_until or values.on
        subject = f"Inactive ground {area.area or ''}".rstrip()
        checks.append(
            run_check(
                values=values,
                names=["inactive_stabilization_days", "seeding_cutoff"],
                id="stabilization",
                title="Stabilization of inactive ground",
                where=area.field,
                subject=subject,
                run=lambda v, cite, area=area, until=until: check_stabilization(  # type: ignore[misc]
                    inactive_from=area.inactive_from,
                    inactive_until=until,
                    method=area.method,
                    stabilize_on=area.stabilize_on,
                    inactive_days=int(v["inactive_stabilization_days"]),
                    seeding_cutoff=v["seeding_cutoff"],
                    runoff_leaves_site=leaves,
                    provisions=cite,
                ),
            )
        )

    checks.append(_tracking(plan, values))
    checks.append(
        run_check(
            values=values,
            names=["inlet_protection_required"],
            id="inlet-protection",
            title="Storm drain inlet protection",
            where="plan.site",
            subject="Storm drain inlets",
            run=lambda v, cite: (
                check_inlet_protection(inlets=inlets, protected=protected, provisions=cite)
                if v["inlet_protection_required"]
                else not_required("inlet-protection", "Storm drain inlet protection")
            ),
        )
    )
    return checks


def _basin(
    plan: ControlPlan, basin: SiteFeature, values: Values, storms_key: str, required: bool
) -> CheckResult:
    surface = area_ft2(basin.geometry)
    drawn = [f for f in plan.of_kind("basin_drainage") if f.properties["basin"] == basin.id]
    if drawn:
        drainage = area_ft2(shapely.union_all([f.geometry for f in drawn]))
        drainage_from = f"area of the basin_drainage polygon(s) for {basin.label} (EPSG:3071)"
    else:
        drainage = basin.properties["drainage_area"]
        drainage_from = f"{basin.field}.properties.drainage_area, as given"
    c = basin.properties["runoff_coefficient"]
    c_from = (
        "as given"
        if c is not None
        else (
            "default for bare graded soil (rational-method tables give 0.3-0.6; "
            "docs/decisions/0003-engineering-methods.md, decision 6)"
        )
    )
    coefficient = c if c is not None else BASIN_DEFAULT_C

    def run(v: dict[str, Any], cite: Provisions) -> CheckResult:
        storms: tuple[DesignStorm, ...] = v[storms_key]
        result = check_sediment_basin(
            drainage_area=drainage,
            basin_surface_area=surface,
            basin_depth=basin.properties["depth"],
            runoff_coefficient=coefficient,
            storms=storms,
            particle_size=v["basin_particle_size"],
            surface_percent=v["basin_surface_fraction"],
            min_depth=v["basin_depth"],
            provisions=cite,
        )
        extra = (
            Step.of(
                "basin surface area",
                "area of the sediment_basin polygon (EPSG:3071)",
                surface,
                "ft**2",
            ),
            Step.of("drainage area", drainage_from, drainage, "ft**2"),
            Step.of("runoff coefficient C", c_from, coefficient),
        )
        notes = result.notes
        if not required:
            notes += ("Basins are not required for this site; the drawn basin is checked anyway.",)
        return dataclasses.replace(result, steps=(*extra, *result.steps), notes=notes)

    return run_check(
        values=values,
        names=["basin_surface_fraction", "basin_depth", "basin_particle_size", storms_key],
        id="sediment-basin",
        title="Sedimentation basin",
        where=basin.field,
        subject=f"Basin {basin.label}",
        run=run,
    )


def _fences(plan: ControlPlan, edges: list[SiteFeature], values: Values) -> CheckResult:
    fences = plan.of_kind("silt_fence", "straw_bale")

    def run(v: dict[str, Any], cite: Provisions) -> CheckResult:
        rule = cite.cite("fence-coverage")
        if not edges:
            return make_result(
                id="fence-coverage",
                title="Fences or bales along sideslope and downslope sides",
                citation=rule,
                inputs={"fences": str(len(fences)), "edges": "0"},
                method=Method("Edge coverage", "needs the marked edges"),
                steps=[],
                result=Outcome.NEEDS_ACTION,
                says="The plan marks no downslope or sideslope side, so fence coverage cannot "
                f"be checked ({rule}).",
                fix="Draw the downslope and sideslope sides of the site as downslope_edge and "
                "sideslope_edge lines, and the silt fence or straw bale lines along them "
                f"({rule}).",
            )
        result = check_fence_coverage(
            edges=[e.geometry for e in edges],
            fences=[f.geometry for f in fences],
            provisions=cite,
        )
        tolerance = Step.of(
            "drawing tolerance",
            "a fence within this distance of an edge covers it (fence_coverage module; plans "
            "at 1 in = 100 ft)",
            DEFAULT_TOLERANCE_FT,
            "ft",
        )
        return dataclasses.replace(result, steps=(tolerance, *result.steps))

    return run_check(
        values=values,
        names=["perimeter_fences"],
        id="fence-coverage",
        title="Fences or bales along sideslope and downslope sides",
        where="plan.site",
        subject="Downslope and sideslope sides",
        run=run,
    )


def _sheet(
    plan: ControlPlan, entry: Any, values: Values, storms_key: str, leaves: bool
) -> CheckResult:
    def run(v: dict[str, Any], cite: Provisions) -> CheckResult:
        result = check_sheet_flow(
            adjacent_area=entry.adjacent_area,
            flow_length=entry.flow_length,
            slope=entry.slope,
            surface=entry.surface or DEFAULT_SURFACE,
            manning_n_value=entry.manning_n,
            runoff_coefficient=entry.runoff_coefficient
            if entry.runoff_coefficient is not None
            else SHEET_DEFAULT_C,
            storms=v[storms_key],
            adjacent_area_limit=v["sheet_flow_adjacent_area"],
            velocity_limit=v["sheet_flow_velocity"],
            runoff_leaves_site=leaves,
            provisions=cite,
        )
        if entry.runoff_coefficient is None and result.steps:
            note = (
                "Runoff coefficient C = 1 (all rain runs off) unless given: the velocity is not "
                "understated (docs/decisions/0003-engineering-methods.md, decision 6)."
            )
            result = dataclasses.replace(result, notes=(*result.notes, note))
        if entry.diverted_by and result.result in (Outcome.FAIL, Outcome.NEEDS_ACTION):
            diversion = plan.by_id("diversion", entry.diverted_by)
            length = (diversion.geometry.length / FT) if diversion is not None else 0.0
            result = dataclasses.replace(
                result,
                result=Outcome.PASS,
                says=f"The sheet flow is diverted around the disturbed area by diversion "
                f"{entry.diverted_by} ({fmt(length, 'ft')} drawn), as {result.citation} "
                f"requires when the velocity is not shown under the limit. Without it: "
                f"{result.says}",
                fix=None,
                notes=(
                    *result.notes,
                    "Not checked: that the diversion's conveyance does not erode it or the "
                    "receiving channel.",
                ),
            )
        return result

    label = entry.id or entry.field.rsplit(".", 1)[-1]
    return run_check(
        values=values,
        names=["sheet_flow_adjacent_area", "sheet_flow_velocity", storms_key],
        id="sheet-flow",
        title="Sheet flow from adjacent areas",
        where=entry.field,
        subject=f"Sheet flow {label}",
        run=run,
    )


def _inlets(plan: ControlPlan) -> tuple[list[str], list[str]]:
    inlets = [f.id for f in plan.of_kind("storm_inlet") if f.id]
    guarded = {f.properties["inlet"] for f in plan.of_kind("inlet_protection")}
    protected = [
        f.id
        for f in plan.of_kind("storm_inlet")
        if f.id and (f.properties["protected"] or f.id in guarded)
    ]
    return inlets, protected


def _stockpile(
    pile: SiteFeature,
    roads: list[SiteFeature],
    inlets: list[str],
    protected: list[str],
    values: Values,
    leaves: bool,
) -> CheckResult:
    given = pile.properties["downslope_drainage_length"]
    nearest: tuple[float, SiteFeature] | None = None
    for road in roads:
        distance = float(pile.geometry.distance(road.geometry)) / FT
        if nearest is None or distance < nearest[0]:
            nearest = (distance, road)

    def run(v: dict[str, Any], cite: Provisions) -> CheckResult:
        geometry_kwargs: dict[str, Any] = {}
        if given is not None:
            geometry_kwargs["downslope_drainage_length"] = given
        elif roads:
            geometry_kwargs["pile"] = pile.geometry
            geometry_kwargs["roads_and_channels"] = [r.geometry for r in roads]
        result = check_stockpile(
            volume=pile.properties["volume"],
            days_in_place=pile.properties["days"],
            in_street=pile.properties["in_street"],
            stabilized=pile.properties["stabilized"],
            barrier_around=pile.properties["barrier_around"],
            inlets_protected=not inlets or set(inlets) <= set(protected),
            stockpile_volume=v["stockpile_volume"],
            stockpile_setback=v["stockpile_setback"],
            stockpile_days=v["stockpile_days"],
            runoff_leaves_site=leaves,
            provisions=cite,
            **geometry_kwargs,
        )
        extra: list[Step] = []
        if nearest is not None:
            extra.append(
                Step.of(
                    f"nearest roadway or channel: {nearest[1].kind} {nearest[1].label}",
                    "least distance pile to feature in EPSG:3071 (straight line)",
                    nearest[0],
                    "ft",
                )
            )
        elif given is None:
            extra.append(
                Step.words(
                    "nearest roadway or channel",
                    "road and drainage_channel features",
                    "none drawn",
                )
            )
        return dataclasses.replace(result, steps=(*extra, *result.steps))

    return run_check(
        values=values,
        names=["stockpile_volume", "stockpile_setback", "stockpile_days"],
        id="stockpile",
        title="Soil storage pile",
        where=pile.field,
        subject=f"Stockpile {pile.label}",
        run=run,
    )


def _pad_size(pads: list[SiteFeature]) -> tuple[float, float] | None:
    """Length and width, ft, of the largest pad: sides of its minimum rotated rectangle."""
    if not pads:
        return None
    pad = max(pads, key=lambda p: p.geometry.area)
    rectangle = shapely.minimum_rotated_rectangle(pad.geometry)
    xs, ys = rectangle.exterior.coords.xy
    sides = sorted(
        ((xs[i + 1] - xs[i]) ** 2 + (ys[i + 1] - ys[i]) ** 2) ** 0.5 / FT for i in range(2)
    )
    return sides[1], sides[0]


def _tracking(plan: ControlPlan, values: Values) -> CheckResult:
    pads = plan.of_kind("tracking_pad")
    size = _pad_size(pads)
    size_steps: list[Step] = []
    if size is not None:
        size_steps = [
            Step.of(
                "tracking pad length", "long side of the minimum rotated rectangle", size[0], "ft"
            ),
            Step.of(
                "tracking pad width", "short side of the minimum rotated rectangle", size[1], "ft"
            ),
        ]
    if values.states("tracking"):
        with field_prefix("plan"):
            result = check_tracking(
                land_use=plan.land_use,
                graveled_access=bool(pads),
                provisions=values.provisions("tracking", []),
            )
        return dataclasses.replace(result, steps=(*result.steps, *size_steps))

    def run(v: dict[str, Any], cite: Provisions) -> CheckResult:
        required = bool(v["tracking_pad_required"])
        if not required:
            return not_required("tracking", "Tracking pad")
        mins = {k: values.get(k) for k in ("tracking_pad_length", "tracking_pad_width")}
        steps = list(size_steps)
        short: list[str] = []
        for (name, least), got in zip(mins.items(), size or (0.0, 0.0), strict=True):
            if least is not None:
                steps.insert(0, least.step())
                if got < float(least.value):
                    short.append(
                        f"its {name.rsplit('_', 1)[-1]} of {fmt(got, 'ft')} is under "
                        f"{fmt(float(least.value), 'ft')}"
                    )
        if not pads:
            outcome, says = Outcome.FAIL, "The standard requires a tracking pad and none is drawn."
        elif short:
            outcome, says = Outcome.FAIL, "The tracking pad is too small: " + "; ".join(short) + "."
        else:
            outcome, says = Outcome.PASS, "A tracking pad is drawn at the site access."
        return make_result(
            id="tracking",
            title="Tracking pad",
            citation=cite.cite("tracking"),
            inputs={"tracking_pad features": str(len(pads))},
            method=Method("Presence and size", "pad drawn; length and width >= the standard's"),
            steps=steps,
            result=outcome,
            says=says,
            fix=None if outcome is Outcome.PASS else "Draw a tracking pad meeting the standard.",
        )

    return run_check(
        values=values,
        names=["tracking_pad_required"],
        id="tracking",
        title="Tracking pad",
        where="plan.site",
        subject="Tracking",
        run=run,
    )
