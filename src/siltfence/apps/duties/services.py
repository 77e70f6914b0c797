"""Writes of the rain and duties record: stations, rain days, the daily sweep, and each
permit's stored duties. Every write is one transaction.

The sweep is set-based: for each station and village with rain, one ``INSERT ... SELECT``
writes the rain events of every active permit whose site draws its rain from that station,
and one more writes the sweep's memory of them. Which rains count is the core's reading of
the jurisdiction's rain rule (``siltfence.core.rain.storm_summaries``): a storm of
consecutive wet days that reaches the threshold of the ``rain_inspection`` duty in the
ordinance data, never a number written here.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from siltfence.apps.audit.chain import event_record
from siltfence.apps.duties.models import PermitDuties, SiteStation
from siltfence.apps.permits.clocks import closures_of
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.inputs import ordinance_digest
from siltfence.apps.permits.models import (
    Permit,
    PermitStatus,
    Site,
    TimelineEvent,
)
from siltfence.apps.rain.models import RainDay, Station
from siltfence.core.ordinance.loader import load
from siltfence.core.rain import nearest, registry, storm_summaries
from siltfence.core.rain.stations import geodesic_km
from siltfence.core.timeline import Timeline

# How far back a storm may begin and still be swept: a storm is consecutive wet days, so a
# day's sweep looks back over the days it may join (a rain imported late is swept too).
LOOKBACK_DAYS = 14
RECOMPUTE_CHUNK = 2000
# A permit's last day is told this many days ahead: an extension must be granted while the
# period runs (an expired permit cannot be extended, § 413-8E(1), § 135-7G), and a village
# office may need weeks to decide one. The reminders tell it, and the staff's dashboard
# lists the permits ending within it.
EXPIRY_NOTICE_DAYS = 30

NO_REASON = "reason: say why this station's rain stands for the site"
UNKNOWN_STATION = "station: no station {station!r} is known"


# -- stations and where a site draws its rain from ------------------------------------


def stations_sync() -> int:
    """The stations siltfence ships, as rows of the rain record (added or corrected)."""
    count = 0
    for station in registry().values():
        Station.objects.update_or_create(id=station.id, defaults=Station.listed_fields(station))
        count += 1
    return count


def site_point(site: Site) -> tuple[float, float, str]:
    """Where a site is (latitude, longitude) and how that is known: the site boundary of
    its latest control plan, else its stored geometry, else the village's centre."""
    from shapely.geometry import shape

    from siltfence.apps.plans.models import ControlPlan

    candidates: list[tuple[Any, str]] = []
    plan = (
        ControlPlan.objects.filter(application__site=site)
        .order_by("-revision")
        .values_list("plan", flat=True)
        .first()
    )
    if isinstance(plan, dict):
        for feature in (plan.get("site") or {}).get("features", []):
            if (feature.get("properties") or {}).get("kind") == "site_boundary":
                candidates.append((feature.get("geometry"), "the site boundary of the plan"))
    if isinstance(site.geometry, dict):
        geometry = site.geometry
        if geometry.get("type") == "FeatureCollection":
            for feature in geometry.get("features", []):
                candidates.append((feature.get("geometry"), "the site's drawing"))
        elif geometry.get("type") == "Feature":
            candidates.append((geometry.get("geometry"), "the site's drawing"))
        else:
            candidates.append((geometry, "the site's drawing"))
    for geometry, how in candidates:
        try:
            centre = shape(geometry).centroid
        except Exception:  # a drawing shapely cannot read: try the next source
            continue
        if not centre.is_empty:
            return float(centre.y), float(centre.x), how
    latitude, longitude = load(site.village_id).map_centre
    return latitude, longitude, "the village's centre (the site has no drawing yet)"


# A station's record reaches the village with some delay (NOAA publishes GHCN-Daily days
# later; a clerk imports now and then): a station counts as recording for a permit if it
# has any day on record from this many days before the permit's issue.
RECORD_LAG_DAYS = 30
# The farthest a station is chosen for a site on its own: beyond, staff choose one and say
# why its rain stands for the site's.
NEAREST_WITHIN_KM = 50


