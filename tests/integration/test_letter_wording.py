"""A village's own words on its letters to the parties: an opening after the heading and a
closing before the signature, set by its staff. What the chapter requires is written by
the letter itself, so no wording can remove it: every line of the letter made without the
village's words is in the letter made with them, in the same order."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from enforcement_helpers import at, spencer_case_with_a_violation
from factories import NEW_GLARUS, SPENCER, People
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from season_helpers import pdf_text

from siltfence.apps.audit.models import AuditEvent
from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement.documents import lines_for
from siltfence.apps.enforcement.errors import ActionRefused
from siltfence.apps.enforcement.models import LetterWording
from siltfence.apps.permits.models import Village

pytestmark = pytest.mark.django_db
OPENING = "Dear neighbour,\nThe village asks your help to keep Mill Creek clean."
CLOSING = "Questions? The Building Inspector is in on weekdays, 8 a.m. to noon."


@pytest.fixture
def order(people: People) -> Any:
    case = spencer_case_with_a_violation(people)
    return s.stop_work_order_post(
        case=case,
        staff=people.staff[SPENCER],
        at=at("2026-07-01", 10),
        grounds=["conditions-not-met"],
    )


def _in_order(part: list[str], whole: list[str]) -> bool:
    """Every line of ``part`` appears in ``whole``, in the same order."""
    rest = iter(whole)
    return all(any(line == other for other in rest) for line in part)


def test_the_words_go_around_the_letter_and_every_line_the_chapter_needs_stays(
    people: People, order: Any
) -> None:
    plain = lines_for(case=order.case, action=order, kind="stop_work_placard")
    client = Client()
    client.force_login(people.staff[SPENCER])
    saved = client.post(
        reverse("enforcement:village", args=[SPENCER]),
        {"setting": "letters", "kind": "stop_work_placard", "opening": OPENING, "closing": CLOSING},
        follow=True,
    )
    assert "the letters made from now carry them" in saved.content.decode()
    assert "Stop-work order" in saved.content.decode()  # listed by its title
    made = s.worded(plain, SPENCER, "stop_work_placard")
    # The heading, then the opening, ..., the closing, then the signature.
    assert made[:6] == plain[:6]
    assert made[6:9] == [*OPENING.split("\n"), ""]
    assert made[-3:] == [CLOSING, "", plain[-1]]
    assert _in_order(plain, made) and len(made) == len(plain) + 5
    assert "§ 413-10A" in "\n".join(made)
    event = AuditEvent.objects.get(action="letter_wording_set")
    assert (event.after["kind"], event.after["closing"]) == ("stop_work_placard", CLOSING)
    # Only Spencer's letters carry Spencer's words.
    assert s.worded(plain, NEW_GLARUS, "stop_work_placard") == plain


def test_a_placard_posted_after_the_words_were_set_carries_them(people: People, order: Any) -> None:
    staff = people.staff[SPENCER]
    s.letter_wording_set(
        village=Village.objects.get(pk=SPENCER), staff=staff, kind="retraction", closing=CLOSING
    )
    retraction = s.order_retract(
        case=order.case, staff=staff, at=at("2026-07-02"), order="stop_work_order", reason="Fixed"
    )
    document = retraction.documents.get()
    assert document.kind == "retraction"
    # The PDF itself carries the closing, and the placard made before the words does not.
    assert CLOSING in pdf_text(document.file)
    assert "weekdays" not in pdf_text(order.documents.get().file)


def test_wording_is_refused_by_field_and_only_staff_set_it(people: People) -> None:
    spencer = Village.objects.get(pk=SPENCER)
    staff = people.staff[SPENCER]
    cases = [
        ({"kind": "attorney_letter"}, "kind"),
        ({"kind": "invoice", "opening": "x" * 1001}, "opening"),
        ({"kind": "invoice", "closing": "line\n" * 13}, "closing"),
        ({"kind": "invoice", "closing": "bell\x07"}, "closing"),
    ]
    for terms, field in cases:
        with pytest.raises(ActionRefused) as refused:
            s.letter_wording_set(village=spencer, staff=staff, **terms)
        assert refused.value.field == field
    with pytest.raises(ActionRefused):
        s.letter_wording_set(
            village=spencer, staff=people.inspector[SPENCER], kind="invoice", closing="Hi"
        )
    with pytest.raises(ActionRefused):
        s.letter_wording_set(
            village=spencer, staff=people.staff[NEW_GLARUS], kind="invoice", closing="Hi"
        )
    assert not LetterWording.objects.exists()
    # 1,000 characters and 12 lines are taken.
    s.letter_wording_set(village=spencer, staff=staff, kind="invoice", opening="y" * 1000)
    s.letter_wording_set(village=spencer, staff=staff, kind="invoice", closing="z\n" * 11 + "z")


def _kept(typed: str, limit: int) -> str | None:
    """What the form and the service keep of ``typed`` (worked out here from the rules the
    page states), or None where it is refused: trimmed, at most ``limit`` characters and 12
    lines, no control character but line breaks and tabs."""
    value = typed.strip()
    if len(value) > limit or any(ord(c) < 32 and c not in "\n\t\r" for c in value):
        return None
    value = value.replace("\r\n", "\n")
    return None if value.count("\n") >= 12 else value


@settings(
    max_examples=40,
    deadline=2000,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    opening=st.text(max_size=1100) | st.text(alphabet="ab\r\n ", max_size=40),
    closing=st.text(max_size=200),
)
def test_any_words_posted_are_kept_as_typed_or_refused_naming_the_field(
    people: People, order: Any, opening: str, closing: str
) -> None:
    client = Client()
    client.force_login(people.staff[SPENCER])
    answer = client.post(
        reverse("enforcement:village", args=[SPENCER]),
        {"setting": "letters", "kind": "invoice", "opening": opening, "closing": closing},
        follow=True,
    )
    assert answer.status_code == 200
    stored = LetterWording.objects.filter(village_id=SPENCER, kind="invoice").first()
    first, last = _kept(opening, 1000), _kept(closing, 1000)
    if first is not None and last is not None:
        assert stored is not None and (stored.opening, stored.closing) == (first, last)
    else:
        assert stored is None
        page = answer.content.decode()
        assert ("Opening words" in page) or ("Closing words" in page)
    LetterWording.objects.all().delete()
