"""The board's minutes of an appeal, read from the record for its page and its written
decision: each sitting's roll and quorum, each motion with each vote and its outcome."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from siltfence.apps.accounts.models import BoardSeat
from siltfence.apps.appeals.models import Decision, Hearing, VoteChoice
from siltfence.core.board.sitting import MOTION_WORDS


@dataclass(frozen=True)
class RollLine:
    name: str
    seat: str  # "member", "chair", "first alternate", ...
    status: str  # present, absent, recused
    reason: str
    seated: bool
    why_seated: str

    @property
    def alternate(self) -> bool:
        return self.seat.endswith("alternate")


@dataclass(frozen=True)
class VoteLine:
    name: str
    seat: str
    vote: str  # "For", "Against", "Abstained"


def in_words(moment: Any, zone: str) -> str:
    """A moment as a clerk writes it, in the village's zone: "July 14, 2026 at 6:00 p.m."."""
    from zoneinfo import ZoneInfo

    from django.utils import timezone

    local = timezone.localtime(moment, ZoneInfo(zone))
    text = f"{local:%B %-d, %Y at %-I:%M %p}"
    return text.replace("AM", "a.m.").replace("PM", "p.m.")


@dataclass(frozen=True)
class MotionMinutes:
    number: int
    kind: str
    words: str  # "reverse", "grant the variance"
    voted_at: Any
    reasons: str
    modification: str
    votes: tuple[VoteLine, ...]
    votes_for: int
    against: int
    abstained: int
    needs: str
    needed: int
    carried: bool
    outcome: str
    when: str = ""  # voted_at in words, in the village's zone


@dataclass(frozen=True)
class SittingMinutes:
    held_at: Any
    place: str
    roll: tuple[RollLine, ...]
    seats: int
    quorum: int
    seated: int
    has_quorum: bool
    quorum_says: str
    confirmed: bool  # the village has confirmed its board's numbers
    gap: str  # the gap note's id, when it has not
    motions: tuple[MotionMinutes, ...]
    when: str = ""  # held_at in words, in the village's zone

    @property
    def sitting(self) -> tuple[RollLine, ...]:
        return tuple(r for r in self.roll if r.seated)

    @property
    def present_not_seated(self) -> tuple[RollLine, ...]:
        return tuple(r for r in self.roll if r.status == "present" and not r.seated)

    @property
    def absent(self) -> tuple[RollLine, ...]:
        return tuple(r for r in self.roll if r.status == "absent")

    @property
    def recused(self) -> tuple[RollLine, ...]:
        return tuple(r for r in self.roll if r.status == "recused")


def _seat(value: str) -> str:
    return str(BoardSeat(value).label).lower() if value in BoardSeat.values else value


def minutes_of(appeal: Any) -> list[SittingMinutes]:
    """Every sitting of the appeal's hearings, oldest first."""
    from siltfence.core.ordinance.loader import load

    zone = load(appeal.village_id).time_zone
    hearings = (
        Hearing.objects.filter(appeal_id=appeal.pk)
        .prefetch_related("roll", "motions__votes__attendance")
        .order_by("held_at", "id")
    )
    found = []
    for hearing in hearings:
        roll = tuple(
            RollLine(
                name=line.name,
                seat=_seat(line.seat),
                status=line.status,
                reason=line.reason,
                seated=line.seated,
                why_seated=line.why_seated,
            )
            for line in hearing.roll.all()
        )
        motions = tuple(
            MotionMinutes(
                number=motion.number,
                kind=motion.kind,
                words=MOTION_WORDS.get(motion.kind, Decision(motion.kind).label.lower()),
                voted_at=motion.voted_at,
                reasons=motion.reasons,
                modification=motion.modification,
                votes=tuple(
                    VoteLine(
                        name=vote.attendance.name,
                        seat=_seat(vote.attendance.seat),
                        vote=str(VoteChoice(vote.vote).label),
                    )
                    for vote in motion.votes.all()
                ),
                votes_for=motion.votes_for,
                against=motion.votes_against,
                abstained=motion.abstained,
                needs=motion.needs,
                needed=motion.needed,
                carried=motion.carried,
                outcome=motion.outcome,
                when=in_words(motion.voted_at, zone),
            )
            for motion in hearing.motions.all()
        )
        found.append(
            SittingMinutes(
                held_at=hearing.held_at,
                place=hearing.place,
                roll=roll,
                seats=hearing.seats,
                quorum=hearing.quorum,
                seated=hearing.seated,
                has_quorum=hearing.has_quorum,
                quorum_says=hearing.quorum_says,
                confirmed=bool(hearing.rule.get("confirmed")),
                gap=str(hearing.rule.get("gap", "")),
                motions=motions,
                when=in_words(hearing.held_at, zone),
            )
        )
    return found
