"""NOAA Climate Data Online (CDO) "Daily Summaries" CSV exports.

The layout of the export (CDO's GHCN-Daily documentation, "CSV" output): a quoted header
line, then one quoted row per station and day::

    "STATION","NAME","DATE","PRCP","SNOW","SNWD","TMAX","TMIN"
    "USW00014839","MILWAUKEE MITCHELL INTERNATIONAL AIRPORT, WI US","2024-06-01","0.29",...

``LATITUDE``, ``LONGITUDE`` and ``ELEVATION`` follow ``NAME`` when station details were
asked for, and ``PRCP_ATTRIBUTES`` (``M,Q,S,T``: measurement, quality and source flags and
observation time) follows ``PRCP`` when data flags were. Columns are found by name. An empty
``PRCP`` is a missing value; a value with a quality flag is not used, with a note.

The units. CDO asks for "Standard" (inches) or "Metric" (millimetres) when the order is
placed, and the file does not say which. It writes standard precipitation in hundredths of
an inch (``0.29``) and metric precipitation in tenths of a millimetre (``7.4``), so the
first value written with a decimal point decides: two decimals are inches, one decimal is
millimetres. A later value written the other way, or a whole number other than 0 before
anything decided, is an error asking for the unit; give it (``units``: ``inch`` or ``mm``;
``--units`` on the command line) and it is used as given.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator

from siltfence.core.rain.errors import RainFileError
from siltfence.core.rain.lines import text
from siltfence.core.rain.readings import Reading, iso_day, tenths_from
from siltfence.core.rain.stations import check_ghcn_id

UNITS = ("inch", "mm")
ASK = 'say which with units "inch" or "mm" (--units on the command line)'


def _fields(line: str, number: int) -> list[str]:
    try:
        rows = list(csv.reader([line], strict=True))
    except csv.Error as exc:
        raise RainFileError(f"not valid CSV ({exc})", number) from None
    return [f.strip() for f in rows[0]] if rows else []


def looks_like(first: bytes) -> bool:
    try:
        names = {n.upper() for n in _fields(first.decode("utf-8"), 1)}
    except (UnicodeDecodeError, RainFileError):
        return False
    return {"STATION", "DATE", "PRCP"} <= names


def _decimals(value: str) -> int | None:
    if "." not in value:
        return None
    return len(value.split(".", 1)[1])


def read(lines: Iterable[tuple[int, bytes]], units: str | None = None) -> Iterator[Reading]:
    if units is not None and units not in UNITS:
        raise RainFileError(f'units: expected "inch" or "mm", got {units!r}')
    decided = units
    decided_by: int | None = None
    header: list[str] | None = None
    for number, raw in lines:
        line = text(raw, number)
        if not line.strip():
            continue
        fields = _fields(line, number)
        if header is None:
            header = [f.upper() for f in fields]
            at_station, at_date, at_prcp = (header.index(n) for n in ("STATION", "DATE", "PRCP"))
            at_flags = header.index("PRCP_ATTRIBUTES") if "PRCP_ATTRIBUTES" in header else None
            continue
        if len(fields) != len(header):
            raise RainFileError(
                f"expected {len(header)} fields like the header, got {len(fields)}", number
            )
        station = fields[at_station]
        if not station:
            raise RainFileError("STATION is empty", number)
        check_ghcn_id(station, number, "STATION")
        day = iso_day(fields[at_date], number, "DATE")
        value = fields[at_prcp]
        if not value:
            yield Reading(number, station, day, None)
            continue
        if units is None:
            places = _decimals(value)
            if places is not None and places not in (1, 2):
                raise RainFileError(
                    f"PRCP {value!r} is written with {places} decimals; CDO writes inches "
                    f"with 2 and millimetres with 1: {ASK}",
                    number,
                )
            seen = None if places is None else ("inch" if places == 2 else "mm")
            if decided is None and seen is not None:
                decided, decided_by = seen, number
            elif seen is not None and seen != decided:
                raise RainFileError(
                    f"PRCP {value!r} is written as {seen} but line {decided_by} was written "
                    f"as {decided}; the file's unit is unclear: {ASK}",
                    number,
                )
            elif decided is None and tenths_from(value, "mm", number) != 0:
                raise RainFileError(
                    f"PRCP {value!r} has no decimals, so the unit is unclear: {ASK}", number
                )
        if at_flags is not None:
            flags = fields[at_flags].split(",")
            quality = flags[1].strip() if len(flags) > 1 else ""
            if quality:
                yield Reading(
                    number, station, day, None, f"failed NOAA's quality control (Q flag {quality})"
                )
                continue
        yield Reading(number, station, day, tenths_from(value, decided or "mm", number))
