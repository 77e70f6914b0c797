"""Sedimentation basins: 1% of the drainage area, 3 ft deep, trapping 15 µm.

Spencer § 413-7B(5)(c)[2]:

    "Each sedimentation basin shall have a surface area of at least 1% of the area draining
    to the basin and at least three feet of depth and constructed in accordance with
    accepted design specifications. Sediment shall be removed to maintain a depth of three
    feet. The basin shall be designed to trap sediment greater than 15 microns in size,
    based on the set of one-year design storms having durations from 0.5 to 24 hours."

The chapter names no method for "designed to trap", so two are run side by side:

(a) Peak overflow rate. Rational-method peak inflow Q = C i A against the basin's settling
    capacity A_basin x Vs(15 µm): a particle is trapped when it settles faster than the water
    rises through the basin (Hazen). Ignores storage, so it is the stricter of the two.
(b) Storage and detention (wet-pool displacement). The basin holds a pool A_basin x depth.
    A storm's runoff V = C P A either fits in the pool (it stays there, and is trapped), or
    it displaces the pool at the storm's average rate V / duration, giving a detention time
    T = pool x duration / V that must be at least the time a 15 µm grain needs to fall the
    full depth, depth / Vs.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.engineering.provisions import UNSTATED, Provisions
from siltfence.core.engineering.result import CheckResult, Method, Outcome, Step, make_result
from siltfence.core.engineering.settling import (
    DEFAULT_WATER_TEMPERATURE_F,
    METHOD_FORMULA,
    QUARTZ_SPECIFIC_GRAVITY,
    settling_velocity,
)
from siltfence.core.engineering.storms import DesignStorm, checked_storms
from siltfence.core.engineering.units import fmt, fmt_apart, to_float
from siltfence.core.quantities import ACRE_FT2, FT, INCH

CHECK = "sediment-basin"
# Graded, equipment-packed bare soil: common rational-method tables give about 0.3 to 0.6.
# 0.5 sits toward the runoff-heavy end for Wisconsin's silt-loam and clay-loam sites.
DEFAULT_RUNOFF_COEFFICIENT = 0.5


@dataclass(frozen=True)
class StormTrapping:
    storm: DesignStorm
    peak_inflow_ft3_s: float
    peak_capacity_ft3_s: float
    peak_traps: bool
    runoff_volume_ft3: float
    pool_volume_ft3: float
    detention_h: float | None  # None when the whole runoff fits in the pool
    settling_time_h: float
    storage_traps: bool


def storm_trapping(
    storm: DesignStorm,
    *,
    drainage_ft2: float,
    basin_ft2: float,
    depth_ft: float,
    runoff_coefficient: float,
    settling_velocity_ft_s: float,
) -> StormTrapping:
    """Both trapping methods for one storm, in feet and seconds."""
    intensity_ft_s = storm.intensity_in_per_h * INCH / FT / 3600
    peak = runoff_coefficient * intensity_ft_s * drainage_ft2
    capacity = basin_ft2 * settling_velocity_ft_s
    volume = runoff_coefficient * storm.total_in * INCH / FT * drainage_ft2
    pool = basin_ft2 * depth_ft
    settling_h = depth_ft / settling_velocity_ft_s / 3600
    if volume <= pool:
        detention: float | None = None
        storage_traps = True
    else:
        detention = pool * storm.duration_h / volume
        storage_traps = detention >= settling_h
    return StormTrapping(
        storm=storm,
        peak_inflow_ft3_s=peak,
        peak_capacity_ft3_s=capacity,
        peak_traps=peak <= capacity,
        runoff_volume_ft3=volume,
        pool_volume_ft3=pool,
        detention_h=detention,
        settling_time_h=settling_h,
        storage_traps=storage_traps,
    )


def check_sediment_basin(
    *,
    drainage_area: object,
    basin_surface_area: object,
    basin_depth: object,
    storms: Iterable[DesignStorm],
    runoff_coefficient: object = DEFAULT_RUNOFF_COEFFICIENT,
    particle_size: object,
    surface_percent: object,
    min_depth: object,
    water_temperature: object = DEFAULT_WATER_TEMPERATURE_F,
    specific_gravity: object = QUARTZ_SPECIFIC_GRAVITY,
    provisions: Provisions = UNSTATED,
) -> CheckResult:
    """Check a basin against the area, depth and trapping rules of the village's chapter.

    Areas in sq ft, depth in ft, ``particle_size`` in µm, ``water_temperature`` in °F,
    ``surface_percent`` in percent of the drainage area; ``runoff_coefficient`` is the
    rational-method C (0 to 1, default 0.5); ``storms`` the one-year design storms the
    village's data gives.
    """
    cite = provisions.cite(CHECK)
    drainage = to_float(drainage_area, "ft**2", field="drainage_area", positive=True)
    basin = to_float(basin_surface_area, "ft**2", field="basin_surface_area", positive=True)
    depth = to_float(basin_depth, "ft", field="basin_depth", positive=True)
    c = to_float(runoff_coefficient, "1", field="runoff_coefficient", positive=True)
    if c > 1:
        raise EngineeringInputError("runoff_coefficient", f"must be at most 1, got {c:g}")
    percent = to_float(surface_percent, "percent", field="surface_percent", positive=True)
    least_depth = to_float(min_depth, "ft", field="min_depth", positive=True)
    design = checked_storms(storms)
    settling = settling_velocity(
        particle_size, water_temperature=water_temperature, specific_gravity=specific_gravity
    )
    vs = settling.velocity_ft_s
    size_text = f"{settling.diameter_m * 1e6:g} µm"

    least_area = percent / 100 * drainage
    area_ok = basin >= least_area
    depth_ok = depth >= least_depth
    rows = [
        storm_trapping(
            storm,
            drainage_ft2=drainage,
            basin_ft2=basin,
            depth_ft=depth,
            runoff_coefficient=c,
            settling_velocity_ft_s=vs,
        )
        for storm in design
    ]
    # Basin area each method would need, holding depth and drainage fixed.
    peak_needs = max(c * s.intensity_in_per_h * INCH / FT / 3600 * drainage / vs for s in design)
    storage_needs = max(
        min(
            row.runoff_volume_ft3 / depth,
            row.runoff_volume_ft3 / (row.storm.duration_h * 3600 * vs),
        )
        for row in rows
    )

    inputs = {
        "drainage_area": f"{fmt(drainage, 'ft**2')} ({fmt(drainage / ACRE_FT2, 'acre')})",
        "basin_surface_area": fmt(basin, "ft**2"),
        "basin_depth": fmt(depth, "ft"),
        "runoff_coefficient": f"{c:g}",
        "particle_size": size_text,
        "water_temperature": fmt(settling.water.temperature_f, "degF"),
        "surface_percent": fmt(percent, "percent"),
        "min_depth": fmt(least_depth, "ft"),
        "storms": ", ".join(
            f"{s.duration_h:g} h: {s.intensity_in_per_h:g} in/h, {s.total_in:g} in" for s in design
        ),
    }
    steps: list[Step] = [
        Step.of("least surface area", f"{percent:g}% x drainage area", least_area, "ft**2"),
        Step.of(
            "basin area as a share of drainage",
            "A_basin / A_drainage x 100",
            basin / drainage * 100,
            "percent",
        ),
        *settling.steps(),
    ]
    for row in rows:
        name = row.storm.name
        steps.append(
            Step.of(
                f"{name}: (a) peak inflow", "Q = C i A_drainage", row.peak_inflow_ft3_s, "ft**3/s"
            )
        )
        steps.append(
            Step.of(
                f"{name}: (a) settling capacity", "A_basin x Vs", row.peak_capacity_ft3_s, "ft**3/s"
            )
        )
        steps.append(
            Step.words(
                f"{name}: (a) traps {size_text}",
                "Q <= A_basin x Vs",
                "yes" if row.peak_traps else "no",
            )
        )
        steps.append(
            Step.of(
                f"{name}: (b) runoff volume", "V = C P A_drainage", row.runoff_volume_ft3, "ft**3"
            )
        )
        steps.append(
            Step.of(f"{name}: (b) pool volume", "S = A_basin x depth", row.pool_volume_ft3, "ft**3")
        )
        steps.append(
            Step.of(f"{name}: (b) settling time", "t = depth / Vs", row.settling_time_h, "hour")
        )
        if row.detention_h is None:
            steps.append(
                Step.words(f"{name}: (b) detention", "V <= S", "the whole runoff stays in the pool")
            )
        else:
            steps.append(
                Step.of(
                    f"{name}: (b) detention time", "T = S x duration / V", row.detention_h, "hour"
                )
            )
        steps.append(
            Step.words(
                f"{name}: (b) traps {size_text}",
                "V <= S or T >= t",
                "yes" if row.storage_traps else "no",
            )
        )
    steps.append(
        Step.of(
            "(a) basin area needed for every storm", "max C i A_drainage / Vs", peak_needs, "ft**2"
        )
    )
    steps.append(
        Step.of(
            "(b) basin area needed for every storm",
            "max over storms of min(V / depth, V / (duration x Vs))",
            storage_needs,
            "ft**2",
        )
    )

    peak_fails = [row.storm.name for row in rows if not row.peak_traps]
    storage_fails = [row.storm.name for row in rows if not row.storage_traps]
    problems: list[str] = []
    fixes: list[str] = []
    if not area_ok:
        basin_text, least_text = fmt_apart(basin, least_area, "ft**2")
        problems.append(
            f"its {basin_text} is under {percent:g}% of the drainage area ({least_text})"
        )
        fixes.append(f"enlarge the basin to at least {fmt(least_area, 'ft**2')}")
    if not depth_ok:
        depth_text, least_depth_text = fmt_apart(depth, least_depth, "ft")
        problems.append(f"its {depth_text} depth is under {least_depth_text}")
        fixes.append(
            f"deepen it to at least {fmt(least_depth, 'ft')} and keep that depth by removing "
            "sediment"
        )
    both_trap = not peak_fails and not storage_fails
    neither_traps = bool(peak_fails) and bool(storage_fails)
    if neither_traps:
        problems.append(
            f"it does not trap {size_text} by the storage method ({', '.join(storage_fails)}) "
            f"nor by the peak method ({', '.join(peak_fails)})"
        )
        fixes.append(
            f"enlarge the basin to at least {fmt(storage_needs, 'ft**2')} (storage method) or "
            f"{fmt(peak_needs, 'ft**2')} (peak method), or split the drainage area among basins"
        )

    notes = [
        f"Runoff coefficient C = {c:g} for the whole drainage area; the default 0.5 is for bare, "
        "graded soil. A drainage area that is partly vegetated or paved needs an area-weighted C.",
        "Ideal settling (Hazen): no allowance for short-circuiting, wind or resuspension.",
    ]
    if provisions.chapter:
        # Notes on the chapter's own wording: its table of storms and its last sentence.
        if provisions.design_storms:
            notes.insert(
                0,
                f"The design storms are the chapter's table ({provisions.design_storms}) unless "
                "others specific to the community are given.",
            )
        notes.append(
            "Not modelled: the discharge rate's effect on the discharge channel and receiving "
            f"water ({cite}, last sentence), and 'accepted design specifications'"
            f"{provisions.criteria}."
        )
    if problems:
        result = Outcome.FAIL
        says = f"The basin does not meet {cite}: " + "; ".join(problems) + "."
        joined = "; ".join(fixes)
        fix = joined[0].upper() + joined[1:] + f" ({cite})."
    elif both_trap:
        result = Outcome.PASS
        says = (
            f"The basin is at least {percent:g}% of its drainage area and "
            f"{fmt(least_depth, 'ft')} deep, and traps {size_text} in all {len(rows)} design "
            f"storms by both methods ({cite})."
        )
        fix = None
    else:
        result = Outcome.NEEDS_ACTION
        says = (
            f"The basin meets the {percent:g}% and {fmt(least_depth, 'ft')} rules, but the "
            f"trapping methods disagree on {size_text}: the peak method fails "
            f"{', '.join(peak_fails) or 'no storm'}, the storage method fails "
            f"{', '.join(storage_fails) or 'no storm'} ({cite})."
        )
        fix = (
            f"The {provisions.authority} decides which design method is accepted"
            f"{provisions.criteria}; to satisfy both, enlarge the basin to at least "
            f"{fmt(max(peak_needs, storage_needs), 'ft**2')}."
        )
        notes.append(
            "The chapter says 'designed to trap sediment greater than 15 microns' without a "
            "method; the two methods here are the common ones and they can disagree."
        )
    return make_result(
        id="sediment-basin",
        title="Sedimentation basin",
        citation=cite,
        inputs=inputs,
        method=Method(
            name="(a) Peak overflow rate (rational method) and (b) storage and detention "
            "(wet-pool displacement), side by side",
            formula=(
                "(a) C i A_drainage <= A_basin Vs; (b) C P A_drainage <= A_basin depth, or "
                f"A_basin depth x duration / (C P A_drainage) >= depth / Vs; Vs: {METHOD_FORMULA}"
            ),
        ),
        steps=steps,
        result=result,
        says=says,
        fix=fix,
        notes=notes,
    )
