"""Reads of the rain and duties record for the staff's pages: the permits' stored duties,
the permits and sureties running out, the rain at the stations that serve sites, and where
a site draws its rain from. Each is scoped to ``villages``, the villages where the person
asking is staff (the views check that first)."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import Any

from django.db.models import Max, Q, QuerySet

from siltfence.apps.duties.models import PermitDuties, SiteStation
from siltfence.apps.duties.services import EXPIRY_NOTICE_DAYS
from siltfence.apps.permits.models import Permit, Site, Surety
from siltfence.apps.permits.selectors import SURETY_WATCH_DAYS
from siltfence.apps.rain.models import RainDay, Station


def duties_due_by(villages: Iterable[str], by: datetime.datetime) -> QuerySet[PermitDuties]:
    """The stored duties of the permits in force that have a duty overdue or falling due
    by ``by``, soonest first, each with its permit and site."""
    return (
        PermitDuties.objects.filter(village_id__in=villages, permit__status="active")
        .filter(Q(next_due__lte=by) | Q(overdue_count__gt=0))
        .select_related("permit__application__site")
        .order_by("next_due")
    )


def stored_duties_of(villages: Iterable[str]) -> QuerySet[Any]:
    """Every permit's stored duties (each permit's list alone), closed permits' too."""
    return PermitDuties.objects.filter(village_id__in=villages).values_list("duties", flat=True)


def permits_ending(villages: Iterable[str], today: datetime.date) -> QuerySet[Permit]:
    """Permits in force whose last day is today or within ``EXPIRY_NOTICE_DAYS`` (an
    extension can only be granted while a permit runs), soonest first."""
    return (
        Permit.objects.filter(
            village_id__in=villages,
            status="active",
            expires_on__gte=today,
            expires_on__lte=today + datetime.timedelta(days=EXPIRY_NOTICE_DAYS),
        )
        .select_related("application__site")
        .order_by("expires_on", "pk")
    )


def sureties_expiring(villages: Iterable[str], today: datetime.date) -> QuerySet[Surety]:
    """Sureties not released, on permits not closed, that expire within
    ``SURETY_WATCH_DAYS`` or have expired, soonest first, each with its movements (for its
    balance)."""
    return (
        Surety.objects.filter(
            permit__village_id__in=villages,
            released_on__isnull=True,
            expires_on__lte=today + datetime.timedelta(days=SURETY_WATCH_DAYS),
        )
        .exclude(permit__status="closed")
        .select_related("permit__application__site")
        .prefetch_related("movements")  # each one's balance, read once for the list
        .order_by("expires_on", "pk")
    )


def stations_serving(villages: Iterable[str]) -> dict[str, set[str]]:
    """The stations some site of these villages reads its rain from, each with the
    villages it serves."""
    served: dict[str, set[str]] = {}
    links = SiteStation.objects.filter(site__village_id__in=villages).values_list(
        "station_id", "site__village_id"
    )
    for station_id, village_id in links:
        served.setdefault(station_id, set()).add(village_id)
    return served


def rain_recorded(
    station_ids: Iterable[str], start: datetime.date, end: datetime.date
) -> dict[str, dict[datetime.date, int]]:
    """Each station's recorded rain from ``start`` to ``end``, in tenths of a millimetre by
    day (a day with no record is absent: unknown, not dry)."""
    readings: dict[str, dict[datetime.date, int]] = {}
    for station_id, day, tenths in RainDay.objects.filter(
        station_id__in=list(station_ids), day__gte=start, day__lte=end, tenths_mm__isnull=False
    ).values_list("station_id", "day", "tenths_mm"):
        assert tenths is not None  # tenths_mm__isnull=False
        readings.setdefault(station_id, {})[day] = tenths
    return readings


def stations_by_id(station_ids: Iterable[str]) -> dict[str, Station]:
    return {s.id: s for s in Station.objects.filter(pk__in=list(station_ids))}


def last_recorded_days(station_ids: Iterable[str]) -> dict[str, datetime.date]:
    """The last day each station has a record for (a station with none is absent)."""
    return dict(
        RainDay.objects.filter(station_id__in=list(station_ids), tenths_mm__isnull=False)
        .values("station_id")
        .annotate(last=Max("day"))
        .values_list("station_id", "last")
    )


def sites_reading(station_id: str) -> int:
    """How many sites read their rain from the station (in every village)."""
    return SiteStation.objects.filter(station_id=station_id).count()


def sites_of(villages: Iterable[str]) -> QuerySet[Site]:
    return Site.objects.filter(village_id__in=villages)


def site_station_of(site: Site) -> SiteStation | None:
    """Where the site reads its rain from, with the station, if it has been chosen."""
    return SiteStation.objects.filter(site=site).select_related("station").first()


def stations_located() -> QuerySet[Station]:
    """The stations with a known place, those a site can be given."""
    return Station.objects.filter(latitude__isnull=False)
