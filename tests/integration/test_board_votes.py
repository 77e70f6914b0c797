"""The Zoning Board of Appeals decides as a board: the roll, the quorum, each member's vote
and the votes the decision needs (decision 47; gap 27).

Spencer § 413-12A and New Glarus § 135-12A(3): the board "shall use the rules, procedures,
duties and powers authorized by statute" in hearing and deciding appeals and authorizing
variances. Neither chapter gives the board's seats, alternates, quorum or the votes that
decide, so these are each village's data (``board`` in jurisdiction.yaml), the village's
to confirm. An independent reader who saw only the texts wrote cases B-1 to B-28 before any
code; each test here is named by its case. Where the reader's answer turns on the statute
(not in hand), the test sets the village's data itself, as one of the reader's profiles:

- P4: 5 seats, 2 alternates, a quorum of 3, 4 concurring votes to reverse, modify or grant
  a variance, a majority of those sitting to affirm or deny (each village's data now);
- PM: a majority of those sitting for every motion;
- PMV: a majority of the votes cast for every motion (abstentions not counted).
"""

from __future__ import annotations

import datetime
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from board_helpers import Board, roll_all_present, seat_board
from django.db import transaction
from django.test import Client
from django.urls import reverse
from enforcement_helpers import at, permit_filed_on
from factories import NEW_GLARUS, SPENCER, ModelBackend, make_user, text_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from siltfence.apps.accounts.models import BoardSeat, Membership, Role
from siltfence.apps.appeals import hearings as h
from siltfence.apps.appeals import services as a
from siltfence.apps.appeals.documents import agenda_lines, decision_lines, notice_lines
from siltfence.apps.appeals.minutes import minutes_of
from siltfence.apps.appeals.models import Appeal, Attendance, Hearing, Motion, Vote
from siltfence.apps.audit.models import AuditEvent
from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement.selectors import open_stop_work_order
from siltfence.apps.enforcement.services import ActionRefused
from siltfence.apps.outbox.models import Message
from siltfence.apps.people import services as people_services
from siltfence.apps.permits.models import Permit, TimelineEvent
from siltfence.core.errors import OrdinanceFileError
from siltfence.core.ordinance import loader

pytestmark = pytest.mark.django_db

CITES = {
    SPENCER: "§ 413-12A; § 62.23(7)(e) Wis. Stats.",
    NEW_GLARUS: "§ 135-12A(3); § 62.23(7)(e) Wis. Stats.",
}
PROFILES = {
    "P4": {"to_reverse": "4", "to_affirm": "majority_of_seated"},
    "PM": {"to_reverse": "majority_of_seated", "to_affirm": "majority_of_seated"},
    "PMV": {"to_reverse": "majority_of_votes_cast", "to_affirm": "majority_of_votes_cast"},
}
HEARD = ("2026-07-14", 18)  # the hearing: Tuesday, July 14, 2026 at 6 p.m.
VOTED = ("2026-07-14", 19)


# -- the village's data, as each case sets it ---------------------------------------------


@pytest.fixture
def board_data(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Callable[..., None]]:
    """``board_data(profile, alternates=2)``: both villages' ``board`` block as the profile
    says, in a copy of the ordinance folders that the loader then reads."""
    copy = tmp_path / "ordinances"

    def use(profile: str = "P4", *, alternates: int = 2, quorum: int = 3) -> None:
        if copy.exists():
            shutil.rmtree(copy)
        shutil.copytree(loader.ordinances_root(), copy)
        for village in (SPENCER, NEW_GLARUS):
            path = copy / village / "jurisdiction.yaml"
            text = path.read_text(encoding="utf-8")
            for key, value in {
                **PROFILES[profile],
                "alternates": str(alternates),
                "quorum": str(quorum),
            }.items():
                text, found = re.subn(rf"^  {key}: .*$", f"  {key}: {value}", text, flags=re.M)
                assert found == 1, key
            path.write_text(text, encoding="utf-8")
        monkeypatch.setenv("SILTFENCE_ORDINANCES", str(copy))
        loader.load.cache_clear()

    yield use
    loader.load.cache_clear()


# -- a village's record: a permit under a stop-work order, appealed and heard ---------------


class World:
    """A village with its staff, its board (A to E, A the chair; Alt1 and Alt2) and a
    permittee whose permit is under a stop-work order of July 1, 2026."""

    def __init__(self, village: str) -> None:
        self.village = village
        short = village.split("-wi")[0]
        self.staff = make_user(f"{short}-clerk", village=village, role=Role.STAFF)
        self.owner = make_user(f"{short}-owner")
        self.board: Board = seat_board(village)
        self.permit = permit_filed_on(
            applicant=self.owner,
            village=village,
            staff=self.staff,
            filed="2026-06-01",
            address="300 2nd St",
        )
        self.case = s.violation_record(
            village=self.permit.village,
            recorded_by=self.staff,
            source="observation",
            description="Fence down.",
            provision="§ 413-7B(4)" if village == SPENCER else "§ 135-11",
            days_from=datetime.date(2026, 6, 22),
            at=at("2026-06-22"),
            permit=self.permit,
        ).case
        self.order = s.stop_work_order_post(
            case=self.case, staff=self.staff, at=at("2026-06-22", 10), grounds=["plan-not-followed"]
        )

    def standing(self) -> str:
        return "permittee" if self.village == SPENCER else "aggrieved_person"

    def appeal(
        self, action: Any = None, *, kind: str = "appeal", name: str = "Alex Schmid"
    ) -> Appeal:
        """An appeal (of the order unless another step is given), heard on July 14: filed
        online by the permittee, or on paper (entered by the staff) for another site."""
        appeal = a.appeal_file(
            village=self.permit.village,
            filed_by=self.owner
            if kind == "appeal" and action in (None, self.order)
            else self.staff,
            on=datetime.date(2026, 7, 7),
            appellant_name=name,
            standing=self.standing()
            if kind == "appeal"
            else "landowner"
            if self.village == SPENCER
            else "aggrieved_person",
            grounds="The fence was up; the photographs are of the neighbouring lot.",
            action=(action or self.order) if kind == "appeal" else None,
            kind=kind,
        )
        return a.appeal_hearing_schedule(
            appeal=appeal,
            user=self.staff,
            hearing_at=at(*HEARD),
            notice_given_on=datetime.date(2026, 7, 8),
            notice_to="Alex Schmid; the "
            + ("Building Inspector" if self.village == SPENCER else "Village Administrator"),
            place="Village Hall",
        )

    def revocation(self) -> Any:
        """The permit revoked on July 6 (Spencer: after the 10 days of § 413-10B)."""
        return s.permit_revoke(
            case=self.case, staff=self.staff, at=at("2026-07-06"), reasons="Fence still down."
        )

    def roll(self, appeal: Appeal, **status: str) -> Hearing:
        """The roll of the appeal's hearing: everyone present but for ``status``; the
        alternates absent unless named present."""
        status = {"Alt1": "absent", "Alt2": "absent", **status}
        return h.hearing_record(
            appeal=appeal, user=self.staff, roll=roll_all_present(appeal, self.board, **status)
        )

    def vote(
        self,
        sitting: Hearing,
        kind: str,
        *,
        yes: str = "",
        no: str = "",
        abstain: str = "",
        reasons: str = "The photographs show the neighbouring lot.",
        **terms: Any,
    ) -> Motion:
        """A motion and its votes: ``yes="A B C"``, ``no="D"``, ``abstain="E"``."""
        votes = [
            (self.board[name].pk, choice)
            for names, choice in ((yes, "for"), (no, "against"), (abstain, "abstain"))
            for name in names.split()
        ]
        return h.motion_vote(
            hearing=sitting,
            user=self.staff,
            kind=kind,
            votes=votes,
            reasons=reasons,
            at=at(*VOTED),
            **terms,
        )


