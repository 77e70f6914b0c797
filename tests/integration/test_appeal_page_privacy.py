"""An internal note on an enforcement step ("Internal note (not shown publicly)") and the
letters to the village's attorney are the village officials' alone, on the appeal's page as
on the case's: the permittee who appeals the step reads neither, on any page, document or
feed they can reach; the village's staff and inspectors read both; the appeals board, which
decides on the record both sides see, reads neither (issue 18, 3.7; decision 47).

The record, in New Glarus: a permit issued June 3, 2026; a violation of its conditions
found July 1 and a stop-work order posted that day with an internal note; grading found
going on July 3, after the order; the Village Attorney asked for a cease-and-desist order
July 6 (§ 135-11C), with a note to the attorney in the letter. The permittee appeals the
stop-work order July 7; the board hears it July 14 and affirms it.
"""

from __future__ import annotations

import datetime
import re
from collections import deque
from typing import Any

import pytest
from board_helpers import board_decides, seat_board
from django.core.files.base import ContentFile
from django.test import Client
from django.urls import reverse
from enforcement_helpers import at
from factories import NEW_GLARUS, ModelBackend, People
from season_helpers import pdf_text
from sitework import local, permit_issued

from siltfence.apps.appeals import services as a
from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement.models import EnforcementDocument
from siltfence.apps.reminders.services import calendar_feed_create

pytestmark = pytest.mark.django_db

NOTE = "Owner argued with the inspector on site; Village Attorney already aware."
LETTER_NOTE = "The contractor told the Administrator he will not stop until a court says so."
LETTER_TITLE = "REQUEST FOR A CEASE-AND-DESIST ORDER"
# Where the permittee's links are followed: the appeal, the case and its documents, the
# permittee's portal and permit.
FOLLOWED = re.compile(r"^/(appeals|enforcement|portal|permits|reminders)/")


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user, backend=ModelBackend)
    return client


def _text(response: Any) -> str:
    content = (
        b"".join(response.streaming_content) if response.streaming else bytes(response.content)
    )
    if content.startswith(b"%PDF"):
        return pdf_text(ContentFile(content))
    return content.decode("utf-8", errors="replace")


def _violation(people: People, permit: Any, day: str, description: str) -> Any:
    return s.violation_record(
        village=permit.village,
        recorded_by=people.staff[NEW_GLARUS],
        source="observation",
        description=description,
        provision="§ 135-11",
        days_from=datetime.date.fromisoformat(day),
        days_to=datetime.date.fromisoformat(day),
        at=at(day, 9),
        permit=permit,
    )


@pytest.fixture
def record(people: People) -> dict[str, Any]:
    staff = people.staff[NEW_GLARUS]
    permit = permit_issued(
        applicant=people.applicant_a,
        staff=staff,
        village=NEW_GLARUS,
        filed=local(2026, 6, 1, 9),
        approved=local(2026, 6, 3, 9),
    )
    case = _violation(people, permit, "2026-07-01", "Storm inlet on Park St not protected.").case
    order = s.stop_work_order_post(
        case=case,
        staff=staff,
        at=at("2026-07-01", 10),
        grounds=["conditions-not-met"],
        note=NOTE,
    )
    _violation(people, permit, "2026-07-03", "Grading going on after the order was posted.")
    s.cease_and_desist_refer(case=case, staff=staff, at=at("2026-07-06", 9), note=LETTER_NOTE)
    letter = EnforcementDocument.objects.get(case=case, kind="cease_and_desist_referral")
    appeal = a.appeal_file(
        village=case.village,
        filed_by=people.applicant_a,
        on=datetime.date(2026, 7, 7),
        appellant_name="Alex Schmid",
        standing="aggrieved_person",
        grounds="The inlet was protected the same morning.",
        action=order,
    )
    a.appeal_hearing_schedule(
        appeal=appeal,
        user=staff,
        hearing_at=at("2026-07-14", 18),
        notice_given_on=datetime.date(2026, 7, 8),
        notice_to="Alex Schmid; the Village Administrator",
        place="Village Hall, 319 2nd St",
    )
    decided = board_decides(
        appeal,
        at=at("2026-07-14", 19),
        decision="affirm",
        reasons="The inlet had no protection when the order was posted.",
    )
    assert decided.status == "decided" and decided.decision_document
    return {"case": case, "order": order, "letter": letter, "appeal": decided, "permit": permit}


