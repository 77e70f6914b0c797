"""Density and viscosity of liquid water at atmospheric pressure, 0 to 40 °C.

``fluids`` 1.3.1 has no property routines for water (and needs only numpy and scipy), so
two published correlations are used, each good to about 0.1% against IAPWS over the range:

- density: Tanaka, Girard, Davis, Peuto and Bignell (2001), "Recommended table for the
  density of water between 0 °C and 40 °C based on recent experimental reports",
  Metrologia 38, 301-309, eq. (1), air-free water;
- viscosity: Kestin, Sokolov and Wakeham (1978), "Viscosity of liquid water in the range
  -8 °C to 150 °C", J. Phys. Chem. Ref. Data 7, 941-948, at 0.1 MPa, with the reference
  viscosity at 20 °C of 1.002 mPa·s used there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.engineering.units import to_float

MIN_C = 0.0
MAX_C = 40.0

DENSITY_METHOD = "Tanaka et al. (2001), Metrologia 38, 301"
VISCOSITY_METHOD = "Kestin, Sokolov and Wakeham (1978), J. Phys. Chem. Ref. Data 7, 941"


@dataclass(frozen=True)
class WaterProperties:
    temperature_c: float
    density: float  # kg/m³
    viscosity: float  # Pa·s (dynamic)

    @property
    def temperature_f(self) -> float:
        return self.temperature_c * 9 / 5 + 32


def fahrenheit_to_celsius(value: float) -> float:
    return (value - 32) * 5 / 9


def water_temperature_c(value: object, field: str = "water_temperature") -> float:
    """A temperature given in °F (a plain number) or with its unit ("10 degC"), as °C."""
    fahrenheit = to_float(value, "degF", field=field, minimum=None)
    celsius = fahrenheit_to_celsius(fahrenheit)
    # Round-off from unit conversion must not reject exactly 32 °F or 104 °F.
    if not (MIN_C - 1e-9 <= celsius <= MAX_C + 1e-9):
        raise EngineeringInputError(
            field,
            f"liquid water between 32 °F and 104 °F (0-40 °C) is expected, got {value!r}",
        )
    return min(max(celsius, MIN_C), MAX_C)


def water_density(temperature_c: float) -> float:
    """kg/m³, Tanaka et al. (2001) eq. (1)."""
    t = temperature_c
    a1, a2, a3, a4, a5 = -3.983035, 301.797, 522528.9, 69.34881, 999.974950
    return a5 * (1 - (t + a1) ** 2 * (t + a2) / (a3 * (t + a4)))


def water_viscosity(temperature_c: float) -> float:
    """Pa·s, Kestin, Sokolov and Wakeham (1978) at 0.1 MPa."""
    dt = 20.0 - temperature_c
    exponent = dt / (temperature_c + 96.0) * (1.2364 - 1.37e-3 * dt + 5.7e-6 * dt**2)
    return 1.002e-3 * math.pow(10.0, exponent)


def water_properties(
    temperature: object = 50.0, field: str = "water_temperature"
) -> WaterProperties:
    """Water at ``temperature`` (°F as a plain number, or a quantity such as ``"10 degC"``)."""
    celsius = water_temperature_c(temperature, field)
    return WaterProperties(
        temperature_c=celsius,
        density=water_density(celsius),
        viscosity=water_viscosity(celsius),
    )
