"""The screens show the reading of unclear text each answer rests on, beside the answer:
the gap's number from the village's data.

- Spencer § 413-10B, C "within 10 days" (gap 21, counted from the posting): an order posted
  Wednesday July 1, 2026 leaves 10 days ending Saturday July 11 (only a Sunday or a legal
  holiday moves the last day), so revocation, and the referral where no permit was issued,
  are lawful from Sunday July 12.
- New Glarus § 135-7C(1): "within 30 business days ... inform the applicant whether the
  application and plan are approved or disapproved", no word of a request for information
  (gap 22).
- "At least once each week" (gap 13) and "each rain of 0.5 inch or more" (gaps 4 and 20):
  on each weekly and each rain duty of the permit page. 15.0 mm at the station on July 8,
  2026 is 0.59 in, a rain of its own.
"""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from enforcement_helpers import at, permit_filed_on
from factories import NEW_GLARUS, SPENCER, make_application
from sitework import local, permit_issued, station_with_record

from siltfence.apps.duties.rain_events import rain_sweep
from siltfence.apps.duties.stations import stations_sync
from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement.models import EnforcementAction
from siltfence.apps.permits.models import Village
from siltfence.apps.rain.days import rain_days_record
from siltfence.apps.sitelog.services import site_log_record

pytestmark = pytest.mark.django_db
TEN_DAYS = "the 10 days to comply end 2026-07-11 (gap 21, the reading taken), so the power"


def _violation(people: Any, village: str, day: str, permit: Any = None) -> Any:
    return s.violation_record(
        village=Village.objects.get(pk=village),
        recorded_by=people.staff[village],
        source="observation",
        description="Grading, no silt fence on the downslope side.",
        provision="§ 413-7B(5)(c)[3]",
        days_from=datetime.date.fromisoformat(day),
        at=at(day, 9),
        permit=permit,
        address="" if permit is not None else "14 Elm St, Spencer",
    )


def test_spencer_revocation_and_referral_show_from_what_the_ten_days_run(client, people):
    staff = people.staff[SPENCER]
    permit = permit_filed_on(
        applicant=people.applicant_a,
        village=SPENCER,
        staff=staff,
        filed="2026-06-01",
        address="12 Elm St, Spencer",
    )
    case = _violation(people, SPENCER, "2026-07-01", permit).case
    s.stop_work_order_post(
        case=case, staff=staff, at=at("2026-07-01", 10), grounds=["conditions-not-met"]
    )
    revoked = s.permit_revoke(case=case, staff=staff, at=at("2026-07-12", 9), reasons="No fence.")
    assert revoked.details["lawful_from"] == "2026-07-12"
    assert TEN_DAYS in revoked.details["because"]
    client.force_login(staff)
    page = client.get(f"/enforcement/cases/{case.pk}/").content.decode()
    assert TEN_DAYS in page

    # Where no permit was issued: the referral for a cease-and-desist order.
    other = _violation(people, SPENCER, "2026-07-01").case
    s.stop_work_order_post(case=other, staff=staff, at=at("2026-07-01", 10), grounds=["no-permit"])
    s.cease_and_desist_refer(case=other, staff=staff, at=at("2026-07-12", 9))
    referral = EnforcementAction.objects.get(case=other, kind="cease_and_desist_referral")
    assert referral.citation == "§ 413-10C"
    assert TEN_DAYS in referral.details["because"]
    assert TEN_DAYS in client.get(f"/enforcement/cases/{other.pk}/").content.decode()


def test_new_glarus_review_clock_shows_the_reading_of_a_request_for_information(client, people):
    application = make_application(
        applicant=people.applicant_a, village=NEW_GLARUS, state="under_review"
    )
    client.force_login(people.staff[NEW_GLARUS])
    page = client.get(f"/staff/applications/{application.pk}/").content.decode()
    clocks = re.search(r'data-testid="clocks">(.*?)</ul>', page, re.S).group(1)
    assert "Unclear in the text (note 22)" in clocks
    note = re.search(
        r'data-testid="clock-reading-information-request-clock">(.*?)</p>', page, re.S
    ).group(1)
    assert '§ 135-7C(1) says the Village Administrator "shall inform the applicant whether' in (
        note.replace("&quot;", '"')
    )
    assert "§ 135-7C(4)" in note
    # Spencer's § 413-8D says it in words: no reading on its clock.
    spencer = make_application(
        applicant=people.applicant_a, village=SPENCER, state="under_review", address="9 Oak St"
    )
    client.force_login(people.staff[SPENCER])
    page = client.get(f"/staff/applications/{spencer.pk}/").content.decode()
    assert "clock-reading-" not in page and "Unclear in the text (note 22)" not in page


@pytest.mark.parametrize("village", [SPENCER, NEW_GLARUS])
def test_each_weekly_and_rain_duty_on_the_permit_page_names_its_reading(
    client, people, village: str
):
    stations_sync()
    permit = permit_issued(
        applicant=people.applicant_a,
        staff=people.staff[village],
        village=village,
        filed=local(2026, 7, 1, 9),
    )
    station = station_with_record(site=permit.application.site)
    site_log_record(
        permit=permit,
        user=people.applicant_a,
        kind="work_started",
        at="2026-07-06T07:00",
        data={},
        photos=[],
        client_token="",
        now=local(2026, 7, 31, 12),
    )
    rain_days_record(
        station_id=station.station_id, days={datetime.date(2026, 7, 8): 150}, source="t"
    )
    rain_sweep(day=datetime.date(2026, 7, 8))
    client.force_login(people.staff[village])
    page = client.get(f"/permits/{permit.pk}/").content.decode()
    listed = re.search(r'data-testid="duties">(.*?)</ul>', page, re.S).group(1)
    items = re.findall(r"<li[^>]*>(.*?)</li>", listed, re.S)
    weekly = [i for i in items if i.startswith("Weekly inspection")]
    rains = [i for i in items if i.startswith("Inspection after rain")]
    assert weekly and len(rains) == 1
    for item in weekly:
        assert "inspect at least once each week (7 days: gap 13, the reading taken)" in item
    assert "rain of 0.59 in (15.0 mm) on 2026-07-08" in rains[0]
    assert "(gaps 4 and 20, the readings taken)" in rains[0]