def _reachable(client: Client, starts: list[str]) -> dict[str, str]:
    """Every page, document and feed the client reaches from ``starts`` by following
    links (GET only), with its words (a PDF's as laid out)."""
    seen: dict[str, str] = {}
    queue = deque(starts)
    while queue and len(seen) < 120:
        path = queue.popleft()
        if path in seen:
            continue
        response = client.get(path)
        seen[path] = _text(response) if response.status_code == 200 else ""
        if response.status_code != 200 or response.get("Content-Type", "").startswith(
            "application/pdf"
        ):
            continue
        for href in re.findall(r'href="([^"#?]+)', seen[path]):
            if FOLLOWED.match(href) and href not in seen and "logout" not in href:
                queue.append(href)
    return seen


def test_the_permittee_reaches_neither_the_internal_note_nor_the_attorney_letter(
    people: People, record: dict[str, Any]
) -> None:
    permittee = _client(people.applicant_a)
    appeal, case, letter = record["appeal"], record["case"], record["letter"]
    letter_url = reverse("enforcement:document", args=[letter.pk])
    feed = calendar_feed_create(user=people.applicant_a, permit=record["permit"])
    starts = [
        reverse("appeals:detail", args=[appeal.pk]),
        reverse("enforcement:case", args=[case.pk]),
        reverse("web:portal"),
        reverse("web:portal-application", args=[case.application_id]),
    ]
    reached = _reachable(permittee, starts)
    # Public feeds and lists, and the permittee's own calendar of duties.
    for path in (
        reverse("register:feed"),
        reverse("register:register"),
        reverse("register:geojson"),
        reverse("reminders:feed", args=[feed.token]),
    ):
        response = permittee.get(path)
        assert response.status_code == 200, path
        reached[path] = _text(response)
    response = permittee.get(reverse("register:csv"))
    reached["csv"] = b"".join(response.streaming_content).decode()

    # What was reached is the record: the appeal and the case, the order's placard and
    # the board's decision and hearing notice.
    placard = EnforcementDocument.objects.get(case=case, kind="stop_work_placard")
    for path in (
        *starts,
        reverse("enforcement:document", args=[placard.pk]),
        reverse("appeals:document", args=[appeal.pk]),
        reverse("appeals:notice", args=[appeal.pk]),
    ):
        assert reached.get(path), f"{path} was not reached"
    assert "Stop-work order" in reached[starts[0]] and "Affirmed" in reached[starts[0]]
    assert "Cease-and-desist referral" in reached[starts[1]]  # the step, not its letter

    for path, text in reached.items():
        assert NOTE not in text, path
        assert LETTER_NOTE not in text, path
        assert LETTER_TITLE not in text, path
        assert letter_url not in text, path
        assert letter.name not in text, path
    # Nor is the letter served to the permittee who knows its address.
    assert letter_url not in reached
    assert permittee.get(letter_url).status_code == 404


def test_the_villages_staff_read_the_note_and_the_letter_and_the_board_does_not(
    people: People, record: dict[str, Any]
) -> None:
    """The board hears the appeal on the record both sides see: an internal note or a letter
    to the attorney that the appellant cannot read is not before it (decision 47)."""
    appeal, case, letter = record["appeal"], record["case"], record["letter"]
    letter_url = reverse("enforcement:document", args=[letter.pk])
    board = seat_board(NEW_GLARUS)
    for who, person in {
        "board member": people.board[NEW_GLARUS],
        "board chair": board.chair,
        "alternate": board["Alt1"],
    }.items():
        client = _client(person)
        for page in (
            reverse("appeals:detail", args=[appeal.pk]),
            reverse("enforcement:case", args=[case.pk]),
        ):
            response = client.get(page)
            assert response.status_code == 200, (who, page)
            text = _text(response)
            assert NOTE not in text, (who, page)
            assert letter_url not in text, (who, page)
        assert client.get(letter_url).status_code == 404, who
    officials = {
        "staff": people.staff[NEW_GLARUS],
        "inspector": people.inspector[NEW_GLARUS],
    }
    for who, person in officials.items():
        client = _client(person)
        for page in (
            reverse("appeals:detail", args=[appeal.pk]),
            reverse("enforcement:case", args=[case.pk]),
        ):
            text = _text(client.get(page))
            assert f"Note: {NOTE}" in text, (who, page)
            assert f'href="{letter_url}"' in text, (who, page)
        opened = client.get(letter_url)
        assert opened.status_code == 200, who
        words = _text(opened)
        assert LETTER_TITLE in words and LETTER_NOTE in words, who
    # A village's officials are only that village's: Spencer's staff reach nothing of it.
    other = _client(people.staff["spencer-wi"])
    assert other.get(reverse("appeals:detail", args=[appeal.pk])).status_code == 404
    assert other.get(letter_url).status_code == 404
