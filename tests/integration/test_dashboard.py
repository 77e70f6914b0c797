"""The staff dashboard: overdue duties, rain per station, and the share of duties met on
time by month, on a permit whose record is worked out by hand.

Spencer permit issued 2026-07-03, its site reading rain at Marshfield. Rains of 0.59 inch
(150 tenths of a mm) on Wednesday 2026-07-08, Wednesday 08-12 and Thursday 09-10; each is
to be inspected by the next day (§ 413-8E(3)(g), gap 3). Inspections logged 07-09 (on
time) and 08-15 (late, after the 08-13 due date); none after the September rain. So the
permittee's duties that fell due: July 1 of 1 on time, August 0 of 1, September 0 of 1
(overdue since 09-11)."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from sitework import local, permit_issued, station_with_record

from siltfence.apps.duties.rain_events import rain_sweep
from siltfence.apps.duties.services import permit_duties_recompute
from siltfence.apps.duties.stations import stations_sync
from siltfence.apps.rain.days import rain_days_record
from siltfence.apps.sitelog.services import site_log_record

pytestmark = pytest.mark.django_db
MARSHFIELD = "USC00475120"


@pytest.fixture
def record(people):
    stations_sync()
    permit = permit_issued(
        applicant=people.applicant_a,
        staff=people.staff["spencer-wi"],
        village="spencer-wi",
        filed=local(2026, 7, 1, 9),
    )
    station_with_record(site=permit.application.site)
    for day in (datetime.date(2026, 7, 8), datetime.date(2026, 8, 12), datetime.date(2026, 9, 10)):
        rain_days_record(station_id=MARSHFIELD, days={day: 150}, source="test")
        rain_sweep(day=day)
    for at in ("2026-07-09T10:00", "2026-08-15T10:00"):
        site_log_record(
            permit=permit,
            user=people.applicant_a,
            kind="self_inspection",
            at=at,
            data={"inspector": "Jo", "phase": "grading"},
            photos=[],
            client_token=at,
        )
    permit_duties_recompute(permit_ids=[permit.pk], as_of=local(2026, 11, 30, 12))
    return permit


def months(content: str) -> dict[str, tuple[int, int]]:
    rows = re.findall(r'<th scope="row">(\w+ \d{4})</th><td>(\d+)</td><td>(\d+)</td>', content)
    return {label: (int(met), int(owed)) for label, met, owed in rows}


def test_the_dashboard_shows_the_overdue_inspection_and_the_months_met_on_time(record, people):
    client = Client()
    client.force_login(people.staff["spencer-wi"])
    response = client.get("/staff/dashboard/")
    assert response.status_code == 200
    content = response.content.decode()
    table = months(content)
    assert table["Jul 2026"] == (1, 1)
    assert table["Aug 2026"] == (0, 1)
    assert table["Sep 2026"] == (0, 1)
    overdue = content.split('data-testid="overdue"')[1].split("</table>")[0]
    assert "Inspection after rain" in overdue and '<td data-label="Due">2026-09-11</td>' in overdue
    assert 'data-testid="rain-chart"' in content and "<svg" in content


def test_new_glarus_staff_see_none_of_spencer_s_permits(record, people):
    client = Client()
    client.force_login(people.staff["new-glarus-wi"])
    content = client.get("/staff/dashboard/").content.decode()
    assert record.number not in content


def test_permits_ending_and_sureties_expiring_within_30_days_are_listed(people):
    from decimal import Decimal

    from django.utils import timezone

    from siltfence.apps.permits.services import permit_close, surety_record

    staff = people.staff["spencer-wi"]
    today = timezone.localdate()
    # Approved 170 days ago: valid 180 days from issuance (§ 413-8E(1)), so 10 days left.
    ending = permit_issued(
        applicant=people.applicant_a,
        staff=staff,
        village="spencer-wi",
        filed=timezone.now() - datetime.timedelta(days=172),
        address="1 Ending St",
    )
    assert ending.expires_on == today + datetime.timedelta(days=10)
    # Approved 100 days ago: 80 days left, not listed; its letter of credit ends in 5 days.
    held = permit_issued(
        applicant=people.applicant_a,
        staff=staff,
        village="spencer-wi",
        filed=timezone.now() - datetime.timedelta(days=102),
        address="2 Held St",
    )
    surety_record(
        permit=held,
        staff=staff,
        kind="letter_of_credit",
        amount=Decimal("8000"),
        issuer="Marathon County Bank",
        reference="LC-31",
        received_on=held.issued_on,
        expires_on=today + datetime.timedelta(days=5),
    )
    # Closed: its surety, expiring tomorrow, is not watched.
    closed = permit_issued(
        applicant=people.applicant_a,
        staff=staff,
        village="spencer-wi",
        filed=timezone.now() - datetime.timedelta(days=60),
        address="3 Closed St",
    )
    surety_record(
        permit=closed,
        staff=staff,
        kind="surety_bond",
        amount=Decimal("2000"),
        issuer="Badger Surety",
        reference="SB-9",
        received_on=closed.issued_on,
        expires_on=today + datetime.timedelta(days=1),
    )
    permit_close(permit=closed, staff=staff, on=today, cover_percent=90)
    client = Client()
    client.force_login(staff)
    page = client.get("/staff/dashboard/").content.decode()
    watch = page[page.index('data-testid="watch"') :]
    watch = watch[: watch.index("</ul>")]
    assert ending.number in watch and "(in 10 days)" in watch
    assert held.number in watch and "(LC-31) expires on" in watch
    assert "2 Held St: the permit" not in watch  # 80 days left: not listed as ending
    assert closed.number not in watch
