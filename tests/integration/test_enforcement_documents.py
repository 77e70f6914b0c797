"""Golden snapshots of the enforcement and appeal documents (test_documents.py's habit).

The text is laid out from fixed records in both villages, so any change to the wording,
the sections, the bodies or the officers shows in review as a diff of the snapshot.
Regenerate on purpose with SILTFENCE_UPDATE_SNAPSHOTS=1 and read the diff first.
"""

from __future__ import annotations

import datetime
import os
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from siltfence.apps.appeals.documents import decision_lines
from siltfence.apps.appeals.minutes import MotionMinutes, RollLine, SittingMinutes, VoteLine
from siltfence.apps.documents.pdf import lines_to_pdf
from siltfence.apps.enforcement.documents import (
    certification_lines,
    complaint_lines,
    invoice_lines,
    notice_of_intent_lines,
    placard_lines,
    placard_pdf,
    referral_lines,
    revocation_lines,
)
from siltfence.core.ordinance.loader import load

SNAPSHOTS = Path(__file__).parent / "snapshots"
UTC = datetime.UTC
VILLAGES = ["spencer-wi", "new-glarus-wi"]
# 15:30 UTC on July 1, 2026 is 10:30 a.m. Central daylight time.
POSTED = datetime.datetime(2026, 7, 1, 15, 30, tzinfo=UTC)
# Why a New Glarus referral was lawful, as the core says it of an order disobeyed
# (tests/integration/test_referral_letter.py checks the app writes these words).
NEW_GLARUS_DISOBEYED = (
    "violation 2026-07-03; no waiting period: If a responsible party violates a stop-work "
    "order posted under § 135-11A (a violation found while the order is in force, not the "
    "posting alone), the Village Administrator may ask the Village Attorney to obtain a "
    "cease-and-desist order in any court with jurisdiction"
)


def _check(name: str, lines: list[str]) -> None:
    text = "\n".join(lines) + "\n"
    path = SNAPSHOTS / name
    if os.environ.get("SILTFENCE_UPDATE_SNAPSHOTS") == "1":
        path.write_text(text)
    assert path.exists(), f"no snapshot {path.name}; run with SILTFENCE_UPDATE_SNAPSHOTS=1"
    assert text == path.read_text()


class _Rows:
    def __init__(self, rows: list[Any]) -> None:
        self.rows = rows

    def filter(self, **_: Any) -> _Rows:
        return self

    def order_by(self, *_: Any) -> _Rows:
        return self

    def select_related(self, *_: Any) -> _Rows:
        return self

    def first(self) -> Any:
        return self.rows[0] if self.rows else None

    def all(self) -> list[Any]:
        return self.rows

    def __iter__(self) -> Any:
        return iter(self.rows)


# The village's record as village_sync makes it: no phone, email or hours entered by its
# staff, so the notices print the office from the village's data.
NOTHING_ENTERED = SimpleNamespace(phone="", email="", hours="")


def _case(village: str, order: Any = None) -> SimpleNamespace:
    violation = SimpleNamespace(
        provision="§ 413-7B(4)" if village == "spencer-wi" else "§ 135-11",
        provision_heading="Applicability and requirements"
        if village == "spencer-wi"
        else "Enforcement",
        days_from=datetime.date(2026, 7, 1),
        days_to=datetime.date(2026, 7, 3),
        description="Storm inlet on Park St not protected.",
    )
    return SimpleNamespace(
        number="SP-E-2026-0001",
        village_id=village,
        village=NOTHING_ENTERED,
        address="220 S Pacific St",
        parcel_number="031-1040",
        application_id=7,
        application=SimpleNamespace(
            permit=SimpleNamespace(number="SP-P-2026-0003"),
            # The owner named on the application, with the mailing address notices go to.
            parties=_Rows([_owner(village)]),
        ),
        violations=_Rows([violation]),
        actions=_Rows([order] if order else []),
    )


