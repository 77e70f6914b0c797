"""The rain sweep: qualifying rain written onto the permits as rain events.

The sweep is set-based: for each station and village with rain, one ``INSERT ... SELECT``
writes the rain events of every active permit whose site draws its rain from that station,
and one more writes the sweep's memory of them. Which rains count is the core's reading of
the jurisdiction's rain rule (``siltfence.core.rain.storm_summaries``): a storm of
consecutive wet days that reaches the threshold of the ``rain_inspection`` duty in the
ordinance data, never a number written here.
"""

from __future__ import annotations

import datetime
import json
from collections import defaultdict
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from siltfence.apps.audit.chain import event_record
from siltfence.apps.duties.models import SiteStation
from siltfence.apps.rain.models import RainDay
from siltfence.core.ordinance.loader import load
from siltfence.core.rain.storms import storm_summaries

# How far back a storm may begin and still be swept: a storm is consecutive wet days, so a
# day's sweep looks back over the days it may join (a rain imported late is swept too).
LOOKBACK_DAYS = 14


@dataclass(frozen=True)
class SweepResult:
    day: datetime.date
    rain_events: int
    touched: list[int]  # permit ids a rain event landed on
    queries: int = 0
    # The qualifying rains (station, first day) with a day newly written: a rain of two wet
    # days is one rain (gap each-rain), however many permits it landed on.
    rains: frozenset[tuple[str, datetime.date]] = frozenset()


def _qualifying_rains(
    rows: list[RainDay], village_id: str, day: datetime.date, zone: datetime.tzinfo
) -> list[list[RainDay]]:
    """The wet days of each storm in ``rows`` (one station's days, see ``_station_days``)
    that reaches the village's rain rule and has a day from ``day - LOOKBACK_DAYS`` to
    ``day``, one list a rain."""
    start = day - datetime.timedelta(days=LOOKBACK_DAYS)
    by_day = {r.day: r for r in rows if r.tenths_mm is not None}
    summaries = storm_summaries(
        {d: r.tenths_mm for d, r in by_day.items() if r.tenths_mm is not None},
        load(village_id),
        start,
        day,
        zone,
    )
    return [
        [by_day[datetime.date.fromisoformat(d["day"])] for d in storm["days"]]
        for storm in summaries
        if storm["qualifies"]
    ]


def _station_days(stations: list[str], day: datetime.date) -> dict[str, list[RainDay]]:
    """Each station's days that a storm reaching back from ``day`` may hold, one query."""
    start = day - datetime.timedelta(days=2 * LOOKBACK_DAYS)
    rows: dict[str, list[RainDay]] = defaultdict(list)
    for row in RainDay.objects.filter(
        station_id__in=stations, day__gte=start, day__lte=day
    ).order_by("station_id", "day"):
        rows[row.station_id].append(row)
    return rows


def _open_on(day: datetime.date, prefix: str = "") -> Q:
    """Permits not closed before ``day``: a rain of that day is part of their record, even
    when it is recorded after the permit was closed (the inspections it owed were owed)."""
    return Q(**{f"{prefix}closed_on__isnull": True}) | Q(**{f"{prefix}closed_on__gte": day})


def _sweep_pairs(stations: list[str], day: datetime.date) -> list[tuple[str, str]]:
    """The (village, station) pairs with a permit open in the sweep's days whose site draws
    its rain from one of ``stations``: only there can a rain land. (Every village by every
    station with rain grows as their product: 1,560 pairs for a county, of which 56 had a
    site.)"""
    start = day - datetime.timedelta(days=2 * LOOKBACK_DAYS)
    return list(
        SiteStation.objects.filter(
            _open_on(start, "site__applications__permit__"),
            station_id__in=stations,
            site__applications__permit__isnull=False,
        )
        .values_list("site__applications__village_id", "station_id")
        .distinct()  # in the database: a few pairs come back, not a row for each permit
        .order_by("site__applications__village_id", "station_id")
    )


def rain_sweep(*, day: datetime.date) -> SweepResult:
    """Write each qualifying rain up to ``day`` onto every permit open on the rain's day (in
    force, revoked, or closed on or after it) that draws its rain from the station, once (a
    permit holding that station's rain of that day is left alone). Returns the permits a
    rain landed on (to recompute)."""
    wet = (
        RainDay.objects.filter(
            day__gte=day - datetime.timedelta(days=LOOKBACK_DAYS), day__lte=day, tenths_mm__gt=0
        )
        .values_list("station_id", flat=True)
        .distinct()
    )
    stations = sorted(set(wet))
    places = _sweep_pairs(stations, day) if stations else []
    days = _station_days(sorted({station for _, station in places}), day) if places else {}
    touched: set[int] = set()
    rains: set[tuple[str, datetime.date]] = set()
    written = 0
    with transaction.atomic():
        for village_id, station_id in places:
            zone = ZoneInfo(load(village_id).time_zone)
            for rain in _qualifying_rains(days.get(station_id, []), village_id, day, zone):
                for rain_day in rain:
                    RainDay.objects.select_for_update().filter(pk=rain_day.pk).exists()
                    count, permits = _land(rain_day, village_id, zone)
                    written += count
                    touched.update(permits)
                    if count:
                        rains.add((station_id, rain[0].day))
        if written:
            event_record(
                actor=None,
                entity="rain_sweep",
                entity_id=int(day.strftime("%Y%m%d")),
                action="rain_swept",
                reason=f"qualifying rain up to {day.isoformat()} written onto permits",
                after={"rain_events": written, "permits": len(touched)},
            )
    return SweepResult(
        day=day, rain_events=written, touched=sorted(touched), rains=frozenset(rains)
    )