def _refused(step: Callable[[], Any]) -> ActionRefused:
    """The step is refused, and writes nothing."""
    counts = _counts()
    with pytest.raises(ActionRefused) as refused:
        step()
    assert _counts() == counts, "a refused step wrote"
    return refused.value


def _counts() -> tuple[int, ...]:
    return tuple(m.objects.count() for m in (Hearing, Attendance, Motion, Vote, AuditEvent))


def _order_stands(world: World) -> bool:
    return open_stop_work_order(world.case) == world.order


def _decided(appeal: Appeal) -> str:
    appeal.refresh_from_db()
    return appeal.decision if appeal.status == "decided" else "pending"


# -- the cases --------------------------------------------------------------------------


@pytest.mark.parametrize("profile", ["P4", "PM"])
def test_B_1_a_full_board_reverses_4_to_1_and_the_order_is_retracted(
    villages: Any, board_data: Any, profile: str
) -> None:
    board_data(profile)
    world = World(SPENCER)
    appeal = world.appeal()
    sitting = world.roll(appeal)
    assert (sitting.seated, sitting.has_quorum) == (5, True)
    motion = world.vote(sitting, "reverse", yes="A B C D", no="E")
    needs = "4 concurring votes (4)" if profile == "P4" else "a majority of the 5 seated (3)"
    assert motion.outcome == (
        f"The motion to reverse carries: 4 for, 1 against; it needed {needs} [{CITES[SPENCER]}]."
    )
    assert _decided(appeal) == "reverse"
    # § 413-10D: the Zoning Board of Appeals "upon appeal may retract the stop-work order".
    assert open_stop_work_order(world.case) is None
    event = TimelineEvent.objects.get(
        application_id=world.permit.application_id, type="order_retracted"
    )
    assert event.fields == {"order": "stop_work_order", "by": "appeals_board"}
    # The decision still tells the appellant, in the outbox (as before the board voted).
    assert Message.objects.filter(kind="appeal_decide", user=world.owner).count() == 1


@pytest.mark.parametrize(("profile", "carries"), [("P4", False), ("PM", True)])
def test_B_2_and_B_3_the_same_3_to_2_vote_differs_only_by_the_village_s_rule(
    villages: Any, board_data: Any, profile: str, carries: bool
) -> None:
    # B-2 (P4): 3 < 4, the motion fails and the order stands. B-3 (PM): 3 of 5 sitting is
    # a majority, the motion carries and the order is retracted.
    board_data(profile)
    world = World(SPENCER)
    appeal = world.appeal()
    motion = world.vote(world.roll(appeal), "reverse", yes="A B C", no="D E")
    assert (motion.votes_for, motion.votes_against, motion.carried) == (3, 2, carries)
    if carries:
        assert _decided(appeal) == "reverse"
        assert open_stop_work_order(world.case) is None
    else:
        assert motion.outcome == (
            "The motion to reverse fails: 3 for, 2 against; it needed 4 concurring votes (4), "
            f"and the stop-work order stands [{CITES[SPENCER]}]."
        )
        assert _decided(appeal) == "pending"
        assert _order_stands(world)
        # A failed motion tells no one of a decision: there is none.
        assert not Message.objects.filter(kind="appeal_decide").exists()


@pytest.mark.parametrize("profile", ["P4", "PM"])
def test_B_4_a_recusal_leaves_a_tie_and_the_revocation_stands(
    villages: Any, board_data: Any, profile: str
) -> None:
    board_data(profile)
    world = World(NEW_GLARUS)
    appeal = world.appeal(world.revocation())
    sitting = world.roll(appeal, C="recused: owns the adjoining lot")
    assert sitting.seated == 4
    # C refused to vote because of an interest: no vote is recorded for C, not even against.
    refusal = _refused(lambda: world.vote(sitting, "reverse", yes="A B C", no="D E"))
    assert refusal.field == f"vote_{world.board['C'].pk}"
    assert str(refusal) == (
        "votes: C Member refused to vote because of an interest (recused), so has no vote"
    )
    motion = world.vote(sitting, "reverse", yes="A B", no="D E")
    assert not motion.carried
    assert motion.outcome.startswith(
        "The motion to reverse fails: a tie (2 for, 2 against) carries no motion, and the "
        "revocation of the permit stands"
    )
    assert Permit.objects.get(pk=world.permit.pk).status == "revoked"
    line = Attendance.objects.get(hearing=sitting, person=world.board["C"])
    assert (line.status, line.reason, line.seated) == ("recused", "owns the adjoining lot", False)
    assert not Vote.objects.filter(attendance=line).exists()
    text = "\n".join(h_lines(appeal))
    assert (
        "Recused: C Member (member) refused to vote because of an interest: owns the "
        "adjoining lot." in text
    )


def h_lines(appeal: Appeal) -> list[str]:
    """The minutes as the written decision shows them."""
    from siltfence.apps.appeals.documents import minutes_lines

    ordinance = loader.load(appeal.village_id)
    return [line for sitting in minutes_of(appeal) for line in minutes_lines(ordinance, sitting)]


def test_B_5_a_tie_from_an_absence_is_never_a_reversal(villages: Any, board_data: Any) -> None:
    board_data("PM")
    world = World(SPENCER)
    appeal = world.appeal()
    sitting = world.roll(appeal, E="absent")
    motion = world.vote(sitting, "reverse", yes="A B", no="C D")
    assert (sitting.seated, motion.carried) == (4, False)
    assert "a tie (2 for, 2 against) carries no motion" in motion.outcome
    assert _order_stands(world) and _decided(appeal) == "pending"