def site_rain_period(site: Site) -> tuple[datetime.date, datetime.date]:
    """The days whose rain matters for the site: its latest permit's, from the issue to
    today (or the permit's last day, if that came first); with no permit, the last month."""
    today = timezone.localdate()
    permit = Permit.objects.filter(application__site=site).order_by("-issued_on", "-pk").first()
    if permit is None:
        return today - datetime.timedelta(days=RECORD_LAG_DAYS), today
    return permit.issued_on, max(min(today, permit.expires_on), permit.issued_on)


def site_unrecorded(site: Site, station_id: str) -> str:
    """The days of the site's period, up to yesterday, for which the station has no record,
    in words ("" when it has every one): rain on them is unknown, not dry (gap 26)."""
    from siltfence.apps.rain.selectors import spans_text, unrecorded_spans

    start, end = site_rain_period(site)
    yesterday = timezone.localdate() - datetime.timedelta(days=1)
    return spans_text(unrecorded_spans(station_id, start, min(end, yesterday)))


def site_station_assign(*, site: Site) -> SiteStation | None:
    """The nearest station to the site with a record for its period, within
    ``NEAREST_WITHIN_KM``, unless staff pinned one (kept, distance refreshed). A station
    with no day on record for the period is never chosen: its silence would read as no
    rain (gap 26). With none, the site has no station yet (the daily sweep tries again),
    and the permit page says so."""
    from siltfence.apps.rain.selectors import stations_recorded_between

    latitude, longitude, _ = site_point(site)
    existing = SiteStation.objects.filter(site=site).select_related("station").first()
    if existing is not None and existing.pinned_reason:
        existing.latitude, existing.longitude = latitude, longitude
        existing.distance_km = geodesic_km(
            latitude, longitude, existing.station.latitude, existing.station.longitude
        )
        existing.save(update_fields=["latitude", "longitude", "distance_km"])
        return existing
    located = Station.objects.filter(latitude__isnull=False, longitude__isnull=False)
    if not located.exists():
        stations_sync()
    start, end = site_rain_period(site)
    recording = stations_recorded_between(start - datetime.timedelta(days=RECORD_LAG_DAYS), end)
    rows = list(located.filter(pk__in=recording))
    found = nearest(latitude, longitude, [_core_station(s) for s in rows])
    if found is None or found[1] > NEAREST_WITHIN_KM:
        return None
    station, distance = found
    link, _ = SiteStation.objects.update_or_create(
        site=site,
        defaults={
            "station_id": station.id,
            "distance_km": distance,
            "latitude": latitude,
            "longitude": longitude,
            "pinned_reason": "",
        },
    )
    return link


def site_station_pin(*, site: Site, staff: Any, station_id: str, reason: str) -> SiteStation:
    """Staff choose the station whose rain counts for a site, and say why."""
    from siltfence.apps.accounts.rules import is_staff_of

    if not is_staff_of(staff, site):
        raise ActionRefused("Only the village's staff may choose a site's rain station.")
    reason = " ".join("".join(ch for ch in str(reason) if ch >= " " or ch in "\n\t").split())
    if not reason:
        raise ActionRefused(NO_REASON, field="reason")
    if len(reason) > 300:
        raise ActionRefused("reason: at most 300 characters", field="reason")
    wanted = str(station_id)
    known = wanted.isascii() and wanted.isalnum() and len(wanted) <= 20
    station = Station.objects.filter(pk=wanted, latitude__isnull=False).first() if known else None
    if station is None:
        raise ActionRefused(UNKNOWN_STATION.format(station=str(station_id)[:20]), field="station")
    assert station.latitude is not None and station.longitude is not None
    latitude, longitude, _ = site_point(site)
    distance = geodesic_km(latitude, longitude, station.latitude, station.longitude)
    with transaction.atomic():
        before = SiteStation.objects.filter(site=site).values("station_id", "pinned_reason").first()
        link, _ = SiteStation.objects.update_or_create(
            site=site,
            defaults={
                "station": station,
                "distance_km": distance,
                "latitude": latitude,
                "longitude": longitude,
                "pinned_reason": reason,
            },
        )
        event_record(
            actor=staff,
            entity="site",
            entity_id=site.pk,
            action="rain_station_pinned",
            village=site.village_id,
            reason=reason,
            before=before or {},
            after={"station_id": station.id, "distance_km": round(distance, 1)},
        )
    return link


