"""Quantities with units, read by a strict grammar of our own.

A quantity is a plain number in its field's default unit, or text: a number, then
optionally one unit name from a fixed list ("1.2 acre", "500 m^2", "420 yd^3", "5,000 sq
ft", "500 m²", "100 gal/min", "10 degC", "2 %"). Nothing else is read: no arithmetic, no
parentheses, no powers of numbers. Text longer than ``MAX_CHARS`` is refused before any
parsing, and so is a value that is not finite or too large or too small to be a
measurement (``MAX_MAGNITUDE``). docs/decisions/0010-quantity-grammar.md says why pint's
own parser is not used on what people type: it evaluates expressions.

Every unit name carries its dimension and its exact factor to the base unit of that
dimension (1 ft = 0.3048 m, 1 acre = 43,560 sq ft, 1 US gallon = 231 cu in, by
definition), so reading a quantity never imports pint and a determination starts fast
(DESIGN.md: a cold CLI determination in under 0.3 s). A test checks every factor against
pint's own definitions.

This is the one table of units of the core: each factor is written here once (``FT``,
``INCH``, ``GALLON``, ``ACRE_FT2``) and everything else is worked out from it; the design
checks (``siltfence.core.engineering``) import these rather than writing their own, and
their labels are this table's labels. tests/unit/test_one_unit_table.py keeps it so.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from types import MappingProxyType

TYPE_CHECKING = False  # typing is not imported at run time: see siltfence/core/__init__.py
if TYPE_CHECKING:
    from typing import Final

MAX_CHARS: Final = 40
# No measurement of a site is near these (1e12 sq ft is 35,000 square miles); values past
# them only overflow the arithmetic of a design check into infinity.
MAX_MAGNITUDE: Final = 1e12
MIN_MAGNITUDE: Final = 1e-12


class UnitMismatch(ValueError):
    pass


@dataclass(frozen=True)
class UnitName:
    """One spelling of a unit: its dimension and ``base = value * factor + offset``."""

    dimension: str
    factor: float
    pint: str  # how pint spells it (for the test that checks the factor)
    offset: float = 0.0  # temperatures only


# The base unit of each dimension, which every factor is relative to, and how a sentence
# names the dimension and gives examples.
DIMENSIONS: dict[str, tuple[str, str, str]] = {
    # dimension: (base, words, examples)
    "length": ("ft", "a length", "300 ft or 30 m"),
    "area": ("sq ft", "an area", "0.5 acre, 5,000 sq ft or 500 m^2"),
    "volume": ("cu ft", "a volume", "420 cu yd or 300 m^3"),
    "time": ("s", "a duration", "36 hours or 2 days"),
    "speed": ("ft/s", "a velocity or intensity", "0.5 ft/s or 2 in/h"),
    "flow": ("cu ft/s", "a flow rate", "100 gal/min or 2 cu ft/s"),
    "temperature": ("degF", "a temperature", "50 degF or 10 degC"),
    "ratio": ("", "a pure number or a percentage", "0.5 or 2 %"),
    "mass": ("lb", "a mass", "5 kg"),
}

# The exact factors (by definition, 1959) every other factor is worked out from.
FT: Final = 0.3048  # m per ft
INCH: Final = 0.0254  # m per in; INCH / FT is 1/12 to the last bit
GALLON: Final = 3.785411784e-3  # m³ per US gallon (231 cu in); GALLON / FT**3 is 231/1728
ACRE_FT2: Final = 43_560.0  # sq ft per acre
_LB: Final = 0.45359237  # kg per lb
# (spellings, feet per unit, pint's name); the first spelling is the short one.
_LENGTHS: tuple[tuple[tuple[str, ...], float, str], ...] = (
    (("ft", "foot", "feet"), 1.0, "foot"),
    (("in", "inch", "inches"), INCH / FT, "inch"),
    (("yd", "yard", "yards"), 3.0, "yard"),
    (("mi", "mile", "miles"), 5_280.0, "mile"),
    (("m", "meter", "meters", "metre", "metres"), 1 / FT, "meter"),
    (("cm", "centimeter", "centimeters", "centimetre", "centimetres"), 0.01 / FT, "centimeter"),
    (("mm", "millimeter", "millimeters", "millimetre", "millimetres"), 0.001 / FT, "millimeter"),
    (("km", "kilometer", "kilometers", "kilometre", "kilometres"), 1_000 / FT, "kilometer"),
)
_TIMES: tuple[tuple[tuple[str, ...], float, str], ...] = (
    (("s", "sec", "secs", "second", "seconds"), 1.0, "second"),
    (("min", "mins", "minute", "minutes"), 60.0, "minute"),
    (("h", "hr", "hrs", "hour", "hours"), 3_600.0, "hour"),
    (("d", "day", "days"), 86_400.0, "day"),
    (("wk", "week", "weeks"), 604_800.0, "week"),
)


def _unit_names() -> dict[str, UnitName]:
    names: dict[str, UnitName] = {}

    def add(spellings: tuple[str, ...] | list[str], unit: UnitName) -> None:
        for spelling in spellings:
            assert spelling not in names, spelling
            names[spelling] = unit

    for spellings, feet, pint in _LENGTHS:
        add(spellings, UnitName("length", feet, pint))
        short, singular = spellings[0], spellings[1]
        long_forms = spellings[1:]
        add(
            [f"{short}^2", f"{singular}^2", *(f"sq {s}" for s in spellings)]
            + [f"square {s}" for s in long_forms],
            UnitName("area", feet**2, f"{pint} ** 2"),
        )
        add(
            [f"{short}^3", f"{singular}^3", *(f"cu {s}" for s in spellings)]
            + [f"cubic {s}" for s in long_forms],
            UnitName("volume", feet**3, f"{pint} ** 3"),
        )
    add(("um", "micrometer", "micrometers", "micrometre", "micrometres", "micron", "microns"),
        UnitName("length", 1e-6 / FT, "micrometer"))  # fmt: skip
    add(("sqft", "sf"), names["sq ft"])
    add(("acre", "acres", "ac"), UnitName("area", ACRE_FT2, "acre"))
    add(("ha", "hectare", "hectares"), UnitName("area", 10_000 / FT**2, "hectare"))
    add(("cy", "cuyd"), names["cu yd"])
    add(("gal", "gallon", "gallons"), UnitName("volume", GALLON / FT**3, "gallon"))
    add(("l", "liter", "liters", "litre", "litres"), UnitName("volume", 0.001 / FT**3, "liter"))
    for spellings, seconds, pint in _TIMES:
        add(spellings, UnitName("time", seconds, pint))
    for length in ("ft", "in", "m", "cm", "mm"):
        for time in ("s", "sec", "min", "h", "hr", "day"):
            a, b = names[length], names[time]
            add(
                [f"{length}/{time}"], UnitName("speed", a.factor / b.factor, f"{a.pint} / {b.pint}")
            )
    for volume in ("ft^3", "cu ft", "yd^3", "cu yd", "m^3", "cu m", "gal", "l"):
        for time in ("s", "sec", "min", "h", "hr", "day"):
            a, b = names[volume], names[time]
            add([f"{volume}/{time}"], UnitName("flow", a.factor / b.factor, f"{a.pint} / {b.pint}"))
    add(("gpm",), names["gal/min"])
    add(("cfs",), names["cu ft/s"])
    add(("degf", "deg f", "fahrenheit", "degrees fahrenheit", "degree fahrenheit"),
        UnitName("temperature", 1.0, "degree_Fahrenheit"))  # fmt: skip
    add(("degc", "deg c", "celsius", "degrees celsius", "degree celsius"),
        UnitName("temperature", 1.8, "degree_Celsius", offset=32.0))  # fmt: skip
    add(("%", "percent", "pct"), UnitName("ratio", 0.01, "percent"))
    add(("ft/ft", "m/m", "in/in"), UnitName("ratio", 1.0, "foot / foot"))
    add(("lb", "lbs", "pound", "pounds"), UnitName("mass", 1.0, "pound"))
    add(("kg", "kilogram", "kilograms"), UnitName("mass", 1 / _LB, "kilogram"))
    add(("g", "gram", "grams"), UnitName("mass", 0.001 / _LB, "gram"))
    add(("ton", "tons"), UnitName("mass", 2_000.0, "short_ton"))
    return names


UNIT_NAMES: MappingProxyType[str, UnitName] = MappingProxyType(_unit_names())

# The units a field may be held in (its default unit), as a spelling of the table and
# the label used in sentences.
TARGETS: dict[str, tuple[str, str]] = {
    "ft": ("ft", "ft"),
    "ft**2": ("sq ft", "sq ft"),
    "ft**3": ("cu ft", "cu ft"),
    "yd**3": ("cu yd", "cu yd"),
    "acre": ("acre", "acres"),
    "inch": ("in", "in"),
    "in/h": ("in/h", "in/h"),
    "gal/min": ("gal/min", "gal/min"),
    "ft**3/s": ("cu ft/s", "cu ft/s"),
    "ft/s": ("ft/s", "ft/s"),
    "m/s": ("m/s", "m/s"),
    "m": ("m", "m"),
    "m**2": ("m^2", "m²"),
    "m**3": ("m^3", "m³"),
    "m**3/s": ("m^3/s", "m³/s"),
    "um": ("um", "µm"),
    "degF": ("degf", "°F"),
    "degC": ("degc", "°C"),
    "day": ("day", "days"),
    "hour": ("h", "hours"),
    "s": ("s", "s"),
    "min": ("min", "min"),
    "ft/ft": ("ft/ft", "ft/ft"),
    "percent": ("%", "%"),
    "1": ("ft/ft", ""),
}

# The public contract's default units: those the ordinance data may name, and their labels.
UNITS: dict[str, str] = {
    **{
        unit: TARGETS[unit][1]
        for unit in ("ft**2", "yd**3", "ft", "acre", "inch", "day", "hour", "ft/s", "um", "percent")
    },
    "USD": "$",
}

_NUMBER = re.compile(
    r"([+-]?)((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)(?:[eE]([+-]?\d{1,3}))?"
    r"\s*([a-zA-Zµμ°%][a-zA-Z0-9µμ°%²³^*/·. ]*)?",
    re.ASCII,
)
_NORMAL = (("²", "^2"), ("³", "^3"), ("**", "^"), ("µ", "u"), ("μ", "u"), ("°", "deg"),
           ("·", "*"), (".", " "))  # fmt: skip
_AROUND_OPERATORS = re.compile(r"\s*([/^*])\s*")


def unit_key(text: str) -> str:
    """How a typed unit is looked up: "Sq. Ft." -> "sq ft", "m ²" -> "m^2", "°F" -> "degf"."""
    key = text.lower()
    for typed, read in _NORMAL:
        key = key.replace(typed, read)
    return _AROUND_OPERATORS.sub(r"\1", " ".join(key.split()))


def shown(value: object) -> str:
    """A value as a message quotes it: short, whatever was sent."""
    if isinstance(value, str):
        return repr(value if len(value) <= MAX_CHARS else value[:20] + "...")
    text = repr(value)
    return text if len(text) <= MAX_CHARS else text[:20] + "..."


def read_quantity(value: object, unit: str) -> float:
    """``value`` (a number in ``unit``, or text with a unit) as a float in ``unit``.

    ``unit`` is a key of ``TARGETS`` (or "USD", which takes plain numbers only). Raises
    ``UnitMismatch`` with the reason for a bool, text outside the grammar, a unit that is
    unknown or of the wrong dimension, and a value that is not finite or not a plausible
    measurement. The sign is the caller's to check.
    """
    label = TARGETS[unit][1] if unit in TARGETS else label_of(unit)
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        got = ("true" if value else "false") if isinstance(value, bool) else type(value).__name__
        raise UnitMismatch(
            f"expected a number in {label or 'no unit'} or text with a unit, got {got}"
        )
    if isinstance(value, str):
        number = _from_text(value, unit)
    else:
        try:
            number = float(value)
        except OverflowError:
            number = math.inf
    return plausible(number, value, label)


def plausible(number: float, value: object, label: str) -> float:
    """``number`` if it is finite and within the bounds of a real measurement."""
    if math.isnan(number):
        raise UnitMismatch(f"expected a number, got {shown(value)}")
    if abs(number) > MAX_MAGNITUDE:
        raise UnitMismatch(
            f"{shown(value)} is too large to be a real measurement "
            f"(at most {MAX_MAGNITUDE:,.0f} {label})".rstrip()
        )
    if abs(number) < MIN_MAGNITUDE and (number != 0 or _written_nonzero(value)):
        raise UnitMismatch(
            f"{shown(value)} is too small to be a real measurement; give 0 or a larger value"
        )
    return number


def _written_nonzero(value: object) -> bool:
    """Whether the number as written is not zero (``5e-400`` is written so, and reads as 0.0
    only because it is smaller than a float can hold)."""
    if not isinstance(value, str):
        return False
    mantissa = re.match(r"\s*[-+]?([0-9.]*)", value)
    return mantissa is not None and any(c in "123456789" for c in mantissa.group(1))


def _from_text(text: str, unit: str) -> float:
    dimension, label = _target(unit)
    examples = DIMENSIONS[dimension][2] if dimension else "a plain number"
    if len(text) > MAX_CHARS:
        raise UnitMismatch(
            f"{shown(text)} is too long for a quantity; write a number and a unit in at most "
            f"{MAX_CHARS} characters, like {examples}"
        )
    match = _NUMBER.fullmatch(text.strip())
    if match is None:
        raise UnitMismatch(f"could not read {shown(text)} as a number with a unit, like {examples}")
    sign, digits, exponent, typed_unit = match.groups()
    number = float(f"{sign}{digits.replace(',', '')}e{exponent or 0}")
    if typed_unit is None or not typed_unit.strip():
        return number
    if not dimension:
        raise UnitMismatch(f"expected a plain number, got {shown(text)}")
    name = UNIT_NAMES.get(unit_key(typed_unit))
    if name is None:
        raise UnitMismatch(
            f"could not read {shown(text)}: {typed_unit.strip()!r} is not a unit siltfence "
            f"reads; write a number and a unit of {DIMENSIONS[dimension][1]}, like {examples}"
        )
    if name.dimension != dimension:
        words = DIMENSIONS[dimension][1]
        raise UnitMismatch(f"{shown(text)} is not {words}; expected a unit of {words} like {label}")
    target = UNIT_NAMES[TARGETS[unit][0]]
    if math.isinf(number):
        return number
    return (number * name.factor + name.offset - target.offset) / target.factor


def _target(unit: str) -> tuple[str, str]:
    """(dimension, label) of a default unit; no dimension for units that take plain numbers."""
    if unit not in TARGETS:
        return "", label_of(unit)
    return UNIT_NAMES[TARGETS[unit][0]].dimension, TARGETS[unit][1]


def label_of(unit: str) -> str:
    if unit in UNITS:
        return UNITS[unit]
    return TARGETS[unit][1] if unit in TARGETS else unit


def to_unit(value: object, unit: str) -> float:
    """Return ``value`` as a float in ``unit`` (a key of ``UNITS``), 0 or more.

    Raises ``UnitMismatch`` with a readable reason for anything else.
    """
    number = read_quantity(value, unit)
    if number < 0:
        raise UnitMismatch(f"cannot be negative, got {shown(value)}")
    return number


def label(unit: str) -> str:
    return UNITS[unit]


def format_quantity(value: float, unit: str) -> str:
    """``5000.0, 'ft**2'`` -> ``'5,000 sq ft'``; ``1.5, 'acre'`` -> ``'1.5 acres'``."""
    text = f"{value:,.0f}" if float(value).is_integer() else f"{value:,.2f}".rstrip("0")
    if unit == "USD":
        return f"${text}"
    if unit == "acre" and value == 1:
        return "1 acre"
    return f"{text} {label(unit)}"


# The conversions between units the ordinance data uses that comparing a fact with a
# threshold may need, from the factors above (1 acre = 43,560 sq ft, 1 day = 24 hours).
_EXACT: dict[tuple[str, str], float] = {
    (source, target): UNIT_NAMES[TARGETS[source][0]].factor / UNIT_NAMES[TARGETS[target][0]].factor
    for source, target in (("acre", "ft**2"), ("day", "hour"))
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
