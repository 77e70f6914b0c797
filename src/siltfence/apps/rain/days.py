"""A station's days into the rain record, on the audit record: by the import of a file
(``manage.py rain_import``, the staff's upload) or entered by hand at a village's own gauge
(``rain.gauges``).
"""

from __future__ import annotations

import datetime
import hashlib
from typing import Any

from django.db import transaction

from siltfence.apps.audit.chain import event_record
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.rain.models import RainDay, Station

UNKNOWN_STATION = "station: no station {station!r} is known"


def rain_days_record(
    *,
    station_id: str,
    days: dict[datetime.date, int],
    source: str,
    actor: Any = None,
    reason: str = "",
) -> tuple[int, int]:
    """A station's daily amounts (tenths of mm) into the rain record; a day stored with the
    same amount is left alone, a corrected amount replaces it. Returns (added, changed).
    Files are imported by the rain record's own import (``manage.py rain_import``); a
    village's own gauge is entered by hand by its staff (``actor``, with the ``reason`` for
    a correction) through ``siltfence.apps.rain.gauges``."""
    station = Station.objects.filter(pk=station_id).first()
    if station is None:
        raise ActionRefused(UNKNOWN_STATION.format(station=station_id[:20]), field="station")
    added = changed = 0
    with transaction.atomic():
        stored = dict(
            RainDay.objects.filter(station=station, day__in=list(days)).values_list(
                "day", "tenths_mm"
            )
        )
        new = [
            RainDay(station=station, day=day, tenths_mm=tenths, source=source[:20])
            for day, tenths in days.items()
            if day not in stored
        ]
        RainDay.objects.bulk_create(new, batch_size=1000)
        added = len(new)
        corrected = {}
        for day, tenths in days.items():
            if day in stored and stored[day] != tenths:
                RainDay.objects.filter(station=station, day=day).update(tenths_mm=tenths)
                corrected[day.isoformat()] = {"before": stored[day], "after": tenths}
                changed += 1
        if added or changed:
            # Rain sets duties: every day written is on the record, a correction with its
            # amount before and after (tenths of a millimetre).
            event_record(
                actor=actor,
                entity="rain_station",
                entity_id=_station_number(station.pk),
                action="rain_days_record",
                village=station.village_id or "",
                reason=(reason or source)[:300],
                after={
                    "station": station.pk,
                    "added": added,
                    "first": min(days).isoformat(),
                    "last": max(days).isoformat(),
                    **({"corrected": corrected} if corrected else {}),
                },
            )
    return added, changed


def _station_number(station_id: str) -> int:
    """A station's id as the audit record's number: stable, from its name."""
    return int(hashlib.sha256(station_id.encode()).hexdigest()[:15], 16)
