"""The board decides as a board: the roll of a hearing, its quorum, each member's vote on a
motion, and what the vote carried.

Spencer § 413-12A and New Glarus § 135-12A(3): the Zoning Board of Appeals "shall use the
rules, procedures, duties and powers authorized by statute" in hearing and deciding
appeals and authorizing variances. Neither chapter gives the board's size, its quorum or
the votes that decide; the village's data does (``board`` in jurisdiction.yaml, the
village's to confirm), and ``siltfence.core.board`` counts with it.

- ``hearing_record``: the roll of one sitting (present, absent, or recused with the
  reason), who sits (alternates only in place of members absent or recused), and whether
  the board has a quorum. With no quorum nothing can be decided: the hearing is continued
  (set another hearing).
- ``motion_vote``: one motion and each seated member's vote. The outcome is counted from
  the village's rule; only a motion that carries decides the appeal, through the one
  place that writes a decision (``services.decision_apply``: a retraction, a restored
  permit and its period). A failed motion leaves the decision appealed as it was.
- ``appeal_close_not_reversed``: after a motion to reverse, modify or grant has failed for
  too few concurring votes, the record that the decision appealed is not reversed.

Only the village's staff, or the chair of its board, record these; each service checks
that itself, runs in one transaction with the appeal locked, and appends to the audit chain.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any
from zoneinfo import ZoneInfo

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from siltfence.apps.accounts.models import BoardSeat, Membership, Role
from siltfence.apps.accounts.rules import is_staff_of
from siltfence.apps.appeals.models import (
    Appeal,
    AppealKind,
    Attendance,
    Decision,
    Hearing,
    Motion,
    Vote,
)
from siltfence.apps.appeals.services import (
    DecisionTerms,
    _audit,
    decision_apply,
    decision_terms,
    hearing_held_check,
    not_decided_check,
)
from siltfence.apps.enforcement.models import EnforcementCase
from siltfence.apps.enforcement.services import ActionRefused, clean_text
from siltfence.apps.permits.services.common import village_ordinance
from siltfence.core.board.rule import REVERSING, board_of
from siltfence.core.board.sitting import (
    ALTERNATES,
    PRESENT,
    RECUSED,
    STATUSES,
    VOTES,
    OnTheRoll,
    RollError,
    Sitting,
    outcome_sentence,
    quorum_sentence,
    sit,
    tally,
)
from siltfence.core.ordinance.model import Ordinance

NOT_RECORDER = (
    "village: only the staff of {village}, or the chair of its {body}, record the board's "
    "hearing and its votes"
)
HEARING_NOT_SET = "hearing: no hearing is set for appeal {number}; set it first"
HEARING_NOT_BEGUN = "hearing: the hearing is set for {when}; its roll is recorded once it has begun"
ROLL_RECORDED = (
    "roll: the roll of the hearing of {when} is recorded already; to hear the appeal again, "
    "set another hearing"
)
ROLL_NOT_ON_BOARD = (
    "roll: {who} is not a member or alternate of the {body} on {day} (a term covering that "
    "day, on the village's people page)"
)
ROLL_TWICE = "roll: {name} is on the roll twice"
ROLL_MISSING = "roll: say whether {name} was present, absent or recused"
ROLL_STATUS = "roll: {name}: choose present, absent or recused"
RECUSAL_REASON = "roll: say why {name} refused to vote (the interest), for the minutes"
REASON_TOO_LONG = "roll: the reason {name} is recused is at most 300 characters"
ROLL_DOES_NOT_FIT = "roll: {why}; correct the seats and terms on the village's people page"
HEARING_MOVED = "hearing: the hearing was set again meanwhile; record the roll of the new one"
NO_BOARD = "roll: no member or alternate of the {body} has a term covering {day}"
NO_QUORUM = "quorum: {says}"
VOTE_NOT_ON_BOARD = "votes: {who} is not on the roll of this hearing"
VOTE_TWICE = "votes: {name} is given two votes; each member has one"
VOTE_ABSENT = "votes: {name} was absent, so has no vote"
VOTE_RECUSED = "votes: {name} refused to vote because of an interest (recused), so has no vote"
VOTE_NOT_SEATED = (
    "votes: {name} is present as the {seat} but does not sit: an alternate votes "
    "only in place of a member absent or recused"
)
VOTE_CHOICE = "votes: {name}: choose for, against or abstain"
VOTE_MISSING = "votes: say how {name} voted: for, against or abstained"
VOTED_BEFORE_HEARING = "voted at: the vote ({at}) cannot come before the hearing ({hearing})"
VOTED_LATER = "voted at: {at} has not come yet"
NOT_REVERSED_ONLY = (
    "decision: an appeal is recorded as not reversed only after a motion to reverse, modify "
    "or grant failed for too few votes at a hearing with a quorum; {last}"
)
CLOSED_BEFORE_VOTE = "decided at: the record ({at}) cannot come before the vote ({voted})"

# The roll's order: the chair, the members, the first and the second alternate.
SEAT_ORDER = {"chair": 0, "member": 1, "first_alternate": 2, "second_alternate": 3}


@dataclass(frozen=True)
class RollCall:
    """One line of the roll as given: a person (their account's id), present, absent or
    recused, and why they refused to vote (recused)."""

    person: int
    status: str
    reason: str = ""


def _local(moment: datetime.datetime, ordinance: Ordinance) -> datetime.datetime:
    return timezone.localtime(moment, ZoneInfo(ordinance.time_zone))


def _when(moment: datetime.datetime, ordinance: Ordinance) -> str:
    local = _local(moment, ordinance)
    return f"{local:%B %-d, %Y at %-I:%M %p}".replace("AM", "a.m.").replace("PM", "p.m.")


def name_of(user: Any) -> str:
    return str(user.get_full_name() or user.get_username())[:200]


def is_chair_of(user: Any, village_id: str) -> bool:
    """The person is the chair of the village's board now (a current membership)."""
    if not getattr(user, "is_authenticated", False):
        return False
    return Membership.objects.filter(
        user=user, village_id=village_id, role=Role.APPEALS_BOARD, board_seat=BoardSeat.CHAIR
    ).exists()


def may_record(user: Any, appeal: Appeal) -> bool:
    return bool(is_staff_of(user, appeal) or is_chair_of(user, appeal.village_id))


def _recorder_check(user: Any, appeal: Appeal, ordinance: Ordinance) -> None:
    if not may_record(user, appeal):
        raise ActionRefused(
            NOT_RECORDER.format(village=ordinance.name, body=ordinance.appeals_body["title"]),
            field="village",
        )


def board_roster(village_id: str, at: datetime.datetime, zone: str) -> list[Membership]:
    """The village's board members and alternates on the day of ``at`` (in the village's
    zone): a term covering that day, and not removed before ``at``. The chair first, then
    the members by name, then the first and second alternates."""
    day = timezone.localtime(at, ZoneInfo(zone)).date()
    rows: QuerySet[Membership] = (
        Membership.all_objects.filter(village_id=village_id, role=Role.APPEALS_BOARD)
        .filter(Q(term_start__isnull=True) | Q(term_start__lte=day))
        .filter(Q(term_end__isnull=True) | Q(term_end__gte=day))
        .filter(Q(ended_at__isnull=True) | Q(ended_at__gt=at))
        .select_related("user")
        .order_by("-id")
    )
    latest: dict[int, Membership] = {}
    for row in rows:
        latest.setdefault(row.user_id, row)  # a person re-added: their latest membership
    return sorted(
        latest.values(),
        key=lambda m: (SEAT_ORDER.get(m.board_seat, 9), name_of(m.user).lower(), m.user_id),
    )


def hearing_record(
    *,
    appeal: Appeal,
    user: Any,
    roll: Sequence[RollCall],
    now: datetime.datetime | None = None,
) -> Hearing:
    """Record the roll of the hearing set on the appeal: each member and alternate whose
    term covers its day, present, absent or recused (with the reason). Who sits and whether
    the board has a quorum are counted from the village's data, and kept with the roll. A
    sitting without a quorum is recorded too (the minutes show it) and decides nothing."""
    appeal = Appeal.objects.get(pk=appeal.pk)  # the hearing as set now
    ordinance = village_ordinance(appeal.village_id)
    _recorder_check(user, appeal, ordinance)
    rule = ordinance.board
    body = ordinance.appeals_body["title"]
    now = now or timezone.now()
    if appeal.hearing_at is None:
        raise ActionRefused(HEARING_NOT_SET.format(number=appeal.number), field="hearing")
    held_at = appeal.hearing_at
    if held_at > now:
        raise ActionRefused(
            HEARING_NOT_BEGUN.format(when=_when(held_at, ordinance)), field="hearing"
        )
    not_decided_check(appeal)
    day = _local(held_at, ordinance).date()
    roster = board_roster(appeal.village_id, held_at, ordinance.time_zone)
    if not roster:
        raise ActionRefused(NO_BOARD.format(body=body, day=f"{day:%B %-d, %Y}"), field="roll")
    on_board = {m.user_id: m for m in roster}
    given: dict[int, RollCall] = {}
    for line in roll:
        person = line.person if isinstance(line.person, int) else None
        if person is None or person not in on_board:
            raise ActionRefused(
                ROLL_NOT_ON_BOARD.format(
                    who=f"person #{str(line.person)[:20]}", body=body, day=f"{day:%B %-d, %Y}"
                ),
                field="roll",
            )
        name = name_of(on_board[person].user)
        if person in given:
            raise ActionRefused(ROLL_TWICE.format(name=name), field=f"status_{person}")
        if line.status not in STATUSES:
            raise ActionRefused(ROLL_STATUS.format(name=name), field=f"status_{person}")
        reason = str(line.reason or "").strip()
        if len(reason) > 300 or "\x00" in reason:
            raise ActionRefused(REASON_TOO_LONG.format(name=name), field=f"reason_{person}")
        if line.status == RECUSED and not reason:
            raise ActionRefused(RECUSAL_REASON.format(name=name), field=f"reason_{person}")
        given[person] = RollCall(person, line.status, reason if line.status == RECUSED else "")
    for membership in roster:
        if membership.user_id not in given:
            raise ActionRefused(
                ROLL_MISSING.format(name=name_of(membership.user)),
                field=f"status_{membership.user_id}",
            )
    called = [
        OnTheRoll(
            person=m.user_id,
            name=name_of(m.user),
            seat=m.board_seat,
            status=given[m.user_id].status,
            reason=given[m.user_id].reason,
        )
        for m in roster
    ]
    try:
        sitting = sit(rule, called)
    except RollError as exc:
        raise ActionRefused(ROLL_DOES_NOT_FIT.format(why=exc), field="roll") from None
    with transaction.atomic():
        locked = Appeal.objects.select_for_update().get(pk=appeal.pk)
        not_decided_check(locked)
        if locked.hearing_at != held_at:
            raise ActionRefused(HEARING_MOVED, field="hearing")
        if Hearing.objects.filter(appeal=locked, held_at=held_at).exists():
            raise ActionRefused(ROLL_RECORDED.format(when=_when(held_at, ordinance)), field="roll")
        hearing = Hearing.objects.create(
            appeal=locked,
            village_id=locked.village_id,
            held_at=held_at,
            place=locked.hearing_place,
            recorded_by=user,
            recorded_at=now,
            seats=rule.seats,
            quorum=rule.quorum,
            seated=sitting.count,
            has_quorum=sitting.has_quorum,
            quorum_says=quorum_sentence(sitting, rule),
            rule=asdict(rule),
        )
        Attendance.objects.bulk_create(
            Attendance(
                hearing=hearing,
                membership=on_board[line.person],
                person_id=line.person,
                name=line.name,
                seat=line.seat,
                status=line.status,
                reason=line.reason,
                seated=line.person in sitting.seated,
                why_seated=sitting.why.get(line.person, ""),
            )
            for line in called
        )
        _audit(
            locked,
            actor=user,
            action="appeal_hearing_record",
            citation=rule.cites,
            reason=hearing.quorum_says[:500],
            before=None,
        )
    return hearing


def _sitting_of(hearing: Hearing) -> tuple[Sitting, dict[int, Attendance]]:
    roll = {line.person_id: line for line in hearing.roll.all()}
    seated = tuple(p for p, line in roll.items() if line.seated)
    out = sum(1 for line in roll.values() if line.seat not in ALTERNATES and line.status != PRESENT)
    sitting = Sitting(
        seated=seated,
        why={p: line.why_seated for p, line in roll.items() if line.why_seated},
        members_out=out,
        quorum=hearing.quorum,
        seats=hearing.seats,
    )
    return sitting, roll


def _stands(appeal: Appeal, kind: str) -> str:
    """What is left as it was when a motion fails."""
    if appeal.kind == AppealKind.VARIANCE:
        return "the variance is not granted" if kind in REVERSING else "nothing is decided yet"
    subject = "the decision appealed"
    if appeal.action is not None:
        subject = {
            "stop_work_order": "the stop-work order",
            "revocation": "the revocation of the permit",
        }.get(appeal.action.kind, f"the {appeal.action.get_kind_display().lower()}")
    if kind in REVERSING:
        return f"{subject} stands"
    return (
        f"{subject} stands until the board decides the appeal (a failed affirmance is no reversal)"
    )


def motion_vote(
    *,
    hearing: Hearing,
    user: Any,
    kind: str,
    votes: Sequence[tuple[int, str]],
    reasons: str,
    at: datetime.datetime,
    modification: str = "",
    findings: dict[str, str] | None = None,
    retracts: bool = False,
    restored_until: datetime.date | None = None,
    now: datetime.datetime | None = None,
) -> Motion:
    """Record a motion (reverse, modify or affirm an appeal; grant or deny a variance) and
    each seated member's vote, at a sitting with a quorum. The outcome is counted from the
    village's rule as applied at the roll: a motion to reverse, modify or grant needs the
    concurring votes of ``to_reverse``, one to affirm or deny those of ``to_affirm``, and no
    motion carries on a tie. A carried motion decides the appeal (``decision_apply``); a
    failed one changes nothing but the minutes."""
    appeal = hearing.appeal
    ordinance = village_ordinance(appeal.village_id)
    _recorder_check(user, appeal, ordinance)
    now = now or timezone.now()
    if not hearing.has_quorum:
        raise ActionRefused(NO_QUORUM.format(says=hearing.quorum_says), field="quorum")
    terms = decision_terms(
        appeal=appeal,
        ordinance=ordinance,
        decision=kind,
        reasons=reasons,
        modification=modification,
        findings=findings,
        retracts=retracts,
        restored_until=restored_until,
    )
    if at < hearing.held_at:
        raise ActionRefused(
            VOTED_BEFORE_HEARING.format(
                at=_when(at, ordinance), hearing=_when(hearing.held_at, ordinance)
            ),
            field="voted_at",
        )
    if at > now:
        raise ActionRefused(VOTED_LATER.format(at=_when(at, ordinance)), field="voted_at")
    sitting, roll = _sitting_of(hearing)
    cast = _votes_check(votes, roll)
    rule = board_of(hearing.rule)
    result = tally(rule, kind, sitting, cast)
    outcome = outcome_sentence(result, rule, stands=_stands(appeal, kind))
    with transaction.atomic():
        locked_case = None
        if appeal.case_id is not None:
            locked_case = EnforcementCase.objects.select_for_update().get(pk=appeal.case_id)
        locked = Appeal.objects.select_for_update().get(pk=appeal.pk)
        not_decided_check(locked)
        hearing_held_check(locked, at, ordinance)
        motion = Motion.objects.create(
            hearing=hearing,
            number=hearing.motions.count() + 1,
            kind=kind,
            voted_at=at,
            recorded_by=user,
            recorded_at=now,
            reasons=terms.reasons,
            modification=terms.modification,
            findings=terms.findings,
            retracts=terms.retracts,
            restored_until=terms.restored_until,
            votes_for=result.votes_for,
            votes_against=result.against,
            abstained=result.abstained,
            needed=result.needed,
            needs=result.needs,
            carried=result.carried,
            outcome=outcome,
        )
        Vote.objects.bulk_create(
            Vote(motion=motion, attendance=roll[person], vote=cast[person])
            for person in sitting.seated
        )
        _audit(
            locked,
            actor=user,
            action="appeal_motion_vote",
            citation=rule.cites,
            reason=outcome[:500],
            after={
                "motion": motion.number,
                "kind": kind,
                "for": result.votes_for,
                "against": result.against,
                "abstained": result.abstained,
                "carried": result.carried,
            },
        )
        if result.carried:
            decision_apply(locked, locked_case, ordinance, terms, by=user, at=at)
    return motion


def _votes_check(votes: Sequence[tuple[int, str]], roll: dict[int, Attendance]) -> dict[int, str]:
    cast: dict[int, str] = {}
    for person, vote in votes:
        line = roll.get(person) if isinstance(person, int) else None
        if line is None:
            raise ActionRefused(
                VOTE_NOT_ON_BOARD.format(who=f"person #{str(person)[:20]}"), field="votes"
            )
        words = {"name": line.name}
        if person in cast:
            raise ActionRefused(VOTE_TWICE.format(**words), field=f"vote_{person}")
        if line.status == "absent":
            raise ActionRefused(VOTE_ABSENT.format(**words), field=f"vote_{person}")
        if line.status == RECUSED:
            raise ActionRefused(VOTE_RECUSED.format(**words), field=f"vote_{person}")
        if not line.seated:
            raise ActionRefused(
                VOTE_NOT_SEATED.format(**words, seat=BoardSeat(line.seat).label.lower()),
                field=f"vote_{person}",
            )
        if vote not in VOTES:
            raise ActionRefused(VOTE_CHOICE.format(**words), field=f"vote_{person}")
        cast[person] = vote
    for person, line in roll.items():
        if line.seated and person not in cast:
            raise ActionRefused(VOTE_MISSING.format(name=line.name), field=f"vote_{person}")
    return cast


def last_motion(appeal: Appeal) -> Motion | None:
    return (
        Motion.objects.filter(hearing__appeal=appeal)
        .select_related("hearing")
        .order_by("hearing__held_at", "number")
        .last()
    )


def may_close_not_reversed(appeal: Appeal) -> bool:
    motion = last_motion(appeal)
    return bool(
        motion is not None
        and appeal.status != "decided"
        and motion.kind in REVERSING
        and not motion.carried
        and motion.hearing.has_quorum
    )


def appeal_close_not_reversed(
    *,
    appeal: Appeal,
    user: Any,
    at: datetime.datetime,
    note: str = "",
    now: datetime.datetime | None = None,
) -> Appeal:
    """Decide the appeal as not reversed (a variance as not granted) after the board, with a
    quorum, voted on a motion to reverse, modify or grant and it failed: the decision
    appealed stands, for lack of the votes the village's rule needs. The written decision
    lists every motion and vote."""
    ordinance = village_ordinance(appeal.village_id)
    _recorder_check(user, appeal, ordinance)
    now = now or timezone.now()
    motion = last_motion(appeal)
    if not may_close_not_reversed(appeal):
        last = (
            "none has been voted on"
            if motion is None
            else f"the last was motion {motion.number} to {Decision(motion.kind).label.lower()}, "
            + ("which carried" if motion.carried else "which failed")
        )
        raise ActionRefused(NOT_REVERSED_ONLY.format(last=last), field="decision")
    assert motion is not None
    if at < motion.voted_at:
        raise ActionRefused(
            CLOSED_BEFORE_VOTE.format(
                at=_when(at, ordinance), voted=_when(motion.voted_at, ordinance)
            ),
            field="decided_at",
        )
    if at > now:
        raise ActionRefused(VOTED_LATER.format(at=_when(at, ordinance)), field="decided_at")
    note = clean_text(note, "note", 2000)
    reasons = motion.outcome + (f"\n{note}" if note else "")
    variance = appeal.kind == AppealKind.VARIANCE
    terms = DecisionTerms(
        decision=Decision.NOT_GRANTED if variance else Decision.NOT_REVERSED, reasons=reasons
    )
    with transaction.atomic():
        locked_case = None
        if appeal.case_id is not None:
            locked_case = EnforcementCase.objects.select_for_update().get(pk=appeal.case_id)
        locked = Appeal.objects.select_for_update().get(pk=appeal.pk)
        not_decided_check(locked)
        if last_motion(locked) != motion:
            raise ActionRefused(
                NOT_REVERSED_ONLY.format(last="another was voted"), field="decision"
            )
        decision_apply(locked, locked_case, ordinance, terms, by=user, at=at)
    return locked