def _owner(village: str) -> SimpleNamespace:
    return SimpleNamespace(
        pk=1,
        role="landowner" if village == "spencer-wi" else "responsible_party",
        name="Pat Owner",
        email="",
        mailing_lines=lambda: ["PO Box 12", "Spencer, WI 54479"],
    )


def _order(village: str) -> SimpleNamespace:
    ordinance = load(village)
    grounds = ordinance.rules["enforcement"]["stop_work_order"]["grounds"]
    return SimpleNamespace(
        kind="stop_work_order",
        at=POSTED,
        citation=ordinance.rules["enforcement"]["stop_work_order"]["citation"],
        grounds=[dict(grounds[2])],
        details={},
        note="",
    )


@pytest.mark.parametrize("village", VILLAGES)
def test_the_stop_work_placard_states_its_sections_grounds_and_how_to_appeal(village: str) -> None:
    ordinance = load(village)
    order = _order(village)
    lines = placard_lines(ordinance=ordinance, case=_case(village), action=order)
    _check(f"stop-work-placard-{village}.txt", lines)
    text = "\n".join(lines)
    # Posted 10:30 a.m. Central daylight time on July 1, 2026.
    assert "Posted: July 1, 2026 at 10:30 a.m." in text
    assert "§ 413-10A(3)" in text if village == "spencer-wi" else "§ 135-11A(3)" in text
    assert ("§ 413-12B" if village == "spencer-wi" else "§ 135-12B") in text
    # What the order requires, in the chapter's words: New Glarus § 135-13 defines it as
    # requiring "that all construction activity on the site be stopped"; Spencer's
    # § 413-10A(1) names "land disturbing or land developing activity".
    if village == "spencer-wi":
        assert "land disturbing or land developing activity on this site be stopped" in text
    else:
        assert "orders that all construction activity on the site be stopped [§ 135-13]" in text
    assert placard_pdf(lines, title="placard").startswith(b"%PDF")


@pytest.mark.django_db
@pytest.mark.parametrize("village", VILLAGES)
def test_the_notice_of_intent_names_the_work_and_when_it_may_begin(village: str) -> None:
    ordinance = load(village)
    action = SimpleNamespace(
        kind="notice_of_intent",
        at=datetime.datetime(2026, 7, 11, 13, tzinfo=UTC),
        citation="§ 413-10E" if village == "spencer-wi" else "§ 135-11E",
        details={
            "work": "Reinstall silt fence on the east line.",
            "work_from": "2026-07-26" if village == "spencer-wi" else "2026-07-11",
        },
    )
    lines = notice_of_intent_lines(
        ordinance=ordinance, case=_case(village, _order(village)), action=action
    )
    _check(f"notice-of-intent-{village}.txt", lines)
    # "plus interest at the rate authorized" (§ 413-10E, § 135-11E): with no rate set, the
    # notice promises none (gap 24); with one in force on the notice's day, it names it.
    text = "\n".join(lines)
    assert "authorized no interest rate, so no interest is charged" in text
    assert "plus interest" not in text
    from siltfence.apps.enforcement.models import InterestRate
    from siltfence.apps.permits.models import Village

    InterestRate.objects.create(
        village=Village.objects.get_or_create(pk=village, defaults={"name": village})[0],
        effective_from=datetime.date(2026, 1, 1),
        annual_percent=Decimal("5.5"),
        authority="Village Board resolution 2026-3",
    )
    lines = notice_of_intent_lines(
        ordinance=ordinance, case=_case(village, _order(village)), action=action
    )
    assert (
        "plus interest at 5.5% a year (the rate authorized: Village Board resolution 2026-3)"
        in "\n".join(lines)
    )


