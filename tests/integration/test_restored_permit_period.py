"""A revoked permit restored by the appeals board, and its period (decision 38).

§ 413-8E(1), § 135-7G: "Permits shall be valid for a period of 180 days ... from the date of
issuance. The [authority] may extend the period one or more times for up to an additional
180 days." § 413-10D, § 135-11D: the Zoning Board of Appeals "may retract ... the
revocation". § 413-12A, § 135-12A(3): the board uses the "powers authorized by statute".

Read as the independent reader's cases R-1 to R-7 read them: a restoration neither restarts
nor pauses the period; the board may set a later last day as the authority could extend it
(up to 180 days at a time, from the permit's last day), even where the period ended while
the permit stood revoked; a last day before the decision, or not after the permit's own, is
refused, as is one more than 180 days on. Where the reader went further (clipping a day too
far to the limit, R-3b; a shorter period as a partial affirmance, R-4b), the program refuses
and says why, so that the board's decision states what it means.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from board_helpers import board_decides, roll_all_present, seat_board
from django.db import transaction
from django.test import Client
from django.urls import reverse
from enforcement_helpers import at, permit_filed_on
from factories import NEW_GLARUS, SPENCER, ModelBackend, People
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from siltfence.apps.appeals import hearings as h
from siltfence.apps.appeals import services as a
from siltfence.apps.appeals.documents import decision_lines
from siltfence.apps.appeals.models import Appeal
from siltfence.apps.documents.text import extension_lines
from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement.selectors import case_timeline
from siltfence.apps.enforcement.services import ActionRefused
from siltfence.apps.permits import services as ps
from siltfence.apps.permits.models import (
    Document,
    DocumentKind,
    Permit,
    PermitExtension,
    TimelineEvent,
)
from siltfence.core.errors import SiltfenceError
from siltfence.core.ordinance.loader import load
from siltfence.core.timeline.engine import compute

pytestmark = pytest.mark.django_db

DAY = datetime.timedelta(days=1)


def _revoked(people: People, village: str, filed: str) -> tuple[Permit, Any]:
    """A permit under a stop-work order from June 22, revoked on July 6 (after Spencer's
    10 days, § 413-10B; New Glarus has no wait, § 135-11B), its revocation appealed and
    heard on July 20."""
    staff = people.staff[village]
    permit = permit_filed_on(
        applicant=people.applicant_a, village=village, staff=staff, filed=filed, address="8 Elm"
    )
    case = s.violation_record(
        village=permit.village,
        recorded_by=staff,
        source="observation",
        description="Fence down.",
        provision="§ 413-7B(4)" if village == SPENCER else "§ 135-11",
        days_from=datetime.date(2026, 6, 22),
        at=at("2026-06-22"),
        permit=permit,
    ).case
    s.stop_work_order_post(
        case=case, staff=staff, at=at("2026-06-22", 10), grounds=["plan-not-followed"]
    )
    revocation = s.permit_revoke(
        case=case, staff=staff, at=at("2026-07-06"), reasons="Fence still down."
    )
    appeal = a.appeal_file(
        village=permit.village,
        filed_by=people.applicant_a,
        on=datetime.date(2026, 7, 7),
        appellant_name="Alex Schmid",
        standing="permittee" if village == SPENCER else "aggrieved_person",
        grounds="The fence was up.",
        action=revocation,
    )
    a.appeal_hearing_schedule(
        appeal=appeal,
        user=people.board[village],
        hearing_at=at("2026-07-20", 19),
        notice_given_on=datetime.date(2026, 7, 15),
        notice_to="Alex Schmid",
    )
    permit.refresh_from_db()
    return permit, appeal


def _decide(people: People, appeal: Any, village: str, **kwargs: Any) -> Appeal:
    values: dict[str, Any] = dict(
        at=at("2026-07-20", 20),
        decision="reverse",
        reasons="The fence was repaired on July 9.",
    )
    values.update(kwargs)
    return board_decides(appeal, **values)


def _text(appeal: Appeal, village: str) -> str:
    appeal.refresh_from_db()
    return " ".join("\n".join(decision_lines(ordinance=load(village), appeal=appeal)).split())


@pytest.mark.parametrize("village", [SPENCER, NEW_GLARUS])
def test_a_permit_restored_inside_its_period_keeps_its_last_day(
    people: People, village: str
) -> None:
    # nothing pauses the 180 days while the permit stands revoked, and a restoration
    # does not restart them.
    permit, appeal = _revoked(people, village, filed="2026-06-01")
    last_day = permit.issued_on + 180 * DAY
    assert permit.expires_on == last_day  # 180 days from issuance
    decided = _decide(people, appeal, village)
    permit.refresh_from_db()
    assert (permit.status, permit.expires_on) == ("active", last_day)
    assert not permit.extensions.exists()
    assert f"The permit is again in force through {last_day:%B %-d, %Y}" in _text(decided, village)
    timeline = case_timeline(appeal.case, at("2026-07-21")).to_json()
    assert timeline["permit"]["status"] == "in_force"
    assert timeline["permit"]["expires"] == last_day.isoformat()


def test_a_permit_whose_period_ended_while_revoked_is_restored_expired(
    people: People,
) -> None:
    # filed January 5, the period ended in July while the permit stood revoked; a
    # reversal that says nothing about the period does not revive it, and the decision
    # says that further work needs a new permit.
    permit, appeal = _revoked(people, NEW_GLARUS, filed="2026-01-05")
    last_day = permit.issued_on + 180 * DAY
    assert datetime.date(2026, 7, 6) <= last_day < datetime.date(2026, 7, 20)
    decided = _decide(people, appeal, NEW_GLARUS)
    permit.refresh_from_db()
    assert permit.expires_on == last_day
    assert permit.expired_on(datetime.date(2026, 7, 21))
    text = _text(decided, NEW_GLARUS)
    assert f"The permit's period ended on {last_day:%B %-d, %Y}" in text
    assert "further work needs a new permit" in text
    assert "again in force" not in text
    # The authority may not extend a period that has ended (§ 135-7G "may extend the
    # period"; decision 32), restored or not.
    with pytest.raises(ActionRefused) as refused:
        ps.permit_extend(
            permit=permit, staff=people.staff[NEW_GLARUS], days=30, on=datetime.date(2026, 7, 22)
        )
    assert "the permit expired" in str(refused.value)


def test_the_board_sets_a_new_last_day_for_a_permit_whose_period_ended(
    people: People,
) -> None:
    # R-2 with R-3a: the board, deciding with the Village Administrator's powers, restores
    # the permit through October 31: an extension of the period, counted from its last day.
    permit, appeal = _revoked(people, NEW_GLARUS, filed="2026-01-05")
    last_day = permit.issued_on + 180 * DAY
    first_document = Document.objects.get(
        application_id=permit.application_id, kind=DocumentKind.PERMIT
    )
    new_last_day = datetime.date(2026, 10, 31)
    decided = _decide(people, appeal, NEW_GLARUS, restored_until=new_last_day)
    permit.refresh_from_db()
    assert (permit.status, permit.expires_on) == ("active", new_last_day)
    extension = PermitExtension.objects.get(permit=permit)
    assert (extension.days, extension.expires_before, extension.expires_after) == (
        (new_last_day - last_day).days,
        last_day,
        new_last_day,
    )
    assert extension.on_appeal == decided.number
    # Granted by the board's vote, which its chair recorded.
    assert extension.granted_by == seat_board(NEW_GLARUS).chair
    event = TimelineEvent.objects.get(application_id=permit.application_id, type="permit_extended")
    assert event.fields == {"days": (new_last_day - last_day).days, "by": "appeals_board"}
    timeline = case_timeline(appeal.case, at("2026-07-21")).to_json()
    assert timeline["permit"]["status"] == "in_force"
    assert timeline["permit"]["expires"] == "2026-10-31"
    assert timeline["permit"]["extensions"][0]["by"] == "appeals_board"
    text = _text(decided, NEW_GLARUS)
    assert "extends its period by" in text
    assert "now valid through October 31, 2026 [§ 135-7G; § 135-12" in text
    # The extension letter is the board's, and a new permit document replaces the old.
    letter = Document.objects.get(
        application_id=permit.application_id, kind=DocumentKind.EXTENSION_LETTER
    )
    words = " ".join(
        extension_lines(ordinance=load(NEW_GLARUS), extension=extension)  # the letter's words
    )
    assert (
        f"The Zoning Board of Appeals, deciding appeal {decided.number}, restores this permit "
        f"and extends it by {extension.days} days [§ 135-7G; § 135-12" in words
    )
    assert words.endswith("Zoning Board of Appeals, Village of New Glarus")
    assert letter.original_name.startswith("extension-")
    first_document.refresh_from_db()
    assert first_document.superseded_by is not None


@pytest.mark.parametrize(("days", "accepted"), [(180, True), (181, False)])
def test_the_board_extends_by_at_most_what_the_authority_could(
    people: People, days: int, accepted: bool
) -> None:
    # R-3b: "for up to an additional 180 days" at a time (gap extension-total): 180 days
    # after the permit's last day is the latest; one day more needs a variance.
    permit, appeal = _revoked(people, SPENCER, filed="2026-01-05")
    last_day = permit.expires_on
    until = last_day + days * DAY
    if accepted:
        _decide(people, appeal, SPENCER, restored_until=until)
        permit.refresh_from_db()
        assert permit.expires_on == until
        return
    with pytest.raises(ActionRefused) as refused:
        _decide(people, appeal, SPENCER, restored_until=until)
    assert refused.value.field == "restored_until"
    message = str(refused.value)
    assert f"the latest is {last_day + 180 * DAY:%B %-d, %Y}" in message
    assert "§ 413-8E(1)" in message and "variance" in message
    # Nothing was written: the permit stands revoked and the appeal undecided.
    permit.refresh_from_db()
    appeal.refresh_from_db()
    assert (permit.status, permit.expires_on, appeal.status) == ("revoked", last_day, "scheduled")
    assert not TimelineEvent.objects.filter(
        application_id=permit.application_id, type="order_retracted"
    ).exists()


@pytest.mark.parametrize(
    ("until", "accepted"),
    [("2026-07-19", False), ("2026-07-20", True)],  # the decision is on July 20
)
def test_a_last_day_before_the_decision_is_refused(
    people: People, until: str, accepted: bool
) -> None:
    # R-4a: a permit restored "through" a day already past restores nothing.
    permit, appeal = _revoked(people, NEW_GLARUS, filed="2026-01-05")
    assert permit.expires_on < datetime.date(2026, 7, 19)
    day = datetime.date.fromisoformat(until)
    if accepted:
        _decide(people, appeal, NEW_GLARUS, restored_until=day)
        permit.refresh_from_db()
        assert permit.expires_on == day
        return
    with pytest.raises(ActionRefused) as refused:
        _decide(people, appeal, NEW_GLARUS, restored_until=day)
    assert refused.value.field == "restored_until"
    assert "cannot come before the decision (July 20, 2026)" in str(refused.value)


def test_a_last_day_not_after_the_permits_own_is_refused(people: People) -> None:
    # R-4b: the permit runs to its last day already; a day on or before it would shorten
    # the period, which no one may do by extending. (The reader would read it, with doubt,
    # as affirming the revocation in part; the program asks the board to say so instead.)
    permit, appeal = _revoked(people, NEW_GLARUS, filed="2026-06-01")
    for day in (permit.expires_on, permit.expires_on - 30 * DAY):
        with pytest.raises(ActionRefused) as refused:
            _decide(people, appeal, NEW_GLARUS, restored_until=day)
        assert refused.value.field == "restored_until"
        assert f"already runs through {permit.expires_on:%B %-d, %Y}" in str(refused.value)
    _decide(people, appeal, NEW_GLARUS, restored_until=permit.expires_on + DAY)
    permit.refresh_from_db()
    assert permit.extensions.get().days == 1


@pytest.mark.parametrize(
    ("decision", "kwargs"),
    [
        ("affirm", {}),
        ("modify", {"modification": "Revocation stands until the fence is up."}),
    ],
)
def test_only_a_decision_that_restores_the_permit_sets_its_period(
    people: People, decision: str, kwargs: dict[str, Any]
) -> None:
    # an affirmed revocation (or a modification that does not lift it) leaves the
    # permit revoked, and no last day can be set.
    permit, appeal = _revoked(people, SPENCER, filed="2026-06-01")
    with pytest.raises(ActionRefused) as refused:
        _decide(
            people,
            appeal,
            SPENCER,
            decision=decision,
            restored_until=permit.expires_on + 10 * DAY,
            **kwargs,
        )
    assert refused.value.field == "restored_until"
    permit.refresh_from_db()
    assert permit.status == "revoked"


def test_the_authority_extends_again_from_the_boards_last_day(people: People) -> None:
    # after the board's 30 days, the Building Inspector extends by 60 more, counted
    # from the board's last day.
    permit, appeal = _revoked(people, SPENCER, filed="2026-06-01")
    last_day = permit.expires_on
    _decide(people, appeal, SPENCER, restored_until=last_day + 30 * DAY)
    permit.refresh_from_db()
    ps.permit_extend(permit=permit, staff=people.staff[SPENCER], days=60, on=last_day + 20 * DAY)
    permit.refresh_from_db()
    assert permit.expires_on == last_day + 90 * DAY
    assert [e.on_appeal != "" for e in permit.extensions.all()] == [True, False]


ISSUED = {"type": "permit_issued", "at": "2026-01-07"}
REVOKED = {"type": "permit_revoked", "at": "2026-07-03"}


def _timeline(events: list[dict[str, Any]]) -> dict[str, Any]:
    as_of = datetime.datetime.fromisoformat("2026-07-21T12:00:00-05:00")
    return compute(load(NEW_GLARUS), events, as_of=as_of).to_json()


def test_the_core_takes_the_boards_extension_only_with_its_restoration() -> None:
    # Issued January 7: the 180 days end July 6 (§ 135-7G).
    retracted = {
        "type": "order_retracted",
        "at": "2026-07-20T20:00:00-05:00",
        "order": "revocation",
        "by": "appeals_board",
    }
    extended = {
        "type": "permit_extended",
        "at": "2026-07-20T20:00:00-05:00",
        "days": 117,
        "by": "appeals_board",
    }
    timeline = _timeline([ISSUED, REVOKED, retracted, extended])
    assert timeline["permit"]["expires"] == "2026-10-31"  # July 6 + 117 days
    assert timeline["permit"]["status"] == "in_force"
    # Without the board's retraction at that moment, the board has no permit to extend.
    with pytest.raises(SiltfenceError) as refused:
        _timeline([ISSUED, REVOKED, extended])
    assert refused.value.field == "events[2].by"
    # The authority may not extend a period that has ended (decision 32).
    by_authority = {k: v for k, v in extended.items() if k != "by"}
    with pytest.raises(SiltfenceError) as refused:
        _timeline([ISSUED, REVOKED, retracted, by_authority])
    assert "the permit expired: its last day was 2026-07-06" in str(refused.value)


def _board_client(people: People, village: str, appeal: Any) -> tuple[Client, dict[str, str]]:
    """The board's chair, signed in, after the roll of the appeal's hearing (every member
    present): the client, and a vote for the motion from each member sitting."""
    board = seat_board(village)
    appeal.refresh_from_db()
    sitting = h.hearing_record(
        appeal=appeal,
        user=board.chair,
        roll=roll_all_present(appeal, board, Alt1="absent", Alt2="absent"),
    )
    client = Client()
    client.force_login(board.chair, backend=ModelBackend)
    votes = {f"vote_{line.person_id}": "for" for line in sitting.roll.all() if line.seated}
    return client, votes


def test_the_decision_form_asks_for_a_new_last_day_only_on_a_revocation(
    people: People,
) -> None:
    permit, appeal = _revoked(people, NEW_GLARUS, filed="2026-01-05")
    board, votes = _board_client(people, NEW_GLARUS, appeal)
    page = board.get(reverse("appeals:detail", args=[appeal.pk])).content.decode()
    assert "New last day of the restored permit" in page
    assert f"runs through {permit.expires_on:%B %-d, %Y}" in page
    response = board.post(
        reverse("appeals:vote", args=[appeal.pk]),
        {
            "kind": "reverse",
            "reasons": "The fence was repaired on July 9.",
            "voted_at": "2026-07-20T20:00",
            "restored_until": "2026-10-31",
            **votes,
        },
        follow=True,
    )
    assert [str(m) for m in response.context["messages"]] == [
        "The motion to reverse carries: 5 for, 0 against; it needed 4 concurring votes (4) "
        "[§ 135-12A(3); § 62.23(7)(e) Wis. Stats.]. The decision is recorded, and the written "
        "decision made."
    ]
    permit.refresh_from_db()
    assert (permit.status, permit.expires_on) == ("active", datetime.date(2026, 10, 31))
    # The permit's page lists the board's extension.
    staff = Client()
    staff.force_login(people.staff[NEW_GLARUS], backend=ModelBackend)
    page = staff.get(reverse("web:permit", args=[permit.pk])).content.decode()
    assert f"set by the Zoning Board of Appeals on appeal {appeal.number}" in page
    # A stop-work order's appeal has no period to set.
    other_permit, other = _revoked(people, SPENCER, filed="2026-06-01")
    order = other.action.case.actions.get(kind="stop_work_order")
    order_appeal = a.appeal_file(
        village=other_permit.village,
        filed_by=people.applicant_a,
        on=datetime.date(2026, 7, 7),
        appellant_name="Alex Schmid",
        standing="permittee",
        grounds="The fence was up.",
        action=order,
    )
    a.appeal_hearing_schedule(
        appeal=order_appeal,
        user=people.staff[SPENCER],
        hearing_at=at("2026-07-20", 19),
        notice_given_on=datetime.date(2026, 7, 15),
        notice_to="Alex Schmid",
    )
    chair, _ = _board_client(people, SPENCER, order_appeal)
    page = chair.get(reverse("appeals:detail", args=[order_appeal.pk])).content.decode()
    assert "Record a motion and the votes" in page
    assert "New last day of the restored permit" not in page


UNTIL = st.one_of(
    st.text(max_size=40),
    st.dates(datetime.date(2026, 7, 1), datetime.date(2027, 6, 30)).map(str),
    st.sampled_from(["2026-13-01", "2026-10-31 ", "10/31/2026", "9" * 300, "\x00", "-1"]),
)
LABELS = {"New last day of the restored permit, if the board sets one"}


def test_the_new_last_day_refuses_hostile_input_by_its_label(people: People) -> None:
    # Whatever is typed: a decision with the permit through that day, or a refusal that
    # names the field, with the appeal still undecided and the permit revoked. Each example
    # is undone, so that the next meets the same undecided appeal.
    permit, appeal = _revoked(people, NEW_GLARUS, filed="2026-01-05")
    board, votes = _board_client(people, NEW_GLARUS, appeal)

    @settings(
        max_examples=30,
        deadline=datetime.timedelta(seconds=3),
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(until=UNTIL)
    def example(until: str) -> None:
        with transaction.atomic():
            response = board.post(
                reverse("appeals:vote", args=[appeal.pk]),
                {
                    "kind": "reverse",
                    "reasons": "Repaired.",
                    "voted_at": "2026-07-20T20:00",
                    "restored_until": until,
                    **votes,
                },
                follow=True,
            )
            assert response.status_code in (200, 400)
            shown = [str(m) for m in response.context["messages"]]
            assert len(shown) == 1, shown
            permit.refresh_from_db()
            appeal.refresh_from_db()
            if shown[0].startswith("The motion to reverse carries"):
                # Left empty, the period stays as it was.
                kept = datetime.date(2026, 1, 7) + 180 * DAY
                # (A form trims the spaces around what is typed.)
                expected = datetime.date.fromisoformat(until.strip()) if until.strip() else kept
                assert (permit.status, permit.expires_on) == ("active", expected)
            else:
                assert shown[0].split(":", 1)[0] in LABELS, shown[0]
                assert (permit.status, appeal.status) == ("revoked", "scheduled")
            transaction.set_rollback(True)

    example()
