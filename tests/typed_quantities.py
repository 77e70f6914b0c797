"""What a quantity typed by a person is, in a given unit, worked out by pint from the number
and the unit written (1 acre = 43,560 sq ft), not by siltfence: the fuzz tests' oracle for
the value an accepted input must be stored or shown as."""

from __future__ import annotations

import re

import pint

from siltfence.core.quantities import UNIT_NAMES

REGISTRY = pint.UnitRegistry(cache_folder=None)
TYPED = re.compile(r"\s*([-+]?[0-9,]*\.?[0-9]*(?:[eE][-+]?[0-9]+)?)\s*(.*?)\s*", re.ASCII)


def typed_value(value: object, unit: str, *, fold: bool = False) -> float | None:
    """``value`` in ``unit`` (pint's name): a plain number is in that unit already; a number
    and a unit of siltfence's list are converted by pint; None for anything else. ``fold``
    reads the unit as the facts do (any case, ² and ³ for ^2 and ^3)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if not isinstance(value, str) or (match := TYPED.fullmatch(value)) is None:
        return None
    number, spelling = match.groups()
    try:
        magnitude = float(number.replace(",", ""))
    except ValueError:
        return None
    if not spelling:
        return magnitude
    if fold:
        spelling = spelling.lower().replace("²", "^2").replace("³", "^3")
    if spelling not in UNIT_NAMES:
        return None
    return float(REGISTRY.Quantity(magnitude, UNIT_NAMES[spelling].pint).to(unit).magnitude)
