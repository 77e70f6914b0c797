"""GHCN-Daily ``.dly`` files: one station, one line per station, month and element.

The layout, from NOAA's GHCN-Daily readme (section III, "FORMAT OF DATA FILES (.dly
FILES)"), columns counted from 1::

    ID            1-11   Character
    YEAR         12-15   Integer
    MONTH        16-17   Integer
    ELEMENT      18-21   Character
    VALUE1       22-26   Integer
    MFLAG1       27-27   Character
    QFLAG1       28-28   Character
    SFLAG1       29-29   Character
    VALUE2       30-34   Integer
    ...                  (the same 8 columns for each day)
    VALUE31    262-266   Integer
    MFLAG31    267-267   Character
    QFLAG31    268-268   Character
    SFLAG31    269-269   Character

``PRCP`` is precipitation in tenths of a millimetre; ``-9999`` is a missing value (and fills
the days a month does not have). A blank QFLAG means the value passed every quality
assurance check; any other QFLAG means it failed one, and such a value is not used: the
day counts as missing, with a note. Lines of other elements (TMAX, SNOW, ...) are skipped.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Iterator

from siltfence.core.rain.errors import RainFileError
from siltfence.core.rain.lines import text
from siltfence.core.rain.readings import Reading, day_amount, day_from
from siltfence.core.rain.stations import check_ghcn_id

LINE_LENGTH = 269
HEAD = re.compile(rb"[A-Z0-9]{11}[0-9]{4}[0-9]{2}[A-Z0-9]{4}")
VALUE = re.compile(rb" *(-9999|-?[0-9]{1,5})")


def looks_like(first: bytes) -> bool:
    return HEAD.match(first) is not None and len(first) >= 26


def read(
    lines: Iterable[tuple[int, bytes]], wanted: Container[bytes] | None = None
) -> Iterator[Reading]:
    for number, raw in lines:
        if not raw.strip():
            continue
        if not HEAD.match(raw):
            raise RainFileError(
                "not a GHCN-Daily .dly line: expected an 11-character station ID, the year "
                "and month (YYYYMM) and a 4-letter element in columns 1-21",
                number,
            )
        if len(raw) > LINE_LENGTH:
            raise RainFileError(
                f"a .dly line is {LINE_LENGTH} characters long, this one {len(raw)}", number
            )
        if raw[17:21] != b"PRCP" or (wanted is not None and raw[:11] not in wanted):
            continue
        station = check_ghcn_id(text(raw[:11], number), number, "ID (columns 1-11)")
        year, month = int(raw[11:15]), int(raw[15:17])
        padded = raw.ljust(LINE_LENGTH)
        for index in range(31):
            start = 21 + 8 * index
            field = padded[start : start + 5]
            if not VALUE.fullmatch(field):
                raise RainFileError(
                    f"day {index + 1}: expected a whole number of tenths of mm or -9999 in "
                    f"columns {start + 1}-{start + 5}, got {field.decode('latin-1')!r}",
                    number,
                )
            value = int(field)
            if value == -9999:
                if index >= 28:
                    try:
                        day = day_from(year, month, index + 1, number)
                    except RainFileError:
                        continue  # the days a month does not have are filled with -9999
                else:
                    day = day_from(year, month, index + 1, number)
                yield Reading(number, station, day, None)
                continue
            day = day_from(year, month, index + 1, number)
            if value < 0:
                raise RainFileError(f"day {index + 1}: precipitation {value} is negative", number)
            qflag = padded[start + 6 : start + 7]
            if qflag != b" ":
                flag = qflag.decode("latin-1")
                yield Reading(
                    number, station, day, None, f"failed NOAA's quality control (Q flag {flag})"
                )
                continue
            yield Reading(number, station, day, day_amount(value, number, f"day {index + 1}"))
