"""Reads of the imported rain record."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from typing import Any

from django.db.models import Count, Max, Min, Q

from siltfence.apps.rain.models import RainDay, RainImportJob, Station


def stations_with_days() -> list[Mapping[str, Any]]:
    """Each imported station with how many days it holds and from when to when."""
    return list(
        Station.objects.annotate(
            days=Count("rain_days"),
            with_value=Count("rain_days", filter=Q(rain_days__tenths_mm__isnull=False)),
            first=Min("rain_days__day"),
            last=Max("rain_days__day"),
        )
        .order_by("id")
        .values("id", "name", "state", "days", "with_value", "first", "last")
    )


def recorded_days(station_id: str, start: datetime.date, end: datetime.date) -> set[datetime.date]:
    """The days from ``start`` to ``end`` for which the station's record gives an amount
    (zero included: a dry day on record). Any other day is unknown, never dry (gap 26)."""
    return set(
        RainDay.objects.filter(
            station_id=station_id, day__gte=start, day__lte=end, tenths_mm__isnull=False
        ).values_list("day", flat=True)
    )


def unrecorded_spans(
    station_id: str, start: datetime.date, end: datetime.date
) -> list[tuple[datetime.date, datetime.date]]:
    """The runs of days from ``start`` to ``end`` with no amount on record at the station."""
    if end < start:
        return []
    recorded = recorded_days(station_id, start, end)
    count = (end - start).days + 1
    days = (start + datetime.timedelta(days=i) for i in range(count))
    return runs(d for d in days if d not in recorded)


def runs(days: Iterable[datetime.date]) -> list[tuple[datetime.date, datetime.date]]:
    """Days in order as runs of consecutive days, each (first, last)."""
    spans: list[tuple[datetime.date, datetime.date]] = []
    for day in days:
        if spans and spans[-1][1] == day - datetime.timedelta(days=1):
            spans[-1] = (spans[-1][0], day)
        else:
            spans.append((day, day))
    return spans


def stations_recorded_between(start: datetime.date, end: datetime.date) -> set[str]:
    """The stations with at least one day of record from ``start`` to ``end``."""
    return set(
        RainDay.objects.filter(day__gte=start, day__lte=end, tenths_mm__isnull=False)
        .values_list("station_id", flat=True)
        .distinct()
    )


def spans_text(spans: list[tuple[datetime.date, datetime.date]]) -> str:
    """'2026-09-01 to 2026-11-30, 2026-12-02' for a page or a note."""
    return ", ".join(
        a.isoformat() if a == b else f"{a.isoformat()} to {b.isoformat()}" for a, b in spans
    )


def rain_import_job_for(user: Any, job_id: int) -> RainImportJob | None:
    """The background import ``job_id`` if ``user`` may see it: the person who uploaded the
    file, or the staff of a village that person was staff of when uploading."""
    from siltfence.apps.accounts.models import Role
    from siltfence.apps.accounts.rules import village_ids

    job = RainImportJob.objects.filter(pk=job_id).first()
    if job is None or not getattr(user, "is_authenticated", False):
        return None
    if job.user_id == user.pk or village_ids(user, Role.STAFF) & set(job.villages):
        return job
    return None


def rain_import_jobs_of(user: Any, count: int = 5) -> list[RainImportJob]:
    """The user's own latest background imports, newest first."""
    return list(RainImportJob.objects.filter(user=user).order_by("-created_at", "-pk")[:count])


# The most permits a page lists as reading their rain at some stations; more are counted.
SERVED_SHOWN = 50


def permits_served(stations: Iterable[str], villages: Iterable[str]) -> dict[str, Any]:
    """The permits in force of ``villages`` whose sites read their rain at one of
    ``stations`` (``site.rain``, the duties app's ``SiteStation``: the nearest station with
    a record, or the one staff chose): number, site, village,
    station and distance, by permit number, at most ``SERVED_SHOWN``; and how many more,
    and how many in other villages (counted, not shown)."""
    from siltfence.apps.permits.models import Permit, PermitStatus

    wanted = sorted({str(s) for s in stations})
    shown_villages = sorted(set(villages))
    permits = Permit.objects.filter(
        status=PermitStatus.ACTIVE, application__site__rain__station_id__in=wanted
    )
    ours = permits.filter(village_id__in=shown_villages)
    rows = list(
        ours.order_by("number").values(
            "pk",
            "number",
            "village__name",
            "application__site__address",
            "application__site__rain__station_id",
            "application__site__rain__station__name",
            "application__site__rain__distance_km",
            "application__site__rain__pinned_reason",
        )[:SERVED_SHOWN]
    )
    total = ours.count()
    listed = [
        {
            "pk": row["pk"],
            "number": row["number"],
            "village": row["village__name"],
            "address": row["application__site__address"],
            "station": row["application__site__rain__station_id"],
            "station_name": row["application__site__rain__station__name"],
            "distance_km": row["application__site__rain__distance_km"],
            "chosen": bool(row["application__site__rain__pinned_reason"]),
        }
        for row in rows
    ]
    return {
        "permits": listed,
        "more": max(0, total - len(listed)),
        "elsewhere": permits.exclude(village_id__in=shown_villages).count(),
        "stations": wanted,
    }


def village_names(*, villages: Iterable[str]) -> dict[str, str]:
    """The names of ``villages`` by their ids."""
    from siltfence.apps.permits.models import Village

    return dict(Village.objects.filter(pk__in=villages).values_list("pk", "name"))


def recent_rain_days(*, station: Station, most: int) -> list[tuple[datetime.date, int | None]]:
    """The station's latest ``most`` days, newest first: each day and its rain in tenths of
    a millimetre (None where the day is recorded as not known)."""
    return list(
        RainDay.objects.filter(station=station)
        .order_by("-day")
        .values_list("day", "tenths_mm")[:most]
    )
