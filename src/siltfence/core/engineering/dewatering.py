"""Site dewatering: a settling device sized for 100 µm particles (Spencer § 413-7B(1)).

    "Water pumped from the site shall be treated by temporary sedimentation basins, grit
    chambers, sand filters, up-slope chambers, hydrocyclones, swirl concentrators, or other
    appropriate controls designed and used to remove particles of 100 microns or greater for
    the highest dewatering pumping rate. If the water is demonstrated to have no particles
    greater than 100 microns during dewatering operations, then no control is needed before
    discharge, except as determined by the Building Inspector."

A settling device removes a particle when the particle falls faster than the water rises
through the device (Hazen's overflow-rate theory): Vs >= Q / A. So the least surface area
is A = Q / Vs, with Q the highest pumping rate and Vs the settling velocity of a 100 µm
quartz sphere. Depth does not enter the ideal theory; the NOTE asks for devices "several
feet" tall with inlet baffles so that turbulence does not spoil it.
"""

from __future__ import annotations

import math
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
from siltfence.core.engineering.units import fmt, to_float
from siltfence.core.quantities import FT, GALLON

CHECK = "dewatering"
M2_PER_FT2 = FT * FT


@dataclass(frozen=True)
class NoteExample:
    """One of the three devices in the NOTE to Spencer § 413-7B(1)."""

    pumping_rate_gpm: float
    diameter_ft: float
    device: str


# The NOTE's rough sizes, in its own words.
NOTE_EXAMPLES: tuple[NoteExample, ...] = (
    NoteExample(1.0, 8 / 12, "inclined or vertical enlargement pipe, several feet long"),
    NoteExample(
        100.0, 4.5, "corrugated steel or concrete pipe section or small tank, with inlet baffles"
    ),
    NoteExample(10_000.0, 35.0, "sediment basin at least three feet deep with a pipe outlet"),
)


def pumping_rate_m3_s(value: object, field: str = "highest_pumping_rate") -> float:
    return to_float(value, "gal/min", field=field, positive=True) * GALLON / 60


def required_settling_area(
    highest_pumping_rate: object,
    *,
    particle_size: object,
    water_temperature: object = DEFAULT_WATER_TEMPERATURE_F,
    specific_gravity: object = QUARTZ_SPECIFIC_GRAVITY,
) -> float:
    """Least settling surface, sq ft: A = Q / Vs (Q in gal/min unless a unit is given)."""
    flow = pumping_rate_m3_s(highest_pumping_rate)
    settling = settling_velocity(
        particle_size, water_temperature=water_temperature, specific_gravity=specific_gravity
    )
    return flow / settling.velocity / M2_PER_FT2


def round_device_diameter(area: object) -> float:
    """Diameter, ft, of a round device of ``area`` (sq ft): D = sqrt(4 A / π)."""
    square_feet = to_float(area, "ft**2", field="area")
    return math.sqrt(4 * square_feet / math.pi)


def round_device_area(diameter: object) -> float:
    """Surface area, sq ft, of a round device of ``diameter`` (ft): A = π D² / 4."""
    feet = to_float(diameter, "ft", field="device_diameter")
    return math.pi * feet**2 / 4


