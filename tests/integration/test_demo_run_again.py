"""A demo load stopped after its records committed, but before the stored duties that
follow them were written, is made whole by running it again. Each village's appeals board
is whole in the demo (five members, one the chair, and two alternates) and decides the
demo's appeals by its vote."""

from __future__ import annotations

import datetime
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_otp.plugins.otp_totp.models import TOTPDevice
from factories import ModelBackend

from siltfence.apps.accounts.models import Membership, Role
from siltfence.apps.appeals import hearings as h
from siltfence.apps.appeals.models import Appeal
from siltfence.apps.duties.models import PermitDuties
from siltfence.apps.enforcement.selectors import open_stop_work_order
from siltfence.apps.permits.models import Permit, PermitStatus
from siltfence.core.ordinance.loader import load
from tools.demo import demo_load
from tools.demo.sign_in import demo_device


def _stored() -> dict[int, list[tuple[str, str]]]:
    return {
        permit: [(d["kind"], d["due"]) for d in duties]
        for permit, duties in PermitDuties.objects.values_list("permit_id", "duties")
    }


@pytest.mark.django_db
def test_a_demo_run_again_stores_the_duties_a_stopped_run_left_out():
    demo_load(out=StringIO())
    stored = _stored()
    in_force = set(Permit.objects.filter(status=PermitStatus.ACTIVE).values_list("pk", flat=True))
    assert in_force and set(stored) == in_force

    # As after a load killed between an event's commit and the recompute that follows it.
    PermitDuties.objects.all().delete()
    demo_load(out=StringIO())
    assert _stored() == stored


# -- the appeals boards -----------------------------------------------------------------------

BOARDS = {
    "spencer-wi": ("spencer-zba-chair", "spencer-zba-alt1", "spencer-zba-alt2"),
    "new-glarus-wi": ("newglarus-zba-chair", "newglarus-zba-alt1", "newglarus-zba-alt2"),
}


def _board_rows() -> list[tuple[str, str, str]]:
    return sorted(
        Membership.all_objects.filter(role=Role.APPEALS_BOARD).values_list(
            "village_id", "user__username", "board_seat"
        )
    )


def _roll(roster: list[Any], **status: str) -> list[h.RollCall]:
    return [h.RollCall(m.user_id, status.get(m.user.username, "present")) for m in roster]


@pytest.mark.django_db
def test_each_demo_village_has_a_whole_board_that_signs_in_like_every_official():
    demo_load(out=StringIO())
    now = timezone.now()
    for village, (chair, first, second) in BOARDS.items():
        roster = h.board_roster(village, now, load(village).time_zone)
        seats = [(m.user.username, m.board_seat) for m in roster]
        members = [name for name, seat in seats if seat in ("chair", "member")]
        assert len(members) == 5 and len(set(members)) == 5, seats
        assert seats[0] == (chair, "chair")
        assert seats[-2:] == [(first, "first_alternate"), (second, "second_alternate")]
        for person in roster:
            # Plain names, and the published demo authenticator: a code from demo-code.
            assert person.user.first_name and person.user.last_name
            assert demo_device(person.user.username) is not None, person.user.username
            assert person.user.check_password("silt-fence-demo-2026")
            assert h.is_chair_of(person.user, village) == (person.user.username == chair)
    printed = StringIO()
    boards, users = _board_rows(), get_user_model().objects.count()
    # A run stopped after its people were made but before the seats and codes were given
    # (each is its own insert): run again, the demo is whole, with nothing twice.
    Membership.all_objects.filter(user__username="newglarus-zba-alt2").delete()
    TOTPDevice.objects.filter(user__username="spencer-zba-chair").delete()
    demo_load(out=printed)
    demo_load(out=printed)
    assert _board_rows() == boards and get_user_model().objects.count() == users
    assert demo_device("spencer-zba-chair") is not None
    assert "spencer-zba-chair" in printed.getvalue() and "(first alternate)" in printed.getvalue()


@pytest.mark.django_db
def test_the_demo_appeals_are_decided_by_each_villages_board_by_its_vote():
    demo_load(out=StringIO())
    spencer = Appeal.objects.get(village_id="spencer-wi")
    order = spencer.action
    assert spencer.hearing_at < timezone.now() and spencer.status == "scheduled"
    assert spencer.filed_by == order.case.application.applicant  # the permittee appealed
    # The chair finds the roll of the hearing held to record, on the appeal's page.
    chair = get_user_model().objects.get(username="spencer-zba-chair")
    client = Client()
    client.force_login(chair, backend=ModelBackend)
    page = client.get(reverse("appeals:detail", args=[spencer.pk])).content.decode()
    assert 'data-testid="roll-form"' in page and page.count('data-testid="roll-row"') == 7

    zone = load("spencer-wi").time_zone
    roster = h.board_roster("spencer-wi", spencer.hearing_at, zone)
    # One member away: the first alternate sits in that place.
    sitting = h.hearing_record(
        appeal=spencer, user=chair, roll=_roll(roster, **{"spencer-zba-3": "absent"})
    )
    assert sitting.has_quorum and sitting.seated == 5
    seated = [line.person_id for line in sitting.roll.all() if line.seated]
    alternate = get_user_model().objects.get(username="spencer-zba-alt1")
    assert alternate.pk in seated
    votes = [(p, "against" if p == alternate.pk else "for") for p in seated]
    motion = h.motion_vote(
        hearing=sitting,
        user=chair,
        kind="reverse",
        votes=votes,
        reasons="The fence was reset before the order was posted.",
        at=spencer.hearing_at + datetime.timedelta(minutes=40),
    )
    assert motion.carried and (motion.votes_for, motion.votes_against) == (4, 1)
    spencer.refresh_from_db()
    assert (spencer.status, spencer.decision) == ("decided", "reverse")
    assert open_stop_work_order(order.case) is None  # retracted by the board

    # New Glarus's hearing is still to come: held at its hour, its board decides too.
    glarus = Appeal.objects.get(village_id="new-glarus-wi")
    held = glarus.hearing_at + datetime.timedelta(hours=1)
    glarus_chair = get_user_model().objects.get(username="newglarus-zba-chair")
    roster = h.board_roster("new-glarus-wi", glarus.hearing_at, load("new-glarus-wi").time_zone)
    sitting = h.hearing_record(appeal=glarus, user=glarus_chair, roll=_roll(roster), now=held)
    assert sitting.has_quorum and sitting.seated == 5  # the alternates present, not seated
    seated = [line.person_id for line in sitting.roll.all() if line.seated]
    motion = h.motion_vote(
        hearing=sitting,
        user=glarus_chair,
        kind="affirm",
        votes=[(p, "for") for p in seated],
        reasons="The stockpile stood against the inlet when the order was posted.",
        at=held,
        now=held,
    )
    glarus.refresh_from_db()
    assert motion.carried and (glarus.status, glarus.decision) == ("decided", "affirm")
