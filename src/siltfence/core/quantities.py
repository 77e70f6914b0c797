"""Quantities with units, parsed by pint.

A fact may be a plain number in its default unit, or a string with a unit that pint
knows ("1.2 acre", "500 m^2", "420 yd^3"). pint costs about a third of a second to
import, so it is loaded only when it is needed: the units people type most often on a
permit form (sq ft, acres, m², cu yd, m³, ft, m) are read from the exact definitions
below, and everything else goes to pint (DESIGN.md budget: a cold CLI determination in
under 0.3 s). A test checks that both ways agree on every unit of the table.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

# The public contract's default units, written the way pint reads them, with the
# dimension pint reports for each and the words used in sentences.
UNITS: dict[str, tuple[str, str, str]] = {
    # key: (pint unit, pint dimensionality, short label)
    "ft**2": ("foot ** 2", "[length] ** 2", "sq ft"),
    "yd**3": ("yard ** 3", "[length] ** 3", "cu yd"),
    "ft": ("foot", "[length]", "ft"),
    "acre": ("acre", "[length] ** 2", "acres"),
    "inch": ("inch", "[length]", "in"),
    "day": ("day", "[time]", "days"),
    "hour": ("hour", "[time]", "hours"),
    "ft/s": ("foot / second", "[length] / [time]", "ft/s"),
    "um": ("micrometer", "[length]", "µm"),
    "percent": ("percent", "", "%"),
    "USD": ("", "", "$"),
}


@cache
def _registry() -> Any:
    import pint

    return pint.UnitRegistry(cache_folder=":auto:")


class UnitMismatch(ValueError):
    pass


def to_unit(value: object, unit: str) -> float:
    """Return ``value`` as a float in ``unit`` (a key of ``UNITS``).

    Raises ``UnitMismatch`` with a readable reason for anything else.
    """
    if isinstance(value, bool):
        raise UnitMismatch(f"expected a number in {unit} or a string with a unit, got {value!r}")
    if isinstance(value, int | float):
        number = float(value)
    elif isinstance(value, str):
        number = _parse_string(value, unit)
    else:
        raise UnitMismatch(
            f"expected a number in {unit} or a string with a unit, got {type(value).__name__}"
        )
    if not math.isfinite(number):
        raise UnitMismatch(f"expected a finite number, got {value!r}")
    if number < 0:
        raise UnitMismatch(f"cannot be negative, got {value!r}")
    return number


# Exact by definition: 1 ft = 0.3048 m, 1 yd = 3 ft, 1 acre = 43,560 sq ft, 1 mi = 5,280 ft.
_M = 1 / 0.3048  # feet in a metre
COMMON_UNITS: dict[str, dict[str, float]] = {
    "ft**2": {
        **dict.fromkeys(("ft^2", "sq ft", "sqft", "square feet", "square foot", "sf"), 1.0),
        **dict.fromkeys(("acre", "acres", "ac"), 43_560.0),
        **dict.fromkeys(("m^2", "sq m", "square meters", "square metres"), _M**2),
        **dict.fromkeys(("yd^2", "sq yd", "square yards"), 9.0),
        **dict.fromkeys(("ha", "hectare", "hectares"), 10_000 * _M**2),
    },
    "yd**3": {
        **dict.fromkeys(("yd^3", "cu yd", "cubic yards", "cubic yard", "cy"), 1.0),
        **dict.fromkeys(("m^3", "cu m", "cubic meters", "cubic metres"), _M**3 / 27),
        **dict.fromkeys(("ft^3", "cu ft", "cubic feet", "cubic foot"), 1 / 27),
    },
    "ft": {
        **dict.fromkeys(("ft", "foot", "feet"), 1.0),
        **dict.fromkeys(("m", "meter", "meters", "metre", "metres"), _M),
        **dict.fromkeys(("yd", "yard", "yards"), 3.0),
        **dict.fromkeys(("mi", "mile", "miles"), 5_280.0),
        **dict.fromkeys(("in", "inch", "inches"), 1 / 12),
    },
}


def _common_unit(text: str, unit: str) -> float | None:
    """``text`` like "1.2 acre" in ``unit`` from the exact table; None if not in it."""
    number, _, rest = text.partition(" ")
    table = COMMON_UNITS.get(unit)
    if table is None or not rest:
        return None
    key = " ".join(rest.lower().replace("²", "^2").replace("³", "^3").replace("**", "^").split())
    if key not in table:
        return None
    try:
        return float(number.replace(",", "")) * table[key]
    except ValueError:
        return None


def _parse_string(text: str, unit: str) -> float:
    stripped = text.strip()
    try:
        return float(stripped.replace(",", ""))
    except ValueError:
        pass
    common = _common_unit(stripped, unit)
    if common is not None:
        return common
    import pint

    pint_unit, dimension, _label = UNITS[unit]
    registry = _registry()
    try:
        quantity = registry.Quantity(stripped)
    except (pint.errors.PintError, ValueError, TypeError, AttributeError, SyntaxError) as exc:
        raise UnitMismatch(f"could not read {text!r} as a quantity ({exc})") from None
    if not isinstance(quantity, registry.Quantity):
        return float(quantity)
    if quantity.dimensionless and dimension:
        raise UnitMismatch(f"{text!r} has no unit; give a number in {unit} or add a unit")
    if not quantity.check(dimension or "[]"):
        raise UnitMismatch(
            f"{text!r} is not {describe_dimension(dimension)}; "
            f"expected a unit of {describe_dimension(dimension)} like {label(unit)}"
        )
    return float(quantity.to(pint_unit).magnitude)


def describe_dimension(dimension: str) -> str:
    return {
        "[length] ** 2": "an area",
        "[length] ** 3": "a volume",
        "[length]": "a length",
        "[time]": "a duration",
        "[length] / [time]": "a velocity",
    }.get(dimension, dimension or "a pure number")


def check_unit_name(unit: str) -> None:
    """Raise ``UnitMismatch`` if ``unit`` is not one this project uses."""
    if unit not in UNITS:
        raise UnitMismatch(f"unknown unit {unit!r}; use one of {', '.join(sorted(UNITS))}")


def label(unit: str) -> str:
    return UNITS[unit][2]


def format_quantity(value: float, unit: str) -> str:
    """``5000.0, 'ft**2'`` -> ``'5,000 sq ft'``; ``1.5, 'acre'`` -> ``'1.5 acres'``."""
    text = f"{value:,.0f}" if float(value).is_integer() else f"{value:,.2f}".rstrip("0")
    if unit == "USD":
        return f"${text}"
    if unit == "acre" and value == 1:
        return "1 acre"
    return f"{text} {label(unit)}"


# Exact conversions between the units the ordinance data uses, so that comparing a fact
# with a threshold never needs pint (1 acre is 43,560 sq ft by definition; 1 yd = 3 ft).
_EXACT: dict[tuple[str, str], float] = {
    ("acre", "ft**2"): 43_560.0,
    ("day", "hour"): 24.0,
}


def convert_between(value: float, source: str, target: str) -> float | None:
    """``value`` in ``source`` expressed in ``target``; None if the units do not fit."""
    if source == target:
        return value
    if (source, target) in _EXACT:
        return value * _EXACT[(source, target)]
    if (target, source) in _EXACT:
        return value / _EXACT[(target, source)]
    return None