def check_dewatering(
    *,
    highest_pumping_rate: object,
    particle_size: object,
    device_area: object | None = None,
    device_diameter: object | None = None,
    water_temperature: object = DEFAULT_WATER_TEMPERATURE_F,
    specific_gravity: object = QUARTZ_SPECIFIC_GRAVITY,
    shown_free_of_particles: bool = False,
    provisions: Provisions = UNSTATED,
) -> CheckResult:
    """Size a settling device for dewatering, and compare it with the proposed one.

    ``highest_pumping_rate`` in gal/min, ``device_area`` in sq ft or ``device_diameter`` in
    ft for a round device (give one, or neither to get the size needed), ``particle_size``
    in µm (the village's ``dewatering_particle_size``), ``water_temperature`` in °F
    (default 50 °F).
    ``shown_free_of_particles``: the water has been demonstrated to carry no particles over
    the size, in which case the chapter asks for no control. ``provisions``: where the
    village's rule is written, and who decides what it leaves open.
    """
    if device_area is not None and device_diameter is not None:
        raise EngineeringInputError(
            "device_area", "give the device's area or its diameter (for a round device), not both"
        )
    flow = pumping_rate_m3_s(highest_pumping_rate)
    gpm = flow * 60 / GALLON
    settling = settling_velocity(
        particle_size, water_temperature=water_temperature, specific_gravity=specific_gravity
    )
    size_um = settling.diameter_m * 1e6
    required_ft2 = flow / settling.velocity / M2_PER_FT2
    required_diameter = math.sqrt(4 * required_ft2 / math.pi)

    inputs = {
        "highest_pumping_rate": fmt(gpm, "gal/min"),
        "particle_size": fmt(size_um, "um"),
        "water_temperature": fmt(settling.water.temperature_f, "degF"),
        "specific_gravity": f"{settling.particle_density / 1000:g} (quartz)",
    }
    steps = [
        Step.of("highest pumping rate", "Q = gal/min x 0.003785 m³ / 60 s", flow, "m**3/s"),
        *settling.steps(),
        Step.of("required surface area", "A = Q / Vs", required_ft2, "ft**2"),
        Step.of(
            "diameter of a round device with that area",
            "D = sqrt(4 A / π)",
            required_diameter,
            "ft",
        ),
    ]
    cite = provisions.cite(CHECK)
    authority = provisions.authority
    under = f" under {provisions.design_criteria}" if provisions.design_criteria else ""
    notes = [
        "The quartz sphere (specific gravity 2.65) stands in for mineral sediment; flakier or "
        "lighter grains settle more slowly.",
    ]
    if provisions.chapter:
        # Notes on the chapter's own wording: its NOTE and its last sentence.
        notes.insert(
            0,
            "Ideal overflow-rate (Hazen) theory: it assumes quiet, evenly spread flow. The NOTE "
            f"to {cite} asks for inlet baffles to minimize turbulence and for devices several "
            f"feet tall; a design allowance beyond the ideal area is the {authority}'s to set"
            f"{under}.",
        )
        notes.append(
            "Not modelled: whether the discharge erodes the site or the receiving channel "
            f"({cite}, last sentence)."
        )
    method = Method(
        name="Overflow rate (Hazen) with drag-corrected settling velocity",
        formula=f"A = Q / Vs; {METHOD_FORMULA}",
    )
    size_text = f"{size_um:g} µm"
    if shown_free_of_particles:
        inputs["shown_free_of_particles"] = "yes"
        return make_result(
            id="dewatering",
            title="Site dewatering",
            citation=cite,
            inputs=inputs,
            method=method,
            steps=steps,
            result=Outcome.PASS,
            says=(
                f"The pumped water has been shown to carry no particles over {size_text}, so no "
                f"control is needed before discharge unless the {authority} decides "
                f"otherwise ({cite})."
            ),
            notes=notes,
        )
    if device_area is None and device_diameter is None:
        return make_result(
            id="dewatering",
            title="Site dewatering",
            citation=cite,
            inputs=inputs,
            method=method,
            steps=steps,
            result=Outcome.NEEDS_ACTION,
            says=(
                f"Pumping {fmt(gpm, 'gal/min')} needs a settling device of at least "
                f"{fmt(required_ft2, 'ft**2')} ({fmt(required_diameter, 'ft')} across if round) "
                f"to remove {size_text} particles ({cite})."
            ),
            fix=(
                "Show a device of at least that area, or another control (grit chamber, sand "
                "filter, hydrocyclone, swirl concentrator) shown to remove "
                f"{size_text} particles at the highest pumping rate ({cite})."
            ),
            notes=notes,
        )
    if device_diameter is not None:
        diameter_ft = to_float(device_diameter, "ft", field="device_diameter", positive=True)
        proposed_ft2 = math.pi * diameter_ft**2 / 4
        inputs["device_diameter"] = fmt(diameter_ft, "ft")
        steps.append(Step.of("proposed device area", "A = π D² / 4", proposed_ft2, "ft**2"))
    else:
        proposed_ft2 = to_float(device_area, "ft**2", field="device_area", positive=True)
        inputs["device_area"] = fmt(proposed_ft2, "ft**2")
    overflow = flow / (proposed_ft2 * M2_PER_FT2)
    steps.append(Step.of("overflow rate of the proposed device", "Q / A", overflow, "m/s"))
    enough = proposed_ft2 >= required_ft2
    verdict = "is enough" if enough else "is too small"
    return make_result(
        id="dewatering",
        title="Site dewatering",
        citation=cite,
        inputs=inputs,
        method=method,
        steps=steps,
        result=Outcome.PASS if enough else Outcome.FAIL,
        says=(
            f"A {fmt(proposed_ft2, 'ft**2')} device {verdict} for {fmt(gpm, 'gal/min')}: "
            f"{size_text} particles need at least {fmt(required_ft2, 'ft**2')} "
            f"({fmt(required_diameter, 'ft')} across if round) ({cite})."
        ),
        fix=None
        if enough
        else (
            f"Enlarge the device to at least {fmt(required_ft2, 'ft**2')}, lower the highest "
            "pumping rate, use another control shown to remove "
            f"{size_text} particles (grit chamber, sand filter, hydrocyclone, swirl "
            "concentrator), or demonstrate the water has no particles over "
            f"{size_text} ({cite})."
        ),
        notes=notes,
    )
