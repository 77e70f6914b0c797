"""Rain reaches the permits the moment it is known: a station staff choose for a site on the
web applies at once, and an imported record shows on the permit page and the dashboard,
without waiting for the morning's sweep.

Worked by hand, Spencer (§ 413-8E(3)(g): "Inspect the construction control measures after
each rain of 0.5 inch or more"; no deadline in the text, the next day is taken, gap 3):
- A permit filed July 1, 2026 and issued July 3; its site (no drawing: the village's centre,
  44.7573 N, 90.2966 W) reads Marshfield Exp Farm, about 18 km away, dry on July 3.
- Wausau (USW00014897) is about 56 km away (18.9 km north, 53.0 km east): farther than the
  50 km within which a station is ever chosen on its own, so staff must say why its rain
  stands for the site. 20.0 mm fell there on Wednesday July 8: 0.79 in, a rain of 0.5 inch
  or more, owing an inspection by Thursday July 9.
- Marshfield's gauge file: 0.30 in and 0.50 in on July 8, 0.8 in (20.3 mm), owing an
  inspection by July 9.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from factories import SPENCER, text_of
from sitework import local, permit_issued, station_with_record

from siltfence.apps.duties.models import PermitDuties, SiteStation
from siltfence.apps.duties.stations import stations_sync
from siltfence.apps.rain.days import rain_days_record

pytestmark = pytest.mark.django_db
MARSHFIELD, WAUSAU = "USC00475120", "USW00014897"


@pytest.fixture
def permit(people):
    stations_sync()
    found = permit_issued(
        applicant=people.applicant_a,
        staff=people.staff[SPENCER],
        village=SPENCER,
        filed=local(2026, 7, 1, 9),
    )
    station_with_record(site=found.application.site)
    return found


def _rain_duties(permit) -> list[dict]:
    """The permit's stored inspections after rain (none stored yet: none)."""
    stored = PermitDuties.objects.filter(permit=permit).first()
    return [d for d in (stored.duties if stored else []) if d["kind"] == "rain_inspection"]


def test_a_station_pinned_on_the_web_applies_at_once_and_one_far_off_needs_a_reason(
    client, people, permit
):
    site = permit.application.site
    assert SiteStation.objects.get(site=site).station_id == MARSHFIELD
    rain_days_record(station_id=WAUSAU, days={datetime.date(2026, 7, 8): 200}, source="t")
    assert _rain_duties(permit) == []
    client.force_login(people.staff[SPENCER])
    url = f"/staff/sites/{site.pk}/rain-station/"

    # 56 km away, no reason given: refused, and nothing changes.
    refused = client.post(url, {"station": WAUSAU, "reason": "  "})
    assert refused.status_code == 400
    assert "say why this station's rain stands for the site" in text_of(refused)
    assert SiteStation.objects.get(site=site).station_id == MARSHFIELD
    assert _rain_duties(permit) == []

    # With a reason: the station applies at once. No sweep is run here.
    done = client.post(url, {"station": WAUSAU, "reason": "Hilltop site, Wausau's watershed"})
    assert done.status_code == 302
    link = SiteStation.objects.get(site=site)
    assert link.station_id == WAUSAU and 55.5 < link.distance_km < 57
    [owed] = _rain_duties(permit)
    assert (owed["due"], owed["rain"]["mm"], owed["status"]) == ("2026-07-09", 20.0, "overdue")
    page = text_of(client.get(url))
    assert "chosen by staff: Hilltop site, Wausau's watershed" in page
    permit_page = text_of(client.get(f"/permits/{permit.pk}/"))
    assert "Inspection after rain (permit holder): was due 2026-07-09: overdue" in permit_page
    assert "rain of 0.79 in (20.0 mm) on 2026-07-08" in permit_page


def test_an_import_shows_the_rain_and_the_inspection_it_owes_on_the_permit_and_dashboard(
    client, people, permit
):
    client.force_login(people.staff[SPENCER])
    before = client.get("/staff/dashboard/").content.decode()
    assert "rain of 0.8 in (20.3 mm) on 2026-07-08" not in before
    gauge = SimpleUploadedFile(
        "gauge.csv",
        b"timestamp,rain_in\n2026-07-08T03:00,0.30\n2026-07-08T05:00,0.50\n",
        content_type="text/csv",
    )
    done = client.post("/rain/import/", {"file": gauge, "station": MARSHFIELD})
    assert done.status_code == 200, done.content
    assert "1 permit(s) now owe an inspection after rain" in done.content.decode()

    permit_page = text_of(client.get(f"/permits/{permit.pk}/"))
    assert "Inspection after rain (permit holder): was due 2026-07-09: overdue" in permit_page
    assert "rain of 0.8 in (20.3 mm) on 2026-07-08" in permit_page

    dashboard = client.get("/staff/dashboard/").content.decode()
    overdue = re.search(r'data-testid="overdue".*?</table>', dashboard, re.S)
    assert overdue, "the dashboard lists the duties overdue"
    rows = [
        text_of_row
        for text_of_row in re.findall(r"<tr[^>]*>(.*?)</tr>", overdue.group(0), re.S)
        if "Inspection after rain" in text_of_row
    ]
    assert len(rows) == 1
    row = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", rows[0]))
    assert permit.number in row
    assert "2026-07-09" in row
    assert "rain of 0.8 in (20.3 mm) on 2026-07-08" in row
    assert "§ 413-8E(3)(g)" in row
