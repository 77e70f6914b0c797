"""Rain events as storms, and the 0.5-inch threshold (gap 4).

Neither chapter says whether "a rain of 0.5 inch" is one day's total or a storm over
several days. The reading taken (``rain-event`` in each ``rules.yaml``) counts a storm
of consecutive wet days as one rain, so a storm split across midnight is not missed:
rain events on the same or consecutive days are summed. The storm ends at the last
day's ``ended_at``, or else at the end of that day.

The threshold is decided on the measured value at the precision of NOAA's GHCN-Daily
records, tenths of a millimetre: each day's inches are converted to millimetres and
rounded to 0.1 mm (half up), and the storm's sum is compared with 0.5 inch = 12.7 mm.
So 0.50000027 in (12.7 mm) qualifies and 0.48818924 in (12.4 mm) does not.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from siltfence.core.timeline.context import next_midnight
from siltfence.core.timeline.events import Event

MM_PER_INCH = Decimal("25.4")
TENTH = Decimal("0.1")


def to_tenths_mm(inches: float) -> Decimal:
    """Inches as millimetres rounded to 0.1 mm, GHCN-Daily's precision."""
    return (Decimal(repr(inches)) * MM_PER_INCH).quantize(TENTH, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class Storm:
    events: tuple[Event, ...]
    start: datetime.datetime
    end: datetime.datetime
    first_day: datetime.date
    last_day: datetime.date
    mm: Decimal

    @property
    def inches(self) -> float:
        return float(sum(Decimal(repr(e.fields["inches"])) for e in self.events))

    def at_least(self, threshold_inches: float) -> bool:
        return self.mm >= to_tenths_mm(threshold_inches)

    @property
    def runoff(self) -> bool | None:
        """True if any record of the storm says runoff; False if a record says none and
        none says there was; None if nothing was said.

        A station's rain carries no word on runoff; the permittee who records that no
        runoff left the site during that storm (with their evidence) speaks for the whole
        storm. A record of runoff on any day still wins: the stricter reading."""
        said = [e.fields.get("runoff") for e in self.events]
        if any(s is True for s in said):
            return True
        if any(s is False for s in said):
            return False
        return None

    def describe(self) -> str:
        days = (
            self.first_day.isoformat()
            if self.first_day == self.last_day
            else f"{self.first_day.isoformat()} to {self.last_day.isoformat()}"
        )
        inches = f"{self.inches:.2f}".rstrip("0").rstrip(".")
        return f"rain of {inches} in ({self.mm} mm) on {days}"


def storms(rains: list[Event], zone: datetime.tzinfo) -> list[Storm]:
    """Group rain events (sorted by time) into storms of consecutive wet days."""
    groups: list[list[Event]] = []
    for rain in rains:
        if groups and (rain.day - _last_day(groups[-1])).days <= 1:
            groups[-1].append(rain)
        else:
            groups.append([rain])
    result = []
    for group in groups:
        last = max(group, key=_end_key)
        end = _ends(last, zone)
        result.append(
            Storm(
                events=tuple(group),
                start=group[0].at,
                end=end,
                first_day=group[0].day,
                last_day=_last_day(group),
                mm=sum((to_tenths_mm(e.fields["inches"]) for e in group), Decimal(0)),
            )
        )
    return result


def _ends(rain: Event, zone: datetime.tzinfo) -> datetime.datetime:
    ended = rain.fields.get("ended_at")
    if ended is not None:
        moment: datetime.datetime = ended[0]
        return moment if ended[1] else next_midnight(moment.date(), zone)
    return next_midnight(rain.day, zone)


def _end_key(rain: Event) -> datetime.datetime:
    ended = rain.fields.get("ended_at")
    return ended[0] if ended is not None else rain.at


def _last_day(group: list[Event]) -> datetime.date:
    last = group[-1].day
    for rain in group:
        ended = rain.fields.get("ended_at")
        if ended is not None:
            end_day = ended[0].date()
            # An end given as a date alone, or a time after midnight, is a wet day too.
            if end_day > last:
                last = end_day
    return last
