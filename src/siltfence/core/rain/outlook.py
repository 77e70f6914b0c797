"""A season outlook: for a planned schedule, how many qualifying rains (and so inspections
after rain) to expect, from a station's history.

The planned days (``start`` to ``end``, month and day) are laid over each year of the
history (1991 to 2020 by default, the current climate normals' span). Each year's storms
are the timeline's own (consecutive wet days are one rain, at GHCN-Daily's 0.1 mm), judged
by the jurisdiction's rain rule in force on the planned start, from its data; a storm with
a day in the window counts once. Years with more than a tenth of the window's days missing
from the record are left out and named. The answer gives the count for every year used,
the median, and the 10th and 90th percentiles (linear between the ranked years).
"""

from __future__ import annotations

import datetime
import statistics
from collections.abc import Mapping, Set
from typing import Any

from siltfence.core.errors import SiltfenceError
from siltfence.core.ordinance.model import Ordinance
from siltfence.core.rain.readings import inches
from siltfence.core.rain.storms import rain_rule, threshold_on
from siltfence.core.timeline.events import Event
from siltfence.core.timeline.rain import each_rain, to_tenths_mm

MAX_MISSING_SHARE = 0.10
MAX_DAYS = 366


def _on(year: int, month: int, day: int) -> datetime.date:
    if month == 2 and day == 29:
        try:
            return datetime.date(year, 2, 29)
        except ValueError:
            return datetime.date(year, 2, 28)  # a window ending on February 29 in a common year
    return datetime.date(year, month, day)


def window(
    start: datetime.date, end: datetime.date, year: int
) -> tuple[datetime.date, datetime.date]:
    """The planned days laid over ``year`` (the window starts in that year)."""
    first = _on(year, start.month, start.day)
    span = end.year - start.year
    last = _on(year + span, end.month, end.day)
    return first, last


def percentile(values: list[int], share: float) -> float:
    """The ``share`` percentile of ``values``, linear between ranks (Excel's PERCENTILE.INC,
    numpy's default)."""
    ranked = sorted(values)
    position = (len(ranked) - 1) * share
    low = int(position)
    high = min(low + 1, len(ranked) - 1)
    return ranked[low] + (ranked[high] - ranked[low]) * (position - low)


def season_outlook(
    days: Mapping[datetime.date, int],
    ordinance: Ordinance,
    start: datetime.date,
    end: datetime.date,
    zone: datetime.tzinfo,
    *,
    years: range = range(1991, 2021),
    missing: Set[datetime.date] = frozenset(),
) -> dict[str, Any]:
    """``days``: the station's record (tenths of mm a day, days with a value); ``missing``:
    days the record lists with no value. ``start``..``end``: the planned schedule."""
    if end < start:
        raise SiltfenceError(
            f"to: {end.isoformat()} is before from {start.isoformat()}", field="to"
        )
    if (end - start).days + 1 > MAX_DAYS:
        raise SiltfenceError("to: an outlook covers one season, at most 366 days", field="to")
    if not years:
        raise SiltfenceError("years: give at least one year of history", field="years")
    rule = rain_rule(ordinance)
    threshold = threshold_on(ordinance, start, "from")
    limit = threshold.value
    assert isinstance(limit, float)
    known = set(days) | set(missing)
    counts: dict[int, int] = {}
    left_out: list[dict[str, Any]] = []
    for year in years:
        first, last = window(start, end, year)
        total = (last - first).days + 1
        absent = sum(
            1
            for i in range(total)
            if (d := first + datetime.timedelta(days=i)) not in known or d in missing
        )
        if absent > total * MAX_MISSING_SHARE:
            left_out.append({"year": year, "days_missing": absent, "days": total})
            continue
        nearby = {
            d: v
            for d, v in days.items()
            if first - datetime.timedelta(days=31) <= d <= last + datetime.timedelta(days=31)
        }
        found = _qualifying(nearby, first, last, limit, zone)
        counts[year] = len(found)
    if not counts:
        raise SiltfenceError(
            f"years: the record has no year from {years.start} to {years.stop - 1} with the "
            "planned days (nine in ten of them) on record",
            field="years",
        )
    values = list(counts.values())
    inches = threshold.value
    assert isinstance(inches, float)
    return {
        "jurisdiction": ordinance.id,
        "planned": {"from": start.isoformat(), "to": end.isoformat()},
        "years": {"from": min(counts), "to": max(counts), "used": len(counts)},
        "rule": {
            "inches": inches,
            "citation": rule["citation"],
            "says": f"each rain of {inches:g} inch or more calls for an inspection after it",
        },
        "qualifying_rains": {
            "median": statistics.median(values),
            "p10": round(percentile(values, 0.10), 2),
            "p90": round(percentile(values, 0.90), 2),
            "min": min(values),
            "max": max(values),
            "by_year": counts,
        },
        "rain_inspections": {
            "median": statistics.median(values),
            "p10": round(percentile(values, 0.10), 2),
            "p90": round(percentile(values, 0.90), 2),
            "citation": rule["citation"],
        },
        "weekly_inspections": ((end - start).days + 1) // 7,
        "years_left_out": left_out,
        "notes": _notes(ordinance, rule),
    }


def _qualifying(
    days: Mapping[datetime.date, int],
    first: datetime.date,
    last: datetime.date,
    limit: float,
    zone: datetime.tzinfo,
) -> list[tuple[datetime.date, datetime.date, float]]:
    """The storms with a day from ``first`` to ``last`` that reach ``limit`` inches: the
    timeline's storms (``siltfence.core.timeline.rain``), judged by the rule in force on the
    planned days rather than in the year the rain fell."""
    wet = sorted(d for d, tenths in days.items() if tenths > 0)
    events = [
        Event(
            index=i,
            type="rain",
            at=datetime.datetime.combine(d, datetime.time(0), tzinfo=zone),
            has_time=False,
            fields={"inches": inches(days[d])},
        )
        for i, d in enumerate(wet)
    ]
    limit_mm = to_tenths_mm(limit)
    return [
        (rain.first_day, rain.last_day, float(rain.mm))
        for rain in each_rain(events, zone, lambda _: limit_mm)
        if rain.last_day >= first and rain.first_day <= last and rain.at_least(limit)
    ]


def _notes(ordinance: Ordinance, rule: Mapping[str, Any]) -> list[dict[str, Any]]:
    notes = [
        {
            "says": "Rain on consecutive days is summed until it reaches the rule, and that is "
            "one rain (gaps 4 and 20); each rain that meets the rule calls for one inspection "
            "after it.",
            "citations": [rule["citation"]],
        }
    ]
    if "period" in rule:
        notes.append(
            {
                "says": "The chapter asks for the inspection only after rain that results in "
                "runoff during active construction; the outlook counts every qualifying rain in "
                "the planned days, as if each ran off (the stricter reading).",
                "citations": [rule["citation"]],
            }
        )
    return notes
