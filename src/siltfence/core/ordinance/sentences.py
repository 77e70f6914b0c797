"""Sentences of ``rules.yaml`` that take their numbers from ``parameters.yaml``.

A sentence shown to users writes a parameter's value as a placeholder, ``{name}`` or
``{name:style}``, never as a literal number: an amendment entered in ``parameters.yaml``
(a new dated value) then changes the sentence with it, and a date before the amendment
keeps the old number (``Ordinance.rules_on``). The styles, for a value of 7 days, 1 acre
or 14 days:

- ``{name}``: the digits and the unit, "7 days", "1 acre", "4,000 sq ft", "0.5 inch",
  "100 microns", "1%", "$100"; a month-day is written "September 15";
- ``{name:words}``: the number in words and the unit, "seven days", "one acre";
  ``{name:Words}`` begins a sentence, "Seven days";
- ``{name:number}``: the digits alone, for a unit the sentence words itself
  ("{review_period:number} business days", "the {start_notice_hours:number}-hour period");
  ``{name:number-words}``: the number in words alone ("seven or more days");
- ``{name:ordinal}``: "7th"; ``{name:ordinal-after}``: the day after the period, "15th"
  for 14 days ("after 14 days ... so from the 15th day");
- ``{name:miles}``: a length in miles, "1.5 miles" for 7,920 ft.

A unit is singular up to 1 ("0.5 inch", "1 acre") and plural above. Numbers in words
run to ninety-nine; past that, and for fractions, they are written in digits.

Quoted words (inside quotation marks) are the law's own text and stay as written: a
placeholder may not stand inside them, nor in a ``text`` field (the ordinance's words).
The loader refuses a placeholder naming no parameter, an unknown style, and a parameter
with no value (null) or no value from the chapter's adoption (``check_sentences``).

``literal_values`` finds the other way back to drift: a number written out in a sentence
(outside quotation marks) that equals a parameter's value; a test runs it over every
village.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator, Mapping
from types import MappingProxyType

from siltfence.core.errors import OrdinanceFileError
from siltfence.core.quantities import UNIT_NAMES, convert_between

TYPE_CHECKING = False  # typing is not imported at run time: see siltfence/core/__init__.py
if TYPE_CHECKING:
    from typing import Any

    from siltfence.core.ordinance.model import Parameter, ParameterValue

Path = tuple[str | int, ...]

PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_PLACEHOLDER_BODY = re.compile(r"(?P<name>[a-z][a-z0-9_]*)(?::(?P<style>[A-Za-z-]+))?")
_QUOTED = re.compile(r'"[^"]*"')
STYLES = ("", "words", "Words", "number", "number-words", "ordinal", "ordinal-after", "miles")
# Styles that write a count: they need a number, and the ordinals a whole one.
_NUMERIC_ONLY = {"words", "Words", "number-words", "ordinal", "ordinal-after", "miles"}

# How a sentence names each unit of parameters.yaml: (singular, plural). Percent and
# dollars are written around the number ("1%", "$100").
UNIT_WORDS: dict[str, tuple[str, str]] = {
    "ft**2": ("sq ft", "sq ft"),
    "yd**3": ("cu yd", "cu yd"),
    "ft": ("ft", "ft"),
    "acre": ("acre", "acres"),
    "inch": ("inch", "inches"),
    "day": ("day", "days"),
    "hour": ("hour", "hours"),
    "ft/s": ("ft/s", "ft/s"),
    "um": ("micron", "microns"),
}
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
_ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


# --- writing a value -----------------------------------------------------------------


def digits(value: float) -> str:
    """``4000.0`` -> ``'4,000'``; ``0.5`` -> ``'0.5'``; ``7920/5280`` -> ``'1.5'``."""
    if float(value).is_integer():
        return f"{value:,.0f}"
    return f"{value:,.6f}".rstrip("0").rstrip(".")


def day_words(day: datetime.date) -> str:
    """``December 31, 2026``: a day as the notices, letters and reports write it."""
    return f"{MONTHS[day.month - 1]} {day.day}, {day.year}"


def in_words(value: float) -> str:
    """``7.0`` -> ``'seven'``, ``21.0`` -> ``'twenty-one'``; past 99, or a fraction: digits."""
    if not float(value).is_integer() or not 0 <= value <= 99:
        return digits(value)
    n = int(value)
    if n < 20:
        return _ONES[n]
    tens, ones = divmod(n, 10)
    return _TENS[tens - 2] + (f"-{_ONES[ones]}" if ones else "")


def ordinal(value: float) -> str:
    """``7.0`` -> ``'7th'``, ``21.0`` -> ``'21st'``, ``12.0`` -> ``'12th'``."""
    if not float(value).is_integer():
        raise ValueError(f"{digits(value)} has no ordinal (it is not a whole number)")
    n = int(value)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n:,}{suffix}"


def _with_unit(number: str, value: float, unit: str) -> str:
    if unit == "percent":
        return f"{number}%"
    if unit == "USD":
        return f"${number}"
    singular, plural = UNIT_WORDS[unit]
    return f"{number} {singular if value <= 1 else plural}"


def write(value: float | str, unit: str, style: str) -> str:
    """``value`` (in ``unit``) as ``style`` writes it; ``ValueError`` if it cannot."""
    if unit == "month-day":
        if style or not isinstance(value, str):
            raise ValueError("a month-day is written only as {name}, e.g. 'September 15'")
        month, day = value.split("-")
        return f"{MONTHS[int(month) - 1]} {int(day)}"
    if not isinstance(value, float):
        raise ValueError(f"{value!r} is not a number")
    if style in ("words", "Words", "number-words") and unit in ("percent", "USD"):
        raise ValueError(f"amounts in {unit} are written in digits; use {{name}} or :number")
    if style == "":
        return _with_unit(digits(value), value, unit)
    if style == "number":
        return digits(value)
    if style == "number-words":
        return in_words(value)
    if style in ("words", "Words"):
        text = _with_unit(in_words(value), value, unit)
        return text[0].upper() + text[1:] if style == "Words" else text
    if style == "ordinal":
        return ordinal(value)
    if style == "ordinal-after":
        return ordinal(value + 1)
    if style == "miles":
        length = UNIT_NAMES.get(unit)
        if length is None or length.dimension != "length":
            raise ValueError(f"{unit} is not a length; only a length is written in miles")
        miles = value * length.factor / UNIT_NAMES["mi"].factor
        return f"{digits(miles)} {'mile' if miles <= 1 else 'miles'}"
    raise ValueError(f"unknown style {style!r}; use one of {', '.join(s for s in STYLES if s)}")


# --- finding sentences and their placeholders ----------------------------------------


def strings(value: Any, path: Path = ()) -> Iterator[tuple[Path, str]]:
    """Every text of a rules tree, with its path of keys and list positions."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from strings(item, (*path, key))
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield from strings(item, (*path, index))


