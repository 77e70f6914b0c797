"""Who sits at a hearing, whether the board has a quorum, and whether a motion carries.

The village's ``BoardRule`` gives the numbers (see ``rule``). The seating follows the
statute the chapters incorporate (§ 413-12A, § 135-12A(3)), as the village's data reads it:

- every member present who does not refuse to vote because of an interest (recused) sits;
- the first alternate sits, "with full power", only in place of a member absent or recused;
  the second only when the first is absent or recused too, or when two or more members are
  absent or recused. An alternate present with every member sitting does not vote;
- a member who is recused is not counted: not toward the quorum, not as a vote;
- an abstention (without an interest) is a vote neither for nor against, and seats no one.

A motion carries only with the votes its kind needs and more votes for it than against it:
a tie is never a reversal. A motion that fails leaves the decision appealed as it was.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from siltfence.core.board.rule import BoardRule

PRESENT, ABSENT, RECUSED = "present", "absent", "recused"
STATUSES = (PRESENT, ABSENT, RECUSED)
FOR, AGAINST, ABSTAIN = "for", "against", "abstain"
VOTES = (FOR, AGAINST, ABSTAIN)
# A membership's seat on the board (accounts ``BoardSeat``): the chair is a member.
MEMBERS = ("chair", "member")
ALTERNATES = ("first_alternate", "second_alternate")
SEATS = (*MEMBERS, *ALTERNATES)
MOTION_WORDS = {
    "reverse": "reverse",
    "modify": "modify",
    "affirm": "affirm",
    "grant": "grant the variance",
    "deny": "deny the variance",
}


@dataclass(frozen=True)
class OnTheRoll:
    """One person on the board on the hearing's day, as the roll was called."""

    person: int
    name: str
    seat: str  # one of SEATS
    status: str  # one of STATUSES
    reason: str = ""  # why they refused to vote (recused)


@dataclass(frozen=True)
class Sitting:
    """The board as it sat: who sits, why each alternate sits, and the quorum."""

    seated: tuple[int, ...]  # the people who sit and vote, members first
    why: Mapping[int, str]  # person -> why an alternate sits ("in place of ...")
    members_out: int  # members absent or recused
    quorum: int
    seats: int

    @property
    def count(self) -> int:
        return len(self.seated)

    @property
    def has_quorum(self) -> bool:
        return self.count >= self.quorum


class RollError(ValueError):
    """The roll does not fit the village's board: more members or alternates than it has."""


def sit(rule: BoardRule, roll: Sequence[OnTheRoll]) -> Sitting:
    members = [r for r in roll if r.seat in MEMBERS]
    if len(members) > rule.seats:
        raise RollError(
            f"the board has {rule.seats} seats, and {len(members)} members' terms cover the "
            "hearing's day"
        )
    seated = [r.person for r in members if r.status == PRESENT]
    out = sum(1 for r in members if r.status != PRESENT)
    why: dict[int, str] = {}
    ranked = sorted(
        (r for r in roll if r.seat in ALTERNATES), key=lambda r: ALTERNATES.index(r.seat)
    )
    for seat in ALTERNATES[: rule.alternates]:
        holders = [r for r in ranked if r.seat == seat]
        if len(holders) > 1:
            raise RollError(
                f"the board has one {seat.replace('_', ' ')}, and {len(holders)} people's terms "
                "as that alternate cover the hearing's day"
            )
    extra = [r for r in ranked if ALTERNATES.index(r.seat) >= rule.alternates]
    if extra:
        raise RollError(
            f"the board has {rule.alternates} alternate{'s' if rule.alternates != 1 else ''}, "
            f"and {extra[0].name} holds a {extra[0].seat.replace('_', ' ')}'s seat"
        )
    open_places = out
    for r in ranked:
        if open_places == 0:
            break
        if r.status != PRESENT:
            continue
        seated.append(r.person)
        why[r.person] = _why_seated(r.seat, out, ranked)
        open_places -= 1
    return Sitting(
        seated=tuple(seated), why=why, members_out=out, quorum=rule.quorum, seats=rule.seats
    )


