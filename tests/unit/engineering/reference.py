"""Textbook constants and independent formulas the tests check the package against.

Nothing here imports the package: these are the values a reviewer would look up or work out
by hand.
"""

from __future__ import annotations

import math

G = 9.80665  # m/s², standard gravity
QUARTZ = 2650.0  # kg/m³, specific gravity 2.65
FT = 0.3048
INCH = 0.0254
GALLON = 3.785411784e-3

# Liquid water at 1 atm (CRC Handbook of Chemistry and Physics, from IAPWS-95 and the
# IAPWS 2008 viscosity formulation): temperature °C -> (density kg/m³, viscosity Pa·s).
WATER = {
    0: (999.84, 1.7914e-3),
    10: (999.70, 1.3059e-3),
    20: (998.21, 1.0016e-3),
    30: (995.65, 0.7972e-3),
    40: (992.22, 0.6527e-3),
}


def stokes_velocity(diameter_m: float, celsius: int) -> float:
    """v = g (ρs - ρ) d² / (18 μ)."""
    rho, mu = WATER[celsius]
    return G * (QUARTZ - rho) * diameter_m**2 / (18 * mu)


def schiller_naumann_velocity(diameter_m: float, celsius: int) -> float:
    """Terminal velocity with the Schiller-Naumann drag law, Cd = 24/Re (1 + 0.15 Re^0.687).

    A different correlation from the package's (Barati et al.), valid for Re < 800; solved
    by bisection on the force balance v² = 4 g d (ρs - ρ) / (3 Cd ρ).
    """
    rho, mu = WATER[celsius]

    def excess(v: float) -> float:
        re = rho * v * diameter_m / mu
        cd = 24 / re * (1 + 0.15 * re**0.687)
        return v**2 - 4 * G * diameter_m * (QUARTZ - rho) / (3 * cd * rho)

    low, high = 1e-9, stokes_velocity(diameter_m, celsius)
    for _ in range(200):
        middle = (low + high) / 2
        if excess(middle) > 0:
            high = middle
        else:
            low = middle
    return (low + high) / 2


def round_diameter_ft(area_m2: float) -> float:
    return math.sqrt(4 * area_m2 / math.pi) / FT


def manning_sheet_flow_us(i_in_h: float, length_ft: float, slope: float, n: float) -> float:
    """Velocity, ft/s, by the US-unit formulas with 1.49: q = i L, y = (q n / (1.49 S^0.5))^0.6."""
    q = i_in_h / 12 / 3600 * length_ft
    y = (q * n / (1.49 * slope**0.5)) ** 0.6
    return q / y
