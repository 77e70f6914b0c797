"""The demo's rain: stations, each permitted site's station, and a month of daily rain at
those stations ending yesterday, so the daily sweep, the dashboard and the reminders have
something to show. The amounts are made up for the demo (recorded as such); a real
village loads NOAA's or its gauge's files (`manage.py rain_import`, or the rain import page)."""

from __future__ import annotations

import datetime

from django.utils import timezone

from siltfence.apps.duties.models import SiteStation
from siltfence.apps.duties.services import rain_days_record, site_station_assign, stations_sync
from siltfence.apps.permits.models import Site

# Tenths of a millimetre, days before today: a dry spell, light rains, and two rains of
# half an inch or more (the second one yesterday, so its inspection is due).
PATTERN = {29: 30, 26: 152, 25: 41, 20: 8, 17: 64, 12: 190, 11: 25, 6: 13, 3: 51, 1: 147}


def rain_demo_load() -> None:
    stations_sync()
    for site in Site.objects.filter(applications__permit__isnull=False).distinct():
        site_station_assign(site=site)
    today = timezone.localdate()
    for station_id in set(SiteStation.objects.values_list("station_id", flat=True)):
        days = {today - datetime.timedelta(days=back): 0 for back in range(1, 31)}
        days.update({today - datetime.timedelta(days=b): t for b, t in PATTERN.items()})
        rain_days_record(station_id=station_id, days=days, source="demo (made up)")
