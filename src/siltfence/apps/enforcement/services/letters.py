"""The village's own words on its letters to the parties (decision 55): an opening and a
closing, added around what the letter must say. Nothing the chapter requires can be edited
out, because the wording is only ever added."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from siltfence.apps.audit.chain import event_record
from siltfence.apps.enforcement import errors
from siltfence.apps.enforcement.errors import ActionRefused
from siltfence.apps.enforcement.services.common import clean_text
from siltfence.apps.permits.models import Village
from siltfence.apps.permits.services.common import require_staff, village_ordinance

# The letters that go to the parties (the letters to the attorney are the village's own).
PARTY_LETTERS = (
    "warning_letter",
    "stop_work_placard",
    "revocation",
    "retraction",
    "notice_to_cease",
    "notice_of_intent",
    "invoice",
    "tax_roll_certification",
)
MAX_WORDING = 1000
MAX_WORDING_LINES = 12


def _wording_read(value: Any, field: str) -> str:
    text = clean_text(str(value or ""), field, MAX_WORDING).replace("\r\n", "\n")
    if text.count("\n") >= MAX_WORDING_LINES:
        raise ActionRefused(
            errors.WORDING_LINES.format(field=field, limit=MAX_WORDING_LINES), field=field
        )
    return text


def letter_wording_set(
    *, village: Village, staff: Any, kind: str, opening: Any = "", closing: Any = ""
) -> Any:
    """Set the village's opening and closing words of one kind of letter (empty: none). The
    letters made after it carry them; those already made are kept as they were."""
    from siltfence.apps.enforcement.models import LetterWording

    ordinance = village_ordinance(village)
    require_staff(staff, village, ordinance)
    if kind not in PARTY_LETTERS:
        raise ActionRefused(errors.LETTER_KIND.format(kinds=", ".join(PARTY_LETTERS)), field="kind")
    opening = _wording_read(opening, "opening")
    closing = _wording_read(closing, "closing")
    with transaction.atomic():
        before = LetterWording.objects.filter(village=village, kind=kind).first()
        wording, _ = LetterWording.objects.update_or_create(
            village=village,
            kind=kind,
            defaults={"opening": opening, "closing": closing, "updated_at": timezone.now()},
        )
        event_record(
            actor=staff,
            entity="village",
            entity_id=0,
            action="letter_wording_set",
            village=village.id,
            before={"kind": kind, "opening": before.opening, "closing": before.closing}
            if before
            else None,
            after={"kind": kind, "opening": opening, "closing": closing},
        )
    return wording


def worded(lines: list[str], village_id: str, kind: str) -> list[str]:
    """``lines`` of a letter with the village's words added: the opening after the heading
    (its first six lines, ``documents._head``), the closing before the signature (its last
    line). Every line of the letter is kept, in order."""
    from siltfence.apps.enforcement.models import LetterWording

    wording = LetterWording.objects.filter(village_id=village_id, kind=kind).first()
    if wording is None or kind not in PARTY_LETTERS:
        return lines
    head, body, signature = lines[:6], lines[6:-1], lines[-1:]
    opening = [*wording.opening.split("\n"), ""] if wording.opening else []
    closing = [*wording.closing.split("\n"), ""] if wording.closing else []
    return [*head, *opening, *body, *closing, *signature]
