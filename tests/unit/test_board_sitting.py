"""Who sits, the quorum, and whether a motion carries, counted from a village's board data
(siltfence.core.board; decision 47). No database: the rule and the roll as plain values."""

from __future__ import annotations

import dataclasses

import pytest

from siltfence.core.board.rule import BoardRule
from siltfence.core.board.sitting import OnTheRoll, RollError, sit, tally

P4 = BoardRule(
    citation="§ 413-12A",
    statute="§ 62.23(7)(e) Wis. Stats.",
    seats=5,
    alternates=2,
    quorum=3,
    to_reverse=4,
    to_affirm="majority_of_seated",
    parties_may_appear="Any party may appear.",
    confirmed=False,
    note="The Village's to confirm.",
    gap="board-votes",
)
SEATS = {
    1: "chair",
    2: "member",
    3: "member",
    4: "member",
    5: "member",
    6: "first_alternate",
    7: "second_alternate",
}


def roll(**status: str) -> list[OnTheRoll]:
    """Persons 1 to 5 (members, 1 the chair), 6 and 7 (alternates); all present but for
    ``status`` (``p4="absent"``)."""
    return [
        OnTheRoll(person, f"P{person}", seat, status.get(f"p{person}", "present"), "")
        for person, seat in SEATS.items()
    ]


@pytest.mark.parametrize(
    ("status", "seated"),
    [
        ({}, (1, 2, 3, 4, 5)),
        ({"p4": "absent"}, (1, 2, 3, 5, 6)),
        ({"p4": "absent", "p6": "absent"}, (1, 2, 3, 5, 7)),
        ({"p4": "absent", "p5": "recused"}, (1, 2, 3, 6, 7)),
        ({"p4": "recused", "p6": "recused"}, (1, 2, 3, 5, 7)),
        ({"p3": "absent", "p4": "absent", "p5": "absent", "p6": "absent", "p7": "absent"}, (1, 2)),
    ],
)
def test_alternates_sit_in_order_only_in_place_of_members_out(
    status: dict[str, str], seated: tuple[int, ...]
) -> None:
    assert sit(P4, roll(**status)).seated == seated


def test_a_quorum_counts_those_who_sit_and_not_the_recused() -> None:
    assert sit(P4, roll(p3="absent", p4="absent", p6="absent", p7="absent")).has_quorum
    gone = {"p3": "recused", "p4": "absent", "p5": "absent", "p6": "absent", "p7": "absent"}
    assert not sit(P4, roll(**gone)).has_quorum


def test_more_members_than_seats_is_refused() -> None:
    extra = [*roll(), OnTheRoll(8, "P8", "member", "present")]
    with pytest.raises(RollError, match="5 seats, and 6 members"):
        sit(P4, extra)


@pytest.mark.parametrize(
    ("rule", "votes", "carries"),
    [
        (P4, "fffaa", False),  # 3-2 under four concurring votes
        (P4, "ffffa", True),
        (dataclasses.replace(P4, to_reverse="majority_of_seated"), "fffaa", True),
        (dataclasses.replace(P4, to_reverse="majority_of_seated"), "ffaa-", False),
        (dataclasses.replace(P4, to_reverse="majority_of_votes_cast"), "ffa--", True),
        (dataclasses.replace(P4, to_reverse="majority_of_votes_cast"), "ffaa-", False),  # tie
        (dataclasses.replace(P4, seats=9, quorum=5), "ffffaaaa-", False),  # 4 for is a tie
    ],
)
def test_a_motion_carries_with_the_votes_it_needs_and_never_on_a_tie(
    rule: BoardRule, votes: str, carries: bool
) -> None:
    people = [
        OnTheRoll(person, f"P{person}", "chair" if person == 1 else "member", "present")
        for person in range(1, len(votes) + 1)
    ]
    sitting = sit(rule, people)
    cast = {
        p.person: {"f": "for", "a": "against", "-": "abstain"}[v]
        for p, v in zip(people, votes, strict=True)
    }
    assert tally(rule, "reverse", sitting, cast).carried is carries