def site_station_unpin(*, site: Site, staff: Any) -> SiteStation | None:
    """Staff go back to the nearest station for a site (none, if no station has a record
    for the site's period)."""
    from siltfence.apps.accounts.rules import is_staff_of

    if not is_staff_of(staff, site):
        raise ActionRefused("Only the village's staff may choose a site's rain station.")
    with transaction.atomic():
        before = SiteStation.objects.filter(site=site).values("station_id", "pinned_reason").first()
        SiteStation.objects.filter(site=site).update(pinned_reason="")
        link = site_station_assign(site=site)
        if link is None:
            SiteStation.objects.filter(site=site).delete()
        event_record(
            actor=staff,
            entity="site",
            entity_id=site.pk,
            action="rain_station_nearest",
            village=site.village_id,
            before=before or {},
            after=(
                {"station_id": None}
                if link is None
                else {"station_id": link.station_id, "distance_km": round(link.distance_km, 1)}
            ),
        )
    return link


def _core_station(row: Station) -> Any:
    from siltfence.core.rain import Station as CoreStation

    return CoreStation(
        id=row.id,
        latitude=float(row.latitude or 0),
        longitude=float(row.longitude or 0),
        elevation_m=row.elevation_m,
        state=row.state,
        name=row.name,
    )


# -- rain days -------------------------------------------------------------------------


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


# -- the sweep -------------------------------------------------------------------------


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
    return sorted(
        set(
            SiteStation.objects.filter(
                _open_on(start, "site__applications__permit__"),
                station_id__in=stations,
                site__applications__permit__isnull=False,
            ).values_list("site__applications__village_id", "station_id")
        )
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
    closed before it), set-based: one
    query finds the permits that do not yet hold this station's rain of that day, one
    writes their rain events. Both are linear in the permits, whatever their number. Call
    inside the sweep's transaction, holding the lock on the rain day (so two sweeps of the
    same day cannot both write)."""
    at = datetime.datetime.combine(rain_day.day, datetime.time(0), tzinfo=zone)
    inches = round((rain_day.tenths_mm or 0) / 254, 4)
    fields = json.dumps({"inches": inches, "station": rain_day.station_id})
    postgres = connection.vendor == "postgresql"
    # The ids travel as one parameter: an array in PostgreSQL, a JSON list in SQLite.
    ids = "unnest(%s::bigint[]) AS ids(x)" if postgres else "json_each(%s) AS ids"
    column = "ids.x" if postgres else "ids.value"
    cast = "%s::jsonb" if postgres else "%s"
    station = "e.fields ->> 'station'" if postgres else "json_extract(e.fields, '$.station')"
    with connection.cursor() as cursor:
        cursor.execute(
            f"""SELECT p.id, p.application_id
               FROM permits_permit p
               JOIN permits_application a ON a.id = p.application_id
               JOIN duties_sitestation s ON s.site_id = a.site_id
               WHERE (p.closed_on IS NULL OR p.closed_on >= %s)
                 AND p.village_id = %s AND s.station_id = %s
                 AND p.issued_on <= %s
                 AND p.application_id NOT IN (
                     SELECT e.application_id FROM permits_timelineevent e
                     WHERE e.type = 'rain' AND e.at = %s AND {station} = %s)""",
            [
                rain_day.day,
                village_id,
                rain_day.station_id,
                rain_day.day,
                at,
                rain_day.station_id,
            ],
        )
        found = cursor.fetchall()
        if not found:
            return 0, []
        applications = sorted(application for _, application in found)
        cursor.execute(
            f"""INSERT INTO permits_timelineevent (application_id, type, at, fields, recorded_at)
                SELECT {column}, 'rain', %s, {cast}, %s FROM {ids}""",
            [at, fields, timezone.now(), applications if postgres else json.dumps(applications)],
        )
    return len(found), sorted(permit for permit, _ in found)


# -- stored duties ---------------------------------------------------------------------


def due_moment(due: str, zone: ZoneInfo) -> datetime.datetime:
    """A duty's due as the moment it runs out: a date is due through the end of that day.
    The stored duties, the staff's dashboard and the reminders all read a due this way."""
    if "T" in due:
        return datetime.datetime.fromisoformat(due)
    day = datetime.date.fromisoformat(due) + datetime.timedelta(days=1)
    return datetime.datetime.combine(day, datetime.time(0), tzinfo=zone)


