"""The appeals board of a village, seated and voting, for the tests of what a decision does.

A decision is the board's: a roll with a quorum and a motion that carries (decision 47).
Tests whose subject is what the decision changes (a retraction, a restored permit, the
written decision) let ``board_decides`` hold the hearing: every member present, every vote
for the motion. Tests of the board itself (tests/integration/test_board_votes.py) build
each roll and vote by hand.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model

from siltfence.apps.accounts.models import BoardSeat, Membership, Role
from siltfence.apps.appeals import hearings as h
from siltfence.apps.appeals.models import Appeal, Hearing
from siltfence.core.ordinance.loader import load

LETTERS = ("a", "b", "c", "d", "e")


@dataclass
class Board:
    """A village's board: members A to E (A the chair) and the first and second alternates."""

    village: str
    members: list[Any]
    alternates: list[Any]

    def __getitem__(self, name: str) -> Any:
        """``board["A"]`` ... ``board["E"]``, ``board["Alt1"]``, ``board["Alt2"]``."""
        if name.startswith("Alt"):
            return self.alternates[int(name[3:]) - 1]
        return self.members[LETTERS.index(name.lower())]

    @property
    def chair(self) -> Any:
        return self.members[0]


def _user(username: str, first: str, last: str) -> Any:
    users = get_user_model().objects
    found = users.filter(username=username).first()
    if found is not None:
        return found
    return users.create_user(
        username=username,
        email=f"{username}@example.org",
        password="not-used-in-tests-7x!",
        first_name=first,
        last_name=last,
    )


def seat_board(village: str, *, alternates: int = 2) -> Board:
    """Five members, A the chair, and the alternates, with no term limit, made once a test.
    A member the village has already (the factories' board member) keeps their seat, as one
    of B to E, so the roll is five members."""
    short = village.split("-wi")[0]
    chair = _user(f"{short}-zba-a", "A", "Member")
    Membership.objects.get_or_create(
        user=chair,
        village_id=village,
        role=Role.APPEALS_BOARD,
        defaults={"board_seat": BoardSeat.CHAIR},
    )
    members = [chair]
    others = Membership.objects.filter(
        village_id=village, role=Role.APPEALS_BOARD, board_seat=BoardSeat.MEMBER
    ).select_related("user")
    members += [m.user for m in others.order_by("id") if m.user_id != chair.pk][:4]
    for letter in LETTERS[1:]:
        if len(members) == len(LETTERS):
            break
        user = _user(f"{short}-zba-{letter}", letter.upper(), "Member")
        Membership.objects.get_or_create(user=user, village_id=village, role=Role.APPEALS_BOARD)
        if user not in members:
            members.append(user)
    seated_alternates = []
    for rank in range(1, alternates + 1):
        user = _user(f"{short}-zba-alt{rank}", f"Alt{rank}", "Alternate")
        seat = BoardSeat.FIRST_ALTERNATE if rank == 1 else BoardSeat.SECOND_ALTERNATE
        Membership.objects.get_or_create(
            user=user, village_id=village, role=Role.APPEALS_BOARD, defaults={"board_seat": seat}
        )
        seated_alternates.append(user)
    return Board(village=village, members=members, alternates=seated_alternates)


def roll_all_present(appeal: Appeal, board: Board, **status: str) -> list[h.RollCall]:
    """Everyone on the hearing's roster present, but for ``status`` (``D="absent"``,
    ``C="recused: owns the adjoining lot"``, ``Alt1="absent"``)."""
    zone = load(appeal.village_id).time_zone
    appeal.refresh_from_db()
    if appeal.hearing_at is None:
        return []  # no hearing set: the roll is refused for that
    by_person = {}
    for name in (*(letter.upper() for letter in LETTERS), "Alt1", "Alt2"):
        try:
            by_person[board[name].pk] = status.get(name, "present")
        except IndexError:
            continue
    calls = []
    for membership in h.board_roster(appeal.village_id, appeal.hearing_at, zone):
        said = by_person.get(membership.user_id, "present")
        kind, _, reason = said.partition(": ")
        calls.append(h.RollCall(membership.user_id, kind, reason))
    return calls


def board_decides(
    appeal: Appeal,
    *,
    at: datetime.datetime,
    decision: str,
    reasons: str,
    by: Any = None,
    **terms: Any,
) -> Appeal:
    """The board hears the appeal (all five members present) and carries ``decision`` 5-0,
    recorded by ``by`` (the chair when not given). Returns the appeal as decided."""
    board = seat_board(appeal.village_id)
    recorder = by or board.chair
    appeal.refresh_from_db()
    sitting = Hearing.objects.filter(appeal=appeal, held_at=appeal.hearing_at).first()
    if sitting is None:
        sitting = h.hearing_record(
            appeal=appeal,
            user=recorder,
            roll=roll_all_present(appeal, board, Alt1="absent", Alt2="absent"),
        )
    seated = [line.person_id for line in sitting.roll.all() if line.seated]
    h.motion_vote(
        hearing=sitting,
        user=recorder,
        kind=decision,
        votes=[(person, "for") for person in seated],
        reasons=reasons,
        at=at,
        **terms,
    )
    appeal.refresh_from_db()
    return appeal
