"""One day's reading of one station, and the amounts in GHCN-Daily's own unit.

Every amount is kept as a whole number of tenths of a millimetre, the unit and precision
NOAA's GHCN-Daily records precipitation in. A value given in inches is converted once,
rounding half up to the nearest tenth of a millimetre, so 0.50000027 in (12.7 mm written
out in inches) is 127 tenths and qualifies as 0.5 inch, and 0.48818924 in is 124 tenths
and does not. No floating-point noise reaches the threshold.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from siltfence.core.dates import YEARS as DATE_YEARS
from siltfence.core.rain.errors import RainFileError

TENTHS_PER_INCH = Decimal(254)
TENTHS_PER_MM = Decimal(10)

# A day a rain record can name: GHCN-Daily's oldest records are from the 1760s, and no
# permit's record runs past the last year siltfence reads in any date (``core.dates``).
YEARS = (1700, DATE_YEARS[1])

# The most rain siltfence reads for one day at one place: 1,000 mm (39.37 in), in tenths
# of a millimetre. The world record for 24 hours is 1,825 mm (Foc-Foc, La Reunion,
# 7-8 January 1966, WMO); Wisconsin's is about 297 mm (11.72 in, Mellen, 24 June 1946).
# A value above the bound is a unit or typing error in any record a Wisconsin village
# uses (decision 34).
MOST_IN_A_DAY = 10_000
MOST_IN_A_DAY_WORDS = (
    "1,000 mm (39.37 in), the most rain siltfence reads for one day (the world record is "
    "1,825 mm in 24 hours); check the file's values and units"
)

_NUMBER = re.compile(r"[+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]{1,3})?")


@dataclass(frozen=True, slots=True)
class Reading:
    """What a file says of one day (or, for a gauge, one moment) at one station.

    ``tenths`` is the amount in tenths of a millimetre, or None where the file has no
    usable value: missing, or failed quality control (``dropped`` says why).
    """

    line: int
    station: str | None
    day: datetime.date
    tenths: int | None
    dropped: str | None = None


def tenths_from(text: str, unit: str, line: int, what: str = "PRCP") -> int:
    """A decimal amount written in ``unit`` ("inch" or "mm") as tenths of a millimetre."""
    cleaned = text.strip()
    if not _NUMBER.fullmatch(cleaned):
        raise RainFileError(f"{what}: expected an amount of 0 or more, got {_shown(text)}", line)
    try:
        amount = Decimal(cleaned)
    except InvalidOperation:  # pragma: no cover - the pattern admits only numbers
        raise RainFileError(f"{what}: expected an amount, got {_shown(text)}", line) from None
    # The first test keeps a number like 1e999 from being converted at all.
    if amount > MOST_IN_A_DAY or tenths_of(amount, unit) > MOST_IN_A_DAY:
        written = "in" if unit == "inch" else "mm"
        raise RainFileError(
            f"{what}: {_shown(text)} {written} is more than {MOST_IN_A_DAY_WORDS}", line
        )
    return tenths_of(amount, unit)


def tenths_of(amount: Decimal, unit: str) -> int:
    """An amount in ``unit`` ("inch" or "mm") as whole tenths of a millimetre, half up."""
    factor = TENTHS_PER_INCH if unit == "inch" else TENTHS_PER_MM
    return int((amount * factor).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def day_amount(tenths: int, line: int, what: str) -> int:
    """A day's amount in tenths of a millimetre, refused (naming ``what``) above the most
    rain siltfence reads for one day."""
    if tenths > MOST_IN_A_DAY:
        raise RainFileError(f"{what}: {mm_words(tenths)} is more than {MOST_IN_A_DAY_WORDS}", line)
    return tenths


def mm_words(tenths: int) -> str:
    """Tenths of a millimetre as a clerk reads them: ``99999`` -> ``9,999.9 mm``."""
    return f"{tenths // 10:,}.{tenths % 10} mm"


def day_from(year: int, month: int, day: int, line: int, what: str = "date") -> datetime.date:
    if not YEARS[0] <= year <= YEARS[1]:
        raise RainFileError(f"{what}: the year {year} is outside {YEARS[0]} to {YEARS[1]}", line)
    try:
        return datetime.date(year, month, day)
    except ValueError:
        raise RainFileError(
            f"{what}: {year:04d}-{month:02d}-{day:02d} is not a date", line
        ) from None


def iso_day(text: str, line: int, what: str = "date") -> datetime.date:
    cleaned = text.strip()
    if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", cleaned):
        raise RainFileError(f"{what}: expected a date written YYYY-MM-DD, got {_shown(text)}", line)
    return day_from(int(cleaned[:4]), int(cleaned[5:7]), int(cleaned[8:10]), line, what)


def inches(tenths: int) -> float:
    """Tenths of a millimetre as inches (for display and for the timeline's events)."""
    return round(tenths / 254, 6)


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")