@pytest.mark.parametrize("village", [SPENCER, NEW_GLARUS])
def test_B_6_without_a_quorum_no_decision_can_be_recorded(
    villages: Any, board_data: Any, village: str
) -> None:
    board_data("P4")
    world = World(village)
    appeal = world.appeal()
    sitting = world.roll(appeal, C="absent", D="absent", E="absent")
    says = (
        f"No quorum: 2 of 5 seats present; the board needs 3 [{CITES[village]}]. No decision "
        "can be made; the hearing is continued."
    )
    assert (sitting.seated, sitting.has_quorum, sitting.quorum_says) == (2, False, says)
    # Even a 2-0 "vote" to reverse is refused: nothing is recorded, nothing changes.
    refusal = _refused(lambda: world.vote(sitting, "reverse", yes="A B"))
    assert (refusal.field, str(refusal)) == ("quorum", f"quorum: {says}")
    assert _decided(appeal) == "pending" and _order_stands(world)
    # The hearing is continued: set again, and heard with a quorum.
    a.appeal_hearing_schedule(
        appeal=appeal,
        user=world.staff,
        hearing_at=at("2026-07-28", 18),
        notice_given_on=datetime.date(2026, 7, 20),
        notice_to="Alex Schmid",
    )
    again = world.roll(appeal)
    assert again.has_quorum and Hearing.objects.filter(appeal=appeal).count() == 2


def test_B_7_an_alternate_sitting_for_an_absent_member_counts(
    villages: Any, board_data: Any
) -> None:
    board_data("P4")
    world = World(SPENCER)
    appeal = world.appeal()
    sitting = world.roll(appeal, E="absent", Alt1="present")
    alternate = Attendance.objects.get(hearing=sitting, person=world.board["Alt1"])
    assert alternate.seated
    assert alternate.why_seated == "sits in place of a member (1 member absent or recused)"
    motion = world.vote(sitting, "reverse", yes="A B C Alt1", no="D")
    assert motion.carried and open_stop_work_order(world.case) is None


@pytest.mark.parametrize(("profile", "carries"), [("P4", False), ("PM", True)])
def test_B_8_an_alternate_present_with_every_member_sitting_does_not_vote(
    villages: Any, board_data: Any, profile: str, carries: bool
) -> None:
    board_data(profile)
    world = World(NEW_GLARUS)
    appeal = world.appeal()
    sitting = world.roll(appeal, Alt1="present")
    assert sitting.seated == 5
    refusal = _refused(lambda: world.vote(sitting, "reverse", yes="A B C Alt1", no="D E"))
    assert refusal.field == f"vote_{world.board['Alt1'].pk}"
    assert "is present as the first alternate but does not sit" in str(refusal)
    motion = world.vote(sitting, "reverse", yes="A B C", no="D E")
    assert motion.carried is carries
    assert "Present, not sitting, did not vote: Alt1 Alternate (first alternate)." in "\n".join(
        h_lines(appeal)
    )


def test_B_9_an_alternate_sits_in_place_of_a_recused_member(villages: Any, board_data: Any) -> None:
    board_data("P4")
    world = World(SPENCER)
    appeal = world.appeal()
    sitting = world.roll(appeal, C="recused: owns the adjoining lot", Alt1="present")
    seated = set(
        Attendance.objects.filter(hearing=sitting, seated=True).values_list("person", flat=True)
    )
    assert seated == {world.board[n].pk for n in ("A", "B", "D", "E", "Alt1")}
    motion = world.vote(sitting, "reverse", yes="A B D Alt1", no="E")
    assert (motion.votes_for, motion.votes_against, motion.carried) == (4, 1, True)
    assert open_stop_work_order(world.case) is None


@pytest.mark.parametrize(
    ("profile", "yes", "no", "abstain", "carries"),
    [
        # (a) A, B, D for; E against: 3 < 4 under P4; 3 of the 4 sitting under PM.
        ("P4", "A B D", "E", "", False),
        ("PM", "A B D", "E", "", True),
        # (b) A, B for; D against; E abstains: 2 of 4 sitting is no majority (P4, PM); 2 of
        # the 3 votes cast is (PMV). An abstention seats no alternate.
        ("P4", "A B", "D", "E", False),
        ("PM", "A B", "D", "E", False),
        ("PMV", "A B", "D", "E", True),
    ],
)
def test_B_10_a_recused_member_is_not_counted(
    villages: Any, board_data: Any, profile: str, yes: str, no: str, abstain: str, carries: bool
) -> None:
    board_data(profile)
    world = World(NEW_GLARUS)
    appeal = world.appeal()
    sitting = world.roll(appeal, C="recused: employs the appellant")
    assert sitting.seated == 4
    motion = world.vote(sitting, "reverse", yes=yes, no=no, abstain=abstain)
    assert motion.carried is carries
    assert (open_stop_work_order(world.case) is None) is carries


def test_B_11_a_majority_affirms_and_the_order_stands(villages: Any, board_data: Any) -> None:
    board_data("P4")
    world = World(SPENCER)
    appeal = world.appeal()
    motion = world.vote(world.roll(appeal), "affirm", yes="A B C", no="D E", reasons="Upheld.")
    assert motion.outcome == (
        "The motion to affirm carries: 3 for, 2 against; it needed a majority of the 5 seated "
        f"(3) [{CITES[SPENCER]}]."
    )
    assert _decided(appeal) == "affirm" and _order_stands(world)


def test_B_12_a_failed_affirmance_is_no_reversal_and_a_failed_reversal_leaves_the_order(
    villages: Any, board_data: Any
) -> None:
    board_data("P4")
    world = World(SPENCER)
    appeal = world.appeal()
    sitting = world.roll(appeal)
    first = world.vote(sitting, "affirm", yes="A B", no="C D E", reasons="Upheld.")
    assert not first.carried and _decided(appeal) == "pending" and _order_stands(world)
    assert "a failed affirmance is no reversal" in first.outcome
    # Not reversed is recorded only after a motion to reverse, modify or grant has failed.
    refusal = _refused(
        lambda: h.appeal_close_not_reversed(appeal=appeal, user=world.staff, at=at(*VOTED))
    )
    assert refusal.field == "decision"
    second = world.vote(sitting, "reverse", yes="C D E", no="A B")
    assert (second.number, second.carried) == (2, False)
    closed = h.appeal_close_not_reversed(
        appeal=appeal, user=world.staff, at=at("2026-07-14", 19, 30)
    )
    assert (closed.decision, closed.get_decision_display()) == (
        "not_reversed",
        "Not reversed: too few concurring votes",
    )
    assert _order_stands(world)
    text = "\n".join(
        decision_lines(ordinance=loader.load(SPENCER), appeal=closed, minutes=minutes_of(closed))
    )
    assert "MOTION 1: TO AFFIRM" in text and "MOTION 2: TO REVERSE" in text
    assert "DECISION: NOT REVERSED: TOO FEW CONCURRING VOTES (July 14, 2026)" in text
    assert "- A Member (chair): against" in text


