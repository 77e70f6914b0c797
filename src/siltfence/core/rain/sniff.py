"""Which reader a rain file needs, decided from its first line, never from its name.

Each layout has a first line no other one has:

- a GHCN-Daily ``.dly`` line starts with 21 fixed-width characters: an 11-character
  station ID, YYYYMM and a 4-letter element (``USW00014839202405PRCP``);
- a GHCN-Daily ``by_station`` / ``by_year`` CSV row starts ``ID,YYYYMMDD,ELEMENT,``
  (``USW00014839,20240501,PRCP,``), or is the header ``ID,DATE,ELEMENT,DATA_VALUE,...``;
- the redistributed daily CSV's header starts ``year,month,day,date``;
- a Climate Data Online export's header names ``STATION``, ``DATE`` and ``PRCP``;
- a gauge file's header starts with a time column and names one amount column in inches
  or millimetres.

The checks run in that order; a first line none of them accepts is an error that lists
what is read. Blank lines before the first line are skipped.

A record holds days that have been measured. Given the day the file is read (``read_on``,
in the village's zone), a value for a day after the next one is refused: a file of
forecasts is not a record, and a rain written onto a permit before it fell would set an
inspection for a storm that may never come. The one day of slack is for a station whose
day ends ahead of the village's clock (a by_year file's stations east of Wisconsin, a
gauge's clock set to UTC). A day given as missing is no measurement and is read as before:
NOAA's ``.dly`` file fills the days of the current month still to come with -9999.
"""

from __future__ import annotations

import datetime
import itertools
from collections.abc import Collection, Container, Iterator
from typing import BinaryIO

from siltfence.core.rain.errors import RainFileError
from siltfence.core.rain.formats import cdo, daily_csv, dly, gauge, ghcn_csv
from siltfence.core.rain.lines import MAX_BYTES, MAX_LINE, numbered_lines
from siltfence.core.rain.readings import Reading

FORMATS = {
    "ghcn-dly": "GHCN-Daily .dly",
    "ghcn-csv": "GHCN-Daily by_station / by_year CSV",
    "daily-csv": "daily CSV in inches (year,month,day,date,...,PRCP)",
    "cdo-csv": "NOAA Climate Data Online daily summaries CSV",
    "gauge-csv": "gauge CSV (time and amount in in or mm)",
}
# The column that gives a reading's day, in each layout: what a refused day names.
DAY_FIELDS = {
    "ghcn-dly": "YEAR and MONTH (columns 12-17)",
    "ghcn-csv": "DATE",
    "daily-csv": "date",
    "cdo-csv": "DATE",
    "gauge-csv": "time",
}
WHAT_IS_READ = (
    "not a rain file siltfence reads: expected a GHCN-Daily .dly or CSV file, a daily CSV "
    "with a year,month,day,date,...,PRCP header, a Climate Data Online CSV (STATION, DATE, "
    "PRCP), or a gauge CSV with a header like timestamp,rain_in"
)


def sniff(first: bytes) -> str:
    """The format id of a file whose first non-blank line is ``first``."""
    if dly.looks_like(first):
        return "ghcn-dly"
    if ghcn_csv.looks_like(first):
        return "ghcn-csv"
    if daily_csv.looks_like(first):
        return "daily-csv"
    if cdo.looks_like(first):
        return "cdo-csv"
    if gauge.looks_like(first):
        return "gauge-csv"
    raise RainFileError(WHAT_IS_READ, 1)


class RainFile:
    """A rain file being read: its format (known once opened) and its readings (a stream).

    ``stations``: keep only these station IDs (None keeps all); rows of other stations in
    a GHCN-Daily file are dropped unread. ``station``: the ID to give readings of a file
    that names none (the daily CSV, a gauge). ``units``: a CDO export's unit when it cannot
    be told from the file. ``zone``: the village's time zone, for a gauge's time stamps.
    ``read_on``: the day the file is read in that zone; without it, no day is too late.
    """

    def __init__(
        self,
        stream: BinaryIO,
        *,
        zone: datetime.tzinfo,
        stations: Collection[str] | None = None,
        station: str | None = None,
        units: str | None = None,
        max_bytes: int = MAX_BYTES,
        max_line: int = MAX_LINE,
        read_on: datetime.date | None = None,
    ) -> None:
        lines = numbered_lines(stream, max_line=max_line, max_bytes=max_bytes)
        first: tuple[int, bytes] | None = None
        for number, raw in lines:
            if raw.strip():
                first = (number, raw)
                break
        if first is None:
            raise RainFileError("the file is empty")
        try:
            self.format = sniff(first[1])
        except RainFileError:
            raise RainFileError(WHAT_IS_READ, first[0]) from None
        self._lines = itertools.chain([first], lines)
        self._zone = zone
        self._wanted: Container[bytes] | None = (
            None if stations is None else {s.encode("ascii", "replace") for s in stations}
        )
        self._station = station
        self._units = units
        self._read_on = read_on

    def keep_only(self, wanted: Container[bytes] | None) -> None:
        """Keep only the rows whose first 11 bytes (the station ID) are ``in wanted``."""
        self._wanted = wanted

    @property
    def description(self) -> str:
        return FORMATS[self.format]

    def readings(self) -> Iterator[Reading]:
        readings = self._read()
        if self._read_on is None:
            return readings
        return self._measured(readings, self._read_on)

    def _measured(self, readings: Iterator[Reading], read_on: datetime.date) -> Iterator[Reading]:
        latest = read_on + datetime.timedelta(days=1)
        for reading in readings:
            measured = reading.tenths is not None or reading.dropped is not None
            if measured and reading.day > latest:
                raise RainFileError(
                    f"{DAY_FIELDS[self.format]}: {reading.day.isoformat()} is in the future "
                    f"(the file was read on {read_on.isoformat()}, and a day up to "
                    f"{latest.isoformat()} is taken): a rain record holds only days already "
                    "measured, not a forecast",
                    reading.line,
                )
            yield reading

    def _read(self) -> Iterator[Reading]:
        if self.format == "ghcn-dly":
            return dly.read(self._lines, self._wanted)
        if self.format == "ghcn-csv":
            return ghcn_csv.read(self._lines, self._wanted)
        if self.format == "daily-csv":
            return daily_csv.read(self._lines, self._station)
        if self.format == "cdo-csv":
            wanted = self._wanted
            return (
                r
                for r in cdo.read(self._lines, self._units)
                if wanted is None or (r.station or "").encode("ascii", "replace") in wanted
            )
        return (
            Reading(r.line, self._station, r.day, r.tenths, r.dropped)
            for r in gauge.read(self._lines, self._zone)
        )
