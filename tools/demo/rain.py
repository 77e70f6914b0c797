"""The demo's rain: stations, each permitted site's station, and a month of daily rain at
those stations ending yesterday, so the daily sweep, the dashboard and the reminders have
something to show. The amounts are made up for the demo (recorded as such); a real
village loads NOAA's or its gauge's files (`manage.py rain_import`, or the rain import page)."""

from __future__ import annotations

import datetime

from django.utils import timezone

from siltfence.apps.duties.stations import (
    core_station,
    site_point,
    site_station_assign,
    stations_sync,
)
from siltfence.apps.permits.models import Site
from siltfence.apps.rain.days import rain_days_record
from siltfence.apps.rain.models import Station
from siltfence.core.rain import nearest

# Tenths of a millimetre, days before today: a dry spell, light rains, and two rains of
# half an inch or more (the second one yesterday, so its inspection is due).
PATTERN = {29: 30, 26: 152, 25: 41, 20: 8, 17: 64, 12: 190, 11: 25, 6: 13, 3: 51, 1: 147}


def rain_demo_load() -> None:
    """The month of made-up rain is recorded at the station nearest each permitted site
    first: a site is given only a station with a record for its permit (gap 26)."""
    stations_sync()
    sites = list(Site.objects.filter(applications__permit__isnull=False).distinct())
    today = timezone.localdate()
    located = [core_station(s) for s in Station.objects.filter(latitude__isnull=False)]
    nearest_ids = set()
    for site in sites:
        latitude, longitude, _ = site_point(site)
        found = nearest(latitude, longitude, located)
        if found is not None:
            nearest_ids.add(found[0].id)
    for station_id in sorted(nearest_ids):
        days = {today - datetime.timedelta(days=back): 0 for back in range(1, 31)}
        days.update({today - datetime.timedelta(days=b): t for b, t in PATTERN.items()})
        rain_days_record(station_id=station_id, days=days, source="demo (made up)")
    for site in sites:
        site_station_assign(site=site)
