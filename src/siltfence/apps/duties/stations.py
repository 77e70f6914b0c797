"""Where each site draws its rain from: the stations siltfence ships, where a site is,
the nearest station with a record for its period (``site_station_assign``), or the one its
village's staff chose and said why (``site_station_pin``, ``site_station_unpin``).

Every write is one transaction.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from siltfence.apps.audit.chain import event_record
from siltfence.apps.duties.models import SiteStation
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import (
    Permit,
    Site,
)
from siltfence.apps.rain.days import UNKNOWN_STATION
from siltfence.apps.rain.models import Station
from siltfence.core.ordinance.loader import load
from siltfence.core.rain import nearest, registry
from siltfence.core.rain.stations import geodesic_km

NO_REASON = "reason: say why this station's rain stands for the site"


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
    from shapely.geometry import shape  # type: ignore[import-untyped]

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
        pinned = existing.station
        # Staff pin only a station with its place (``site_station_pin``).
        assert pinned.latitude is not None and pinned.longitude is not None
        existing.distance_km = geodesic_km(latitude, longitude, pinned.latitude, pinned.longitude)
        existing.save(update_fields=["latitude", "longitude", "distance_km"])
        return existing
    located = Station.objects.filter(latitude__isnull=False, longitude__isnull=False)
    if not located.exists():
        stations_sync()
    start, end = site_rain_period(site)
    recording = stations_recorded_between(start - datetime.timedelta(days=RECORD_LAG_DAYS), end)
    rows = list(located.filter(pk__in=recording))
    found = nearest(latitude, longitude, [core_station(s) for s in rows])
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
            before=dict(before or {}),
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
            before=dict(before or {}),
            after=(
                {"station_id": None}
                if link is None
                else {"station_id": link.station_id, "distance_km": round(link.distance_km, 1)}
            ),
        )
    return link


def core_station(row: Station) -> Any:
    from siltfence.core.rain import Station as CoreStation

    return CoreStation(
        id=row.id,
        latitude=float(row.latitude or 0),
        longitude=float(row.longitude or 0),
        elevation_m=row.elevation_m,
        state=row.state,
        name=row.name,
    )