def test_B_13_a_failed_affirmance_then_a_reversal_that_carries(
    villages: Any, board_data: Any
) -> None:
    board_data("P4")
    world = World(NEW_GLARUS)
    appeal = world.appeal()
    sitting = world.roll(appeal)
    assert not world.vote(sitting, "affirm", yes="A", no="B C D E", reasons="Upheld.").carried
    assert world.vote(sitting, "reverse", yes="B C D E", no="A").carried
    assert _decided(appeal) == "reverse" and open_stop_work_order(world.case) is None


@pytest.mark.parametrize(("profile", "carries"), [("P4", False), ("PM", True), ("PMV", True)])
def test_B_14_an_abstention_is_not_a_concurring_vote(
    villages: Any, board_data: Any, profile: str, carries: bool
) -> None:
    board_data(profile)
    world = World(SPENCER)
    appeal = world.appeal()
    motion = world.vote(world.roll(appeal), "reverse", yes="A B C", no="D", abstain="E")
    assert (motion.votes_for, motion.votes_against, motion.abstained) == (3, 1, 1)
    assert motion.carried is carries


FINDINGS = {
    "public_interest": "No harm downstream: the outlet drains to the village pond.",
    "special_conditions": "Bedrock two feet down across the lot.",
    "unnecessary_hardship": "Blasting for a basin would cost more than the house.",
}


@pytest.mark.parametrize(
    ("profile", "yes", "no", "decision"),
    [
        ("P4", "A B C D", "E", "grant"),
        ("P4", "A B C", "D E", "pending"),
        ("PM", "A B C", "D E", "grant"),
    ],
)
def test_B_15_a_variance_needs_the_votes_of_a_reversal(
    villages: Any, board_data: Any, profile: str, yes: str, no: str, decision: str
) -> None:
    board_data(profile)
    world = World(SPENCER)
    appeal = world.appeal(kind="variance")
    motion = world.vote(
        world.roll(appeal), "grant", yes=yes, no=no, reasons="Bedrock.", findings=FINDINGS
    )
    assert _decided(appeal) == decision
    if decision == "pending":
        assert motion.outcome.endswith(
            f"it needed 4 concurring votes (4), and the variance is not granted [{CITES[SPENCER]}]."
        )


def test_B_15c_a_grant_without_the_finding_of_hardship_is_refused(
    villages: Any, board_data: Any
) -> None:
    board_data("P4")
    world = World(SPENCER)
    appeal = world.appeal(kind="variance")
    sitting = world.roll(appeal)
    findings = {k: v for k, v in FINDINGS.items() if k != "unnecessary_hardship"}
    refusal = _refused(
        lambda: world.vote(sitting, "grant", yes="A B C D", no="E", findings=findings)
    )
    assert refusal.field == "findings"
    assert "unnecessary hardship (§ 413-12A)" in str(refusal)


def test_B_16_a_new_glarus_variance_granted_with_an_alternate_sitting(
    villages: Any, board_data: Any
) -> None:
    board_data("P4")
    world = World(NEW_GLARUS)
    appeal = world.appeal(kind="variance")
    notice = notice_lines(ordinance=loader.load(NEW_GLARUS), appeal=appeal)
    assert "Asked: A variance from the provisions of Ch. 135" in notice
    assert not any(line.startswith("Decision appealed") for line in notice)
    sitting = world.roll(appeal, D="absent", Alt1="present")
    motion = world.vote(
        sitting, "grant", yes="A B C Alt1", no="E", reasons="Bedrock.", findings=FINDINGS
    )
    assert motion.carried and _decided(appeal) == "grant"


def test_B_17_new_glarus_bars_appeals_of_the_court_s_cease_and_desist_order(
    villages: Any, board_data: Any
) -> None:
    # § 135-12A(1): "except for cease-and-desist orders obtained under § 135-11C". The
    # court's order is no step the village records, so no appeal can name it; the data
    # bars it and every New Glarus decision says so.
    board_data("P4")
    rule = loader.load(NEW_GLARUS).rules["appeals"]
    assert rule["not_appealable"] == [
        {"what": "cease_and_desist_order", "citation": "§ 135-12A(1)"}
    ]
    assert a.BARRED_KINDS["cease_and_desist_order"] == ()
    world = World(NEW_GLARUS)
    appeal = world.appeal()
    world.vote(world.roll(appeal), "affirm", yes="A B C D E", reasons="Upheld.")
    appeal.refresh_from_db()
    text = "\n".join(
        decision_lines(ordinance=loader.load(NEW_GLARUS), appeal=appeal, minutes=minutes_of(appeal))
    )
    assert "Not appealable to the board: cease and desist order [§ 135-12A(1)]." in text


def _no_permit_site(world: World) -> tuple[Any, Any]:
    """New Glarus: grading with no permit, a stop-work order of July 1 (§ 135-11A(1)),
    disobeyed on July 2, and the Administrator's request to the Village Attorney."""
    case = s.violation_record(
        village=world.permit.village,
        recorded_by=world.staff,
        source="observation",
        description="Grading, no permit.",
        provision="§ 135-6",
        days_from=datetime.date(2026, 7, 1),
        at=at("2026-07-01"),
        address="9 Railroad St",
    ).case
    order = s.stop_work_order_post(
        case=case, staff=world.staff, at=at("2026-07-01", 10), grounds=["no-permit"]
    )
    s.violation_record(
        village=world.permit.village,
        recorded_by=world.staff,
        source="observation",
        description="Grading went on after the order.",
        provision="§ 135-6",
        days_from=datetime.date(2026, 7, 2),
        at=at("2026-07-02"),
        address="9 Railroad St",
    )
    referral = s.cease_and_desist_refer(case=case, staff=world.staff, at=at("2026-07-02", 12))
    return order, referral


def test_B_18_the_stop_work_order_on_a_referred_site_is_still_heard(
    villages: Any, board_data: Any
) -> None:
    board_data("P4")
    world = World(NEW_GLARUS)
    order, referral = _no_permit_site(world)
    appeal = world.appeal(order, name="Dirt Movers LLC")
    motion = world.vote(world.roll(appeal), "reverse", yes="A B C D", no="E")
    assert motion.carried
    assert open_stop_work_order(order.case) is None
    # The request to the Village Attorney (and any court order on it) is untouched.
    assert order.case.actions.filter(pk=referral.pk).exists()