def _why_seated(seat: str, out: int, ranked: Sequence[OnTheRoll]) -> str:
    members = f"{out} member{'s' if out != 1 else ''} absent or recused"
    if seat == "first_alternate":
        return f"sits in place of a member ({members})"
    first = next((r for r in ranked if r.seat == "first_alternate"), None)
    if out >= 2:
        return f"sits because {members}"
    if first is None:
        return f"sits in place of a member ({members}); the board has no first alternate"
    return f"sits in place of a member ({members}); the first alternate is {first.status}"


def quorum_sentence(sitting: Sitting, rule: BoardRule) -> str:
    """The quorum in words ("Quorum: 4 of 5 seats present; the board needs 3"), or why
    there is none. A seat is present when its member sits, or an alternate sits in it."""
    filled = f"{sitting.count} of {sitting.seats} seats present"
    if sitting.has_quorum:
        return f"Quorum: {filled}; the board needs {rule.quorum} [{rule.cites}]."
    return (
        f"No quorum: {filled}; the board needs {rule.quorum} [{rule.cites}]. No decision can be "
        "made; the hearing is continued."
    )


@dataclass(frozen=True)
class Tally:
    kind: str  # the motion: reverse, modify, affirm, grant, deny
    votes_for: int
    against: int
    abstained: int
    seated: int
    needed: int  # the votes for it needed, worked out from the rule
    needs: str  # the rule in words: "4 concurring votes", "a majority of the 5 seated"
    carried: bool
    tie: bool


def needed_votes(rule: int | str, *, seated: int, cast: int) -> tuple[int, str]:
    """The votes for a motion needs under ``rule``, and the rule in words."""
    if rule == "majority_of_seated":
        return seated // 2 + 1, f"a majority of the {seated} seated"
    if rule == "majority_of_votes_cast":
        return cast // 2 + 1, f"a majority of the {cast} votes cast"
    assert isinstance(rule, int)
    return rule, f"{rule} concurring votes"


def tally(rule: BoardRule, kind: str, sitting: Sitting, votes: Mapping[int, str]) -> Tally:
    """Count the votes of the people seated. ``votes`` holds one vote per person seated
    (checked by the caller, who names the person in error)."""
    counted = [votes[p] for p in sitting.seated if p in votes]
    yes, no = counted.count(FOR), counted.count(AGAINST)
    needed, needs = needed_votes(rule.needed_for(kind), seated=sitting.count, cast=yes + no)
    return Tally(
        kind=kind,
        votes_for=yes,
        against=no,
        abstained=counted.count(ABSTAIN),
        seated=sitting.count,
        needed=needed,
        needs=needs,
        carried=sitting.has_quorum and yes >= needed and yes > no,
        tie=yes == no,
    )


def outcome_sentence(result: Tally, rule: BoardRule, *, stands: str) -> str:
    """What the vote did, with the sections. ``stands``: what remains as it was when the
    motion fails ("the stop-work order stands")."""
    motion = f"The motion to {MOTION_WORDS[result.kind]}"
    count = f"{result.votes_for} for, {result.against} against" + (
        f", {result.abstained} abstaining" if result.abstained else ""
    )
    cites = f"[{rule.cites}]"
    if result.carried:
        return f"{motion} carries: {count}; it needed {result.needs} ({result.needed}) {cites}."
    if result.tie:
        return f"{motion} fails: a tie ({count}) carries no motion, and {stands} {cites}."
    if result.votes_for >= result.needed:
        return f"{motion} fails: {count}, more against than for, and {stands} {cites}."
    return (
        f"{motion} fails: {count}; it needed {result.needs} ({result.needed}), and {stands} "
        f"{cites}."
    )