def _land(rain_day: RainDay, village_id: str, zone: datetime.tzinfo) -> tuple[int, list[int]]:
    """One wet day onto every permit of the village at its station open that day (not
    closed before it), set-based: the permits that do not yet hold this station's rain of
    that day are found and their rain events written, in one statement on PostgreSQL and in
    two on SQLite, linear in the permits whatever their number. Call inside the sweep's
    transaction, holding the lock on the rain day (so two sweeps of the same day cannot
    both write)."""
    at = datetime.datetime.combine(rain_day.day, datetime.time(0), tzinfo=zone)
    inches = round((rain_day.tenths_mm or 0) / 254, 4)
    fields = json.dumps({"inches": inches, "station": rain_day.station_id})
    postgres = connection.vendor == "postgresql"
    station = "e.fields ->> 'station'" if postgres else "json_extract(e.fields, '$.station')"
    # The permits of the village at the station, open that day, not yet holding this rain.
    open_without_it = f"""SELECT p.id, p.application_id
               FROM permits_permit p
               JOIN permits_application a ON a.id = p.application_id
               JOIN duties_sitestation s ON s.site_id = a.site_id
               WHERE (p.closed_on IS NULL OR p.closed_on >= %s)
                 AND p.village_id = %s AND s.station_id = %s
                 AND p.issued_on <= %s
                 AND p.application_id NOT IN (
                     SELECT e.application_id FROM permits_timelineevent e
                     WHERE e.type = 'rain' AND e.at = %s AND {station} = %s)"""
    station_id = rain_day.station_id
    found_with: list[Any] = [rain_day.day, village_id, station_id, rain_day.day, at, station_id]
    with connection.cursor() as cursor:
        if postgres:
            # One statement: the permits found are written to in the database itself, and
            # only their ids come back (at 100,000 permits, no round trip of the ids).
            cursor.execute(
                f"""WITH found AS ({open_without_it}),
                     written AS (
                       INSERT INTO permits_timelineevent
                         (application_id, type, at, fields, recorded_at)
                       SELECT application_id, 'rain', %s, %s::jsonb, %s FROM found)
                   SELECT id FROM found""",
                [*found_with, at, fields, timezone.now()],
            )
            permits = sorted(permit for (permit,) in cursor.fetchall())
            return len(permits), permits
        cursor.execute(open_without_it, found_with)
        found = cursor.fetchall()
        if not found:
            return 0, []
        applications = sorted(application for _, application in found)
        cursor.execute(
            """INSERT INTO permits_timelineevent (application_id, type, at, fields, recorded_at)
                SELECT ids.value, 'rain', %s, %s, %s FROM json_each(%s) AS ids""",
            [at, fields, timezone.now(), json.dumps(applications)],
        )
    return len(found), sorted(permit for permit, _ in found)


@dataclass(frozen=True)
class RainCorrected:
    """The rain events that followed a corrected record: amounts changed, days withdrawn."""

    changed: int
    withdrawn: int
    touched: list[int]  # permit ids whose rain changed (to recompute)


def rain_events_follow_record(
    *, stations: list[str], first: datetime.date, last: datetime.date
) -> RainCorrected:
    """A station's days from ``first`` to ``last`` corrected in the rain record: each rain
    event written from them onto a permit takes the corrected amount, and one whose day the
    record now holds no rain for (none, or set aside) is withdrawn. The duties then follow
    from the permits' events (the core reads each rain's amount against the threshold), so a
    rain corrected below it owes no inspection. The permittee's own word on a rain (an event
    with no station) is never touched. Each change is on the audit record with the amount
    before and after."""
    from siltfence.apps.permits.models import TimelineEvent

    events = list(
        TimelineEvent.objects.filter(
            type="rain",
            fields__station__in=stations,
            at__gte=datetime.datetime.combine(
                first - datetime.timedelta(days=1), datetime.time(0), tzinfo=datetime.UTC
            ),
            at__lt=datetime.datetime.combine(
                last + datetime.timedelta(days=2), datetime.time(0), tzinfo=datetime.UTC
            ),
        ).select_related("application", "application__permit")
    )
    if not events:
        return RainCorrected(0, 0, [])
    recorded = {
        (station, day): tenths
        for station, day, tenths in RainDay.objects.filter(
            station_id__in=stations, day__gte=first, day__lte=last
        ).values_list("station_id", "day", "tenths_mm")
    }
    changed = withdrawn = 0
    touched: set[int] = set()
    with transaction.atomic():
        for event in events:
            application = event.application
            zone = ZoneInfo(load(application.village_id).time_zone)
            day = event.at.astimezone(zone).date()
            if not first <= day <= last:
                continue
            station = event.fields["station"]
            tenths = recorded.get((station, day))
            before = event.fields.get("inches")
            inches = round(tenths / 254, 4) if tenths else None
            if inches == before:
                continue
            if inches is None:
                event.delete()
                withdrawn += 1
            else:
                event.fields = {**event.fields, "inches": inches}
                event.save(update_fields=["fields"])
                changed += 1
            permit = getattr(application, "permit", None)
            if permit is not None:
                touched.add(permit.pk)
            event_record(
                actor=None,
                entity="application",
                entity_id=application.pk,
                action="rain_corrected",
                village=application.village_id,
                reason=f"the rain record of {station} for {day.isoformat()} was corrected",
                before={"day": day.isoformat(), "station": station, "inches": before},
                after={"day": day.isoformat(), "station": station, "inches": inches},
            )
    return RainCorrected(changed, withdrawn, sorted(touched))
