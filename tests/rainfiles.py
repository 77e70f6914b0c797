"""Large rain files for the import tests: station-days in NOAA's GHCN-Daily CSV layout
(one line a station a day, tenths of a millimetre), with what each day should hold."""

from __future__ import annotations

import datetime
from pathlib import Path

STATIONS = ("USC00475573", "USW00014837", "USW00014839")


def many_days_file(path: Path, days: int = 20_000) -> dict[tuple[str, datetime.date], int]:
    """``days`` days from 1960-01-01 at each of three stations, and what each should hold."""
    expected = {}
    start = datetime.date(1960, 1, 1)
    with path.open("w") as out:
        for index in range(days):
            day = start + datetime.timedelta(days=index)
            stamp = day.strftime("%Y%m%d")
            for number, station in enumerate(STATIONS):
                value = (index * 7 + number * 13) % 97
                out.write(f"{station},{stamp},PRCP,{value},,,W,2400\n")
                expected[(station, day)] = value
    return expected
