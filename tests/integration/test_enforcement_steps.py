"""The enforcement steps against the waiting periods of the chapters, worked out by hand.

Spencer § 413-10E: "Ten days after posting a stop-work order, the Building Inspector may
issue a notice of intent"; posted Wednesday 2026-07-01, the tenth day after is Saturday
2026-07-11. § 413-10B: "within 10 days" to comply; the tenth day is 2026-07-11 (a
Saturday, not a Sunday or legal holiday, so it does not move), so revocation is open from
2026-07-12. Village work "after 14 days from issuing the notice of intent": a notice of
2026-07-11 lets the work begin on the 15th day, 2026-07-26.
New Glarus § 135-11B: a recorded violation of the plan or permit opens revocation with
no stop-work order; § 135-11C: after a notice to cease, the referral is open; § 135-11D:
only the Zoning Board of Appeals may retract.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

import pytest
from enforcement_helpers import at, permit_filed_on
from factories import NEW_GLARUS, SPENCER, People

from siltfence.apps.enforcement import errors
from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement.models import EnforcementDocument, InterestRate
from siltfence.apps.enforcement.selectors import case_timeline, forfeiture_summary
from siltfence.apps.enforcement.services import ActionRefused
from siltfence.apps.permits.models import Permit, TimelineEvent

pytestmark = pytest.mark.django_db


def _violation(people: People, permit: Any, day: str = "2026-07-01") -> Any:
    village = permit.village
    return s.violation_record(
        village=village,
        recorded_by=people.staff[village.id],
        source="observation",
        description="No inlet protection on the street inlet.",
        provision="§ 413-7B(4)" if village.id == SPENCER else "§ 135-11",
        days_from=datetime.date.fromisoformat(day),
        at=at(day, 9),
        permit=permit,
    )


@pytest.fixture
def spencer_case(people: People) -> Any:
    permit = permit_filed_on(
        applicant=people.applicant_a,
        village=SPENCER,
        staff=people.staff[SPENCER],
        filed="2026-06-01",
        address="12 Park St, Spencer",
    )
    return _violation(people, permit).case


@pytest.fixture
def spencer_order(people: People, spencer_case: Any) -> Any:
    return s.stop_work_order_post(
        case=spencer_case,
        staff=people.staff[SPENCER],
        at=at("2026-07-01", 10, 30),
        grounds=["conditions-not-met"],
    )


def test_a_stop_work_order_records_its_grounds_event_and_placard(
    spencer_case: Any, spencer_order: Any
) -> None:
    assert spencer_order.citation == "§ 413-10A"
    assert spencer_order.grounds == [
        {
            "id": "conditions-not-met",
            "citation": "§ 413-10A(3)",
            "says": "The conditions of the permit are not being met",
        }
    ]
    assert TimelineEvent.objects.filter(
        application_id=spencer_case.application_id, type="stop_work_order_posted"
    ).exists()
    placard = EnforcementDocument.objects.get(action=spencer_order)
    assert placard.kind == "stop_work_placard"
    assert placard.file.read().startswith(b"%PDF")


def test_the_no_permit_ground_is_refused_at_a_site_with_a_permit(
    people: People, spencer_case: Any
) -> None:
    with pytest.raises(ActionRefused) as refused:
        s.stop_work_order_post(
            case=spencer_case,
            staff=people.staff[SPENCER],
            at=at("2026-07-01"),
            grounds=["no-permit"],
        )
    assert refused.value.field == "grounds"
    assert "§ 413-10A(1)" in str(refused.value)


def test_a_second_order_while_one_is_in_force_is_refused(
    people: People, spencer_case: Any, spencer_order: Any
) -> None:
    with pytest.raises(ActionRefused) as refused:
        s.stop_work_order_post(
            case=spencer_case,
            staff=people.staff[SPENCER],
            at=at("2026-07-02"),
            grounds=["plan-not-followed"],
        )
    assert str(refused.value) == "order: a stop-work order posted 2026-07-01 is still in force"


def test_spencer_notice_of_intent_is_refused_on_the_ninth_day_and_allowed_on_the_tenth(
    people: People, spencer_case: Any, spencer_order: Any
) -> None:
    with pytest.raises(ActionRefused) as refused:
        s.notice_of_intent_issue(
            case=spencer_case, staff=people.staff[SPENCER], at=at("2026-07-10", 16), work="Fence"
        )
    assert refused.value.field == "notice of intent"
    assert str(refused.value).startswith("notice of intent: not lawful until 2026-07-11 (§ 413-10E")
    assert str(refused.value).endswith("lawful from 2026-07-11")
    notice = s.notice_of_intent_issue(
        case=spencer_case,
        staff=people.staff[SPENCER],
        at=at("2026-07-11", 8),
        work="Reinstall silt fence on the east line.",
    )
    assert notice.details["work_from"] == "2026-07-26"


def test_spencer_revocation_is_refused_within_the_ten_days_and_allowed_the_day_after(
    people: People, spencer_case: Any, spencer_order: Any
) -> None:
    with pytest.raises(ActionRefused) as refused:
        s.permit_revoke(
            case=spencer_case, staff=people.staff[SPENCER], at=at("2026-07-11", 17), reasons="x"
        )
    assert refused.value.field == "revocation"
    assert "lawful from 2026-07-12" in str(refused.value)
    assert Permit.objects.get(application_id=spencer_case.application_id).status == "active"
    s.permit_revoke(
        case=spencer_case,
        staff=people.staff[SPENCER],
        at=at("2026-07-12", 9),
        reasons="The permittee did not comply within 10 days.",
    )
    assert Permit.objects.get(application_id=spencer_case.application_id).status == "revoked"


def test_spencer_revocation_needs_a_stop_work_order_first(
    people: People, spencer_case: Any
) -> None:
    with pytest.raises(ActionRefused) as refused:
        s.permit_revoke(
            case=spencer_case, staff=people.staff[SPENCER], at=at("2026-08-01"), reasons="x"
        )
    assert refused.value.field == "revocation"
    assert "§ 413-10B" in str(refused.value)


def test_spencer_building_inspector_may_retract_a_revocation_and_the_permit_is_active_again(
    people: People, spencer_case: Any, spencer_order: Any
) -> None:
    s.permit_revoke(
        case=spencer_case,
        staff=people.staff[SPENCER],
        at=at("2026-07-12"),
        reasons="No compliance.",
    )
    s.order_retract(
        case=spencer_case,
        staff=people.staff[SPENCER],
        at=at("2026-07-13"),
        order="revocation",
        reason="Work now follows the plan.",
    )
    assert Permit.objects.get(application_id=spencer_case.application_id).status == "active"
    event = TimelineEvent.objects.get(
        application_id=spencer_case.application_id, type="order_retracted"
    )
    assert event.fields == {"order": "revocation", "by": "authority"}


def test_village_work_waits_fourteen_whole_days_after_the_notice_then_costs_invoice_and_certify(
    people: People, spencer_case: Any, spencer_order: Any
) -> None:
    staff = people.staff[SPENCER]
    s.notice_of_intent_issue(case=spencer_case, staff=staff, at=at("2026-07-11"), work="Fence")
    with pytest.raises(ActionRefused) as early:
        s.village_work_begin(case=spencer_case, staff=staff, at=at("2026-07-25", 15))
    assert "lawful from 2026-07-26" in str(early.value)
    s.village_work_begin(case=spencer_case, staff=staff, at=at("2026-07-26", 7))
    s.work_cost_record(
        case=spencer_case,
        staff=staff,
        category="labour",
        description="Public works crew, 8 hours",
        amount="600.00",
        incurred_on=datetime.date(2026, 7, 26),
    )
    s.work_cost_record(
        case=spencer_case,
        staff=staff,
        category="materials",
        description="Silt fence, 300 ft",
        amount="400",
        incurred_on=datetime.date(2026, 7, 26),
    )
    InterestRate.objects.create(
        village_id=SPENCER,
        effective_from=datetime.date(2026, 1, 1),
        annual_percent=Decimal("12"),
        authority="Building Inspector order 2026-1",
    )
    invoice = s.invoice_issue(
        case=spencer_case, staff=staff, on=datetime.date(2026, 8, 1), due_in_days=30
    )
    assert (invoice.principal, invoice.due_on) == (Decimal("1000.00"), datetime.date(2026, 8, 31))
    with pytest.raises(ActionRefused) as not_due:
        s.costs_unpaid_record(invoice=invoice, staff=staff, at=at("2026-08-31"))
    assert not_due.value.field == "date"
    with pytest.raises(ActionRefused) as no_parcel:
        s.costs_unpaid_record(invoice=invoice, staff=staff, at=at("2026-09-01"))
        s.tax_roll_certify(invoice=invoice, staff=staff, at=at("2026-09-30"))
    assert no_parcel.value.field == "parcel number"
    s.case_parcel_set(case=spencer_case, staff=staff, parcel_number="031-1040")
    action = s.tax_roll_certify(invoice=invoice, staff=staff, at=at("2026-09-30"))
    # 30 days past due (Sept 1-30) at 12% a year on $1,000: 1000 x 0.12 x 30 / 365 = 9.86
    assert action.details["interest"] == "9.86"
    assert action.details["total"] == "1009.86"
    assert action.citation == "§ 413-10E"


def test_certification_is_refused_before_the_costs_are_recorded_unpaid(
    people: People, spencer_case: Any, spencer_order: Any
) -> None:
    staff = people.staff[SPENCER]
    s.notice_of_intent_issue(case=spencer_case, staff=staff, at=at("2026-07-11"), work="Fence")
    s.village_work_begin(case=spencer_case, staff=staff, at=at("2026-07-26"))
    s.work_cost_record(
        case=spencer_case,
        staff=staff,
        category="equipment",
        description="Skid steer",
        amount="250",
        incurred_on=datetime.date(2026, 7, 27),
    )
    s.case_parcel_set(case=spencer_case, staff=staff, parcel_number="031-1040")
    invoice = s.invoice_issue(case=spencer_case, staff=staff, on=datetime.date(2026, 8, 1))
    assert invoice.interest_rate_percent is None
    with pytest.raises(ActionRefused) as refused:
        s.tax_roll_certify(invoice=invoice, staff=staff, at=at("2026-10-01"))
    assert refused.value.field == "certification"
    assert "§ 413-10E" in str(refused.value)


def test_new_glarus_revocation_is_open_on_a_recorded_violation_without_any_order(
    people: People,
) -> None:
    permit = permit_filed_on(
        applicant=people.applicant_a,
        village=NEW_GLARUS,
        staff=people.staff[NEW_GLARUS],
        filed="2026-06-01",
        address="300 2nd St, New Glarus",
    )
    case = _violation(people, permit, "2026-07-01").case
    action = s.permit_revoke(
        case=case, staff=people.staff[NEW_GLARUS], at=at("2026-07-01", 15), reasons="Plan ignored."
    )
    assert action.citation == "§ 135-11B"
    with pytest.raises(ActionRefused) as refused:
        s.order_retract(
            case=case,
            staff=people.staff[NEW_GLARUS],
            at=at("2026-07-02"),
            order="revocation",
            reason="x",
        )
    assert refused.value.field == "by"
    assert "§ 135-11D only the Zoning Board of Appeals" in str(refused.value)


def test_new_glarus_cease_and_desist_referral_follows_a_notice_to_cease_at_a_site_with_no_permit(
    people: People, villages: Any
) -> None:
    staff = people.staff[NEW_GLARUS]
    violation = s.violation_record(
        village=villages[NEW_GLARUS],
        recorded_by=staff,
        source="observation",
        description="Grading with no permit.",
        provision="§ 135-6",
        days_from=datetime.date(2026, 7, 1),
        at=at("2026-07-01"),
        address="9 Railroad St, New Glarus",
    )
    case = violation.case
    with pytest.raises(ActionRefused) as refused:
        s.cease_and_desist_refer(case=case, staff=staff, at=at("2026-07-01", 12))
    assert refused.value.field == "referral"
    s.notice_to_cease_give(case=case, staff=staff, at=at("2026-07-01", 13))
    # "does not cease the activity after being notified": the notice alone opens nothing.
    with pytest.raises(ActionRefused, match="not open in this case"):
        s.cease_and_desist_refer(case=case, staff=staff, at=at("2026-07-01", 14))
    s.violation_record(
        village=villages[NEW_GLARUS],
        recorded_by=staff,
        source="observation",
        description="Grading went on the next day.",
        provision="§ 135-6",
        days_from=datetime.date(2026, 7, 2),
        at=at("2026-07-02"),
        address="9 Railroad St, New Glarus",
    )
    referral = s.cease_and_desist_refer(case=case, staff=staff, at=at("2026-07-02", 14))
    assert referral.citation == "§ 135-11C"
    notes = {n["id"] for n in case_timeline(case, at("2026-07-02")).to_json()["notes"]}
    assert "entry-without-permit" in notes


def test_new_glarus_forfeiture_counts_each_day_at_100_to_500(people: People, villages: Any) -> None:
    violation = s.violation_record(
        village=villages[NEW_GLARUS],
        recorded_by=people.staff[NEW_GLARUS],
        source="observation",
        description="Mud on the street.",
        provision="§ 135-11",
        days_from=datetime.date(2026, 7, 1),
        days_to=datetime.date(2026, 7, 3),
        at=at("2026-07-03"),
        address="1 Main St",
    )
    summary = forfeiture_summary(violation.case, at("2026-07-10"))
    # Three days (July 1, 2, 3), each a separate offense: $300 to $1,500 plus costs.
    assert (summary["days"], summary["min"], summary["max"]) == (3, 300, 1500)
    assert summary["plus_costs"] is True


def test_spencer_forfeiture_says_not_entered_until_the_village_enters_the_section_1_3_amount(
    people: People, villages: Any
) -> None:
    violation = s.violation_record(
        village=villages[SPENCER],
        recorded_by=people.staff[SPENCER],
        source="observation",
        description="Mud on the street.",
        provision="§ 413-7B(3)",
        days_from=datetime.date(2026, 7, 1),
        at=at("2026-07-01"),
        address="1 Main St",
    )
    # The violation continues: on July 4 it has run four days.
    summary = forfeiture_summary(violation.case, at("2026-07-04"))
    assert (summary["days"], summary["source"]) == (4, "not_entered")
    s.forfeiture_schedule_set(
        village=villages[SPENCER],
        staff=people.staff[SPENCER],
        effective_from=datetime.date(2026, 1, 1),
        per_day_min="50",
        per_day_max="250",
        authority="Code § 1-3 as adopted",
    )
    summary = forfeiture_summary(violation.case, at("2026-07-04"))
    assert (summary["source"], summary["min"], summary["max"]) == (
        "entered",
        Decimal("200.00"),
        Decimal("1000.00"),
    )


def test_spencer_cease_and_desist_at_a_site_with_no_permit_waits_out_the_ten_days(
    people: People, villages: Any
) -> None:
    # § 413-10C: a landowner or land user with no permit who "does not cease ... within 10
    # days": posted Wednesday 2026-07-01, the tenth day is Saturday 2026-07-11, so the
    # referral is open from Sunday 2026-07-12.
    staff = people.staff[SPENCER]
    case = s.violation_record(
        village=villages[SPENCER],
        recorded_by=staff,
        source="observation",
        description="Grading with no permit.",
        provision="§ 413-9",
        days_from=datetime.date(2026, 7, 1),
        at=at("2026-07-01"),
        address="80 Oak St, Spencer",
    ).case
    s.stop_work_order_post(case=case, staff=staff, at=at("2026-07-01", 10), grounds=["no-permit"])
    with pytest.raises(ActionRefused) as early:
        s.cease_and_desist_refer(case=case, staff=staff, at=at("2026-07-11", 16))
    assert early.value.field == "referral"
    assert str(early.value).endswith("lawful from 2026-07-12")
    referral = s.cease_and_desist_refer(case=case, staff=staff, at=at("2026-07-12", 9))
    assert referral.citation == "§ 413-10C"
    with pytest.raises(ActionRefused) as no_permit:
        s.permit_revoke(case=case, staff=staff, at=at("2026-07-12"), reasons="x")
    assert str(no_permit.value) == errors.REVOKE_NO_PERMIT


def test_new_glarus_injunction_needs_no_prior_prosecution_or_order(
    people: People, villages: Any
) -> None:
    # § 135-11G: "without first prosecuting for forfeiture or a cease-and-desist order".
    staff = people.staff[NEW_GLARUS]
    case = s.violation_record(
        village=villages[NEW_GLARUS],
        recorded_by=staff,
        source="observation",
        description="Sediment in the creek.",
        provision="§ 135-11",
        days_from=datetime.date(2026, 7, 1),
        at=at("2026-07-01"),
        address="5 Creek Rd, New Glarus",
    ).case
    referral = s.injunction_refer(case=case, staff=staff, at=at("2026-07-01", 12))
    assert referral.citation == "§ 135-11G"
    assert EnforcementDocument.objects.get(action=referral).kind == "injunction_referral"


def test_a_step_cannot_be_recorded_for_a_time_that_has_not_come(
    people: People, spencer_case: Any
) -> None:
    from django.utils import timezone

    with pytest.raises(ActionRefused) as refused:
        s.stop_work_order_post(
            case=spencer_case,
            staff=people.staff[SPENCER],
            at=timezone.now() + datetime.timedelta(days=2),
            grounds=["conditions-not-met"],
        )
    assert refused.value.field == "date"
    assert not spencer_case.actions.exists()
