"""Forfeitures: the referral for prosecution, with the days counted by the core, and the
forfeiture a day the village set outside the chapter."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from django.db import transaction

from siltfence.apps.audit.chain import event_record
from siltfence.apps.enforcement import errors
from siltfence.apps.enforcement.errors import ActionRefused
from siltfence.apps.enforcement.models import ActionKind, EnforcementAction, EnforcementCase
from siltfence.apps.enforcement.services.common import (
    MAX_DESCRIPTION,
    _action_create,
    _document,
    _not_future,
    amount_read,
    case_audit,
    case_lock,
    clean_text,
)
from siltfence.apps.enforcement.services.violations import _found_violation
from siltfence.apps.permits.models import Village
from siltfence.apps.permits.services.common import require_staff, village_ordinance


def prosecution_refer(
    *, case: EnforcementCase, staff: Any, at: datetime.datetime, note: str = ""
) -> EnforcementAction:
    """Refer the violations for prosecution for the forfeiture (§ 413-10E and § 1-3;
    § 135-11F), with the days counted by the core, each a separate offense."""
    from siltfence.apps.enforcement.selectors import forfeiture_summary

    _not_future(at)
    ordinance = village_ordinance(case.village_id)
    require_staff(staff, case, ordinance)
    note = clean_text(note, "note", MAX_DESCRIPTION)
    with transaction.atomic():
        locked = case_lock(case)
        _found_violation(locked)
        summary = forfeiture_summary(locked, at) or {}
        citation = ordinance.rules["enforcement"]["forfeiture"]["citation"]
        action = _action_create(
            locked,
            kind=ActionKind.PROSECUTION_REFERRAL,
            at=at,
            staff=staff,
            citation=citation,
            details={
                k: (str(v) if isinstance(v, Decimal) else v)
                for k, v in summary.items()
                if k
                in (
                    "days",
                    "offenses",
                    "min",
                    "max",
                    "min_per_day",
                    "max_per_day",
                    "source",
                    "first_day",
                    "last_day",
                    "plus_costs",
                )
            },
            note=note,
        )
        case_audit(
            locked, actor=staff, action="prosecution_refer", citation=citation, after=action.details
        )
        _document(locked, action, "prosecution_referral")
    return action


def forfeiture_schedule_set(
    *,
    village: Village,
    staff: Any,
    effective_from: datetime.date,
    per_day_min: Any,
    per_day_max: Any,
    authority: str,
) -> Any:
    """Enter the forfeiture a day the village set outside the chapter (Spencer: Code
    § 1-3), in force from a date. Refused where the chapter sets the amounts itself."""
    from siltfence.apps.enforcement.models import ForfeitureSchedule

    ordinance = village_ordinance(village)
    require_staff(staff, village, ordinance)
    rule = ordinance.rules["enforcement"]["forfeiture"]
    low = ordinance.parameter(rule["min"], effective_from)
    high = ordinance.parameter(rule["max"], effective_from)
    if low.value is not None and high.value is not None:
        raise ActionRefused(
            errors.FORFEITURE_IN_CHAPTER.format(
                citation=rule["citation"], low=f"{low.value:,.0f}", high=f"{high.value:,.0f}"
            ),
            field="per_day",
        )
    try:
        smallest = amount_read(per_day_min, "per_day")
        largest = amount_read(per_day_max, "per_day")
    except ActionRefused:
        raise ActionRefused(errors.FORFEITURE_INVALID, field="per_day") from None
    if largest < smallest:
        raise ActionRefused(errors.FORFEITURE_INVALID, field="per_day")
    authority = clean_text(authority, "authority", 200)
    if not authority:
        raise ActionRefused(errors.AUTHORITY_REQUIRED, field="authority")
    with transaction.atomic():
        entry, created = ForfeitureSchedule.objects.update_or_create(
            village=village,
            effective_from=effective_from,
            defaults={"per_day_min": smallest, "per_day_max": largest, "authority": authority},
        )
        event_record(
            actor=staff,
            entity="village",
            entity_id=0,
            action="forfeiture_schedule_set",
            village=village.id,
            reason=authority,
            citation=rule["citation"],
            after={
                "effective_from": effective_from,
                "min": str(smallest),
                "max": str(largest),
                "new": created,
            },
        )
    return entry
