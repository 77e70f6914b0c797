"""Rain records: readers for NOAA's and gauges' files, stations, storms and rain events.

Public surface:

- ``open_rain(stream, zone=..., station=None, site=None, units=None) -> RainSource``: read
  a rain file in any supported layout (chosen from its content) and pick its station;
- ``RainFile``: the lower-level streaming reader (``.format``, ``.readings()``);
- ``storms_report(source, ordinance, start, end)``: the storms and which qualify;
- ``rain_events(days, start, end, station)``: wet days as the timeline's ``rain`` events;
- ``with_file_rains(events, source, zone, as_of)``: a permit's events with the file's rains;
- ``registry()``, ``nearest(lat, lon)``, ``parse_point(text)``: the station list;
- ``RainFileError``: bad input, naming the line.

Amounts are whole tenths of a millimetre throughout (GHCN-Daily's unit); see ``readings``.
"""

from __future__ import annotations

import datetime
from typing import Any

from siltfence.core.ordinance.model import Ordinance
from siltfence.core.rain.errors import RainFileError
from siltfence.core.rain.lines import MAX_BYTES
from siltfence.core.rain.readings import Reading
from siltfence.core.rain.record_events import with_file_rains
from siltfence.core.rain.sniff import FORMATS, RainFile
from siltfence.core.rain.source import RainSource, open_rain
from siltfence.core.rain.stations import Station, nearest, parse_point, registry
from siltfence.core.rain.storms import (
    rain_events,
    rain_rule,
    read_day,
    storm_summaries,
    threshold_on,
)
from siltfence.core.timeline.rain import to_tenths_mm


def gap_notes(ordinance: Ordinance, *ids: str) -> list[dict[str, Any]]:
    """The jurisdiction's gap notes with these ids, in the timeline's note shape."""
    notes = []
    for gap in ordinance.rules["gaps"]:
        if gap["id"] in ids:
            notes.append(
                {
                    "id": gap["id"],
                    "says": gap["says"],
                    "citations": list(gap["citations"]),
                    "gap": gap.get("number"),
                }
            )
    return notes


def storms_report(
    source: RainSource,
    ordinance: Ordinance,
    start: datetime.date,
    end: datetime.date,
    zone: datetime.tzinfo,
) -> dict[str, Any]:
    """``{"station", "storms": [...]}`` and the record's notes, from ``start`` to ``end``."""
    if end < start:
        from siltfence.core.errors import SiltfenceError

        raise SiltfenceError(
            f"to: {end.isoformat()} is before from {start.isoformat()}", field="to"
        )
    threshold = threshold_on(ordinance, start, "from")
    assert isinstance(threshold.value, float)
    record = source.record
    summaries = storm_summaries(record.days, ordinance, start, end, zone)
    total = (end - start).days + 1
    with_value = sum(1 for d in record.days if start <= d <= end)
    notes: list[dict[str, Any]] = [{"says": n, "citations": []} for n in source.notes]
    missing = total - with_value
    if missing:
        absent = [
            start + datetime.timedelta(days=i)
            for i in range(total)
            if start + datetime.timedelta(days=i) not in record.days
        ]
        shown = ", ".join(d.isoformat() for d in absent[:10])
        notes.append(
            {
                "says": f"The record has no value for {missing} of the {total} days "
                f"({shown}{', ...' if missing > 10 else ''}): a rain on those days is not "
                "seen here",
                "citations": [],
            }
        )
    # The notes' numbers as of ``from``, the date the threshold is read on.
    notes.extend(gap_notes(ordinance.on(start), "rain-event", "rain-runoff"))
    return {
        "jurisdiction": ordinance.id,
        "from": start.isoformat(),
        "to": end.isoformat(),
        "station": source.station,
        "file": source.to_json(),
        "threshold": {
            "inches": threshold.value,
            "mm": float(to_tenths_mm(threshold.value)),
            "citation": rain_rule(ordinance)["citation"],
            "says": threshold.text,
        },
        "storms": summaries,
        "missing_days": missing,
        "notes": notes,
    }


__all__ = [
    "FORMATS",
    "MAX_BYTES",
    "RainFile",
    "RainFileError",
    "RainSource",
    "Reading",
    "Station",
    "gap_notes",
    "nearest",
    "open_rain",
    "parse_point",
    "rain_events",
    "read_day",
    "registry",
    "storms_report",
    "with_file_rains",
]
