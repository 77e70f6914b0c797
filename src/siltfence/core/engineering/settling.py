"""Terminal settling velocity of a sediment particle in still water.

The particle is a quartz sphere of specific gravity 2.65 (the usual stand-in for mineral
sediment). The velocity balances weight less buoyancy against drag:

    v = sqrt(4 g d (ρs - ρ) / (3 Cd ρ)),  Re = ρ v d / μ,  Cd = f(Re)

solved by ``fluids.drag.v_terminal`` with the standard drag curve of Clift, Grace and
Weber (1978), Bubbles, Drops, and Particles, ch. 5 (``Method="Clift"``), which reduces
to Stokes' Cd = 24/Re at small Re. Stokes' law alone, v = g (ρs - ρ) d² / (18 μ),
overstates the velocity of a 100 µm grain in 50 °F water by about 7% (Re about 0.5), so it
is reported beside the drag-corrected value, never used instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.engineering.result import Step
from siltfence.core.engineering.units import G, to_float
from siltfence.core.engineering.water import (
    DENSITY_METHOD,
    VISCOSITY_METHOD,
    WaterProperties,
    water_properties,
)
from siltfence.core.quantities import FT

QUARTZ_SPECIFIC_GRAVITY = 2.65
# Specific gravity is relative to water at 4 °C (999.97 kg/m³), taken as 1000 kg/m³.
REFERENCE_WATER_DENSITY = 1000.0
# 50 °F (10 °C): Wisconsin groundwater runs about 45-55 °F, and early-season runoff is
# colder than summer water. Colder water is more viscous, so particles settle more slowly
# and a device needs more area: the default errs on the side of a larger device.
DEFAULT_WATER_TEMPERATURE_F = 50.0
DRAG_METHOD = "Clift"  # fluids.drag name of the standard drag curve
MAX_PARTICLE_M = 0.01  # 10 mm: beyond sediment that settling devices are sized for

METHOD_NAME = "Terminal settling velocity of a quartz sphere with drag correction"
METHOD_FORMULA = (
    "v = sqrt(4 g d (ρs - ρ) / (3 Cd ρ)), Cd = Clift, Grace and Weber (1978) standard drag curve "
    "of Re = ρ v d / μ (fluids.drag.v_terminal, Method='Clift')"
)


@dataclass(frozen=True)
class Settling:
    diameter_m: float
    particle_density: float  # kg/m³
    water: WaterProperties
    velocity: float  # m/s, drag-corrected
    stokes_velocity: float  # m/s, Stokes' law
    reynolds: float
    drag_coefficient: float

    @property
    def velocity_ft_s(self) -> float:
        return self.velocity / FT

    def steps(self, prefix: str = "") -> list[Step]:
        d_um = self.diameter_m * 1e6
        lead = f"{prefix} " if prefix else ""
        return [
            Step.of(
                f"{lead}water density at {self.water.temperature_f:.4g} °F",
                DENSITY_METHOD,
                self.water.density,
                "kg/m**3",
            ),
            Step.of(
                f"{lead}water viscosity at {self.water.temperature_f:.4g} °F",
                VISCOSITY_METHOD,
                self.water.viscosity,
                "Pa*s",
            ),
            Step.of(
                f"{lead}quartz density",
                f"ρs = {QUARTZ_SPECIFIC_GRAVITY:g} x {REFERENCE_WATER_DENSITY:g} kg/m³",
                self.particle_density,
                "kg/m**3",
            ),
            Step.of(
                f"{lead}Stokes velocity of a {d_um:.4g} µm sphere (for comparison)",
                "v = g (ρs - ρ) d² / (18 μ)",
                self.stokes_velocity,
                "m/s",
            ),
            Step.of(
                f"{lead}settling velocity of a {d_um:.4g} µm sphere",
                "v = sqrt(4 g d (ρs - ρ) / (3 Cd ρ))",
                self.velocity,
                "m/s",
            ),
            Step.of(f"{lead}particle Reynolds number", "Re = ρ v d / μ", self.reynolds),
            Step.of(
                f"{lead}drag coefficient",
                "Cd = f(Re), Clift, Grace and Weber (1978)",
                self.drag_coefficient,
            ),
            Step.of(f"{lead}settling velocity in ft/s", "v / 0.3048", self.velocity_ft_s, "ft/s"),
        ]


def particle_diameter_m(value: object, field: str = "particle_size") -> float:
    microns = to_float(value, "um", field=field, positive=True)
    diameter = microns * 1e-6
    if diameter > MAX_PARTICLE_M:
        raise EngineeringInputError(
            field, f"expected a sediment particle up to 10 mm, got {value!r}"
        )
    return diameter


def settling_velocity(
    particle_size: object,
    *,
    water_temperature: object = DEFAULT_WATER_TEMPERATURE_F,
    specific_gravity: object = QUARTZ_SPECIFIC_GRAVITY,
) -> Settling:
    """Settling of a ``particle_size`` (µm) sphere in still water at ``water_temperature`` (°F)."""
    import fluids.drag

    diameter = particle_diameter_m(particle_size)
    water = water_properties(water_temperature)
    gravity = to_float(specific_gravity, "1", field="specific_gravity", positive=True)
    particle_density = gravity * REFERENCE_WATER_DENSITY
    if particle_density <= water.density:
        raise EngineeringInputError(
            "specific_gravity", f"a particle lighter than water does not settle, got {gravity:g}"
        )
    velocity = float(
        fluids.drag.v_terminal(
            D=diameter,
            rhop=particle_density,
            rho=water.density,
            mu=water.viscosity,
            Method=DRAG_METHOD,
        )
    )
    reynolds = water.density * velocity * diameter / water.viscosity
    stokes = G * (particle_density - water.density) * diameter**2 / (18 * water.viscosity)
    drag = float(fluids.drag.drag_sphere(reynolds, Method=DRAG_METHOD))
    return Settling(
        diameter_m=diameter,
        particle_density=particle_density,
        water=water,
        velocity=velocity,
        stokes_velocity=stokes,
        reynolds=reynolds,
        drag_coefficient=drag,
    )
