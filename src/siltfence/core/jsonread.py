"""JSON from outside, read within bounds: the one reader for files, bodies and form fields.

``json.loads`` recurses once per level of nesting, so a document of 100,000 opening
brackets ends in a ``RecursionError`` (a crash, not a refusal), and it reads ``1e400`` as
infinity and ``NaN`` as a number. ``read_json`` first bounds the size, then measures the
nesting with a cheap scan (strings removed, brackets counted) before anything is parsed,
and refuses non-finite and absurdly long numbers. Every refusal is a ``SiltfenceError``
whose message starts with the name of what was read ("plan: ...", "facts: ...").

The bounds are far above any real document: a control plan's GeoJSON nests about ten
levels deep, and a large site's plan runs to a few hundred kB.
"""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate

from siltfence.core.errors import SiltfenceError

TYPE_CHECKING = False  # typing is not imported at run time: see siltfence/core/__init__.py
if TYPE_CHECKING:
    from typing import Any

MAX_BYTES = 5 * 1024 * 1024
MAX_DEPTH = 64
MAX_NUMBER_DIGITS = 40  # characters of one number; a float has 17 significant digits

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class _Refused(ValueError):
    pass


def read_json(
    data: str | bytes,
    *,
    what: str,
    max_bytes: int = MAX_BYTES,
    max_depth: int = MAX_DEPTH,
) -> Any:
    """The JSON value of ``data`` (text, or UTF-8 bytes with or without a BOM).

    Raises ``SiltfenceError(field=what)`` for a document over ``max_bytes``, text that is
    not UTF-8, nesting deeper than ``max_depth``, invalid JSON, NaN or Infinity, and a
    number too long or too large to be a measurement.
    """
    size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise SiltfenceError(f"{what}: the document is larger than {_size(max_bytes)}", field=what)
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise SiltfenceError(f"{what}: not UTF-8 text", field=what) from None
    else:
        text = data.removeprefix("\ufeff")
    if nesting_depth(text) > max_depth:
        raise SiltfenceError(
            f"{what}: the JSON is nested more than {max_depth} levels deep",
            field=what,
        )
    try:
        return json.loads(
            text,
            parse_constant=_no_constant,
            parse_float=_float,
            parse_int=_int,
            object_pairs_hook=_one_of_each,
        )
    except json.JSONDecodeError as exc:
        raise SiltfenceError(
            f"{what}: not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})",
            field=what,
        ) from None
    except _Refused as exc:
        raise SiltfenceError(f"{what}: {exc}", field=what) from None
    except (ValueError, RecursionError) as exc:  # a bound above should make this unreachable
        raise SiltfenceError(f"{what}: not valid JSON ({exc})", field=what) from None


def nesting_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in ``text``, brackets in strings aside.

    Linear in the length, and all of it runs in C: two regular expressions, then a running
    sum of +1 per opening and -1 per closing bracket.
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def _one_of_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object, each of whose names appears once: with two, which one counts would be a
    guess (JSON readers differ), so neither is taken."""
    found: dict[str, Any] = {}
    for name, value in pairs:
        if name in found:
            raise _Refused(f'the name "{name[:40]}" appears twice in one object')
        found[name] = value
    return found


def _no_constant(token: str) -> float:
    raise _Refused(f"{token} is not a number JSON allows")


def _float(token: str) -> float:
    if len(token) > MAX_NUMBER_DIGITS:
        raise _Refused(f"the number {token[:20]}... is too long to be a measurement")
    number = float(token)
    if not math.isfinite(number):
        raise _Refused(f"the number {token} is too large to be a measurement")
    if number == 0 and any(c in "123456789" for c in token.split("e")[0].split("E")[0]):
        raise _Refused(f"the number {token} is too small to be a measurement")
    return number


def _int(token: str) -> int:
    if len(token) > MAX_NUMBER_DIGITS:
        raise _Refused(f"the number {token[:20]}... is too long to be a measurement")
    return int(token)


def _size(limit: int) -> str:
    if limit % (1024 * 1024) == 0:
        return f"{limit // (1024 * 1024)} MB"
    return f"{limit:,} bytes"
