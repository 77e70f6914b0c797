"""A small declarative checker for the ordinance data files.

The files are the law as data, edited by hand by people who are not programmers. The
checker refuses anything it does not expect: an unknown key, a missing key, a wrong
type, a date that is not a date, a citation that is not in the section map, a unit that
does not fit. Each refusal names the file, the dotted key and the fix.

A spec is written in plain Python values:

- ``str``, ``bool``, ``int``, ``float`` (any number), ``date``: a value of that type;
- a ``dict`` of key -> spec: a mapping with exactly those keys; a key ending in ``?``
  may be left out;
- ``[spec]``: a list whose items each match ``spec``;
- ``MapOf(spec)``: a mapping of any text keys to values matching ``spec``;
- ``DatedValues(spec)``: a mapping keyed by effective dates (YYYY-MM-DD);
- ``OneOf("a", "b")``: one of the listed words;
- ``Citation``, ``Condition``, ``Nullable(spec)``: see their docstrings.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from dataclasses import dataclass

from siltfence.core.errors import OrdinanceFileError

TYPE_CHECKING = False  # typing is not imported at run time: see siltfence/core/__init__.py
if TYPE_CHECKING:
    from typing import Any

# § 413-7A(3), § 135-4A(1)(b), § 413-7B(5)(c)[2], § 413-4, § 135-13
ORDINANCE_CITATION = re.compile(
    r"^§ (?P<chapter>\d+)-(?P<section>\d+)"
    r"(?P<rest>(?:[A-Z](?:\(\d+\)(?:\([a-z]+\))?(?:\[\d+\])?)?)?)$"
)
# Provisions outside the chapters: state statutes, administrative code, federal rules,
# the villages' general provisions, and a village's own documents named by their title
# ("Village of <Name> <Title of the document>").
EXTERNAL_CITATION = re.compile(
    r"^(§§? [\d.()a-z, and]+ Wis\. Stats\.|(§ )?NR [\d.]+(\([\da-z]+\))* Wis\. Adm\. Code"
    r"|Subch\. [IVX]+ of Ch\. \d+, Wis\. Stats\.|Ch\. \d+,? Wis\. Stats\.|40 CFR Part \d+"
    r"|(Village of [A-Z][a-z]+( [A-Z][a-z]+)* )?Code Ch\. \d+[^§]*|WDNR Pub\. WR-222.*"
    r"|Village of [A-Z][a-z]+( [A-Z][a-z]+)*( [A-Z][A-Za-z]*| and)+)$"
)


# The wrappers of a spec are plain classes, not dataclasses: every start of the command line
# creates them, where a dataclass costs half a millisecond each to make.
class MapOf:
    """A mapping of any text keys to values matching ``value``."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


class DatedValues:
    """A mapping keyed by effective dates (YYYY-MM-DD) to values matching ``value``."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


class OneOf:
    """One of the listed words."""

    __slots__ = ("words",)

    def __init__(self, *words: str) -> None:
        self.words: tuple[str, ...] = words


class Nullable:
    """Nothing (null), or a value matching ``value``."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


class Citation:
    """A section of this chapter (``§ 413-7A(3)``) or a named outside provision."""


class Condition:
    """A test of the project's facts; see ``siltfence.core.rules.conditions``."""


@dataclass
class Context:
    file: str
    citations: list[tuple[str, str]]  # (dotted key, citation) to check against the section map
    conditions: list[tuple[str, Any]]  # (dotted key, condition) to check against facts/parameters


def fail(ctx: Context, key: str, reason: str) -> OrdinanceFileError:
    return OrdinanceFileError(ctx.file, key or "(top level)", reason)


def _join(path: str, key: object) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else str(key)


def _type_name(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, datetime.date):
        return "a date"
    if isinstance(value, str):
        return f"text {value!r}" if len(value) < 40 else "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def check(value: Any, spec: Any, path: str, ctx: Context) -> None:
    if isinstance(spec, Nullable):
        if value is not None:
            check(value, spec.value, path, ctx)
        return
    if value is None:
        raise fail(ctx, path, "has no value; write one or remove the key")
    if spec is str:
        if not isinstance(value, str) or not value.strip():
            raise fail(ctx, path, f"expected text, got {_type_name(value)}")
    elif spec is bool:
        if not isinstance(value, bool):
            raise fail(ctx, path, f"expected true or false, got {_type_name(value)}")
    elif spec is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise fail(ctx, path, f"expected a whole number, got {_type_name(value)}")
    elif spec is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise fail(ctx, path, f"expected a number, got {_type_name(value)}")
    elif spec is datetime.date:
        _check_date(value, path, ctx)
    elif spec is Citation:
        if not isinstance(value, str):
            raise fail(
                ctx,
                path,
                f"expected a citation like '§ <chapter>-7A(3)', got {_type_name(value)}",
            )
        ctx.citations.append((path, value))
    elif spec is Condition:
        ctx.conditions.append((path, value))
    elif isinstance(spec, OneOf):
        if value not in spec.words:
            raise fail(ctx, path, f"expected one of {', '.join(spec.words)}; got {value!r}")
    elif isinstance(spec, list):
        if not isinstance(value, list):
            raise fail(ctx, path, f"expected a list, got {_type_name(value)}")
        for index, item in enumerate(value):
            check(item, spec[0], _join(path, index), ctx)
    elif isinstance(spec, MapOf):
        if not isinstance(value, dict):
            raise fail(ctx, path, f"expected a mapping, got {_type_name(value)}")
        for key, item in value.items():
            if not isinstance(key, str):
                raise fail(ctx, _join(path, key), "keys here must be names (text)")
            check(item, spec.value, _join(path, key), ctx)
    elif isinstance(spec, DatedValues):
        if not isinstance(value, dict) or not value:
            raise fail(ctx, path, "expected values keyed by their effective date (YYYY-MM-DD)")
        for key, item in value.items():
            _check_date(key, _join(path, key), ctx)
            check(item, spec.value, _join(path, key), ctx)
    elif isinstance(spec, dict):
        _check_mapping(value, spec, path, ctx)
    elif callable(spec):
        spec(value, path, ctx)
    else:  # pragma: no cover - a programming error in a spec, not bad data
        raise TypeError(f"unknown spec {spec!r}")


def as_date(value: Any) -> datetime.date:
    """A checked date (text YYYY-MM-DD, or a date) as a ``datetime.date``."""
    if isinstance(value, datetime.date):
        return value
    return datetime.date.fromisoformat(value)


def _check_date(value: Any, path: str, ctx: Context) -> None:
    if isinstance(value, datetime.date) and not isinstance(value, datetime.datetime):
        return
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        try:
            datetime.date.fromisoformat(value)
            return
        except ValueError as exc:
            raise fail(ctx, path, f"{value!r} is not a real date ({exc})") from None
    raise fail(ctx, path, f"expected a date written YYYY-MM-DD, got {_type_name(value)}")


def _check_mapping(value: Any, spec: Mapping[str, Any], path: str, ctx: Context) -> None:
    if not isinstance(value, dict):
        raise fail(ctx, path, f"expected a mapping, got {_type_name(value)}")
    allowed = {key.rstrip("?"): key.endswith("?") for key in spec}
    for key in value:
        if key not in allowed:
            raise fail(
                ctx,
                _join(path, key),
                f"unknown key; expected one of {', '.join(sorted(allowed))}",
            )
    for key, optional in allowed.items():
        if key not in value:
            if not optional:
                raise fail(ctx, _join(path, key), "is required but missing")
            continue
        check(value[key], spec[key + ("?" if optional else "")], _join(path, key), ctx)