@pytest.mark.parametrize("village", VILLAGES)
def test_the_revocation_gives_the_date_it_became_lawful_and_the_reasons(village: str) -> None:
    ordinance = load(village)
    action = SimpleNamespace(
        kind="revocation",
        at=datetime.datetime(2026, 7, 12, 14, tzinfo=UTC),
        citation="§ 413-10B" if village == "spencer-wi" else "§ 135-11B",
        details={"lawful_from": "2026-07-12", "because": "stop work order posted 2026-07-01"},
        note="The permittee did not comply within the time allowed.",
    )
    lines = revocation_lines(ordinance=ordinance, case=_case(village), action=action)
    _check(f"revocation-{village}.txt", lines)
    # Besides the snapshot (which a run with SILTFENCE_UPDATE_SNAPSHOTS=1 rewrites), what the
    # revocation must say whatever its layout: the section it is made under, the day it
    # became lawful and why, the reasons given, and that work must stop.
    text = "\n".join(lines)
    assert f"[{action.citation}]" in text
    assert "Lawful from July 12, 2026: stop work order posted 2026-07-01." in text
    assert "REASONS:\nThe permittee did not comply within the time allowed." in text
    assert "there is no permit" in text


@pytest.mark.parametrize("village", VILLAGES)
def test_the_invoice_lists_the_costs_and_the_interest_rate_or_that_none_was_set(
    village: str,
) -> None:
    ordinance = load(village)
    costs = _Rows(
        [
            SimpleNamespace(
                incurred_on=datetime.date(2026, 7, 26),
                get_category_display=lambda: "Labour",
                description="Public works crew, 8 hours",
                amount=Decimal("600.00"),
                corrects=None,
            ),
            SimpleNamespace(
                incurred_on=datetime.date(2026, 7, 26),
                get_category_display=lambda: "Materials",
                description="Silt fence, 300 ft",
                amount=Decimal("400.00"),
                corrects=None,
            ),
        ]
    )
    work = SimpleNamespace(citation="§ 413-10E" if village == "spencer-wi" else "§ 135-11E")
    case = _case(village)
    case.actions = _Rows([work])
    rate = Decimal("12") if village == "spencer-wi" else None
    invoice = SimpleNamespace(
        number="SP-INV-2026-0001",
        issued_on=datetime.date(2026, 8, 1),
        due_on=datetime.date(2026, 8, 31),
        principal=Decimal("1000.00"),
        interest_rate_percent=rate,
        interest_authority="Building Inspector order 2026-1" if rate else "",
        costs=costs,
    )
    lines = invoice_lines(ordinance=ordinance, case=case, invoice=invoice)
    _check(f"invoice-{village}.txt", lines)
    assert "Total due: $1,000.00" in lines


