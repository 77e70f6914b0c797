"""GHCN-Daily CSV files: ``by_station`` (one station) and ``by_year`` (every station).

The layout, from NOAA's ``readme-by_csv.txt``: one station-day per line, no header, the
fields separated by commas in this order::

    ID             11 character station identification code
    YEAR/MONTH/DAY 8 character date in YYYYMMDD format (e.g. 19860529 = May 29, 1986)
    ELEMENT        4 character indicator of element type
    DATA VALUE     5 character data value for ELEMENT
    M-FLAG         1 character Measurement Flag
    Q-FLAG         1 character Quality Flag
    S-FLAG         1 character Source Flag
    OBS-TIME       4-character time of observation in hour-minute format (0700 = 7:00 am)

``PRCP`` is in tenths of a millimetre. A non-blank Q-FLAG means the value failed a quality
check; it is not used (the day counts as missing, with a note). The copies NOAA puts on
cloud storage add a header line ``ID,DATE,ELEMENT,DATA_VALUE,M_FLAG,Q_FLAG,S_FLAG,OBS_TIME``;
it is skipped.

A ``by_year`` file holds every station in the world for one year, tens of millions of rows.
It is read as a stream, and a row of a station nobody asked for is dropped on its first 11
bytes, before anything else of it is looked at, so memory stays bounded by the stations kept.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Iterator

from siltfence.core.rain.errors import RainFileError
from siltfence.core.rain.lines import text
from siltfence.core.rain.readings import Reading, day_amount, day_from
from siltfence.core.rain.stations import check_ghcn_id

ROW = re.compile(rb"[A-Z0-9]{11},[0-9]{8},[A-Z0-9]{4},")
HEADER = b"ID,DATE,ELEMENT,DATA_VALUE"
VALUE = re.compile(rb"-?[0-9]{1,5}")


def looks_like(first: bytes) -> bool:
    return ROW.match(first) is not None or first.upper().startswith(HEADER)


def read(
    lines: Iterable[tuple[int, bytes]], wanted: Container[bytes] | None = None
) -> Iterator[Reading]:
    for number, raw in lines:
        if wanted is not None and raw[11:12] == b"," and raw[:11] not in wanted:
            continue  # another station's row: not read at all
        if not raw.strip() or raw.upper().startswith(HEADER):
            continue
        parts = raw.split(b",")
        if len(parts) not in (7, 8) or not ROW.match(raw):
            raise RainFileError(
                "expected ID,YYYYMMDD,ELEMENT,VALUE,M-FLAG,Q-FLAG,S-FLAG,OBS-TIME (GHCN-Daily CSV)",
                number,
            )
        if parts[2] != b"PRCP":
            continue
        date = parts[1]
        day = day_from(int(date[:4]), int(date[4:6]), int(date[6:8]), number, "DATE")
        station = check_ghcn_id(text(parts[0], number), number, "ID")
        value_text = parts[3].strip()
        if not VALUE.fullmatch(value_text):
            raise RainFileError(
                f"DATA VALUE: expected a whole number of tenths of mm, got "
                f"{value_text.decode('latin-1')!r}",
                number,
            )
        value = int(value_text)
        if value == -9999:
            yield Reading(number, station, day, None)
            continue
        if value < 0:
            raise RainFileError(f"DATA VALUE: precipitation {value} is negative", number)
        qflag = parts[5].strip()
        if qflag:
            flag = qflag.decode("latin-1")
            yield Reading(
                number, station, day, None, f"failed NOAA's quality control (Q flag {flag})"
            )
            continue
        yield Reading(number, station, day, day_amount(value, number, "DATA VALUE"))