def permit_duties_recompute(
    *, permit_ids: Iterable[int], as_of: datetime.datetime | None = None
) -> int:
    """Recompute and store the duties of these permits only, from their events.

    Reads the permits' events in chunks (a query per chunk, not per permit), runs the
    core's engine on each permit, and writes the results back in bulk, each with what it
    was computed from (``inputs``) and when it next changes by itself (``recompute_by``)."""
    from siltfence.core.timeline import compute

    ids = sorted(set(permit_ids))
    moment = as_of or timezone.now()
    count = 0
    closures: dict[str, frozenset[datetime.date]] = {}
    for start in range(0, len(ids), RECOMPUTE_CHUNK):
        chunk = ids[start : start + RECOMPUTE_CHUNK]
        permits = list(
            Permit.objects.filter(pk__in=chunk).values_list("pk", "application_id", "village_id")
        )
        events: dict[int, list[dict[str, Any]]] = defaultdict(list)
        last_ids: dict[int, int] = {}
        zones = {v: ZoneInfo(load(v).time_zone) for _, _, v in permits}
        closures.update(closures_of([v for v in zones if v not in closures]))
        rows = (
            TimelineEvent.objects.filter(application_id__in=[a for _, a, _ in permits])
            .order_by("application_id", "at", "id")
            .values_list("application_id", "id", "type", "at", "fields")
        )
        for application_id, pk, kind, at, fields in rows:
            # The stored moment goes to the core as it is, with no round trip through text.
            events[application_id].append({"type": kind, "at": at, **fields})
            last_ids[application_id] = max(pk, last_ids.get(application_id, 0))
        states = []
        for pk, application_id, village_id in permits:
            zone = zones[village_id]
            timeline = compute(
                load(village_id),
                events[application_id],
                as_of=moment.astimezone(zone),
                office_closures=closures[village_id],
            )
            inputs = _inputs(
                _rules_digest(village_id, closures[village_id]),
                len(events[application_id]),
                last_ids.get(application_id, 0),
            )
            states.append(_state(pk, village_id, timeline, zone, moment, inputs))
        _duties_store(states)
        count += len(states)
    return count


def event_saved(sender: Any, instance: TimelineEvent, created: bool, **kwargs: Any) -> None:
    """Every event written through the model (every service's) has its permit's stored
    duties follow once it commits. Events written in bulk (the rain sweep, the scale
    generator) are recomputed by those who write them, and caught by the daily sweep."""
    if created and not kwargs.get("raw"):
        permit_duties_on_commit(application_id=instance.application_id)


def permit_duties_on_commit(*, application_id: int) -> None:
    """Once the transaction that recorded an event on this application commits, recompute
    the stored duties of its permit in force (if it has one), so the dashboards and the
    reminders follow the record at once, not at the next daily sweep. A failure here is
    logged and left to the sweep: the event itself is already committed."""

    def recompute() -> None:
        ids = list(
            Permit.objects.filter(
                application_id=application_id, status=PermitStatus.ACTIVE
            ).values_list("pk", flat=True)
        )
        if ids:
            permit_duties_recompute(permit_ids=ids)

    transaction.on_commit(recompute, robust=True)


def duties_recompute_all(
    *,
    village_ids: Sequence[str] | None = None,
    jobs: int = 1,
    as_of: datetime.datetime | None = None,
    chunk: int = RECOMPUTE_CHUNK,
    everything: bool = False,
) -> RecomputeResult:
    """Bring the stored duties of every active permit (of these villages) up to date, as
    after a change to the ordinance data, the office calendar or the code, which no event
    announces.

    Only the permits whose stored duties are out of date are computed (``stale_permit_ids``):
    an ordinance edit in one village recomputes that village's permits, not the county's.
    ``everything`` recomputes them all. With ``jobs`` > 1 on PostgreSQL the permits are
    split into chunks computed by that many processes, each with its own connection;
    SQLite takes one writer at a time, so it runs in this process whatever ``jobs`` says."""
    moment = as_of or timezone.now()
    active = active_permit_ids(village_ids)
    ids = active if everything else stale_permit_ids(moment, village_ids)
    if jobs <= 1 or connection.vendor != "postgresql" or len(ids) <= chunk:
        done = permit_duties_recompute(permit_ids=ids, as_of=moment)
        return RecomputeResult(in_force=len(active), recomputed=done)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from django.db import connections

    chunks = [ids[i : i + chunk] for i in range(0, len(ids), chunk)]
    connections.close_all()  # a forked process must open its own connection
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        done = sum(pool.map(_recompute_chunk, chunks, [moment] * len(chunks)))
    return RecomputeResult(in_force=len(active), recomputed=done)