def test_B_19_the_administrator_s_request_to_the_attorney_is_heard_like_any_decision(
    villages: Any, board_data: Any
) -> None:
    # The reader leaves this open (the request as a "decision", or as part of the barred
    # route). The program takes the first reading (decision 16): only the court's order is
    # barred, and the request is heard and voted on like any other decision.
    board_data("P4")
    world = World(NEW_GLARUS)
    _, referral = _no_permit_site(world)
    appeal = world.appeal(referral, name="Dirt Movers LLC")
    motion = world.vote(world.roll(appeal), "affirm", yes="A B C", no="D E", reasons="Upheld.")
    assert motion.carried and _decided(appeal) == "affirm"


def test_B_20_spencer_bars_nothing_by_name_and_hears_the_inspector_s_decisions(
    villages: Any, board_data: Any
) -> None:
    # § 413-12A reaches "any order, decision or determination made by the Building
    # Inspector"; a court's order is none, and is never a step the village records.
    board_data("P4")
    assert loader.load(SPENCER).rules["appeals"]["not_appealable"] == []


@pytest.mark.parametrize(
    ("village", "standing", "allowed"),
    [
        (SPENCER, "permittee", True),
        (SPENCER, "applicant", True),
        (SPENCER, "landowner", True),  # the site's owner, or (broadly) a downstream owner
        (SPENCER, "land_user", True),
        (SPENCER, "village_office", False),  # § 413-12B lists no village department
        (SPENCER, "aggrieved_person", False),  # no member of the public as such
        (NEW_GLARUS, "aggrieved_person", True),
        (NEW_GLARUS, "village_office", True),
        (NEW_GLARUS, "landowner", False),
    ],
)
def test_B_21_and_B_22_who_may_appeal_is_each_chapter_s_list(
    villages: Any, board_data: Any, village: str, standing: str, allowed: bool
) -> None:
    board_data("P4")
    world = World(village)
    values = dict(
        village=world.permit.village,
        filed_by=world.staff,
        on=datetime.date(2026, 7, 7),
        appellant_name="Pat Neighbour",
        standing=standing,
        grounds="Sediment reached the pond.",
        action=world.order,
    )
    if allowed:
        assert a.appeal_file(**values).status == "filed"
    else:
        refusal = _refused(lambda: a.appeal_file(**values))
        assert refusal.field == "standing"


def test_B_23_only_spencer_s_inspector_retracts_without_the_board(
    villages: Any, board_data: Any
) -> None:
    board_data("P4")
    retraction = {
        v: loader.load(v).rules["enforcement"]["retraction"]["by"] for v in (SPENCER, NEW_GLARUS)
    }
    assert retraction == {SPENCER: ["authority", "appeals_board"], NEW_GLARUS: ["appeals_board"]}
    world = World(NEW_GLARUS)
    refusal = _refused(
        lambda: s.order_retract(
            case=world.case,
            staff=world.staff,
            at=at("2026-07-02"),
            order="stop_work_order",
            reason="Fixed.",
        )
    )
    assert refusal.field == "by"
    # The board votes only on an appeal: a hearing is an appeal's.
    assert {f.name for f in Hearing._meta.get_fields()} >= {"appeal"}
    assert not Hearing._meta.get_field("appeal").null


@pytest.mark.parametrize(
    ("status", "sitting"),
    [
        # (a) D absent; both alternates present: the first sits, the second does not.
        ({"D": "absent", "Alt1": "present", "Alt2": "present"}, "A B C E Alt1"),
        # (b) D and the first alternate absent: the second sits.
        ({"D": "absent", "Alt2": "present"}, "A B C E Alt2"),
        # (c) D and E absent: both alternates sit.
        ({"D": "absent", "E": "absent", "Alt1": "present", "Alt2": "present"}, "A B C Alt1 Alt2"),
        # (d) D recused and the first alternate recused too: the second sits.
        (
            {
                "D": "recused: his firm graded the lot",
                "Alt1": "recused: a tenant",
                "Alt2": "present",
            },
            "A B C E Alt2",
        ),
    ],
    ids=["a", "b", "c", "d"],
)
def test_B_24_the_alternates_sit_in_their_order(
    villages: Any, board_data: Any, status: dict[str, str], sitting: str
) -> None:
    board_data("P4")
    world = World(SPENCER)
    appeal = world.appeal()
    roll = world.roll(appeal, **status)
    seated = set(
        Attendance.objects.filter(hearing=roll, seated=True).values_list("person", flat=True)
    )
    assert seated == {world.board[n].pk for n in sitting.split()}
    if "Alt2" not in sitting:
        # (a) A 3-2 tally that would be 4-2 only by counting the second alternate fails.
        refusal = _refused(lambda: world.vote(roll, "reverse", yes="A B C Alt2", no="E Alt1"))
        assert refusal.field == f"vote_{world.board['Alt2'].pk}"
        assert not world.vote(roll, "reverse", yes="A B C", no="E Alt1").carried


@pytest.mark.parametrize(("yes", "no", "carries"), [("A B C D", "", True), ("A B C", "D", False)])
def test_B_25_four_sitting_with_no_alternate(
    villages: Any, board_data: Any, yes: str, no: str, carries: bool
) -> None:
    board_data("P4")
    world = World(SPENCER)
    appeal = world.appeal()
    motion = world.vote(world.roll(appeal, E="absent"), "reverse", yes=yes, no=no)
    assert motion.carried is carries
    assert _order_stands(world) is not carries


@pytest.mark.parametrize(
    ("yes", "no", "carries"), [("A B Alt1 Alt2", "", True), ("A B Alt1", "Alt2", False)]
)
def test_B_26_a_quorum_made_with_both_alternates(
    villages: Any, board_data: Any, yes: str, no: str, carries: bool
) -> None:
    board_data("P4")
    world = World(NEW_GLARUS)
    appeal = world.appeal()
    sitting = world.roll(appeal, C="absent", D="absent", E="absent", Alt1="present", Alt2="present")
    assert (sitting.seated, sitting.has_quorum) == (4, True)
    assert world.vote(sitting, "reverse", yes=yes, no=no).carried is carries


def test_B_27_a_recusal_that_leaves_too_few_sitting_is_no_quorum(
    villages: Any, board_data: Any
) -> None:
    # The reader's second reading, which the reader takes: a recused member is not counted
    # toward the quorum, so the hearing is continued.
    board_data("PM")
    world = World(SPENCER)
    appeal = world.appeal()
    sitting = world.roll(appeal, C="recused: owns the lot", D="absent", E="absent")
    assert (sitting.seated, sitting.has_quorum) == (2, False)
    refusal = _refused(lambda: world.vote(sitting, "reverse", yes="A B"))
    assert refusal.field == "quorum"


