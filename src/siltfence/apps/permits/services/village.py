"""The village's own records: its row for each encoded ordinance, its office's contact, its
office calendar and its fee schedule."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from siltfence.apps.audit.chain import event_record
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.fee_terms import area_read, fee_terms_read
from siltfence.apps.permits.models import FeeSchedule, OfficeClosure, Village
from siltfence.apps.permits.services.common import require_staff, village_ordinance
from siltfence.core.mailing import EMAIL, EMAIL_MAX, PHONE, PHONE_MAX

# What the office's contact may hold: a phone number and an email address as the notices
# print them, and office hours in a line ("Mon-Fri 8 am to 4:30 pm").
HOURS_MAX = 200
_OFFICE_FIELDS = {
    "phone": ("the phone number", PHONE_MAX, PHONE, "written like 715-555-0100"),
    "email": ("the email address", EMAIL_MAX, EMAIL, "written like clerk@example.gov"),
    "hours": ("the office hours", HOURS_MAX, None, ""),
}


def fee_in_force(village: Village | str, on: datetime.date) -> FeeSchedule | None:
    return (
        FeeSchedule.objects.filter(village=village, effective_from__lte=on)
        .order_by("-effective_from")
        .first()
    )


def village_sync(*, years: range | None = None) -> list[Village]:
    """Make a Village for every encoded ordinance, and seed the office calendar of each
    village that counts business days with its state's legal holidays (the state folder's
    holidays.yaml; § 135-13 "business day"). Idempotent: staff edits are kept."""
    from siltfence.core.ordinance.loader import load_all

    villages = []
    span = years or range(timezone.now().year - 1, timezone.now().year + 3)
    with transaction.atomic():
        for ordinance in load_all():
            village, created = Village.objects.get_or_create(
                id=ordinance.id, defaults={"name": ordinance.name}
            )
            villages.append(village)
            if not created:
                continue
            seeded = []
            if ordinance.office_calendar["business_days"]:
                for year in span:
                    for day, name in ordinance.holidays.in_year(year).items():
                        OfficeClosure.objects.get_or_create(
                            village=village, day=day, defaults={"reason": f"{name} (legal holiday)"}
                        )
                seeded = [span.start, span.stop - 1]
            event_record(
                actor=None,
                entity="village",
                entity_id=0,
                action="village_sync",
                village=village.id,
                citation=ordinance.office_calendar["citation"],
                after={"name": ordinance.name, "closures_seeded_for_years": seeded},
            )
    return villages


def village_office_set(
    *, village: Village, staff: Any, phone: str = "", email: str = "", hours: str = ""
) -> Village:
    """The office's phone, email and hours as the village's staff give them, printed on its
    notices, letters and receipts in place of its data's (which may give none, or be out
    of date). An empty one prints the data's again. All three are checked before any is
    written, and the change is on the audit record."""
    ordinance = village_ordinance(village)
    require_staff(staff, village, ordinance)
    given = {"phone": phone, "email": email, "hours": hours}
    after = {}
    for field, (name, limit, pattern, form) in _OFFICE_FIELDS.items():
        text = str(given[field] or "").strip()
        if len(text) > limit:
            raise ActionRefused(f"{field}: {name} may be at most {limit} characters", field=field)
        if any(ord(ch) < 32 or ord(ch) == 127 for ch in text):
            raise ActionRefused(
                f"{field}: {name} may be one line, with no control characters", field=field
            )
        if text and pattern is not None and not pattern.match(text):
            raise ActionRefused(f"{field}: {name} {text!r} is not {form}", field=field)
        after[field] = text
    with transaction.atomic():
        locked = Village.objects.select_for_update().get(pk=village.pk)
        before = {field: getattr(locked, field) for field in after}
        for field, text in after.items():
            setattr(locked, field, text)
        locked.save(update_fields=list(after))
        event_record(
            actor=staff,
            entity="village",
            entity_id=0,
            action="village_office_set",
            village=locked.id,
            # The administering authority whose office the notices come from.
            citation=ordinance.authority["citation"],
            before=before,
            after=after,
        )
    for field, text in after.items():
        setattr(village, field, text)
    return locked


def office_closure_add(
    *, village: Village, staff: Any, day: datetime.date, reason: str
) -> OfficeClosure:
    ordinance = village_ordinance(village)
    require_staff(staff, village, ordinance)
    with transaction.atomic():
        closure, _ = OfficeClosure.objects.get_or_create(
            village=village, day=day, defaults={"reason": reason.strip() or "office closed"}
        )
        event_record(
            actor=staff,
            entity="village",
            entity_id=0,
            action="office_closure_add",
            village=village.id,
            reason=reason.strip(),
            citation=ordinance.office_calendar["citation"],
            after={"day": day},
        )
    return closure


def office_closure_remove(*, village: Village, staff: Any, day: datetime.date) -> None:
    ordinance = village_ordinance(village)
    require_staff(staff, village, ordinance)
    with transaction.atomic():
        deleted, _ = OfficeClosure.objects.filter(village=village, day=day).delete()
        if deleted:
            event_record(
                actor=staff,
                entity="village",
                entity_id=0,
                action="office_closure_remove",
                village=village.id,
                citation=ordinance.office_calendar["citation"],
                before={"day": day, "closed": True},
                after={"day": day, "closed": False},
            )


def fee_schedule_set(
    *,
    village: Village,
    staff: Any,
    effective_from: datetime.date,
    amount: Any,
    authority: str,
    per_area_amount: Any = None,
    area_unit: str = "",
    area_included: Any = None,
    reinspection_fee: Any = None,
) -> FeeSchedule:
    """The clerk enters the fee schedule the village set; it applies to applications from
    that date. A base amount; where the schedule says so, an amount per acre (or per 1,000
    sq ft) of disturbed area beyond what the base covers; and a re-inspection fee. Only
    what the village set is entered: an empty amount is none, never a default."""
    ordinance = village_ordinance(village)
    require_staff(staff, village, ordinance)
    terms = fee_terms_read(
        amount=amount,
        per_area_amount=per_area_amount,
        area_unit=area_unit,
        area_included=area_read(area_included),
        reinspection_fee=reinspection_fee,
    )
    authority = str(authority or "").strip()
    if not authority or len(authority) > 200 or any(ord(ch) < 32 for ch in authority):
        raise ActionRefused(
            "authority: name the resolution or board action that set the fee, in at most "
            "200 characters",
            field="authority",
        )
    citation = ordinance.parameter("application_fee", effective_from).citation
    with transaction.atomic():
        earlier = FeeSchedule.objects.filter(village=village, effective_from=effective_from).first()
        fee, created = FeeSchedule.objects.update_or_create(
            village=village,
            effective_from=effective_from,
            defaults={**terms, "authority": authority},
        )
        event_record(
            actor=staff,
            entity="village",
            entity_id=0,
            action="fee_schedule_set",
            village=village.id,
            reason=authority,
            citation=citation,
            before=_terms_words(earlier) if earlier is not None else {},
            after={"effective_from": effective_from, **_terms_words(fee), "new": created},
        )
    return fee


def _terms_words(fee: FeeSchedule) -> dict[str, Any]:
    def text(value: Decimal | None) -> str | None:
        return None if value is None else str(value)

    return {
        "amount": text(fee.amount),
        "per_area_amount": text(fee.per_area_amount),
        "area_unit": fee.area_unit,
        "area_included": text(fee.area_included),
        "reinspection_fee": text(fee.reinspection_fee),
        "authority": fee.authority,
    }