@dataclass(frozen=True)
class RecomputeResult:
    in_force: int  # active permits looked at
    recomputed: int  # of them, the ones whose stored duties were out of date


def stale_permit_ids(
    moment: datetime.datetime, village_ids: Sequence[str] | None = None
) -> list[int]:
    """The active permits whose stored duties are out of date at ``moment``: none stored;
    stored from other inputs (the ordinance data, the office calendar, the code, or the
    permit's events, counted with the last one's id); or due to change by themselves by
    now (``recompute_by``), including an event dated after the moment they were computed
    for. Three queries, whatever the number of permits: the events are counted per
    application in the database."""
    from django.db.models import Count, Max

    permits = Permit.objects.filter(status=PermitStatus.ACTIVE)
    if village_ids is not None:
        permits = permits.filter(village_id__in=village_ids)
    rows = list(
        permits.values_list(
            "pk",
            "application_id",
            "village_id",
            "duty_state__inputs",
            "duty_state__as_of",
            "duty_state__recompute_by",
        )
    )
    marks = {
        a: (n, last, latest)
        for a, n, last, latest in TimelineEvent.objects.filter(
            application_id__in=permits.values("application_id")
        )
        .values("application_id")
        .annotate(n=Count("id"), last=Max("id"), latest=Max("at"))
        .values_list("application_id", "n", "last", "latest")
    }
    closures = closures_of(sorted({v for _, _, v, _, _, _ in rows}))
    stale = []
    for pk, application_id, village_id, inputs, as_of, recompute_by in rows:
        n, last, latest = marks.get(application_id, (0, 0, None))
        expected = _inputs(_rules_digest(village_id, closures[village_id]), n, last)
        if (
            inputs != expected
            or as_of is None
            or (recompute_by is not None and recompute_by <= moment)
            or (latest is not None and latest > as_of and latest <= moment)
        ):
            stale.append(pk)
    return sorted(stale)


def _inputs(rules: str, events: int, last_event: int) -> str:
    return f"{rules}:{events}:{last_event}"


@functools.lru_cache(maxsize=256)
def _rules_digest(village_id: str, closures: frozenset[datetime.date]) -> str:
    """One digest of a village's ordinance data, the code and its office calendar: what its
    permits' duties are computed from, but for their events."""
    import hashlib

    digest = hashlib.sha256(ordinance_digest(village_id).encode())
    digest.update(",".join(sorted(d.isoformat() for d in closures)).encode())
    return digest.hexdigest()[:24]


def _recompute_chunk(ids: list[int], moment: datetime.datetime) -> int:
    return permit_duties_recompute(permit_ids=ids, as_of=moment)


def _duties_store(states: list[PermitDuties]) -> None:
    """Replace these permits' stored duties, in one transaction. On PostgreSQL the rows go
    in by COPY: a bulk INSERT would quote every duty list's JSON on the client first, which
    costs more than computing it."""
    with transaction.atomic():
        PermitDuties.objects.filter(permit_id__in=[s.permit_id for s in states]).delete()
        if connection.vendor != "postgresql":
            PermitDuties.objects.bulk_create(states, batch_size=1000)
            return
        table = PermitDuties._meta.db_table
        columns = (
            "permit_id, village_id, computed_at, as_of, next_due, open_count, overdue_count, "
            "duties, recompute_by, inputs"
        )
        with connection.cursor() as cursor:
            raw = cursor.cursor  # psycopg's own cursor: Django's wrapper has no copy()
            with raw.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for s in states:
                    copy.write_row(
                        (
                            s.permit_id,
                            s.village_id,
                            s.computed_at,
                            s.as_of,
                            s.next_due,
                            s.open_count,
                            s.overdue_count,
                            json.dumps(s.duties),
                            s.recompute_by,
                            s.inputs,
                        )
                    )


