"""A warning letter before a stop-work order: available to the village, not required by
either chapter, and said to be so.

Worked by an independent reading of § 413-10A and § 135-11A ("may post a stop-work order
if" one of three grounds): neither asks for any warning or notice before the order. So the
letter must say it is not required, that the order may be posted on those grounds without
it, give no time before an order, and count for no step. In New Glarus, where no permit was
issued, it is not the notice of § 135-11C ("does not cease the activity after being
notified"): only the notice to cease opens the cease-and-desist referral.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from enforcement_helpers import at, spencer_case_with_a_violation
from factories import NEW_GLARUS, SPENCER, People

from siltfence.apps.enforcement import errors
from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement.documents import warning_letter_lines
from siltfence.apps.enforcement.models import EnforcementAction, EnforcementDocument
from siltfence.apps.enforcement.services import ActionRefused
from siltfence.apps.outbox.models import Message
from siltfence.core.ordinance.loader import load

pytestmark = pytest.mark.django_db


@pytest.fixture
def spencer_case(people: People) -> Any:
    return spencer_case_with_a_violation(people)


def _letter(case: Any) -> list[str]:
    action = EnforcementAction.objects.get(case=case, kind="warning_letter")
    return warning_letter_lines(ordinance=load(case.village_id), case=case, action=action)


def test_staff_write_a_spencer_warning_letter_that_says_it_is_not_required(
    people: People, spencer_case: Any
) -> None:
    client = Client()
    client.force_login(people.staff[SPENCER])
    done = client.post(
        reverse("enforcement:case-step", args=[spencer_case.pk, "warning-letter"]),
        {"at": "2026-07-01T11:00", "text": "Put inlet protection on the Park St inlet."},
        follow=True,
    )
    assert "Warning letter written." in done.content.decode()
    action = EnforcementAction.objects.get(case=spencer_case, kind="warning_letter")
    assert (action.public, action.citation) == (False, "§ 413-10A")
    assert EnforcementDocument.objects.filter(action=action, kind="warning_letter").count() == 1
    lines = _letter(spencer_case)
    assert "WARNING LETTER" in lines
    assert "THIS LETTER IS NOT REQUIRED BY CHAPTER 413." in lines
    assert (
        "The Building Inspector may post a stop-work order without this letter or any other "
        "notice before it [§ 413-10A], if:" in lines
    )
    assert "- The conditions of the permit are not being met" in lines
    assert (
        "This letter gives no time before an order may be posted, and no step of the chapter "
        "counts from it." in lines
    )
    assert "- Since July 1, 2026: No inlet protection on the street inlet. [§ 413-7B(4)]" in lines
    assert "Put inlet protection on the Park St inlet." in lines
    text = "\n".join(lines)
    assert "[§ 413-10E]. Putting it right does not cancel days that have passed." in text
    for promise in ("will be posted", "days to comply", "final notice", "notice to cease"):
        assert promise not in text.lower()
    # The parties are told; the public register does not show it.
    (told,) = Message.objects.filter(
        to_address=people.applicant_a.email, kind="warning_letter_send"
    )
    assert told.subject == "Warning letter about 12 Park St, Spencer"
    register = b"".join(Client().get(reverse("register:csv")).streaming_content).decode()
    assert "arning" not in register


def test_no_warning_letter_once_an_order_is_posted_nor_by_an_inspector_nor_with_nothing_open(
    people: People, spencer_case: Any
) -> None:
    with pytest.raises(ActionRefused) as refused:
        s.warning_letter_send(
            case=spencer_case, staff=people.inspector[SPENCER], at=at("2026-07-01", 10)
        )
    assert "Building Inspector" in str(refused.value)  # only the authority writes it
    s.stop_work_order_post(
        case=spencer_case,
        staff=people.staff[SPENCER],
        at=at("2026-07-01", 10, 30),
        grounds=["conditions-not-met"],
    )
    with pytest.raises(ActionRefused) as refused:
        s.warning_letter_send(
            case=spencer_case, staff=people.staff[SPENCER], at=at("2026-07-01", 11)
        )
    assert str(refused.value) == errors.WARNING_AFTER_ORDER
    assert not EnforcementAction.objects.filter(kind="warning_letter").exists()


def test_a_case_with_no_violation_open_has_nothing_to_warn_of(
    people: People, spencer_case: Any
) -> None:
    s.violation_end(
        violation=spencer_case.violations.get(),
        staff=people.staff[SPENCER],
        days_to=datetime.date(2026, 7, 1),
        at=at("2026-07-01", 17),
    )
    with pytest.raises(ActionRefused) as refused:
        s.warning_letter_send(case=spencer_case, staff=people.staff[SPENCER], at=at("2026-07-02"))
    assert str(refused.value) == errors.WARNING_NOTHING_OPEN


def test_a_new_glarus_warning_letter_is_not_the_notice_to_cease(
    people: People, villages: Any
) -> None:
    staff = people.staff[NEW_GLARUS]
    case = s.violation_record(
        village=villages[NEW_GLARUS],
        recorded_by=staff,
        source="observation",
        description="Grading with no permit.",
        provision="§ 135-6",
        days_from=datetime.date(2026, 7, 1),
        at=at("2026-07-01"),
        address="9 Railroad St, New Glarus",
    ).case
    s.warning_letter_send(case=case, staff=staff, at=at("2026-07-01", 13), asks="Stop grading.")
    lines = _letter(case)
    assert "THIS LETTER IS NOT REQUIRED BY CHAPTER 135." in lines
    assert (
        "This letter is not the notice to cease of § 135-11C; that notice, where it applies, "
        "is given separately." in lines
    )
    assert any(
        line.endswith("[§ 135-11F]. Putting it right does not cancel days that have passed.")
        for line in lines
    )
    s.violation_record(
        village=villages[NEW_GLARUS],
        recorded_by=staff,
        source="observation",
        description="Grading went on the next day.",
        provision="§ 135-6",
        days_from=datetime.date(2026, 7, 2),
        at=at("2026-07-02"),
        address="9 Railroad St, New Glarus",
    )
    # Grading went on after the letter, but no one was "notified" under § 135-11C.
    with pytest.raises(ActionRefused, match="not open in this case"):
        s.cease_and_desist_refer(case=case, staff=staff, at=at("2026-07-02", 14))
