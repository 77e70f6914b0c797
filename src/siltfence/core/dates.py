"""Dates and datetimes from outside, read strictly: the one way siltfence reads them.

Python's ``fromisoformat`` accepts far more than the "YYYY-MM-DD" every message asks for
(``20260601``, the week date ``2026-W22-1``, ``2026-06-01T1200``), so a typo could become
another day without a word. Here a date is exactly ``YYYY-MM-DD`` and a datetime exactly
``YYYY-MM-DDTHH:MM[:SS[.ffffff]][Z|+HH:MM|-HH:MM]`` (the fraction is what a stored
timestamp writes). Years run from 1900 to 2199: deadlines are counted forward from these
days, and no permit's record lies outside them.

Each reader raises ``DateRefused`` (a ``ValueError``) with the reason as a phrase,
"expected a date written YYYY-MM-DD, got '20260601'"; the caller puts its field in front.
"""

from __future__ import annotations

import datetime
import re

YEARS = (1900, 2100)
LONGEST = 40  # characters; the longest datetime of this grammar has 32

DATE_WORDS = "a date written YYYY-MM-DD"
DATETIME_WORDS = "a date and time written YYYY-MM-DDTHH:MM (seconds and an offset optional)"
MOMENT_WORDS = "an ISO 8601 date or datetime"
MOMENT_HINT = " (write YYYY-MM-DD, or YYYY-MM-DDTHH:MM with a time)"

_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})", re.ASCII)
_DATETIME = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?"
    r"(Z|[+-]\d{2}:\d{2})?",
    re.ASCII,
)


class DateRefused(ValueError):
    """Not a date (or datetime) as siltfence writes them; the message is the reason."""


def shown(value: object) -> str:
    """How a refused value is quoted in a message: short, and never a whole document."""
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:37] + "...")
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        text = repr(value)
        return text if len(text) <= 40 else text[:37] + "..."
    return {"list": "a list", "dict": "an object"}.get(type(value).__name__, type(value).__name__)


def read_date(value: object) -> datetime.date:
    """``"2026-06-01"`` -> that date; ``DateRefused`` for anything else."""
    if isinstance(value, str) and len(value) <= LONGEST:
        match = _DATE.fullmatch(value)
        if match is not None:
            return _day(value, *match.groups(), words=DATE_WORDS)
    raise DateRefused(f"expected {DATE_WORDS}, got {shown(value)}")


def read_datetime(value: object) -> datetime.datetime:
    """``"2026-06-01T09:30"`` -> a datetime, naive when no offset is written."""
    if isinstance(value, str) and len(value) <= LONGEST:
        match = _DATETIME.fullmatch(value)
        if match is not None:
            return _moment(value, match.groups(), words=DATETIME_WORDS)
    raise DateRefused(f"expected {DATETIME_WORDS}, got {shown(value)}")


def read_date_or_datetime(value: object) -> tuple[datetime.date | datetime.datetime, bool]:
    """A date or a datetime, and whether a time was written."""
    if isinstance(value, str) and len(value) <= LONGEST:
        text = value  # exactly as written: no space or line end around it
        match = _DATE.fullmatch(text)
        if match is not None:
            return _day(value, *match.groups(), words=MOMENT_WORDS), False
        match = _DATETIME.fullmatch(text)
        if match is not None:
            return _moment(value, match.groups(), words=MOMENT_WORDS), True
    raise DateRefused(f"expected {MOMENT_WORDS}, got {shown(value)}{MOMENT_HINT}")


def _day(value: object, year: str, month: str, day: str, *, words: str) -> datetime.date:
    try:
        date = datetime.date(int(year), int(month), int(day))
    except ValueError:
        raise DateRefused(f"expected {words}, got {shown(value)}: no such day") from None
    if not YEARS[0] <= date.year <= YEARS[1]:
        raise DateRefused(f"expected a date from {YEARS[0]} to {YEARS[1]}, got {shown(value)}")
    return date


def _moment(value: object, parts: tuple[str | None, ...], *, words: str) -> datetime.datetime:
    year, month, day, hour, minute, second, fraction, offset = parts
    assert year is not None and month is not None and day is not None
    assert hour is not None and minute is not None
    date = _day(value, year, month, day, words=words)
    try:
        time = datetime.time(
            int(hour), int(minute), int(second or 0), int((fraction or "0").ljust(6, "0"))
        )
    except ValueError:
        raise DateRefused(f"expected {words}, got {shown(value)}: no such time") from None
    zone: datetime.tzinfo | None = None
    if offset == "Z":
        zone = datetime.UTC
    elif offset is not None:
        hours, minutes = int(offset[1:3]), int(offset[4:6])
        if hours > 23 or minutes > 59:
            raise DateRefused(f"expected {words}, got {shown(value)}: no such offset")
        sign = -1 if offset[0] == "-" else 1
        zone = datetime.timezone(sign * datetime.timedelta(hours=hours, minutes=minutes))
    return datetime.datetime.combine(date, time, tzinfo=zone)
