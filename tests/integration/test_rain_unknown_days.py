"""A day that no station recorded is unknown, not dry (gap 26; issue: the law after the permit).

A Spencer site with no drawing reads rain at the village's centre: Marshfield
(USC00475120) is about 18 km away, Wausau (USW00014897) about 56 km. The permit is
issued in July 2026; today is later.
"""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.utils import timezone
from sitework import local, permit_issued

from siltfence.apps.duties.models import SiteStation
from siltfence.apps.duties.stations import site_station_assign, site_unrecorded, stations_sync
from siltfence.apps.rain.days import rain_days_record

pytestmark = pytest.mark.django_db
MARSHFIELD, WAUSAU = "USC00475120", "USW00014897"


@pytest.fixture
def permit(people):
    stations_sync()
    return permit_issued(
        applicant=people.applicant_a,
        staff=people.staff["spencer-wi"],
        village="spencer-wi",
        filed=local(2026, 7, 1, 9),
    )


def test_a_station_with_no_record_for_the_permit_is_never_chosen(permit):
    site = permit.application.site
    # Marshfield's record ended in March, long before the permit (issued in July): its
    # silence would read as a dry season.
    rain_days_record(station_id=MARSHFIELD, days={datetime.date(2026, 3, 1): 0}, source="t")
    assert site_station_assign(site=site) is None
    assert not SiteStation.objects.filter(site=site).exists()
    # Wausau has a record for the permit's days, but at 56 km it is not chosen without a
    # person saying why its rain stands for the site's (more than 50 km).
    rain_days_record(station_id=WAUSAU, days={permit.issued_on: 0}, source="t")
    assert site_station_assign(site=site) is None
    # Once Marshfield has a record for the permit's days, the nearest is Marshfield again.
    rain_days_record(station_id=MARSHFIELD, days={permit.issued_on: 0}, source="t")
    link = site_station_assign(site=site)
    assert link is not None and link.station_id == MARSHFIELD


def test_the_permit_page_names_the_days_the_station_has_no_record_for(people, permit):
    site = permit.application.site
    # On record: the issue day and the three days after it; nothing after.
    days = {permit.issued_on + datetime.timedelta(days=i): 0 for i in range(4)}
    rain_days_record(station_id=MARSHFIELD, days=days, source="t")
    site_station_assign(site=site)
    first_missing = permit.issued_on + datetime.timedelta(days=4)
    yesterday = timezone.localdate() - datetime.timedelta(days=1)
    last = min(yesterday, permit.expires_on)
    assert site_unrecorded(site, MARSHFIELD) == f"{first_missing} to {last}"
    client = Client()
    client.force_login(people.applicant_a)
    page = client.get(f"/permits/{permit.pk}/").content.decode()
    assert f"No rain record at the station for {first_missing} to {last}." in page
    assert "unknown, not dry" in page


def test_the_dashboard_warns_of_a_station_serving_sites_that_stopped_recording(people, permit):
    site = permit.application.site
    rain_days_record(station_id=MARSHFIELD, days={permit.issued_on: 0}, source="t")
    site_station_assign(site=site)
    client = Client()
    client.force_login(people.staff["spencer-wi"])
    page = client.get("/staff/dashboard/").content.decode()
    assert 'data-testid="station-stale"' in page
    assert f"has no rain record since {permit.issued_on:%B} {permit.issued_on.day}" in page
    # Recorded up to yesterday: no warning, and the chart says every day is on record.
    today = timezone.localdate()
    recent = {today - datetime.timedelta(days=i): 0 for i in range(1, 31)}
    rain_days_record(station_id=MARSHFIELD, days=recent, source="t")
    page = client.get("/staff/dashboard/").content.decode()
    assert 'data-testid="station-stale"' not in page
    assert "over the 30 days on record of the 30 to yesterday" in page
