"""The redistributed daily CSV: GHCN-Daily pivoted to one row a day, in inches.

Its layout is a header line naming the columns, starting
``year,month,day,date,day_of_year`` and holding ``PRCP`` (precipitation, inches, converted
from GHCN's tenths of a millimetre), then one row per day; ``NA`` is a missing value. The
file names no station: say which with ``--station``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from siltfence.core.rain.errors import RainFileError
from siltfence.core.rain.lines import text
from siltfence.core.rain.readings import Reading, iso_day, tenths_from

LEAD = ("year", "month", "day", "date")


def looks_like(first: bytes) -> bool:
    names = [n.strip().strip(b'"').lower() for n in first.split(b",")[:4]]
    return tuple(n.decode("latin-1") for n in names) == LEAD


def read(lines: Iterable[tuple[int, bytes]], station: str | None = None) -> Iterator[Reading]:
    header: list[str] | None = None
    for number, raw in lines:
        line = text(raw, number)
        if not line.strip():
            continue
        fields = [f.strip().strip('"') for f in line.split(",")]
        if header is None:
            header = fields
            if "PRCP" not in header:
                raise RainFileError("the header has no PRCP column", number)
            at_date, at_prcp = header.index("date"), header.index("PRCP")
            ymd = [header.index(n) for n in ("year", "month", "day")]
            continue
        if len(fields) != len(header):
            raise RainFileError(
                f"expected {len(header)} fields like the header, got {len(fields)}", number
            )
        day = iso_day(fields[at_date], number)
        try:
            parts = tuple(int(fields[i]) for i in ymd)
        except ValueError:
            parts = ()
        if parts != (day.year, day.month, day.day):
            raise RainFileError(
                f"year, month and day {tuple(fields[i] for i in ymd)} do not match the "
                f"date {day.isoformat()}",
                number,
            )
        value = fields[at_prcp]
        if value in ("NA", ""):
            yield Reading(number, station, day, None)
            continue
        yield Reading(number, station, day, tenths_from(value, "inch", number))
