"""A station's daily record, collected from a file's readings."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass, field

from siltfence.core.rain.errors import RainFileError
from siltfence.core.rain.readings import Reading

# Without a station named, a file may hold this many stations before siltfence asks
# which one: a by_year file holds about 40,000 and is never collected whole.
MAX_STATIONS = 50


@dataclass
class StationRecord:
    """Every day of one station the file gives: an amount, missing, or set aside."""

    station: str | None
    days: dict[datetime.date, int] = field(default_factory=dict)  # tenths of mm
    missing: set[datetime.date] = field(default_factory=set)
    dropped: dict[datetime.date, str] = field(default_factory=dict)
    lines: dict[datetime.date, int] = field(default_factory=dict)

    def add(self, reading: Reading) -> None:
        seen = self.lines.get(reading.day)
        if seen is not None:
            who = f"{self.station} " if self.station else ""
            raise RainFileError(
                f"a second value for {who}{reading.day.isoformat()} (the first is on line {seen})",
                reading.line,
            )
        self.lines[reading.day] = reading.line
        if reading.tenths is not None:
            self.days[reading.day] = reading.tenths
        elif reading.dropped is not None:
            self.dropped[reading.day] = reading.dropped
        else:
            self.missing.add(reading.day)

    def span(self) -> tuple[datetime.date, datetime.date] | None:
        if not self.lines:
            return None
        return min(self.lines), max(self.lines)


def collect(readings: Iterable[Reading]) -> dict[str | None, StationRecord]:
    """The readings of each station (None for a file that names none), in bounded memory."""
    records: dict[str | None, StationRecord] = {}
    for reading in readings:
        record = records.get(reading.station)
        if record is None:
            if len(records) >= MAX_STATIONS:
                raise RainFileError(
                    f"the file holds more than {MAX_STATIONS} stations; say which one to use "
                    "(--station)",
                    reading.line,
                )
            record = records[reading.station] = StationRecord(reading.station)
        record.add(reading)
    return records
