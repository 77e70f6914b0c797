"""Units for the design checks.

Every check takes plain numbers in a documented default unit (US customary, like the
ordinance: ft, sq ft, gal/min, in/h, °F), a string with a unit ("100 gal/min", "2.5 acre",
"10 degC"), read by the strict grammar of ``siltfence.core.quantities`` (never by pint's
expression parser), or a pint Quantity handed over by Python code. The units, their labels
and the factors between them (``FT``, ``INCH``, ``GALLON``, ``ACRE_FT2``) come from
``siltfence.core.quantities``; this module adds only what the checks need: a few labels of
their own, standard gravity, and pint for Quantities. pint is imported only
when a Quantity arrives; its one registry keeps no cache on disk, so a cache another
install left behind (or broke) can never be read.
"""

from __future__ import annotations

import math
from functools import cache
from typing import TYPE_CHECKING, Any

from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.quantities import (
    TARGETS,
    UNIT_NAMES,
    UnitMismatch,
    plausible,
    read_quantity,
)

if TYPE_CHECKING:
    import pint

# Labels used in the text of inputs and steps: the table's own (``TARGETS``), hours written
# short, and units that only the steps of a check show.
LABELS: dict[str, str] = {
    **{unit: words for unit, (_, words) in TARGETS.items()},
    "hour": "h",
    "ft**2/s": "sq ft/s",
    "kg/m**3": "kg/m³",
    "Pa*s": "Pa·s",
}

# How pint spells the units of ``TARGETS``: as the table does, but a ratio is dimensionless.
_PINT_NAMES: dict[str, str] = {
    **{unit: UNIT_NAMES[spelling].pint for unit, (spelling, _) in TARGETS.items()},
    "ft/ft": "dimensionless",
    "1": "dimensionless",
}

_DIMENSION_WORDS: dict[str, str] = {
    "[length]": "length",
    "[length] ** 2": "area",
    "[length] ** 3": "volume",
    "[length] ** 3 / [time]": "flow rate",
    "[length] / [time]": "velocity or intensity",
    "[temperature]": "temperature",
    "[time]": "duration",
    "": "pure number",
}

G = 9.80665  # m/s², standard gravity (CGPM 1901)


@cache
def registry() -> pint.UnitRegistry:
    """The one unit registry of the engineering package, built on first use."""
    import pint

    # No cache folder: pint's ":auto:" cache is shared by every install of a user and
    # breaks when the install that wrote it is gone; building afresh is the safe way.
    return pint.UnitRegistry(cache_folder=None)


def to_float(
    value: object,
    unit: str,
    *,
    field: str,
    minimum: float | None = 0.0,
    positive: bool = False,
) -> float:
    """Return ``value`` as a float in ``unit`` (a key of ``LABELS``).

    ``value`` is a number already in ``unit``, a string with a unit ("3 ft", "1.2 acre"),
    or a pint Quantity (from any registry). Raises ``EngineeringInputError`` naming
    ``field`` for a bool, a unit of the wrong kind, NaN or infinity, a value below
    ``minimum`` or, with ``positive``, zero.
    """
    if _is_quantity(value):
        number = _from_quantity(value, unit, field, shown=str(value))
        try:
            number = plausible(number, value, LABELS[unit])
        except UnitMismatch as exc:
            raise EngineeringInputError(field, str(exc)) from None
    else:
        try:
            number = read_quantity(value, unit)
        except UnitMismatch as exc:
            raise EngineeringInputError(field, str(exc)) from None
    if minimum is not None and number < minimum:
        raise EngineeringInputError(
            field, f"must be at least {minimum:g} {LABELS[unit]}, got {value!r}"
        )
    if positive and number <= 0:
        raise EngineeringInputError(field, f"must be greater than zero, got {value!r}")
    return number


def _is_quantity(value: object) -> bool:
    return all(hasattr(value, name) for name in ("magnitude", "units", "to", "dimensionality"))


def _from_quantity(quantity: Any, unit: str, field: str, *, shown: str) -> float:
    import pint

    reg = registry()
    if not isinstance(quantity, reg.Quantity):
        # A Quantity from another registry (pint refuses to mix them): rebuild it here.
        try:
            quantity = reg.Quantity(quantity.magnitude, str(quantity.units))
        except pint.errors.PintError as exc:
            raise EngineeringInputError(field, f"could not read {shown!r} ({exc})") from None
    target = _PINT_NAMES[unit]
    try:
        converted = quantity.to(target)
    except pint.errors.DimensionalityError:
        wanted = _DIMENSION_WORDS.get(str(reg.Quantity(1, target).dimensionality), unit)
        raise EngineeringInputError(
            field, f"{shown!r} is not a {wanted}; expected a unit like {LABELS[unit]}"
        ) from None
    except pint.errors.PintError as exc:
        raise EngineeringInputError(field, f"could not convert {shown!r} ({exc})") from None
    magnitude = converted.magnitude
    if not isinstance(magnitude, int | float):
        raise EngineeringInputError(field, f"expected a single value, got {shown!r}")
    return float(magnitude)


def fmt(value: float, unit: str = "1", digits: int = 4) -> str:
    """``1234.5, 'ft**2'`` -> ``'1,235 sq ft'``; ``0.00015486, 'm/s'`` -> ``'0.0001549 m/s'``.

    Four significant figures: enough for a reviewer to follow the arithmetic, few enough to
    read.
    """
    if value == 0 or not math.isfinite(value):
        number = f"{value:g}"
    else:
        decimals = max(0, digits - 1 - math.floor(math.log10(abs(value))))
        number = f"{value:,.{decimals}f}"
        if "." in number:
            number = number.rstrip("0").rstrip(".")
    label = LABELS.get(unit, unit)
    if not label:
        return number
    if label in {"%", "°F", "°C"}:
        return f"{number}{label}"
    return f"{number} {label}"


def fmt_apart(value: float, limit: float, unit: str = "1") -> tuple[str, str]:
    """``value`` and ``limit`` with enough significant figures to read differently when they
    differ: ``4355.9, 4356, 'ft**2'`` -> ``('4,355.9 sq ft', '4,356 sq ft')``, not a basin
    "under" a least area that reads the same."""
    shown = (fmt(value, unit), fmt(limit, unit))
    for digits in range(5, 16):
        if value == limit or shown[0] != shown[1]:
            break
        shown = (fmt(value, unit, digits), fmt(limit, unit, digits))
    return shown
