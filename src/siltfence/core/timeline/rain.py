"""Rain events as rains, and the 0.5-inch threshold (gaps 4 and 20).

Neither chapter says whether "a rain of 0.5 inch" is one day's total or a storm over
several days (gap 4), and both ask for an inspection after "each rain" (gap 20). The
reading taken (``rain-event`` in each ``rules.yaml``): rain events on the same or
consecutive days are summed, in time order, until the sum reaches the threshold; that
is one rain, and it ends when the event that brought it to the threshold ended (its
``ended_at``, or else the end of its day). Summing then starts again. So

- a storm split across midnight is not missed (0.3 in on each of two days is a rain);
- every day of 0.5 inch or more is a rain of its own, or ends one, so no reading owes
  fewer inspections, or later ones, than taking each such day alone;
- a rain, once it has reached the threshold, is never changed by a rain recorded after
  it: the duty it set never moves later and never disappears.

Rain left over at the end of a storm that never reaches the threshold is a rain too,
one that sets no duty.

The threshold is decided on the measured value at the precision of NOAA's GHCN-Daily
records, tenths of a millimetre: each day's inches are converted to millimetres and
rounded to 0.1 mm (half up), and the storm's sum is compared with 0.5 inch = 12.7 mm.
So 0.50000027 in (12.7 mm) qualifies and 0.48818924 in (12.4 mm) does not.
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from siltfence.core.quantities import INCH
from siltfence.core.timeline.context import next_midnight
from siltfence.core.timeline.events import Event

MM_PER_INCH = (Decimal(repr(INCH)) * 1000).normalize()  # 25.4, from the one table
TENTH = Decimal("0.1")


@functools.lru_cache(maxsize=4096)
def to_tenths_mm(inches: float) -> Decimal:
    """Inches as millimetres rounded to 0.1 mm, GHCN-Daily's precision (kept for the
    amounts last seen: a station's rain is read for every permit it falls on)."""
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
    return [_storm(group, zone) for group in groups]


def each_rain(
    events: list[Event],
    zone: datetime.tzinfo,
    threshold_mm: Callable[[datetime.date], Decimal],
) -> list[Storm]:
    """The rains of rain events sorted by time (the module's reading, gaps 4 and 20).

    ``threshold_mm(day)``: the threshold in force for a rain whose first day is ``day``,
    in tenths of a millimetre as :func:`to_tenths_mm` gives it. Each storm of consecutive
    wet days is cut after every event that brings its running sum to the threshold; what
    is left at its end is a rain below the threshold. A record of no amount (the
    permittee's word on runoff, decision 14) adds nothing and cuts nothing: it joins the
    rains of its day.
    """
    result: list[Storm] = []
    for storm in storms(events, zone):
        records = [e for e in storm.events if to_tenths_mm(e.fields["inches"]) == 0]
        pieces: list[list[Event]] = []
        piece: list[Event] = []
        total = Decimal(0)
        for event in storm.events:
            amount = to_tenths_mm(event.fields["inches"])
            if amount == 0:
                continue
            piece.append(event)
            total += amount
            if total >= threshold_mm(piece[0].day):
                pieces.append(piece)
                piece, total = [], Decimal(0)
        if piece:
            pieces.append(piece)
        if not pieces:
            result.append(storm)
            continue
        spans = [(p[0].day, _last_day(p)) for p in pieces]
        joined: list[list[Event]] = [[] for _ in pieces]
        for record in records:
            holding = [i for i, (a, b) in enumerate(spans) if a <= record.day <= b]
            before = [i for i, (a, _) in enumerate(spans) if a <= record.day]
            for i in holding or before[-1:] or [0]:
                joined[i].append(record)
        result.extend(_storm(p, zone, extra) for p, extra in zip(pieces, joined, strict=True))
    return result


def _storm(group: list[Event], zone: datetime.tzinfo, records: Sequence[Event] = ()) -> Storm:
    """A rain of ``group``'s events; ``records`` of no amount join it without moving its end."""
    last = max(group, key=_end_key)
    every = sorted([*group, *records], key=lambda e: (e.at, e.index))
    return Storm(
        events=tuple(every),
        start=every[0].at,
        end=_ends(last, zone),
        first_day=every[0].day,
        last_day=_last_day(group),
        mm=sum((to_tenths_mm(e.fields["inches"]) for e in group), Decimal(0)),
    )


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