@pytest.mark.parametrize("village", VILLAGES)
def test_the_tax_roll_certification_names_the_statute_officer_and_amounts(
    village: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from siltfence.apps.enforcement import models

    invoice = SimpleNamespace(
        number="SP-INV-2026-0001",
        issued_on=datetime.date(2026, 8, 1),
        due_on=datetime.date(2026, 8, 31),
        principal=Decimal("1000.00"),
        paid_amount=Decimal("0.00"),
        paid_on=None,
        interest_rate_percent=Decimal("12"),
    )
    monkeypatch.setattr(models.Invoice, "objects", SimpleNamespace(get=lambda **_: invoice))
    ordinance = load(village)
    action = SimpleNamespace(
        at=datetime.datetime(2026, 9, 30, 14, tzinfo=UTC),
        citation="§ 413-10E" if village == "spencer-wi" else "§ 135-11E",
        details={
            "invoice": invoice.number,
            "principal_unpaid": "1000.00",
            "interest": "9.86",
            "total": "1009.86",
            "parcel": "031-1040",
        },
    )
    lines = certification_lines(ordinance=ordinance, case=_case(village), action=action)
    _check(f"tax-roll-certification-{village}.txt", lines)
    text = "\n".join(lines)
    if village == "spencer-wi":
        assert "Village Administrator-Clerk/Treasurer" in text and "§ 66.0703, Wis. Stats." in text
    else:
        assert "Clerk-Treasurer" in text and "Subch. VII of Ch. 66, Wis. Stats." in text


@pytest.mark.parametrize("village", VILLAGES)
def test_the_referrals_go_to_the_village_attorney_with_the_record(village: str) -> None:
    ordinance = load(village)
    case = _case(village)
    cease = SimpleNamespace(
        kind="cease_and_desist_referral",
        at=datetime.datetime(2026, 7, 12, 14, tzinfo=UTC),
        citation="§ 413-10C" if village == "spencer-wi" else "§ 135-11C",
        details={"lawful_from": "2026-07-12", "because": "stop work order posted 2026-07-01"},
        note="",
    )
    cease_case = case
    if village == "new-glarus-wi":
        # § 135-11C "if a responsible party violates a stop-work order": the order posted
        # July 1 was disobeyed, grading being found going on July 3, after it; the referral
        # rests on that, in the words the core gives (the posting alone opens nothing).
        cease.details = {"lawful_from": "2026-07-03", "because": NEW_GLARUS_DISOBEYED}
        cease_case = _case(village)
        cease_case.violations = _Rows(
            [
                *case.violations,
                SimpleNamespace(
                    provision="§ 135-11",
                    provision_heading="Enforcement",
                    days_from=datetime.date(2026, 7, 3),
                    days_to=datetime.date(2026, 7, 3),
                    description="Grading going on after the stop-work order was posted.",
                ),
            ]
        )
    forfeiture = SimpleNamespace(
        kind="prosecution_referral",
        at=datetime.datetime(2026, 7, 12, 14, tzinfo=UTC),
        citation=ordinance.rules["enforcement"]["forfeiture"]["citation"],
        details={
            "days": 3,
            "offenses": 3,
            "first_day": "2026-07-01",
            "last_day": "2026-07-03",
            **(
                {"source": "not_entered"}
                if village == "spencer-wi"
                else {
                    "source": "chapter",
                    "min_per_day": 100,
                    "max_per_day": 500,
                    "min": 300,
                    "max": 1500,
                }
            ),
        },
        note="",
    )
    injunction = SimpleNamespace(
        kind="injunction_referral",
        at=datetime.datetime(2026, 7, 12, 14, tzinfo=UTC),
        citation=ordinance.rules["enforcement"]["injunction"]["citation"],
        details={"says": ordinance.rules["enforcement"]["injunction"]["says"]},
        note="",
    )
    for action in (cease, forfeiture, injunction):
        on = cease_case if action is cease else case
        lines = referral_lines(ordinance=ordinance, case=on, action=action)
        _check(f"{action.kind.replace('_', '-')}-{village}.txt", lines)
        assert "To: Village Attorney" in lines
    text = "\n".join(referral_lines(ordinance=ordinance, case=case, action=forfeiture))
    if village == "spencer-wi":
        assert "the amount set by § 1-3, not entered" in text
    else:
        assert "each offense: $100.00 to $500.00; for all offenses: $300.00 to $1,500.00" in text
        assert "Plus the costs of prosecution." in text
    if village == "new-glarus-wi":
        # The referral is the Village Administrator's decision, open to appeal; only the
        # court's cease-and-desist order is not (§ 135-12A(1), § 135-13).
        letter = "\n".join(referral_lines(ordinance=ordinance, case=cease_case, action=cease))
        assert "may not be appealed" not in letter
        assert "Lawful from July 3, 2026: violation 2026-07-03;" in letter
        assert "stop work order posted" not in letter
        assert "Not appealable: cease and desist order [§ 135-12A(1)]." in letter


@pytest.mark.parametrize("village", VILLAGES)
def test_the_appeal_decision_states_the_hearing_decision_and_retraction(village: str) -> None:
    ordinance = load(village)
    appeal = SimpleNamespace(
        kind="appeal",
        number="NG-A-2026-0001",
        village=NOTHING_ENTERED,
        appellant_name="Alex Schmid",
        appellant_standing="permittee" if village == "spencer-wi" else "aggrieved_person",
        decision_appealed="Stop-work order of July 1, 2026, case SP-E-2026-0001",
        filed_on=datetime.date(2026, 7, 2),
        hearing_at=datetime.datetime(2026, 7, 14, 23, tzinfo=UTC),
        hearing_place="Village Hall",
        notice_given_on=datetime.date(2026, 7, 6),
        notice_to="Alex Schmid",
        grounds="The fence was up.",
        decision="reverse",
        get_decision_display=lambda: "Reversed",
        decided_at=datetime.datetime(2026, 7, 15, 1, tzinfo=UTC),
        decision_reasons="The photographs show the neighbouring lot.",
        modification="",
        findings={},
        action=SimpleNamespace(kind="stop_work_order"),
        application=None,
        case=None,
    )
    # The board's minutes (decision 47): who sat, an alternate in place of a recused member,
    # each vote on the motion, and its outcome.
    cites = f"{ordinance.board.citation}; {ordinance.board.statute}"
    roll = (
        RollLine("Ann Able", "chair", "present", "", True, ""),
        RollLine("Ben Baker", "member", "present", "", True, ""),
        RollLine("Cy Cole", "member", "recused", "owns the adjoining lot", False, ""),
        RollLine("Dee Dunn", "member", "present", "", True, ""),
        RollLine("Eli East", "member", "present", "", True, ""),
        RollLine(
            "Fay Fox",
            "first alternate",
            "present",
            "",
            True,
            "sits in place of a member (1 member absent or recused)",
        ),
        RollLine("Gus Gray", "second alternate", "absent", "", False, ""),
    )
    motion = MotionMinutes(
        number=1,
        kind="reverse",
        words="reverse",
        voted_at=datetime.datetime(2026, 7, 15, 0, 30, tzinfo=UTC),
        reasons="The photographs show the neighbouring lot.",
        modification="",
        votes=tuple(
            VoteLine(r.name, r.seat, "Against" if r.name == "Eli East" else "For")
            for r in roll
            if r.seated
        ),
        votes_for=4,
        against=1,
        abstained=0,
        needs="4 concurring votes",
        needed=4,
        carried=True,
        outcome=(
            "The motion to reverse carries: 4 for, 1 against; it needed 4 concurring votes "
            f"(4) [{cites}]."
        ),
    )
    sitting = SittingMinutes(
        held_at=appeal.hearing_at,
        place="Village Hall",
        roll=roll,
        seats=5,
        quorum=3,
        seated=5,
        has_quorum=True,
        quorum_says=f"Quorum: 5 of 5 seats present; the board needs 3 [{cites}].",
        confirmed=False,
        gap="board-votes",
        motions=(motion,),
    )
    lines = decision_lines(ordinance=ordinance, appeal=appeal, minutes=[sitting])
    _check(f"appeal-decision-{village}.txt", lines)
    # Addressed to the appellant, whose mailing address the record does not hold, from the
    # board at the village's office (its street from the village's data).
    to = lines.index("TO:")
    assert lines[to + 1 : to + 3] == [
        "Alex Schmid (appellant)",
        "Mailing address: none on the village's record",
    ]
    office = ordinance.office["mailing_address"]
    assert lines[lines.index("FROM:") + 1 : lines.index("FROM:") + 3] == [
        f"Zoning Board of Appeals, {ordinance.name}",
        office["street"],
    ]
    assert lines_to_pdf(lines, title="decision").startswith(b"%PDF")


def test_the_complaint_acknowledgement_holds_no_contact_details() -> None:
    ordinance = load("spencer-wi")
    violation = SimpleNamespace(
        pk=12,
        reported_at=POSTED,
        address="44.75730, -90.29660",
        description="Mud on Park St.",
        photos=SimpleNamespace(count=lambda: 2),
        complainant_name="Pat Neighbor",
        complainant_email="pat@example.org",
    )
    lines = complaint_lines(ordinance=ordinance, violation=violation)
    _check("complaint-acknowledgement-spencer-wi.txt", lines)
    assert not any("Pat" in line or "example.org" in line for line in lines)
