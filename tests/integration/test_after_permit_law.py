"""The enforcement services read the law as the core does, on real rows (issue: the law after
the permit). Expected values are worked out by hand from the ordinance text.

- § 413-10A(1), § 135-11A(1) "being undertaken without a permit": a permit that expired is
  no permit, so the no-permit ground is open and the permit grounds are not.
- § 413-10C "where no permit has been issued": 10 days after the order, the referral.
- § 135-11C "if a responsible party violates a stop-work order": not on the posting alone.
- § 413-10E, § 135-11F: each violation, each day, until compliance.
- § 413-8E(1) "may extend the period": not once the period has run out.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.utils import timezone
from enforcement_helpers import at, permit_filed_on
from factories import NEW_GLARUS, SPENCER, People

from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement.selectors import forfeiture_summary
from siltfence.apps.enforcement.services import ActionRefused
from siltfence.apps.permits import services as permits
from siltfence.apps.permits.models import Permit

pytestmark = pytest.mark.django_db


def _permit(people: People, village: str, address: str, filed: str = "2026-06-01") -> Permit:
    """A permit of ``village`` whose application was filed on ``filed``."""
    return permit_filed_on(
        applicant=people.applicant_a,
        village=village,
        staff=people.staff[village],
        filed=filed,
        address=address,
    )


def _violation(people: People, permit: Any, day: str, to: str | None = None) -> Any:
    village = permit.village
    return s.violation_record(
        village=village,
        recorded_by=people.staff[village.id],
        source="observation",
        description="Grading goes on; no silt fence on the downslope side.",
        provision="§ 413-7B(5)(c)[3]" if village.id == SPENCER else "§ 135-11",
        days_from=datetime.date.fromisoformat(day),
        days_to=None if to is None else datetime.date.fromisoformat(to),
        at=at(day, 9),
        permit=permit,
    )


@pytest.fixture
def expired(people: People) -> Permit:
    """A Spencer permit whose last day has passed by 2026-05-01 (issued in October 2025,
    valid 180 days)."""
    permit = _permit(people, SPENCER, "3 Elm St, Spencer", filed="2025-10-01")
    assert permit.expires_on < datetime.date(2026, 5, 1)
    return permit


def test_work_after_a_permit_expired_takes_the_no_permit_ground(
    people: People, expired: Permit
) -> None:
    case = _violation(people, expired, "2026-05-01").case
    staff = people.staff[SPENCER]
    with pytest.raises(ActionRefused) as refused:
        s.stop_work_order_post(
            case=case, staff=staff, at=at("2026-05-01", 10), grounds=["conditions-not-met"]
        )
    message = str(refused.value)
    assert "needs a permit in force" in message
    assert f"expired: its last day was {expired.expires_on}" in message
    order = s.stop_work_order_post(
        case=case, staff=staff, at=at("2026-05-01", 10), grounds=["no-permit"]
    )
    assert order.grounds[0]["citation"] == "§ 413-10A(1)"
    # § 413-10C: posted Friday May 1; the 10th day is Monday May 11 (not a Sunday or
    # holiday), so the referral is lawful from Tuesday May 12, and not on May 11.
    with pytest.raises(ActionRefused, match="lawful from 2026-05-12"):
        s.lawful(case, "request_cease_and_desist", at("2026-05-11", 12))
    assert s.lawful(case, "request_cease_and_desist", at("2026-05-12", 9))["from"] == "2026-05-12"
    # Revocation is no step for a permit that has already ended.
    with pytest.raises(ActionRefused, match="not open in this case"):
        s.lawful(case, "revoke_permit", at("2026-05-20", 9))


def test_a_permit_in_force_refuses_the_no_permit_ground_naming_the_permit(
    people: People,
) -> None:
    permit = _permit(people, SPENCER, "4 Elm St, Spencer", filed="2026-06-01")
    case = _violation(people, permit, "2026-07-01").case
    with pytest.raises(ActionRefused) as refused:
        s.stop_work_order_post(
            case=case, staff=people.staff[SPENCER], at=at("2026-07-01", 10), grounds=["no-permit"]
        )
    message = str(refused.value)
    assert f"permit {permit.number} is in force on 2026-07-01" in message
    assert "where no permit has been issued" not in message  # not § 413-10C's words


def test_a_new_glarus_referral_needs_the_order_disobeyed_not_only_posted(
    people: People,
) -> None:
    permit = _permit(people, NEW_GLARUS, "5 Sixth Ave, New Glarus", filed="2026-06-01")
    case = _violation(people, permit, "2026-07-01", to="2026-07-01").case
    s.stop_work_order_post(
        case=case,
        staff=people.staff[NEW_GLARUS],
        at=at("2026-07-01", 10),
        grounds=["conditions-not-met"],
    )
    with pytest.raises(ActionRefused, match="not open in this case"):
        s.lawful(case, "request_cease_and_desist", at("2026-07-06", 9))
    # Work found going on July 3, after the order: the order was violated.
    _violation(people, permit, "2026-07-03", to="2026-07-03")
    allowed = s.lawful(case, "request_cease_and_desist", at("2026-07-06", 9))
    assert (allowed["from"], allowed["citation"]) == ("2026-07-03", "§ 135-11C")


def test_the_forfeiture_stops_on_the_day_compliance_is_recorded(people: People) -> None:
    permit = _permit(people, NEW_GLARUS, "6 Sixth Ave, New Glarus", filed="2026-05-01")
    case = _violation(people, permit, "2026-06-07").case  # continuing: no last day
    staff = people.staff[NEW_GLARUS]
    s.stop_work_order_post(
        case=case, staff=staff, at=at("2026-06-07", 10), grounds=["conditions-not-met"]
    )
    s.compliance_record(case=case, staff=staff, at=at("2026-07-08", 15))
    summary = forfeiture_summary(case, at("2026-11-16", 12))
    # June 7 to July 8: 24 days in June and 8 in July, the compliance day included; not
    # the 163 days to November 16. $100 to $500 each (§ 135-11F).
    assert summary is not None
    assert (summary["offenses"], summary["last_day"]) == (32, "2026-07-08")
    assert (summary["min"], summary["max"]) == (3200, 16000)


def test_two_violations_on_the_same_days_are_counted_each(people: People) -> None:
    permit = _permit(people, NEW_GLARUS, "7 Sixth Ave, New Glarus", filed="2026-05-01")
    case = _violation(people, permit, "2026-07-01", to="2026-07-03").case
    _violation(people, permit, "2026-07-01", to="2026-07-03")
    summary = forfeiture_summary(case, at("2026-07-10"))
    assert summary is not None
    # Two violations, three days each: six offenses, $600 to $3,000 plus costs.
    assert (summary["days"], summary["offenses"], summary["min"], summary["max"]) == (
        3,
        6,
        600,
        3000,
    )


def test_an_expired_permit_is_not_extended(people: People, expired: Permit) -> None:
    with pytest.raises(ActionRefused) as refused:
        permits.permit_extend(
            permit=expired,
            staff=people.staff[SPENCER],
            days=90,
            on=expired.expires_on + datetime.timedelta(days=1),
        )
    assert f"its last day was {expired.expires_on}" in str(refused.value)
    assert '§ 413-8E(1): "may extend the period"' in str(refused.value)
    # On its last day it still can be.
    last_day = expired.expires_on
    extension = permits.permit_extend(
        permit=expired, staff=people.staff[SPENCER], days=90, on=last_day
    )
    assert extension.expires_after == last_day + datetime.timedelta(days=90)


def test_a_permit_past_its_last_day_shows_as_expired_wherever_it_is_listed(
    client: Any, people: People, expired: Permit
) -> None:
    # § 413-8E(1): "valid for a period of 180 days ... from the date of issuance". The row
    # still says active (nobody closed it); every page says expired.
    assert expired.status == "active"
    register = client.get("/register/", {"q": expired.number}).content.decode()
    assert '<td data-label="Status">Expired' in register
    assert '<td data-label="Status">Active' not in register
    assert expired.number in client.get("/register/", {"status": "expired"}).content.decode()
    assert expired.number not in client.get("/register/", {"status": "active"}).content.decode()
    client.force_login(people.staff[SPENCER])
    response = client.get(f"/permits/{expired.pk}/")
    assert response.status_code == 200, response.status_code
    page = response.content.decode()
    last = f"{expired.expires_on:%B} {expired.expires_on.day}, {expired.expires_on.year}"
    assert f'permit-standing">Expired</strong> (its last day was {last}' in page
    days = (timezone.localdate() - expired.expires_on).days
    listed = client.get("/staff/permits/").content.decode()
    assert f"Expired</strong> {days} day" in listed


def test_the_letters_to_the_attorney_are_the_officials_and_a_retraction_is_announced(
    client: Any, people: People
) -> None:
    from siltfence.apps.enforcement.models import EnforcementDocument

    permit = _permit(people, SPENCER, "8 Elm St, Spencer", filed="2026-06-01")
    staff = people.staff[SPENCER]
    case = _violation(people, permit, "2026-07-01").case
    order = s.stop_work_order_post(
        case=case, staff=staff, at=at("2026-07-01", 10), grounds=["conditions-not-met"]
    )
    s.injunction_refer(case=case, staff=staff, at=at("2026-07-02", 9), note="Owner hostile.")
    letter = EnforcementDocument.objects.get(case=case, kind="injunction_referral")
    placard = EnforcementDocument.objects.get(case=case, kind="stop_work_placard")
    client.force_login(people.applicant_a)  # the permittee the case is against
    assert client.get(f"/enforcement/documents/{placard.pk}/").status_code == 200
    assert client.get(f"/enforcement/documents/{letter.pk}/").status_code == 404
    page = client.get(f"/enforcement/cases/{case.pk}/").content.decode()
    assert f"/enforcement/documents/{placard.pk}/" in page
    assert f"/enforcement/documents/{letter.pk}/" not in page
    assert "Owner hostile." not in page
    client.force_login(staff)
    assert client.get(f"/enforcement/documents/{letter.pk}/").status_code == 200
    # § 413-10D: the Building Inspector retracts the order; the feed says so as it said the
    # order was posted.
    s.order_retract(
        case=case, staff=staff, at=at("2026-07-03", 9), order="stop_work_order", reason="Fixed."
    )
    client.logout()
    feed = client.get("/register/feed.atom").content.decode()
    assert f"order-{order.pk}" in feed
    assert "Stop-work order retracted: 8 Elm St, Spencer" in feed


@pytest.mark.parametrize(("village", "cite"), [(SPENCER, "§ 413-8A"), (NEW_GLARUS, "§ 135-7B")])
def test_the_applicant_is_told_before_filing_that_filing_authorises_entry(
    client: Any, people: People, village: str, cite: str
) -> None:
    from factories import make_application

    draft = make_application(applicant=people.applicant_a, village=village, state="draft")
    client.force_login(people.applicant_a)
    page = client.get(f"/portal/applications/{draft.pk}/").content.decode()
    assert "Filing authorises entry: By submitting an application, the applicant is" in page
    assert f'<span class="cite">{cite}</span>' in page


def test_new_glarus_closes_a_permit_only_once_the_work_is_completed(people: People) -> None:
    # § 135-13: final stabilization means "all land-disturbing construction activities at
    # the construction site have been completed" and the cover established. Spencer's
    # chapter has no such definition, so the question is not put there.
    glarus = _permit(people, NEW_GLARUS, "9 Sixth Ave, New Glarus", filed="2026-06-01")
    with pytest.raises(ActionRefused) as refused:
        permits.permit_close(
            permit=glarus, staff=people.staff[NEW_GLARUS], on=timezone.localdate(), cover_percent=80
        )
    assert refused.value.field == "completed"
    assert "all land-disturbing construction activities" in str(refused.value)
    permits.permit_close(
        permit=glarus,
        staff=people.staff[NEW_GLARUS],
        on=timezone.localdate(),
        cover_percent=80,
        activities_completed=True,
    )
    spencer = _permit(people, SPENCER, "10 Elm St, Spencer", filed="2026-06-01")
    permits.permit_close(
        permit=spencer, staff=people.staff[SPENCER], on=timezone.localdate(), cover_percent=80
    )
    assert Permit.objects.get(pk=spencer.pk).status == "closed"


def test_the_close_form_asks_about_the_work_only_where_the_chapter_does(
    client: Any, people: People
) -> None:
    for village, asked in ((NEW_GLARUS, True), (SPENCER, False)):
        permit = _permit(people, village, f"11 Main St, {village}")
        client.force_login(people.staff[village])
        page = client.get(f"/permits/{permit.pk}/").content.decode()
        assert ('name="activities_completed"' in page) is asked, village