@pytest.mark.parametrize(
    ("yes", "no", "decision"), [("A B C D", "E", "modify"), ("A B C", "D E", "pending")]
)
def test_B_28_a_modification_needs_the_votes_of_a_reversal(
    villages: Any, board_data: Any, yes: str, no: str, decision: str
) -> None:
    board_data("P4")
    world = World(SPENCER)
    appeal = world.appeal()
    world.vote(
        world.roll(appeal),
        "modify",
        yes=yes,
        no=no,
        modification="Work may go on to stabilize the site, and nothing else.",
    )
    assert _decided(appeal) == decision
    # Not lifted: the order stands (modified when the motion carried).
    assert _order_stands(world)


# -- who may record, and what is refused --------------------------------------------------


def test_only_the_village_s_staff_or_its_board_s_chair_record_the_board(
    villages: Any, board_data: Any
) -> None:
    board_data("P4")
    world = World(SPENCER)
    other = World(NEW_GLARUS)
    appeal = world.appeal()
    roll = roll_all_present(appeal, world.board, Alt1="absent", Alt2="absent")
    for outsider in (other.staff, other.board.chair, world.board["B"], world.owner):
        refusal = _refused(lambda u=outsider: h.hearing_record(appeal=appeal, user=u, roll=roll))
        assert refusal.field == "village"
        assert str(refusal) == (
            "village: only the staff of Village of Spencer, or the chair of its Zoning Board "
            "of Appeals, record the board's hearing and its votes"
        )
    sitting = h.hearing_record(appeal=appeal, user=world.board.chair, roll=roll)
    votes = [(world.board[n].pk, "for") for n in ["A", "B", "C", "D", "E"]]
    for outsider in (other.staff, world.board["B"]):
        refusal = _refused(
            lambda u=outsider: h.motion_vote(
                hearing=sitting, user=u, kind="reverse", votes=votes, reasons="x", at=at(*VOTED)
            )
        )
        assert refusal.field == "village"
    world.vote(sitting, "reverse", yes="A B C", no="D E")
    refusal = _refused(
        lambda: h.appeal_close_not_reversed(appeal=appeal, user=other.staff, at=at(*VOTED))
    )
    assert refusal.field == "village"


def test_the_roll_refuses_a_stranger_a_gap_a_double_and_a_recusal_without_its_reason(
    villages: Any, board_data: Any
) -> None:
    board_data("P4")
    world = World(SPENCER)
    appeal = world.appeal()
    good = roll_all_present(appeal, world.board)
    cases = {
        "a person not on the board": (
            [*good, h.RollCall(world.owner.pk, "present")],
            "roll",
            "is not a member or alternate of the Zoning Board of Appeals on July 14, 2026",
        ),
        "a member left out": (good[1:], f"status_{good[0].person}", "say whether A Member"),
        "a member twice": (
            [*good, good[0]],
            f"status_{good[0].person}",
            "A Member is on the roll twice",
        ),
        "a status that is none": (
            [h.RollCall(good[0].person, "asleep"), *good[1:]],
            f"status_{good[0].person}",
            "choose present, absent or recused",
        ),
        "a recusal without its reason": (
            [h.RollCall(good[0].person, "recused"), *good[1:]],
            f"reason_{good[0].person}",
            "say why A Member refused to vote",
        ),
        "a reason too long": (
            [h.RollCall(good[0].person, "recused", "x" * 301), *good[1:]],
            f"reason_{good[0].person}",
            "at most 300 characters",
        ),
    }
    for name, (roll, field, says) in cases.items():
        refusal = _refused(lambda r=roll: h.hearing_record(appeal=appeal, user=world.staff, roll=r))
        assert (refusal.field, says in str(refusal)) == (field, True), name
    h.hearing_record(appeal=appeal, user=world.staff, roll=good)
    refusal = _refused(lambda: h.hearing_record(appeal=appeal, user=world.staff, roll=good))
    assert refusal.field == "roll" and "is recorded already" in str(refusal)


def test_the_votes_refuse_the_absent_a_double_a_stranger_and_a_member_left_out(
    villages: Any, board_data: Any
) -> None:
    board_data("P4")
    world = World(SPENCER)
    appeal = world.appeal()
    sitting = world.roll(appeal, E="absent")
    b = world.board
    good = [(b[n].pk, "for") for n in ["A", "B", "C", "D"]]

    def vote(votes: list[tuple[Any, str]], **kw: Any) -> Callable[[], Any]:
        values = {"kind": "reverse", "reasons": "x", "at": at(*VOTED), **kw}
        return lambda: h.motion_vote(hearing=sitting, user=world.staff, votes=votes, **values)

    cases = [
        (
            "E was absent",
            vote([*good, (b["E"].pk, "for")]),
            f"vote_{b['E'].pk}",
            "E Member was absent, so has no vote",
        ),
        (
            "a double vote",
            vote([*good, (b["A"].pk, "against")]),
            f"vote_{b['A'].pk}",
            "A Member is given two votes",
        ),
        (
            "a stranger",
            vote([*good, (world.owner.pk, "for")]),
            "votes",
            "is not on the roll of this hearing",
        ),
        ("D left out", vote(good[:3]), f"vote_{b['D'].pk}", "say how D Member voted"),
        (
            "a vote that is none",
            vote([*good[:3], (b["D"].pk, "maybe")]),
            f"vote_{b['D'].pk}",
            "choose for, against or abstain",
        ),
        (
            "a motion that is none",
            vote(good, kind="grant"),
            "decision",
            "choose one of affirmed, reversed, modified",
        ),
        (
            "before the hearing",
            vote(good, at=at("2026-07-14", 17)),
            "voted_at",
            "cannot come before the hearing",
        ),
        ("a time to come", vote(good, at=at("2030-01-01")), "voted_at", "has not come yet"),
        ("no reasons", vote(good, reasons=" "), "reasons", "the decision must state its reasons"),
    ]
    for name, step, field, says in cases:
        refusal = _refused(step)
        assert (refusal.field, says in str(refusal)) == (field, True), (name, str(refusal))
    assert world.vote(sitting, "reverse", yes="A B C D").carried
    refusal = _refused(vote(good))
    assert refusal.field == "appeal"  # decided already


def test_the_roll_is_the_board_whose_terms_cover_the_hearing_s_day(
    villages: Any, board_data: Any
) -> None:
    board_data("P4")
    world = World(SPENCER)
    appeal = world.appeal()
    b = world.board
    Membership.objects.filter(user=b["E"], village_id=SPENCER).update(
        term_end=datetime.date(2026, 7, 13)
    )
    Membership.objects.filter(user=b["D"], village_id=SPENCER).update(
        term_start=datetime.date(2026, 7, 15), term_end=datetime.date(2030, 4, 30)
    )
    roster = {m.user_id for m in h.board_roster(SPENCER, at(*HEARD), "America/Chicago")}
    assert roster == {b[n].pk for n in ("A", "B", "C", "Alt1", "Alt2")}
    # One member more than the seats: the roll is refused until the terms are put right.
    for index in range(3):
        extra = make_user(f"spencer-extra-{index}", village=SPENCER, role=Role.APPEALS_BOARD)
    refusal = _refused(
        lambda: h.hearing_record(
            appeal=appeal,
            user=world.staff,
            roll=[
                h.RollCall(m.user_id, "present")
                for m in h.board_roster(SPENCER, at(*HEARD), "America/Chicago")
            ],
        )
    )
    assert refusal.field == "roll"
    assert "the board has 5 seats, and 6 members' terms cover the hearing's day" in str(refusal)
    assert extra.pk


