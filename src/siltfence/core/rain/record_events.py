"""A rain file's wet days joined to a permit's events, for the duties engine.

The file's rains are added for the permit's record span only: from the day of its first
event to the day of ``as_of``. A day for which the record already holds a ``rain`` event
keeps that event and the file's value is left out: what was recorded at the site (with
``runoff``, say) is the better evidence. Every added event names its station.
"""

from __future__ import annotations

import datetime
from typing import Any

from siltfence.core.rain.source import RainSource
from siltfence.core.rain.storms import rain_events
from siltfence.core.timeline.events import parse_events


def with_file_rains(
    events: list[Any], source: RainSource, zone: datetime.tzinfo, as_of: datetime.datetime
) -> tuple[list[Any], dict[str, Any]]:
    """(the events with the file's rains added, what was added: the ``rain`` output key)."""
    checked = parse_events(events, zone)
    local_as_of = as_of.astimezone(zone) if as_of.tzinfo is not None else as_of
    info: dict[str, Any] = {
        "station": source.station,
        "file": source.to_json(),
        "from": None,
        "to": None,
        "rain_days_added": 0,
        "notes": [],
    }
    notes: list[str] = list(source.notes)
    if not checked:
        notes.append("The record has no events, so no rain from the file was added")
        info["notes"] = _shaped(notes)
        return list(events), info
    start, end = checked[0].day, local_as_of.date()
    info["from"], info["to"] = start.isoformat(), end.isoformat()
    if end < start:
        info["notes"] = _shaped(notes)
        return list(events), info
    typed = {e.day for e in checked if e.type == "rain"}
    added = [
        e
        for e in rain_events(source.record.days, start, end, source.station.get("id"))
        if datetime.date.fromisoformat(e["at"]) not in typed
    ]
    kept = sorted(d for d in typed if d in source.record.days and source.record.days[d] > 0)
    if kept:
        notes.append(
            f"{len(kept)} day(s) already held a rain event in the record, which was kept "
            f"instead of the file's value: {', '.join(d.isoformat() for d in kept[:10])}"
        )
    total = (end - start).days + 1
    with_value = sum(1 for d in source.record.days if start <= d <= end)
    if with_value < total:
        notes.append(
            f"The rain file has no value for {total - with_value} of the {total} days from "
            f"{start.isoformat()} to {end.isoformat()}: a rain on those days is not counted"
        )
    info["rain_days_added"] = len(added)
    info["notes"] = _shaped(notes)
    return [*events, *added], info


def _shaped(notes: list[str]) -> list[dict[str, Any]]:
    return [{"says": n, "citations": []} for n in notes]