def _state(
    pk: int,
    village_id: str,
    timeline: Timeline,
    zone: ZoneInfo,
    moment: datetime.datetime,
    inputs: str,
) -> PermitDuties:
    # The duties alone, as the timeline's output gives them, less the review clocks (the
    # queue's, stored on the application): the rest of the output is not stored.
    duties = [
        d.to_json(timeline.as_of)
        for d in timeline.duties
        if d.kind not in ("review_decision", "re_review_decision")
    ]
    open_ones = [d for d in duties if d["status"] != "met"]
    # When something next changes without an event: the earliest duty still open falls
    # due, or a new inspection period begins.
    dues = [due_moment(str(d["due"]), zone) for d in open_ones if d["status"] == "open"]
    next_due = min(dues) if dues else None
    changes = [] if next_due is None else [next_due]
    if timeline.changes_on is not None:
        changes.append(datetime.datetime.combine(timeline.changes_on, datetime.time(0), zone))
    return PermitDuties(
        permit_id=pk,
        village_id=village_id,
        computed_at=timezone.now(),
        as_of=moment,
        next_due=next_due,
        open_count=sum(1 for d in open_ones if d["status"] == "open"),
        overdue_count=sum(1 for d in open_ones if d["status"] == "overdue"),
        duties=duties,
        recompute_by=min(changes) if changes else None,
        inputs=inputs,
    )


def active_permit_ids(village_ids: Sequence[str] | None = None) -> list[int]:
    permits = Permit.objects.filter(status=PermitStatus.ACTIVE)
    if village_ids is not None:
        permits = permits.filter(village_id__in=village_ids)
    return list(permits.values_list("pk", flat=True))


@dataclass
class RainApplied:
    """What newly recorded rain changed on the permits, at once."""

    stations_chosen: int  # sites that had no station and now read one of these
    rains: int  # qualifying rains written onto permits (a rain of two wet days is one)
    permits: list[int]  # the permits they landed on
    owing: int  # of those, the permits that now owe an inspection after rain

    def says(self) -> str:
        if not self.rains and not self.stations_chosen:
            return "No permit in force reads rain at these stations on these days: nothing changed."
        parts = []
        if self.stations_chosen:
            parts.append(f"{self.stations_chosen} site(s) now read their rain here")
        parts.append(f"{self.rains} qualifying rain(s) written onto {len(self.permits)} permit(s)")
        parts.append(f"{self.owing} permit(s) now owe an inspection after rain")
        return "; ".join(parts) + "."


def rain_apply(
    *, stations: Iterable[str], first: datetime.date, last: datetime.date
) -> RainApplied:
    """Rain just recorded at ``stations`` from ``first`` to ``last`` shows on the permits
    without waiting for the morning's sweep: sites with no station are given one (a
    station with a record may now qualify), every qualifying rain is written onto the
    permits open on its day that read it (a closed permit included, when the rain fell
    before it was closed), and their duties are recomputed."""
    wanted = set(stations)
    chosen = 0
    for site in Site.objects.filter(
        rain__isnull=True, applications__permit__status=PermitStatus.ACTIVE
    ).distinct():
        link = site_station_assign(site=site)
        chosen += link is not None and link.station_id in wanted
    earliest = (
        Permit.objects.filter(_open_on(first), application__site__rain__station_id__in=wanted)
        .order_by("issued_on")
        .values_list("issued_on", flat=True)
        .first()
    )
    rains: set[tuple[str, datetime.date]] = set()
    touched: set[int] = set()
    if earliest is not None:
        today = timezone.localdate()
        start, day = max(first, earliest), min(last + datetime.timedelta(days=1), today)
        # Each sweep takes the LOOKBACK_DAYS before its day: step back by that much.
        while day >= start:
            result = rain_sweep(day=day)
            rains |= result.rains
            touched.update(result.touched)
            day -= datetime.timedelta(days=LOOKBACK_DAYS)
    permit_duties_recompute(permit_ids=sorted(touched))
    owing = sum(
        1
        for state in PermitDuties.objects.filter(permit_id__in=touched)
        if any(d["kind"] == "rain_inspection" and d["status"] != "met" for d in state.duties)
    )
    return RainApplied(chosen, len(rains), sorted(touched), owing)