def test_a_board_seat_is_checked_against_the_village_s_data(villages: Any, board_data: Any) -> None:
    board_data("P4", alternates=1)
    world = World(SPENCER)
    site = "http://testserver"
    with pytest.raises(people_services.MembershipRefused) as chair:
        people_services.membership_add(
            actor=world.staff,
            village_id=SPENCER,
            role="appeals_board",
            person="spencer-owner",
            term_end=datetime.date(2030, 4, 30),
            board_seat=BoardSeat.CHAIR,
            site=site,
        )
    refusal = chair.value
    assert refusal.field == "board_seat" and "is the board's chair already" in str(refusal)
    with pytest.raises(people_services.MembershipRefused) as second:
        people_services.membership_add(
            actor=world.staff,
            village_id=SPENCER,
            role="appeals_board",
            person="spencer-owner",
            term_end=datetime.date(2030, 4, 30),
            board_seat=BoardSeat.SECOND_ALTERNATE,
            site=site,
        )
    assert str(second.value) == (
        "Village of Spencer's board has 1 alternate (its data: board.alternates in "
        "jurisdiction.yaml); there is no second alternate"
    )
    with pytest.raises(people_services.MembershipRefused) as staff_seat:
        people_services.membership_add(
            actor=world.staff,
            village_id=SPENCER,
            role="inspector",
            person="spencer-owner",
            board_seat=BoardSeat.CHAIR,
            site=site,
        )
    assert staff_seat.value.field == "board_seat"


# -- the village's data -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("village", "citation"), [(SPENCER, "§ 413-12A"), (NEW_GLARUS, "§ 135-12A(3)")]
)
def test_each_village_s_board_data_is_the_statute_as_believed_and_not_yet_confirmed(
    village: str, citation: str
) -> None:
    board = loader.load(village).board
    assert (board.seats, board.alternates, board.quorum) == (5, 2, 3)
    assert (board.to_reverse, board.to_affirm) == (4, "majority_of_seated")
    assert (board.citation, board.statute) == (citation, "§ 62.23(7)(e) Wis. Stats.")
    assert board.confirmed is False and "must confirm" in board.note
    gap = next(g for g in loader.load(village).rules["gaps"] if g["id"] == board.gap)
    assert gap["number"] == 27


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        ("  quorum: 3", "  quorum: 2", "board.quorum: expected more than half of the 5 seats"),
        ("  to_reverse: 4", "  to_reverse: 6", "board.to_reverse: expected more than half"),
        ("  to_reverse: 4", "  to_reverse: most", "board.to_reverse: expected a whole number"),
        ("  alternates: 2", "  alternates: 3", "board.alternates: expected 0, 1 or 2"),
        ("  confirmed: false", "  confirmed: maybe", "board.confirmed: expected true or false"),
        ("  gap: board-votes", "  gap: nowhere", "board.gap: names no gap of rules.yaml"),
        ("  seats: 5\n", "", "board.seats: is required but missing"),
    ],
)
def test_a_bad_board_value_is_refused_naming_the_file_and_the_key(
    tmp_path: Path, old: str, new: str, says: str
) -> None:
    copy = tmp_path / "spencer-wi"
    shutil.copytree(loader.ordinances_root() / "spencer-wi", copy)
    path = copy / "jurisdiction.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(OrdinanceFileError) as refused:
        loader.load_folder(copy)
    assert str(refused.value).startswith("spencer-wi/jurisdiction.yaml: ")
    assert says in str(refused.value)


# -- the documents ------------------------------------------------------------------------


def test_the_hearing_notice_the_agenda_and_the_written_decision(
    villages: Any, board_data: Any
) -> None:
    board_data("P4")
    world = World(SPENCER)
    appeal = world.appeal()
    ordinance = loader.load(SPENCER)
    notice = "\n".join(notice_lines(ordinance=ordinance, appeal=appeal))
    for words in (
        "NOTICE OF HEARING: ZONING BOARD OF APPEALS",
        f"APPEAL No. {appeal.number} [§ 413-12A]",
        "The Zoning Board of Appeals of the Village of Spencer will hold a public hearing on "
        "Tuesday, July 14, 2026 at 6:00 p.m., at Village Hall.",
        "Appellant: Alex Schmid (permittee; § 413-12B)",
        "Site: 300 2nd St",
        "retract the stop-work order [§ 413-10D]",
        "Any party may appear at the hearing in person, or by an agent or an attorney, and be "
        "heard. [§ 62.23(7)(e) Wis. Stats.]",
        "a quorum of 3 of its 5 seats; to reverse or modify a decision, or grant a variance, "
        "4 concurring votes",
        "not yet confirmed by the village (gap 27).",
        "Notice given July 8, 2026 to Alex Schmid",
    ):
        assert words in notice, words
    later = world.appeal(name="Schmid Excavating LLC")
    other_day = a.appeal_hearing_schedule(
        appeal=later,
        user=world.staff,
        hearing_at=at("2026-07-21", 18),
        notice_given_on=datetime.date(2026, 7, 15),
        notice_to="Schmid Excavating LLC",
    )
    from siltfence.apps.appeals.selectors import hearings_on

    day = hearings_on(SPENCER, datetime.date(2026, 7, 14), "America/Chicago")
    assert day == [appeal]
    agenda = "\n".join(
        agenda_lines(ordinance=ordinance, day=datetime.date(2026, 7, 14), appeals=day)
    )
    assert "Meeting of Tuesday, July 14, 2026 [§ 413-12A]" in agenda
    assert f"4.1. 6:00 p.m.: Appeal {appeal.number}. Alex Schmid (permittee)." in agenda
    assert other_day.number not in agenda
    assert "roll call; whether the board has a quorum (3 of its 5 seats)" in agenda
    sitting = world.roll(appeal, C="recused: owns the adjoining lot", Alt1="present")
    world.vote(sitting, "reverse", yes="A B D Alt1", no="E")
    appeal.refresh_from_db()
    decision = "\n".join(
        decision_lines(ordinance=ordinance, appeal=appeal, minutes=minutes_of(appeal))
    )
    for words in (
        "HEARING OF JULY 14, 2026 AT 6:00 P.M., VILLAGE HALL",
        "Sitting: A Member (chair); B Member (member); D Member (member); E Member (member); "
        "Alt1 Alternate (first alternate): sits in place of a member (1 member absent or "
        "recused).",
        "Absent: Alt2 Alternate (second alternate).",
        "Recused: C Member (member) refused to vote because of an interest: owns the adjoining "
        "lot.",
        f"Quorum: 5 of 5 seats present; the board needs 3 [{CITES[SPENCER]}].",
        "MOTION 1: TO REVERSE (JULY 14, 2026 AT 7:00 P.M.)",
        "Grounds stated: The photographs show the neighbouring lot.",
        "- E Member (member): against",
        "- Alt1 Alternate (first alternate): for",
        f"The motion to reverse carries: 4 for, 1 against; it needed 4 concurring votes (4) "
        f"[{CITES[SPENCER]}].",
        "DECISION: REVERSED (July 14, 2026)",
        "The stop-work order is retracted [§ 413-10D].",
    ):
        assert words in decision, words
    assert appeal.decision_document.read().startswith(b"%PDF")


