"""The village's own records: its row for each encoded ordinance, its office calendar and
its fee schedule."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from siltfence.apps.audit.chain import event_record
from siltfence.apps.permits.models import FeeSchedule, OfficeClosure, Village
from siltfence.apps.permits.services.common import _ordinance, _require_staff


def fee_in_force(village: Village | str, on: datetime.date) -> FeeSchedule | None:
    return (
        FeeSchedule.objects.filter(village=village, effective_from__lte=on)
        .order_by("-effective_from")
        .first()
    )


def village_sync(*, years: range | None = None) -> list[Village]:
    """Make a Village for every encoded ordinance, and seed the office calendar of each
    village that counts business days with Wisconsin's legal holidays (§ 995.20 Wis.
    Stats.; § 135-13 "business day"). Idempotent: staff edits are kept."""
    from siltfence.core.ordinance.loader import load_all
    from siltfence.core.timeline.holidays_wi import legal_holidays

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
                    for day, name in legal_holidays(year).items():
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


def office_closure_add(
    *, village: Village, staff: Any, day: datetime.date, reason: str
) -> OfficeClosure:
    ordinance = _ordinance(village)
    _require_staff(staff, village, ordinance)
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
    ordinance = _ordinance(village)
    _require_staff(staff, village, ordinance)
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
    *, village: Village, staff: Any, effective_from: datetime.date, amount: Decimal, authority: str
) -> FeeSchedule:
    """The clerk enters the fee the village set; it applies to applications from that date."""
    ordinance = _ordinance(village)
    _require_staff(staff, village, ordinance)
    citation = ordinance.parameter("application_fee", effective_from).citation
    with transaction.atomic():
        fee, created = FeeSchedule.objects.update_or_create(
            village=village,
            effective_from=effective_from,
            defaults={"amount": amount, "authority": authority.strip()},
        )
        event_record(
            actor=staff,
            entity="village",
            entity_id=0,
            action="fee_schedule_set",
            village=village.id,
            reason=authority.strip(),
            citation=citation,
            after={"effective_from": effective_from, "amount": str(amount), "new": created},
        )
    return fee
