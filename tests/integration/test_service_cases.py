"""The independent reading's service cases (S-1 to S-18), each through the services with
real rows: when a waiting period of Spencer § 413-10 or New Glarus § 135-11 runs from the
service of a notice, and from which service.

The dates are the reader's, worked out by hand from the texts (the standard pattern in
served_helpers.py: posted Monday 2026-06-01, emailed that evening and opened 06-04, mailed
06-02 and received 06-04, handed over 06-03). Where the project's reading differs from
the reader's, the test pins the project's and says why (decisions 0006 and 0046).
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from enforcement_helpers import at
from factories import NEW_GLARUS, SPENCER, People
from served_helpers import (
    allowed,
    case_of,
    day,
    document_of,
    notes,
    permit_with_parties,
    post,
    seen_again,
    standard_copies,
    unpermitted_case,
)

from siltfence.apps.enforcement import errors
from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement.services import ActionRefused
from siltfence.apps.permits.models import Permit
from siltfence.core.ordinance.loader import load
from siltfence.core.timeline import compute
from siltfence.core.timeline.counting import rule_for

pytestmark = pytest.mark.django_db

ADDRESS = {"street": "PO Box 12", "city": "Wausau", "state": "WI", "zip_code": "54401"}


def _spencer_case(people: People) -> Any:
    staff = people.staff[SPENCER]
    permit = permit_with_parties(people.applicant_a, staff, SPENCER)
    return case_of(permit, staff)


def _new_glarus_case(people: People) -> Any:
    staff = people.staff[NEW_GLARUS]
    permit = permit_with_parties(people.applicant_a, staff, NEW_GLARUS, address="300 2nd St")
    return case_of(permit, staff)


def _refused(call: Any, **kwargs: Any) -> ActionRefused:
    with pytest.raises(ActionRefused) as refused:
        call(**kwargs)
    return refused.value


# -- Spencer ----------------------------------------------------------------------------------


def test_S_1_revocation_counts_ten_days_from_the_posting_whatever_copies_follow(
    people: People,
) -> None:
    # § 413-10B "within 10 days": posted Mon 06-01, day 10 is Thu 06-11 (in time), so
    # revocation is first lawful Fri 06-12. Mail (06-02), hand (06-03) and email (06-01)
    # do not move it.
    staff = people.staff[SPENCER]
    case = _spencer_case(people)
    order = post(case, staff, at("2026-06-01", 10))
    standard_copies(document_of(order), staff)
    early = _refused(s.permit_revoke, case=case, staff=staff, at=at("2026-06-11", 17), reasons="x")
    assert early.field == "revocation"
    assert "lawful from 2026-06-12" in str(early)
    step = allowed(case, at("2026-06-12", 9))["revoke_permit"]
    assert step["runs_from"] == {
        "event": "stop_work_order_posted",
        "day": "2026-06-01",
        "id": f"order-{order.pk}",
        "served": "posted_on_site",
    }
    s.permit_revoke(case=case, staff=staff, at=at("2026-06-12", 9), reasons="Not complied.")
    assert Permit.objects.get(application_id=case.application_id).status == "revoked"


def test_S_2_the_posting_reading_is_kept_and_the_other_readings_are_named(people: People) -> None:
    # The text is unclear (R0 violation, R1 posting, R2 dispatch, R3 receipt): the project
    # keeps R1, posting, and its gap note names the reading from service on each person.
    staff = people.staff[SPENCER]
    case = _spencer_case(people)
    order = post(case, staff, at("2026-06-01", 16))
    standard_copies(document_of(order), staff)
    on_day_10 = allowed(case, at("2026-06-11", 23, 59))["revoke_permit"]
    on_day_11 = allowed(case, at("2026-06-12", 0, 1))["revoke_permit"]
    assert (on_day_10["from"], on_day_10["available"]) == ("2026-06-12", False)
    assert on_day_11["available"] is True
    said = notes(case, at("2026-06-12", 9))["ten-days-from"]
    assert "counts from the day the stop-work order was posted on the site" in said
    assert "The other reading counts from the service on each person named" in said


def test_S_3_without_a_posted_order_no_revocation_is_ever_open(people: People) -> None:
    # B names no stop-work order, but the reading taken counts its 10 days from the
    # posting (gap 21): a letter alone starts none. The reader's test: never on 06-12 or
    # earlier; here never at all (and Spencer has no separate notice to cease).
    staff = people.staff[SPENCER]
    case = _spencer_case(people)
    for when in ("2026-06-12", "2026-06-13", "2026-06-16", "2026-07-30"):
        refused = _refused(s.permit_revoke, case=case, staff=staff, at=at(when), reasons="x")
        assert refused.field == "revocation"
        assert "§ 413-10B" in str(refused)
    letter = _refused(s.notice_to_cease_give, case=case, staff=staff, at=at("2026-06-02"))
    assert str(letter) == errors.NO_NOTICE_TO_CEASE.format(chapter="413")


def test_S_4_the_cease_and_desist_request_counts_from_the_posting_not_the_mailed_copy(
    people: People,
) -> None:
    # § 413-10C: posted 06-01 (no permit), day 10 is 06-11, the request is lawful 06-12.
    # The absent landowner's mailed copy (sent 06-02, received 06-05) does not move it on
    # the reading taken; the reader's other reading (06-16 for the landowner) is named in
    # the gap note, not applied (the text does not say whose failure counts).
    staff = people.staff[SPENCER]
    case = unpermitted_case(staff, SPENCER, address="5 Mill Rd, Spencer", party="Lee Landuser")
    order = post(case, staff, at("2026-06-01", 10), ground="no-permit")
    s.document_serve(
        document=document_of(order),
        user=staff,
        method="mailed_certified",
        at=at("2026-06-02", 11),
        to_name="Pat Absent (landowner)",
        address=ADDRESS,
        certified_number="9407 1000 0000 0000 0000 01",
        received_on=day("2026-06-05"),
    )
    said = notes(case, at("2026-06-11", 16))["ten-days-from"]
    assert "from the service on each person named" in said
    early = _refused(s.cease_and_desist_refer, case=case, staff=staff, at=at("2026-06-11", 16))
    assert "lawful from 2026-06-12" in str(early)
    referral = s.cease_and_desist_refer(case=case, staff=staff, at=at("2026-06-12", 9))
    assert referral.citation == "§ 413-10C"


def test_S_5_the_notice_of_intent_is_lawful_on_the_tenth_day_after_posting(
    people: People,
) -> None:
    # § 413-10E "Ten days after posting": posted 06-01 at 16:00, the notice is lawful on
    # 06-11 (at 09:00: hours are ignored) and premature on 06-10.
    staff = people.staff[SPENCER]
    case = _spencer_case(people)
    post(case, staff, at("2026-06-01", 16))
    early = _refused(
        s.notice_of_intent_issue, case=case, staff=staff, at=at("2026-06-10", 15), work="Fence"
    )
    assert "lawful from 2026-06-11" in str(early)
    notice = s.notice_of_intent_issue(case=case, staff=staff, at=at("2026-06-11", 9), work="Fence")
    assert notice.citation == "§ 413-10E"


def test_S_5_no_notice_of_intent_once_the_order_is_retracted(people: People) -> None:
    staff = people.staff[SPENCER]
    case = _spencer_case(people)
    post(case, staff, at("2026-06-01", 10))
    s.order_retract(
        case=case, staff=staff, at=at("2026-06-08"), order="stop_work_order", reason="Fixed."
    )
    refused = _refused(
        s.notice_of_intent_issue, case=case, staff=staff, at=at("2026-06-11"), work="Fence"
    )
    assert "not open in this case" in str(refused)


def test_S_6_work_begins_after_fourteen_whole_days_from_a_notice_handed_over(
    people: People,
) -> None:
    # Handed over Thu 06-11: day 14 is Thu 06-25 (not lawful), work lawful Fri 06-26.
    staff = people.staff[SPENCER]
    case = _spencer_case(people)
    post(case, staff, at("2026-06-01", 10))
    notice = s.notice_of_intent_issue(
        case=case, staff=staff, at=at("2026-06-11", 10), work="Fence", given="handed_over"
    )
    assert notice.details["work_from"] == "2026-06-26"
    early = _refused(s.village_work_begin, case=case, staff=staff, at=at("2026-06-25", 16))
    assert "lawful from 2026-06-26" in str(early)
    s.village_work_begin(case=case, staff=staff, at=at("2026-06-26", 7))


def test_S_7_the_notice_of_intent_is_issued_when_it_is_mailed_not_when_dated_or_emailed(
    people: People,
) -> None:
    # Dated 06-11, emailed 06-11, mailed 06-12, received 06-15. Reading taken: issuing is
    # the dispatch to the person, the mailing: day 0 is 06-12, work lawful 06-27 (06-26
    # is day 14, not lawful). Until it is mailed, no work runs from it, and a note says so.
    staff = people.staff[SPENCER]
    case = _spencer_case(people)
    post(case, staff, at("2026-06-01", 10))
    notice = s.notice_of_intent_issue(
        case=case, staff=staff, at=at("2026-06-11", 9), work="Fence", given="to_be_sent"
    )
    assert notice.details["work_from"] is None
    document = document_of(notice)
    party = Permit.objects.get(application_id=case.application_id).application.parties.get()
    s.document_serve(
        document=document, user=staff, method="emailed", at=at("2026-06-11", 18), party=party
    )
    assert "begin_village_work" not in allowed(case, at("2026-06-30"))
    said = notes(case, at("2026-06-30"))
    assert (
        "is not yet recorded as issued to the person" in said["notice_of_intent_issued-not-served"]
    )
    assert "an email alone is not taken as issuing it" in said["notice-issued"]
    s.document_serve(
        document=document,
        user=staff,
        method="mailed_first_class",
        at=at("2026-06-12", 11),
        party=party,
        received_on=day("2026-06-15"),
    )
    work = allowed(case, at("2026-06-26", 12))["begin_village_work"]
    assert (work["from"], work["available"]) == ("2026-06-27", False)
    assert work["runs_from"]["served"] == "mailed"
    assert work["runs_from"]["day"] == "2026-06-12"
    early = _refused(s.village_work_begin, case=case, staff=staff, at=at("2026-06-26", 16))
    assert "lawful from 2026-06-27" in str(early)
    s.village_work_begin(case=case, staff=staff, at=at("2026-06-27", 7))


def test_S_8_a_premature_notice_is_refused_and_counts_for_nothing(people: People) -> None:
    # Issued 06-08, before 06-11: refused, nothing recorded; reissued 06-11, work from 06-26.
    staff = people.staff[SPENCER]
    case = _spencer_case(people)
    post(case, staff, at("2026-06-01", 10))
    _refused(s.notice_of_intent_issue, case=case, staff=staff, at=at("2026-06-08"), work="Fence")
    assert not case.actions.filter(kind="notice_of_intent").exists()
    s.notice_of_intent_issue(case=case, staff=staff, at=at("2026-06-11", 10), work="Fence")
    assert allowed(case, at("2026-06-26", 8))["begin_village_work"]["from"] == "2026-06-26"


def test_S_8_in_a_record_from_outside_an_early_notice_runs_no_wait() -> None:
    # The same record given to the core as events (the API, the CLI): the early notice is
    # not a notice of intent; the village's work never runs from it, and the notice stays
    # open until one is issued from 06-11 (decision 46 changes decision 6 here: the
    # reader's S-8, on the text "Ten days after posting ... may issue").
    permit = {"type": "permit_issued", "at": "2026-04-22"}
    order = {"type": "stop_work_order_posted", "at": "2026-06-01T10:00"}
    early = {"type": "notice_of_intent_issued", "at": "2026-06-08T10:00"}
    result = compute("spencer-wi", [permit, order, early], datetime.datetime(2026, 8, 30, 12))
    steps = {a["action"]: a for a in result.to_json()["allowed_actions"]}
    assert "begin_village_work" not in steps
    assert steps["issue_notice_of_intent"]["from"] == "2026-06-11"
    again = {"type": "notice_of_intent_issued", "at": "2026-06-11T10:00"}
    events = [permit, order, early, again]
    result = compute("spencer-wi", events, datetime.datetime(2026, 6, 26, 8))
    steps = {a["action"]: a for a in result.to_json()["allowed_actions"]}
    assert steps["begin_village_work"]["from"] == "2026-06-26"


def test_S_9_the_fourteenth_day_on_a_holiday_does_not_move(people: People) -> None:
    # Handed over Sat 06-20: day 14 is Sat 07-04 (Independence Day). A waiting period binds
    # the Building Inspector and sets no last day to act, so nothing moves (decision 6):
    # the strict count, work from Sun 07-05 (the reader's roll would give 07-07).
    staff = people.staff[SPENCER]
    case = _spencer_case(people)
    post(case, staff, at("2026-06-08", 10))
    s.notice_of_intent_issue(case=case, staff=staff, at=at("2026-06-20", 10), work="Fence")
    early = _refused(s.village_work_begin, case=case, staff=staff, at=at("2026-07-04", 12))
    assert "lawful from 2026-07-05" in str(early)
    s.village_work_begin(case=case, staff=staff, at=at("2026-07-05", 8))


def test_S_10_an_appeal_pending_does_not_hold_the_waiting_periods(people: People) -> None:
    # The texts are silent on stays (gap 25): the project does not hold the step appealed
    # (decision 30); the reader's statutory stay [S?] is not applied.
    from siltfence.apps.appeals import services as appeals

    staff = people.staff[SPENCER]
    case = _spencer_case(people)
    order = post(case, staff, at("2026-06-01", 10))
    appeals.appeal_file(
        village=case.village,
        filed_by=staff,
        on=day("2026-06-09"),
        appellant_name="Pat Owner",
        standing="permittee",
        grounds="The fence was up.",
        action=order,
    )
    assert allowed(case, at("2026-06-12", 9))["revoke_permit"]["available"] is True


def test_S_11_compliance_before_the_work_date_closes_the_village_work(people: People) -> None:
    # Notice 06-11, compliance 06-20: no work is "necessary to comply", none is offered.
    staff = people.staff[SPENCER]
    case = _spencer_case(people)
    post(case, staff, at("2026-06-01", 10))
    s.notice_of_intent_issue(case=case, staff=staff, at=at("2026-06-11", 10), work="Fence")
    s.compliance_record(case=case, staff=staff, at=at("2026-06-20", 10), note="Fence back up.")
    refused = _refused(s.village_work_begin, case=case, staff=staff, at=at("2026-06-26", 8))
    assert "not open in this case" in str(refused)


# -- New Glarus -------------------------------------------------------------------------------


def test_S_12_revocation_has_no_waiting_period_and_ignores_the_copies(people: People) -> None:
    # § 135-11B: no period. Posted 06-01 at 09:00, activity seen 14:00: revocation lawful
    # 06-01 (here on the second limb, the violation of the permit recorded 05-29, which
    # needs no order). Mail, hand and email do not matter.
    staff = people.staff[NEW_GLARUS]
    case = _new_glarus_case(people)
    order = post(case, staff, at("2026-06-01", 9))
    standard_copies(document_of(order), staff)
    revocation = s.permit_revoke(
        case=case, staff=staff, at=at("2026-06-01", 14, 30), reasons="Work went on."
    )
    assert revocation.citation == "§ 135-11B"
    assert revocation.details["lawful_from"] == "2026-05-29"


def test_S_13_revocation_on_the_day_the_noncompliance_is_found_without_an_order(
    people: People,
) -> None:
    case = _new_glarus_case(people)
    step = allowed(case, at("2026-05-29", 12))["revoke_permit"]
    assert (step["from"], step["available"], step["citation"]) == ("2026-05-29", True, "§ 135-11B")
    assert step["runs_from"]["event"] == "violation"


def test_S_14_the_under_seven_days_rule_counts_as_the_reader_did() -> None:
    # An order cannot fix its own period here (not modelled: the order's words are the
    # chapter's); the village's counting rule, were one to, gives the reader's days:
    # "within 3 days" from Fri 06-05 skips the weekend to Wed 06-10; "within 7 days" does
    # not, Fri 06-12.
    rule = rule_for(load("new-glarus-wi"))
    assert rule.days_after(day("2026-06-05"), 3).due == day("2026-06-10")
    assert rule.days_after(day("2026-06-05"), 7).due == day("2026-06-12")


def _no_permit_new_glarus(people: People) -> Any:
    return unpermitted_case(
        people.staff[NEW_GLARUS], NEW_GLARUS, address="9 Railroad St", party="Dirt Movers LLC"
    )


def test_S_15_handed_over_the_party_is_notified_at_that_moment(people: People) -> None:
    # Handed over 06-03: notified then; the referral opens on the next activity seen,
    # 06-04 (the record keeps violations by the day: activity later on 06-03 is not told
    # apart, gap 34).
    staff = people.staff[NEW_GLARUS]
    case = _no_permit_new_glarus(people)
    s.notice_to_cease_give(case=case, staff=staff, at=at("2026-06-03", 10), given="handed_over")
    assert "request_cease_and_desist" not in allowed(case, at("2026-06-03", 18))
    seen_again(case, staff, "2026-06-04")
    step = allowed(case, at("2026-06-04", 17))["request_cease_and_desist"]
    assert (step["from"], step["available"]) == ("2026-06-04", True)
    assert step["runs_from"]["event"] == "violation"


def test_S_15_mailed_the_party_is_notified_on_the_day_it_was_received(people: People) -> None:
    # Mailed 06-02, received 06-04 (R3, the reading taken): notified 06-04. Activity on
    # 06-03 is before the party was notified; activity from 06-05 is after. Until the
    # receipt is recorded, the party is not notified, and a note says so.
    staff = people.staff[NEW_GLARUS]
    case = _no_permit_new_glarus(people)
    notice = s.notice_to_cease_give(
        case=case, staff=staff, at=at("2026-06-02", 10), given="to_be_sent"
    )
    record = s.document_serve(
        document=document_of(notice),
        user=staff,
        method="mailed_first_class",
        at=at("2026-06-02", 11),
        to_name="Dirt Movers LLC",
        address=ADDRESS,
    )
    seen_again(case, staff, "2026-06-03")
    assert "request_cease_and_desist" not in allowed(case, at("2026-06-04", 18))
    said = notes(case, at("2026-06-04", 18))
    assert "has not been shown to reach the party" in said["notified_to_cease-not-served"]
    assert "on the day it is shown to have been received" in said["being-notified"]
    s.service_receipt_record(service=record, user=staff, received_on=day("2026-06-04"))
    assert "request_cease_and_desist" not in allowed(case, at("2026-06-04", 18))
    seen_again(case, staff, "2026-06-05")
    step = allowed(case, at("2026-06-05", 17))["request_cease_and_desist"]
    assert step["from"] == "2026-06-05"


def test_S_15_emailed_the_party_is_notified_only_once_receipt_is_shown(people: People) -> None:
    # Sent 06-01 18:00, opened 06-04: notified 06-04 (R3); with no receipt shown, never.
    staff = people.staff[NEW_GLARUS]
    case = _no_permit_new_glarus(people)
    notice = s.notice_to_cease_give(
        case=case, staff=staff, at=at("2026-06-01", 17), given="to_be_sent"
    )
    record = s.document_serve(
        document=document_of(notice),
        user=staff,
        method="emailed",
        at=at("2026-06-01", 18),
        to_name="Dirt Movers LLC",
        email="office@dirtmovers.example",
    )
    seen_again(case, staff, "2026-06-02")
    seen_again(case, staff, "2026-06-05")
    assert "request_cease_and_desist" not in allowed(case, at("2026-06-05", 18))
    s.service_receipt_record(
        service=record, user=staff, received_on=day("2026-06-04"), how="Their reply"
    )
    step = allowed(case, at("2026-06-05", 18))["request_cease_and_desist"]
    assert step["from"] == "2026-06-05"


def test_S_16_a_violation_of_a_posted_order_counts_from_the_day_after_the_posting(
    people: People,
) -> None:
    # Posted 06-01 09:00, activity seen 14:00: the reader opens the referral on 06-01. The
    # project reads violations by the day (gap 34, decision 6): the activity of the posting
    # day is not told apart from what led to the order, so the referral opens with
    # activity seen from 06-02. Mail, hand and email are irrelevant either way.
    staff = people.staff[NEW_GLARUS]
    case = _no_permit_new_glarus(people)
    order = post(case, staff, at("2026-06-01", 9), ground="no-permit")
    standard_copies(document_of(order), staff)
    seen_again(case, staff, "2026-06-01")
    assert "request_cease_and_desist" not in allowed(case, at("2026-06-01", 18))
    assert "disobeyed-same-day" in notes(case, at("2026-06-01", 18))
    seen_again(case, staff, "2026-06-02")
    referral = s.cease_and_desist_refer(case=case, staff=staff, at=at("2026-06-02", 17))
    assert referral.citation == "§ 135-11C"


def test_S_17_notice_and_work_have_no_waiting_period_after_posting_and_issuing(
    people: People,
) -> None:
    # Posted 06-01 09:00: a notice at 08:00 is refused, at 10:00 lawful. Handed over, work
    # is lawful at once; none of Spencer's 10 and 14 days apply.
    staff = people.staff[NEW_GLARUS]
    case = _new_glarus_case(people)
    post(case, staff, at("2026-06-01", 9))
    before = _refused(
        s.notice_of_intent_issue, case=case, staff=staff, at=at("2026-06-01", 8), work="Fence"
    )
    assert before.field == "notice of intent"
    s.notice_of_intent_issue(case=case, staff=staff, at=at("2026-06-01", 10), work="Fence")
    work = s.village_work_begin(case=case, staff=staff, at=at("2026-06-01", 11))
    assert work.citation == "§ 135-11E"


def test_S_17_a_mailed_notice_of_intent_counts_from_its_mailing(people: People) -> None:
    # Mailed 06-02, received 06-04: issuing is the dispatch (the reading taken for both
    # villages' "issuing"), so work is lawful from 06-02; the reader also names receipt,
    # 06-04, which protects the person (gap 31).
    staff = people.staff[NEW_GLARUS]
    case = _new_glarus_case(people)
    post(case, staff, at("2026-06-01", 9))
    notice = s.notice_of_intent_issue(
        case=case, staff=staff, at=at("2026-06-01", 10), work="Fence", given="to_be_sent"
    )
    assert "begin_village_work" not in allowed(case, at("2026-06-01", 18))
    party = Permit.objects.get(application_id=case.application_id).application.parties.get()
    s.document_serve(
        document=document_of(notice),
        user=staff,
        method="mailed_first_class",
        at=at("2026-06-02", 11),
        party=party,
        received_on=day("2026-06-04"),
    )
    step = allowed(case, at("2026-06-02", 12))["begin_village_work"]
    assert (step["from"], step["available"]) == ("2026-06-02", True)


def test_S_18_an_appeal_does_not_stop_the_work_or_the_court_referral(people: People) -> None:
    # A pending appeal holds nothing (gap 25; the reader's stay [S?] is not applied), and
    # the ZBA has no power over a § 135-11C cease-and-desist order (§ 135-12A(1)).
    from siltfence.apps.appeals import services as appeals

    staff = people.staff[NEW_GLARUS]
    case = _new_glarus_case(people)
    order = post(case, staff, at("2026-06-01", 9))
    appeals.appeal_file(
        village=case.village,
        filed_by=staff,
        on=day("2026-06-02"),
        appellant_name="Pat Owner",
        standing="aggrieved_person",
        grounds="The inlet was protected.",
        action=order,
    )
    s.notice_of_intent_issue(case=case, staff=staff, at=at("2026-06-03", 10), work="Fence")
    s.village_work_begin(case=case, staff=staff, at=at("2026-06-03", 11))
    rules = load("new-glarus-wi").rules["appeals"]["not_appealable"]
    assert {"what": "cease_and_desist_order", "citation": "§ 135-12A(1)"} in rules
