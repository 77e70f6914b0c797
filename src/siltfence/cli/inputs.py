"""What the command line reads from outside: JSON files and dates, each read strictly.

A bad file or option raises a ``SiltfenceError`` whose message names the option and the
file; the entry point prints it as one line and exits 2.
"""

from __future__ import annotations

import datetime
import sys

from siltfence.core.errors import SiltfenceError

TYPE_CHECKING = False  # typing is not imported at run time: see siltfence/core/__init__.py
if TYPE_CHECKING:
    from typing import Any


def read_json_file(source: str, what: str) -> Any:
    """JSON from a file, or stdin for ``-``, read within the bounds of ``core.jsonread``:
    size and nesting are checked before anything is parsed."""
    from siltfence.core.jsonread import MAX_BYTES, read_json

    try:
        if source == "-":
            data = sys.stdin.buffer.read(MAX_BYTES + 1)
        else:
            with open(source, "rb") as handle:
                data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise SiltfenceError(f"{what}: cannot read {source} ({exc.strerror})", field=what) from None
    try:
        return read_json(data, what=what)
    except SiltfenceError as exc:
        where = "" if source == "-" else f" (file {source})"
        raise SiltfenceError(f"{exc}{where}", field=what) from None


def date_option(text: str, field: str) -> datetime.date:
    """A date option such as ``--on``: exactly YYYY-MM-DD."""
    from siltfence.core.dates import DateRefused, read_date

    try:
        return read_date(text)
    except DateRefused as exc:
        raise SiltfenceError(f"{field}: {exc}", field=field) from None


def date_or_today(text: str | None, field: str, jurisdiction: str) -> datetime.date:
    """A date option, or today in the village's own time zone when it is left out: the
    shell decides what "today" is; the core only ever receives a date."""
    if text is not None:
        return date_option(text, field)
    from zoneinfo import ZoneInfo

    from siltfence.core.ordinance.loader import load

    zone = ZoneInfo(load(jurisdiction).time_zone)
    return datetime.datetime.now(zone).date()


def print_json(data: Any) -> None:
    import json

    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