def dotted(path: Path) -> str:
    """``('requirements', 9, 'says')`` -> ``'requirements[9].says'``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def placeholders(text: str) -> list[tuple[str, str, str]]:
    """Each placeholder of ``text``: (as written, parameter name, style)."""
    found = []
    for match in PLACEHOLDER.finditer(text):
        body = _PLACEHOLDER_BODY.fullmatch(match.group(1))
        name, style = (body["name"], body["style"] or "") if body else (match.group(1), "?")
        found.append((match.group(0), name, style))
    return found


def templates(rules: Mapping[str, Any]) -> tuple[tuple[Path, str], ...]:
    """The texts of a (checked) rules tree that hold a placeholder."""
    return tuple((path, text) for path, text in strings(rules) if PLACEHOLDER.search(text))


def names_in(sentences: tuple[tuple[Path, str], ...]) -> frozenset[str]:
    return frozenset(name for _, text in sentences for _, name, _ in placeholders(text))


# --- the loader's check ----------------------------------------------------------------


def check_sentences(
    rules: Mapping[str, Any],
    parameters: Mapping[str, Parameter],
    adopted: datetime.date,
    file: str,
) -> None:
    """Refuse a placeholder that cannot be filled on every date the chapter is in force."""
    for path, text in strings(rules):
        if "{" not in text and "}" not in text:
            continue
        key = dotted(path)
        where = _rule_named(rules, path)
        stray = PLACEHOLDER.sub("", text)
        if "{" in stray or "}" in stray:
            raise OrdinanceFileError(
                file, key, f"{where}a brace opens or closes no placeholder such as {{name}}"
            )
        if path[-1] == "text":
            raise OrdinanceFileError(
                file,
                key,
                f"{where}a text field holds the ordinance's own words; write its numbers as "
                "the law does, not as a placeholder",
            )
        for quote in _QUOTED.findall(text):
            inside = PLACEHOLDER.search(quote)
            if inside:
                raise OrdinanceFileError(
                    file,
                    key,
                    f"{where}placeholder {inside.group(0)} stands inside quotation marks; "
                    "quoted words are the law's and stay as written",
                )
        for written, name, style in placeholders(text):
            _check_placeholder(written, name, style, parameters, adopted, file, key, where)


def _check_placeholder(
    written: str,
    name: str,
    style: str,
    parameters: Mapping[str, Parameter],
    adopted: datetime.date,
    file: str,
    key: str,
    where: str,
) -> None:
    def refuse(reason: str) -> OrdinanceFileError:
        return OrdinanceFileError(file, key, f"{where}placeholder {written} {reason}")

    if style not in STYLES:
        raise refuse(
            f"has an unknown style {style!r}; write {{{name}}} or {{{name}:STYLE}}, STYLE one "
            f"of {', '.join(s for s in STYLES if s)}"
        )
    if name not in parameters:
        raise refuse(f"names no parameter: {name!r}")
    parameter = parameters[name]
    first = parameter.values[0].effective
    if first > adopted:
        raise refuse(
            f"uses {name}, which has no value before {first}; the chapter is in force from "
            f"{adopted}, and the sentence needs a number on every date"
        )
    for value in parameter.values:
        if value.value is None:
            raise refuse(
                f"uses {name}, which has no value on {value.effective} (value: null, "
                f"{value.not_in_text}); a sentence cannot show a number the chapter does not "
                "give: word it without one"
            )
        if style in _NUMERIC_ONLY and not isinstance(value.value, float):
            raise refuse(f"writes {name} as {style}, but its value is not a number")
        try:
            write(value.value, parameter.unit, style)
        except ValueError as exc:
            raise refuse(f"cannot write {name}'s value of {value.effective}: {exc}") from None


def _rule_named(rules: Mapping[str, Any], path: Path) -> str:
    """ "rule 'stabilization': " for the nearest item on the path that has an id."""
    node: Any = rules
    found = ""
    for part in path[:-1]:
        node = node[part]
        if isinstance(node, Mapping):
            ident = node.get("id") or node.get("kind") or node.get("action")
            if isinstance(ident, str):
                found = ident
    return f"rule {found!r}: " if found else ""


# --- filling the sentences for a date --------------------------------------------------


def value_on(parameter: Parameter, on: datetime.date) -> ParameterValue:
    """The value in force on ``on``; before the first, the first (the chapter was not in
    force then, and the engines refuse such a date before any sentence is shown)."""
    in_force = [v for v in parameter.values if v.effective <= on]
    return in_force[-1] if in_force else parameter.values[0]


def fill(text: str, parameters: Mapping[str, Parameter], on: datetime.date) -> str:
    """``text`` with each placeholder written from the value in force on ``on``."""

    def one(match: re.Match[str]) -> str:
        (_, name, style) = placeholders(match.group(0))[0]
        parameter = parameters[name]
        value = value_on(parameter, on).value
        assert value is not None  # the loader refuses a sentence naming a null value
        return write(value, parameter.unit, style)

    return PLACEHOLDER.sub(one, text)


def filled(
    rules: Mapping[str, Any],
    sentences: tuple[tuple[Path, str], ...],
    parameters: Mapping[str, Parameter],
    on: datetime.date,
) -> Mapping[str, Any]:
    """``rules`` with ``sentences`` (path, template) filled for ``on``.

    Only the containers along the sentences' paths are copied; the rest is shared. A path
    the rules no longer hold (a test's edited copy) is skipped.
    """
    texts = {path: fill(text, parameters, on) for path, text in sentences}
    return MappingProxyType(_overlay(dict(rules), texts))


def _overlay(node: Any, texts: Mapping[Path, str]) -> Any:
    heads: dict[str | int, dict[Path, str]] = {}
    for path, text in texts.items():
        heads.setdefault(path[0], {})[path[1:]] = text
    copy: Any = dict(node) if isinstance(node, Mapping) else list(node)
    for head, rest in heads.items():
        present = (
            head in copy if isinstance(copy, dict) else isinstance(head, int) and head < len(copy)
        )
        if not present:
            continue
        if () in rest:
            if isinstance(copy[head], str):
                copy[head] = rest[()]
            continue
        if isinstance(copy[head], Mapping | list):
            copy[head] = _overlay(copy[head], rest)
    return copy


# --- literal numbers that should be placeholders ------------------------------------

_NUMBER_WORDS = "|".join(sorted((*_ONES, *_TENS), key=len, reverse=True))
# A unit as sentences write it: (pattern, unit of parameters.yaml, factor to that unit).
_LITERAL_UNITS: tuple[tuple[str, str, float], ...] = (
    (r"sq(?:uare)?\.? ?f(?:ee|oo)?t", "ft**2", 1.0),
    (r"cu(?:bic)?\.? ?y(?:ar)?ds?", "yd**3", 1.0),
    (r"acres?", "acre", 1.0),
    (r"ft/s(?:ec)?|f(?:ee|oo)?t/second", "ft/s", 1.0),
    (r"miles?", "ft", 5_280.0),
    (r"f(?:ee|oo)?t", "ft", 1.0),
    (r"inch(?:es)?|in\b", "inch", 1.0),
    (r"microns?|µm", "um", 1.0),
    (r"days?", "day", 1.0),
    (r"hours?", "hour", 1.0),
    (r"weeks?", "day", 7.0),
    (r"%|percent", "percent", 1.0),
)
_LITERAL = re.compile(
    r"(?<![\w.,§$-])(?P<dollar>\$)?"
    r"(?P<number>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|(?:" + _NUMBER_WORDS + r")"
    r"(?:-(?:" + "|".join(_ONES[1:10]) + r"))?)(?P<ordinal>st|nd|rd|th)?"
    r"(?:(?P<sep>[ -]|\s(?:or more |or fewer |or less )?(?:business |calendar )?)"
    r"(?P<unit>" + "|".join(f"(?:{p})" for p, _, _ in _LITERAL_UNITS) + r")\b"
    r"|(?P<percent>%))?",
    re.IGNORECASE,
)
_MONTH_DAY = re.compile(r"\b(?P<month>" + "|".join(MONTHS) + r") (?P<day>\d{1,2})\b")


def _number(text: str) -> float:
    text = text.lower().replace(",", "")
    if text[0].isdigit():
        return float(text)
    if "-" in text:
        tens, ones = text.split("-")
        return float(_TENS.index(tens) * 10 + 20 + _ONES.index(ones))
    return float(_ONES.index(text) if text in _ONES else _TENS.index(text) * 10 + 20)


def literal_values(
    text: str, parameters: Mapping[str, Parameter], on: datetime.date
) -> list[tuple[int, int, str, tuple[str, ...]]]:
    """Numbers with a unit written in ``text`` (outside quotation marks and placeholders)
    that equal the value of a parameter in force on ``on``: (start, end, as written,
    the parameters it equals). Section numbers, list labels and bare numbers are not
    values: only a number with a unit (or a dollar sign, or a month and day) is read."""
    plain = _QUOTED.sub(lambda m: " " * len(m.group(0)), text)
    plain = PLACEHOLDER.sub(lambda m: " " * len(m.group(0)), plain)
    found = []
    for match in _LITERAL.finditer(plain):
        unit, factor = _literal_unit(match)
        if unit is None:
            continue
        amount = _number(match["number"]) * factor
        equal = tuple(
            name for name, parameter in parameters.items() if _equals(amount, unit, parameter, on)
        )
        if equal:
            found.append((match.start(), match.end(), match.group(0), equal))
    for match in _MONTH_DAY.finditer(plain):
        day = f"{MONTHS.index(match['month']) + 1:02d}-{int(match['day']):02d}"
        equal = tuple(
            name
            for name, p in parameters.items()
            if p.unit == "month-day" and value_on(p, on).value == day
        )
        if equal:
            found.append((match.start(), match.end(), match.group(0), equal))
    return sorted(found)


def _literal_unit(match: re.Match[str]) -> tuple[str | None, float]:
    if match["dollar"]:
        return "USD", 1.0
    if match["percent"]:
        return "percent", 1.0
    if not match["unit"]:
        return None, 1.0
    for pattern, unit, factor in _LITERAL_UNITS:
        if re.fullmatch(pattern, match["unit"], re.IGNORECASE):
            return unit, factor
    return None, 1.0


def _equals(amount: float, unit: str, parameter: Parameter, on: datetime.date) -> bool:
    value = value_on(parameter, on).value
    if not isinstance(value, float) or parameter.unit == "month-day":
        return False
    converted = convert_between(amount, unit, parameter.unit)
    return converted is not None and abs(converted - value) <= 1e-9 * max(1.0, abs(value))
