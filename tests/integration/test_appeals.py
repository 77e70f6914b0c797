"""Appeals and variances, against § 413-12 and § 135-12.

Spencer § 413-12B: "any applicant, permittee, landowner or land user" may appeal.
New Glarus § 135-12: any aggrieved person or village office may appeal, "except
cease-and-desist orders obtained under § 135-11C". A reversed stop-work order is retracted
by the Zoning Board of Appeals (§ 413-10D, § 135-11D); a variance needs the three findings.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from board_helpers import board_decides
from enforcement_helpers import at, permit_filed_on
from factories import NEW_GLARUS, SPENCER, People

from siltfence.apps.appeals import services as a
from siltfence.apps.appeals.documents import decision_lines
from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement.selectors import case_timeline, open_stop_work_order
from siltfence.apps.enforcement.services import ActionRefused
from siltfence.apps.permits.models import Permit, TimelineEvent
from siltfence.core.ordinance.loader import load

pytestmark = pytest.mark.django_db


def _order(people: People, village: str, filed: str = "2026-06-01") -> Any:
    permit = permit_filed_on(
        applicant=people.applicant_a,
        village=village,
        staff=people.staff[village],
        filed=filed,
        address="300 2nd St",
    )
    case = s.violation_record(
        village=permit.village,
        recorded_by=people.staff[village],
        source="observation",
        description="Fence down.",
        provision="§ 413-7B(4)" if village == SPENCER else "§ 135-11",
        days_from=datetime.date(2026, 7, 1),
        at=at("2026-07-01"),
        permit=permit,
    ).case
    return s.stop_work_order_post(
        case=case,
        staff=people.staff[village],
        at=at("2026-07-01", 10),
        grounds=["plan-not-followed"],
    )


@pytest.mark.parametrize(
    ("village", "standing", "allowed"),
    [
        (SPENCER, "permittee", True),
        (SPENCER, "land_user", True),
        (SPENCER, "aggrieved_person", False),
        (NEW_GLARUS, "aggrieved_person", True),
        (NEW_GLARUS, "village_office", True),
        (NEW_GLARUS, "permittee", False),
    ],
)
def test_who_may_appeal_follows_the_village(
    people: People, village: str, standing: str, allowed: bool
) -> None:
    order = _order(people, village)
    values = dict(
        village=order.case.village,
        filed_by=people.applicant_a,
        on=datetime.date(2026, 7, 2),
        appellant_name="Alex Schmid",
        standing=standing,
        grounds="The fence was up; the photo is of the neighbour's lot.",
        action=order,
    )
    if allowed:
        assert a.appeal_file(**values).status == "filed"
        return
    with pytest.raises(ActionRefused) as refused:
        a.appeal_file(**values)
    assert refused.value.field == "standing"
    citation = "§ 413-12B" if village == SPENCER else "§ 135-12B"
    assert f"under {citation} an appeal may be brought by" in str(refused.value)


def test_a_new_glarus_referral_to_the_village_attorney_may_be_appealed(
    people: People, villages: Any
) -> None:
    staff = people.staff[NEW_GLARUS]
    case = s.violation_record(
        village=villages[NEW_GLARUS],
        recorded_by=staff,
        source="observation",
        description="Grading, no permit.",
        provision="§ 135-6",
        days_from=datetime.date(2026, 7, 1),
        at=at("2026-07-01"),
        address="9 Railroad St",
    ).case
    s.notice_to_cease_give(case=case, staff=staff, at=at("2026-07-01", 11))
    s.violation_record(
        village=villages[NEW_GLARUS],
        recorded_by=staff,
        source="observation",
        description="Grading went on after the notice.",
        provision="§ 135-6",
        days_from=datetime.date(2026, 7, 2),
        at=at("2026-07-02"),
        address="9 Railroad St",
    )
    referral = s.cease_and_desist_refer(case=case, staff=staff, at=at("2026-07-02", 12))
    # § 135-12A(1) bars appeals of the cease-and-desist order a court issues (§ 135-13), not
    # the Village Administrator's decision to ask the Village Attorney for one.
    appeal = a.appeal_file(
        village=villages[NEW_GLARUS],
        filed_by=staff,
        on=datetime.date(2026, 7, 3),
        appellant_name="Dirt Movers LLC",
        standing="aggrieved_person",
        grounds="We had a permit application in.",
        action=referral,
    )
    assert appeal.pk is not None


def test_another_applicant_cannot_appeal_someone_elses_order(people: People) -> None:
    order = _order(people, SPENCER)
    with pytest.raises(ActionRefused) as refused:
        a.appeal_file(
            village=order.case.village,
            filed_by=people.applicant_b,
            on=datetime.date(2026, 7, 2),
            appellant_name="B",
            standing="landowner",
            grounds="x",
            action=order,
        )
    assert refused.value.field == "decision"


def test_a_hearing_then_a_reversal_retracts_the_stop_work_order_by_the_board(
    people: People,
) -> None:
    order = _order(people, NEW_GLARUS)
    appeal = a.appeal_file(
        village=order.case.village,
        filed_by=people.applicant_a,
        on=datetime.date(2026, 7, 2),
        appellant_name="Alex Schmid",
        standing="aggrieved_person",
        grounds="The plan was followed.",
        action=order,
    )
    board = people.board[NEW_GLARUS]
    with pytest.raises(ActionRefused) as no_hearing:
        board_decides(appeal, at=at("2026-07-03"), decision="reverse", reasons="x")
    assert (
        str(no_hearing.value)
        == f"hearing: no hearing is set for appeal {appeal.number}; set it first"
    )
    with pytest.raises(ActionRefused) as late_notice:
        a.appeal_hearing_schedule(
            appeal=appeal,
            user=board,
            hearing_at=at("2026-07-14", 18),
            notice_given_on=datetime.date(2026, 7, 15),
            notice_to="Alex Schmid",
        )
    assert late_notice.value.field == "notice_given_on"
    a.appeal_hearing_schedule(
        appeal=appeal,
        user=people.staff[NEW_GLARUS],
        hearing_at=at("2026-07-14", 18),
        notice_given_on=datetime.date(2026, 7, 6),
        notice_to="Alex Schmid; the Village Administrator",
        place="Village Hall",
    )
    # One member of the board (not its chair) cannot record the board's decision alone.
    with pytest.raises(ActionRefused) as one_member:
        board_decides(appeal, at=at("2026-07-14", 20), decision="reverse", reasons="x", by=board)
    assert one_member.value.field == "village"
    decided = board_decides(
        appeal,
        at=at("2026-07-14", 20),
        decision="reverse",
        reasons="The photographs show the neighbouring lot.",
    )
    assert decided.decision_document.read().startswith(b"%PDF")
    assert open_stop_work_order(order.case) is None
    event = TimelineEvent.objects.get(
        application_id=order.case.application_id, type="order_retracted"
    )
    assert event.fields == {"order": "stop_work_order", "by": "appeals_board"}
    # With the order retracted, nothing runs from it: no notice of intent is open.
    actions = {
        x["action"]
        for x in case_timeline(order.case, at("2026-08-01")).to_json()["allowed_actions"]
    }
    assert "issue_notice_of_intent" not in actions


def test_a_reversed_revocation_puts_the_permit_back_in_force(people: People) -> None:
    order = _order(people, SPENCER)
    revocation = s.permit_revoke(
        case=order.case, staff=people.staff[SPENCER], at=at("2026-07-12"), reasons="No compliance."
    )
    appeal = a.appeal_file(
        village=order.case.village,
        filed_by=people.staff[SPENCER],
        on=datetime.date(2026, 7, 13),
        appellant_name="Alex Schmid",
        standing="permittee",
        grounds="Complied on July 10.",
        action=revocation,
    )
    a.appeal_hearing_schedule(
        appeal=appeal,
        user=people.board[SPENCER],
        hearing_at=at("2026-07-20", 19),
        notice_given_on=datetime.date(2026, 7, 14),
        notice_to="Alex Schmid",
    )
    board_decides(
        appeal,
        at=at("2026-07-20", 20),
        decision="reverse",
        reasons="Compliance was shown before the revocation.",
    )
    assert Permit.objects.get(application_id=order.case.application_id).status == "active"


@pytest.mark.parametrize("retracts", [True, False])
def test_a_modified_revocation_restores_the_permit_when_the_board_says_it_lifts_it(
    people: People, retracts: bool
) -> None:
    # New Glarus § 135-11D: the Zoning Board of Appeals "may retract ... the permit
    # revocation". "Modify: revocation reversed, permit restored" changes the record at
    # once; a modification that does not lift it leaves the permit revoked.
    order = _order(people, NEW_GLARUS)
    revocation = s.permit_revoke(
        case=order.case,
        staff=people.staff[NEW_GLARUS],
        at=at("2026-07-03"),
        reasons="Fence still down.",
    )
    appeal = _appeal_heard(people, NEW_GLARUS, revocation, "aggrieved_person")
    board_decides(
        appeal,
        at=at("2026-07-20", 20),
        decision="modify",
        reasons="The fence was repaired on July 9.",
        modification="Revocation reversed, permit restored; weekly inspections to be filed.",
        retracts=retracts,
    )
    permit = Permit.objects.get(application_id=order.case.application_id)
    assert permit.status == ("active" if retracts else "revoked")
    retracted = TimelineEvent.objects.filter(
        application_id=order.case.application_id, type="order_retracted"
    )
    assert [(e.fields["order"], e.fields["by"]) for e in retracted] == (
        [("revocation", "appeals_board")] if retracts else []
    )
    appeal.refresh_from_db()
    text = "\n".join(
        decision_lines(ordinance=load(NEW_GLARUS), appeal=appeal)  # the document's words
    )
    assert ("The permit is again in force" in text) is retracts
    timeline = case_timeline(order.case, at("2026-07-21")).to_json()
    assert timeline["permit"]["status"] == ("in_force" if retracts else "revoked")


def test_only_a_modified_decision_says_whether_it_lifts_the_order(people: People) -> None:
    order = _order(people, SPENCER)
    appeal = _appeal_heard(people, SPENCER, order, "permittee")
    with pytest.raises(ActionRefused) as refused:
        board_decides(
            appeal,
            at=at("2026-07-20", 20),
            decision="affirm",
            reasons="The order stands.",
            retracts=True,
        )
    assert refused.value.field == "retracts"


def _appeal_heard(people: People, village: str, action: Any, standing: str) -> Any:
    appeal = a.appeal_file(
        village=action.case.village,
        filed_by=people.applicant_a,
        on=datetime.date(2026, 7, 13),
        appellant_name="Alex Schmid",
        standing=standing,
        grounds="The fence was up.",
        action=action,
    )
    a.appeal_hearing_schedule(
        appeal=appeal,
        user=people.board[village],
        hearing_at=at("2026-07-20", 19),
        notice_given_on=datetime.date(2026, 7, 14),
        notice_to="Alex Schmid",
    )
    return appeal


def test_reversing_an_order_already_complied_with_leaves_a_later_order_in_force(
    people: People,
) -> None:
    # The board decides the appeal of the order appealed (§ 135-12A); an order posted
    # later is another decision of the Village Administrator, in force until it ends.
    order = _order(people, NEW_GLARUS)
    staff = people.staff[NEW_GLARUS]
    appeal = _appeal_heard(people, NEW_GLARUS, order, "aggrieved_person")
    s.compliance_record(case=order.case, staff=staff, at=at("2026-07-14"))
    later = s.stop_work_order_post(
        case=order.case, staff=staff, at=at("2026-07-16"), grounds=["conditions-not-met"]
    )
    board_decides(
        appeal,
        at=at("2026-07-20", 20),
        decision="reverse",
        reasons="The first order was posted on the wrong lot.",
    )
    assert open_stop_work_order(order.case) == later
    assert not order.case.actions.filter(kind="retraction").exists()
    assert not TimelineEvent.objects.filter(
        application_id=order.case.application_id, type="order_retracted"
    ).exists()


def test_reversing_a_revocation_already_retracted_leaves_a_later_revocation_in_effect(
    people: People,
) -> None:
    # § 413-10D: the Building Inspector retracted the first revocation; the permit was
    # revoked again later, and that revocation was not appealed.
    order = _order(people, SPENCER)
    staff = people.staff[SPENCER]
    first = s.permit_revoke(case=order.case, staff=staff, at=at("2026-07-12"), reasons="No.")
    appeal = _appeal_heard(people, SPENCER, first, "permittee")
    s.order_retract(
        case=order.case, staff=staff, at=at("2026-07-14"), order="revocation", reason="Fixed."
    )
    s.permit_revoke(case=order.case, staff=staff, at=at("2026-07-16"), reasons="Down again.")
    board_decides(
        appeal,
        at=at("2026-07-20", 20),
        decision="reverse",
        reasons="The first revocation came before the ten days had run.",
    )
    assert Permit.objects.get(application_id=order.case.application_id).status == "revoked"
    assert order.case.actions.filter(kind="retraction").count() == 1  # the inspector's


def test_a_variance_is_granted_only_with_all_three_findings(people: People, villages: Any) -> None:
    appeal = a.appeal_file(
        village=villages[SPENCER],
        filed_by=people.staff[SPENCER],
        on=datetime.date(2026, 7, 1),
        appellant_name="Alex Schmid",
        standing="landowner",
        grounds="Bedrock prevents a three-foot basin.",
        kind="variance",
    )
    board = people.board[SPENCER]
    a.appeal_hearing_schedule(
        appeal=appeal,
        user=board,
        hearing_at=at("2026-07-10", 18),
        notice_given_on=datetime.date(2026, 7, 2),
        notice_to="Alex Schmid",
    )
    findings = {"public_interest": "No downstream harm.", "special_conditions": "Bedrock at 2 ft."}
    with pytest.raises(ActionRefused) as refused:
        board_decides(
            appeal,
            at=at("2026-07-10", 19),
            decision="grant",
            reasons="Granted.",
            findings=findings,
        )
    assert str(refused.value) == (
        "findings: a variance is granted only with a written finding that a literal "
        "enforcement would result in unnecessary hardship (§ 413-12A)"
    )
    findings["unnecessary_hardship"] = "Blasting would cost more than the house."
    decided = board_decides(
        appeal,
        at=at("2026-07-10", 19),
        decision="grant",
        reasons="Granted.",
        findings=findings,
    )
    assert decided.findings == findings
