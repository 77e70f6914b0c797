"""A site's own rain gauge as CSV: a time and an amount on each line.

The layout siltfence reads: a header line whose first column is the time (``timestamp``,
``time``, ``datetime`` or ``date``) and whose amount column names its unit, in inches or
millimetres: ``rain_in``, ``rain_mm``, ``inches``, ``mm``, ``precipitation (in)``,
``amount [mm]``. Then one row per reading::

    timestamp,rain_in
    2026-05-14T16:05,0.01
    2026-05-14T16:20,0.03
    2026-05-15,0.12

The time is an ISO 8601 date or date and time; one without an offset is local to the
village (America/Chicago for both), one with an offset is converted to local time. A
reading counts on the local day of its time stamp. Readings may come every few minutes (a
tipping bucket) or once a day: they are summed for each local day, exactly, and the day's
total is then put in tenths of a millimetre like every other record. An empty amount is a
missing reading.
"""

from __future__ import annotations

import csv
import datetime
import re
from collections.abc import Iterable, Iterator
from decimal import Decimal

from siltfence.core.rain.errors import RainFileError
from siltfence.core.rain.lines import text
from siltfence.core.rain.readings import (
    MOST_IN_A_DAY,
    MOST_IN_A_DAY_WORDS,
    YEARS,
    Reading,
    mm_words,
    tenths_from,
    tenths_of,
)

TIME_NAMES = ("timestamp", "time", "datetime", "date", "date_time")
UNIT = re.compile(r"(?:^|[\s_(\[-])(in|inch|inches|mm)[)\]]?$", re.IGNORECASE)
MOMENT = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,6})?)?)?"
)
OFFSET = re.compile(r"Z|[+-][0-9]{2}:?[0-9]{2}")


def _fields(line: str, number: int) -> list[str]:
    try:
        rows = list(csv.reader([line], strict=True))
    except csv.Error as exc:
        raise RainFileError(f"not valid CSV ({exc})", number) from None
    return [f.strip() for f in rows[0]] if rows else []


def _layout(fields: list[str]) -> tuple[int, int, str] | None:
    """(time column, amount column, unit) of a gauge header, or None."""
    names = [f.lower() for f in fields]
    if len(names) < 2 or names[0] not in TIME_NAMES:
        return None
    found = [(i, m.group(1).lower()) for i, n in enumerate(names[1:], 1) if (m := UNIT.search(n))]
    if len(found) != 1:
        return None
    at, unit = found[0]
    return 0, at, "mm" if unit == "mm" else "inch"


def looks_like(first: bytes) -> bool:
    try:
        return _layout(_fields(first.decode("utf-8"), 1)) is not None
    except (UnicodeDecodeError, RainFileError):
        return False


def _local_day(value: str, zone: datetime.tzinfo, number: int) -> datetime.date:
    cleaned = value.strip()
    head = MOMENT.match(cleaned)
    rest = cleaned[head.end() :] if head else ""
    if head is None or (rest and not OFFSET.fullmatch(rest)):
        raise RainFileError(
            f"time: expected an ISO 8601 date or date and time, got {value[:40]!r}", number
        )
    try:
        moment = datetime.datetime.fromisoformat(cleaned)
    except ValueError:
        raise RainFileError(f"time: {value[:40]!r} is not a real date or time", number) from None
    if not YEARS[0] <= moment.year <= YEARS[1]:
        raise RainFileError(
            f"time: the year {moment.year} is outside {YEARS[0]} to {YEARS[1]}", number
        )
    if moment.tzinfo is not None:
        try:
            moment = moment.astimezone(zone)
        except (OverflowError, ValueError):
            raise RainFileError(f"time: {value[:40]!r} is out of range", number) from None
    return moment.date()


def read(lines: Iterable[tuple[int, bytes]], zone: datetime.tzinfo) -> Iterator[Reading]:
    layout: tuple[int, int, str] | None = None
    totals: dict[datetime.date, tuple[Decimal, int]] = {}
    missing: dict[datetime.date, int] = {}
    for number, raw in lines:
        line = text(raw, number)
        if not line.strip():
            continue
        fields = _fields(line, number)
        if layout is None:
            layout = _layout(fields)
            if layout is None:
                raise RainFileError(
                    "a gauge file starts with a header: the time, then one amount column "
                    "naming its unit (rain_in or rain_mm)",
                    number,
                )
            width = len(fields)
            continue
        if len(fields) != width:
            raise RainFileError(
                f"expected {width} fields like the header, got {len(fields)}", number
            )
        at_time, at_amount, unit = layout
        day = _local_day(fields[at_time], zone, number)
        amount = fields[at_amount]
        if not amount:
            missing.setdefault(day, number)
            continue
        tenths_from(amount, unit, number, "amount")  # checks the number and its size
        total = totals.get(day, (Decimal(0), number))[0] + Decimal(amount)
        totals[day] = (total, number)
        # Refused at the reading that takes the day past the most rain read for one day.
        if tenths_of(total, unit) > MOST_IN_A_DAY:
            raise RainFileError(
                f"amount: the readings of {day} add up to {mm_words(tenths_of(total, unit))}, "
                f"more than {MOST_IN_A_DAY_WORDS}",
                number,
            )
    for day in sorted(set(totals) | set(missing)):
        if day in totals:
            total, number = totals[day]
            yield Reading(number, None, day, tenths_from(str(total), unit, number, "amount"))
        else:
            yield Reading(missing[day], None, day, None)