# -- the screens --------------------------------------------------------------------------


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user, backend=ModelBackend)
    return client


def test_the_appeal_page_shows_the_roll_the_votes_and_the_outcome_to_the_board(
    villages: Any, board_data: Any
) -> None:
    board_data("P4")
    world = World(SPENCER)
    appeal = world.appeal()
    url = reverse("appeals:detail", args=[appeal.pk])
    clerk = _client(world.staff)
    docket = clerk.get(reverse("appeals:docket")).content.decode()
    assert reverse("appeals:agenda", args=[SPENCER, "2026-07-14"]) in docket
    assert "Tuesday, July 14, 2026, Village of Spencer: 1 appeal" in docket
    page = clerk.get(url)
    assert page.status_code == 200
    assert 'data-testid="roll-form"' in page.content.decode()
    assert page.content.decode().count('data-testid="roll-row"') == 7
    data = {f"status_{c.person}": c.status for c in roll_all_present(appeal, world.board)}
    data[f"status_{world.board['C'].pk}"] = "recused"  # with no reason: refused on its row
    refused = clerk.post(reverse("appeals:roll", args=[appeal.pk]), data)
    assert refused.status_code == 400 and not Hearing.objects.exists()
    assert "say why C Member refused to vote" in refused.content.decode()
    data[f"reason_{world.board['C'].pk}"] = "Owns the adjoining lot."
    clerk.post(reverse("appeals:roll", args=[appeal.pk]), data)
    page = clerk.get(url).content.decode()
    assert page.count('data-testid="vote-row"') == 5  # A, B, D, E and the first alternate
    votes = {f"vote_{world.board[n].pk}": "for" for n in ("A", "B", "D", "Alt1")}
    motion = {"kind": "reverse", "reasons": "Wrong lot.", "voted_at": "2026-07-14T19:00"}
    refused = clerk.post(reverse("appeals:vote", args=[appeal.pk]), {**motion, **votes})
    assert refused.status_code == 400 and not Motion.objects.exists()
    assert "E Member (member)" in refused.content.decode()
    votes[f"vote_{world.board['E'].pk}"] = "against"
    done = clerk.post(reverse("appeals:vote", args=[appeal.pk]), {**motion, **votes})
    assert done.status_code == 302
    # A member of the board (not its chair) sees the hearing, who sat, each vote and the
    # outcome, and no form.
    member = text_of(_client(world.board["B"]).get(url))
    for words in (
        "Hearing of",
        "C Member (member): recused, refused to vote because of an interest: Owns the "
        "adjoining lot.",
        "Alt1 Alternate (first alternate): sits in place of a member (1 member absent",
        "E Member (member): against",
        "The motion to reverse carries: 4 for, 1 against",
        "Decided: Reversed",
    ):
        assert words in member, words
    assert "Record a motion" not in member
    notice = _client(world.owner).get(reverse("appeals:notice", args=[appeal.pk]))
    assert notice.status_code == 200 and notice.content.startswith(b"%PDF")
    agenda = _client(world.board["B"]).get(reverse("appeals:agenda", args=[SPENCER, "2026-07-14"]))
    assert agenda.status_code == 200 and agenda.content.startswith(b"%PDF")
    assert (
        _client(world.owner)
        .get(reverse("appeals:agenda", args=[SPENCER, "2026-07-14"]))
        .status_code
        == 403
    )


VOTE_VALUE = st.one_of(
    st.sampled_from(["for", "against", "abstain", "", "FOR", "yes", "0"]),
    st.text(max_size=20),
)


def test_the_vote_form_refuses_what_it_cannot_record_by_its_field(
    villages: Any, board_data: Any
) -> None:
    # Whatever is posted: the motion recorded with one vote for each member sitting, or a
    # refusal that names a field of the form, with nothing written and the order standing.
    board_data("P4")
    world = World(SPENCER)
    appeal = world.appeal()
    sitting = world.roll(appeal, E="absent", Alt1="present")
    clerk = _client(world.board.chair)
    seated = [line.person_id for line in sitting.roll.all() if line.seated]
    absent = world.board["E"].pk

    @settings(
        max_examples=40,
        deadline=datetime.timedelta(seconds=3),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(
        kind=st.sampled_from(["reverse", "modify", "affirm", "grant", "", "reverse\x00"]),
        votes=st.fixed_dictionaries({p: VOTE_VALUE for p in seated}),
        ghost=st.one_of(st.none(), VOTE_VALUE),
        reasons=st.one_of(st.just("Wrong lot."), st.text(max_size=30), st.just("x" * 10001)),
        when=st.sampled_from(
            ["2026-07-14T19:00", "2026-07-14T17:00", "tomorrow", "2031-01-01T10:00"]
        ),
    )
    def example(
        kind: str, votes: dict[int, str], ghost: str | None, reasons: str, when: str
    ) -> None:
        data = {f"vote_{p}": v for p, v in votes.items()}
        if ghost is not None:
            data[f"vote_{absent}"] = ghost  # the absent member: not a field of the form
        post = {"kind": kind, "reasons": reasons, "voted_at": when, "modification": "", **data}
        with transaction.atomic():
            before = _counts()
            response = clerk.post(reverse("appeals:vote", args=[appeal.pk]), post)
            assert response.status_code in (302, 400), response.status_code
            if response.status_code == 400:
                assert _counts() == before
                assert (
                    "usa-form-group--error" in response.content.decode()
                    or (response.context["messages"])
                )
            else:
                motion = Motion.objects.get(hearing=sitting)
                assert motion.votes.count() == len(seated)
            transaction.set_rollback(True)

    example()
    assert _order_stands(world)
