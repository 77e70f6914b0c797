"""Rains from a station's days, judged by a jurisdiction's rain rule, and rain events.

The reading of "a rain of 0.5 inch" is the timeline's (gaps 4 and 20, ``timeline/rain.py``):
consecutive wet days are summed, at GHCN-Daily's precision of 0.1 mm, until they reach the
threshold; that is one rain, and summing starts again after it. The rains here are made by
that same code, so ``siltfence rain storms`` and the duties engine cannot disagree about a
rain. The
threshold and its citation come from the ordinance data (the ``rain_inspection`` duty and
its ``threshold`` parameter), never from this code.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from siltfence.core.dates import DateRefused, read_date
from siltfence.core.errors import SiltfenceError
from siltfence.core.ordinance.model import Ordinance, ParameterValue
from siltfence.core.rain.readings import inches
from siltfence.core.timeline.events import Event
from siltfence.core.timeline.rain import each_rain, to_tenths_mm


def read_day(text: str, field: str) -> datetime.date:
    """A day asked about (``from``, ``to``), written exactly YYYY-MM-DD."""
    try:
        return read_date(text)
    except DateRefused as exc:
        raise SiltfenceError(f"{field}: {exc}", field=field) from None


def rain_rule(ordinance: Ordinance) -> Mapping[str, Any]:
    for rule in ordinance.rules["duties"]:
        if rule["kind"] == "rain_inspection":
            return rule  # type: ignore[no-any-return]
    raise SiltfenceError(
        f"jurisdiction: {ordinance.id} sets no inspection after rain", field="jurisdiction"
    )


def threshold_on(ordinance: Ordinance, day: datetime.date, field: str = "from") -> ParameterValue:
    rule = rain_rule(ordinance)
    parameter = ordinance.parameters[rule["threshold"]]
    first = parameter.values[0].effective
    if day < first:
        raise SiltfenceError(
            f"{field}: {day.isoformat()} is before Ch. {ordinance.chapter} set its rain rule "
            f"({first.isoformat()}, {parameter.values[0].citation})",
            field=field,
        )
    return parameter.at(day)


def _number(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".")


def storm_summaries(
    days: Mapping[datetime.date, int],
    ordinance: Ordinance,
    start: datetime.date,
    end: datetime.date,
    zone: datetime.tzinfo,
) -> list[dict[str, Any]]:
    """Every rain (consecutive wet days summed until they reach the threshold, and what is
    left of a storm below it) that has a day from ``start`` to ``end``.

    A rain reaching across ``start`` or ``end`` is shown whole.
    """
    rule = rain_rule(ordinance)
    wet = sorted(day for day, tenths in days.items() if tenths > 0)
    events = [
        Event(
            index=i,
            type="rain",
            at=datetime.datetime.combine(day, datetime.time(0), tzinfo=zone),
            has_time=False,
            fields={"inches": inches(days[day])},
        )
        for i, day in enumerate(wet)
    ]
    result = []

    parameter = ordinance.parameters[rule["threshold"]]

    def threshold_mm(day: datetime.date) -> Decimal:
        # Rains long before the range (a file from 1938) are only cut: the rule's first
        # value stands for days before it was set; a rain shown is judged below by the
        # rule in force on its first day, or refused if there was none.
        value = parameter.at(max(day, parameter.values[0].effective)).value
        assert isinstance(value, float)
        return to_tenths_mm(value)

    for storm in each_rain(events, zone, threshold_mm):
        if storm.last_day < start or storm.first_day > end:
            continue
        threshold = threshold_on(ordinance, storm.first_day, "from")
        assert isinstance(threshold.value, float)
        limit_mm = to_tenths_mm(threshold.value)
        tenths = sum(days[e.day] for e in storm.events)
        # The timeline's sum and this one are the same number (days are whole tenths).
        assert storm.mm == Decimal(tenths) / 10
        qualifies = storm.at_least(threshold.value)
        limit = f"{_number(threshold.value)} inch ({limit_mm} mm)"
        says = f"{storm.describe()}: " + (f"{limit} or more" if qualifies else f"less than {limit}")
        result.append(
            {
                "first_day": storm.first_day.isoformat(),
                "last_day": storm.last_day.isoformat(),
                "inches": round(tenths / 254, 3),
                "mm": float(storm.mm),
                "qualifies": qualifies,
                "citation": rule["citation"],
                "says": says,
                "days": [{"day": e.day.isoformat(), "mm": days[e.day] / 10} for e in storm.events],
            }
        )
    return result


def rain_events(
    days: Mapping[datetime.date, int],
    start: datetime.date,
    end: datetime.date,
    station: str | None,
) -> list[dict[str, Any]]:
    """The wet days from ``start`` to ``end`` as the timeline's ``rain`` events."""
    events = []
    for day in sorted(days):
        if start <= day <= end and days[day] > 0:
            event: dict[str, Any] = {
                "type": "rain",
                "at": day.isoformat(),
                "inches": inches(days[day]),
            }
            if station:
                event["station"] = station
            events.append(event)
    return events
