"""The season outlook on an application's page: how many rains of the rule's size, and so
inspections after rain, to expect over the plan's schedule, from the nearest station's
history in the rain record (``siltfence.core.rain.outlook``)."""

from __future__ import annotations

import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django import template

register = template.Library()
YEARS = range(1991, 2021)


@register.inclusion_tag("duties/_outlook.html")
def season_outlook(application: Any) -> dict[str, Any]:
    from siltfence.apps.duties.models import SiteStation
    from siltfence.apps.duties.stations import core_station, site_point
    from siltfence.apps.plans.models import ControlPlan
    from siltfence.apps.rain.models import RainDay, Station
    from siltfence.core.errors import SiltfenceError
    from siltfence.core.ordinance.loader import load
    from siltfence.core.rain import nearest
    from siltfence.core.rain.outlook import season_outlook as outlook
    from siltfence.core.rain.stations import geodesic_km

    plan = (
        ControlPlan.objects.filter(application=application)
        .order_by("-revision")
        .values_list("plan", flat=True)
        .first()
    )
    schedule = (plan or {}).get("schedule") if isinstance(plan, dict) else None
    days = []
    for item in schedule or []:
        for key in ("start", "end"):
            try:
                days.append(datetime.date.fromisoformat(str(item.get(key))))
            except ValueError:
                continue
    if not days:
        return {"state": "no-schedule"}
    start, end = min(days), max(days)
    if (end - start).days > 365:
        end = start + datetime.timedelta(days=365)
    link = SiteStation.objects.filter(site_id=application.site_id).select_related("station")
    found = link.first()
    if found is not None:
        station, distance = found.station, found.distance_km
    else:
        latitude, longitude, _ = site_point(application.site)
        located = list(Station.objects.filter(latitude__isnull=False, longitude__isnull=False))
        pick = nearest(latitude, longitude, [core_station(s) for s in located])
        if pick is None:
            return {"state": "no-station"}
        station = next(s for s in located if s.id == pick[0].id)
        distance = geodesic_km(latitude, longitude, pick[0].latitude, pick[0].longitude)
    ordinance = load(application.village_id)
    first = datetime.date(YEARS.start, 1, 1) - datetime.timedelta(days=31)
    last = datetime.date(YEARS.stop, 12, 31) + datetime.timedelta(days=31)
    rows = RainDay.objects.filter(station=station, day__gte=first, day__lte=last)
    record = {d: t for d, t in rows.values_list("day", "tenths_mm") if t is not None}
    missing = {d for d, t in rows.values_list("day", "tenths_mm") if t is None}
    context = {"station": station, "distance": distance, "start": start, "end": end}
    try:
        report = outlook(
            record,
            ordinance,
            start,
            end,
            ZoneInfo(ordinance.time_zone),
            years=YEARS,
            missing=missing,
        )
    except SiltfenceError:
        return {**context, "state": "no-history"}
    return {**context, "state": "ok", "report": report}
