"""What the enforcement services share: the village's ordinance and day, who may act, text
as typed, the case's lock, its timeline events, its actions and their documents, its
permit, and its audit record."""

from __future__ import annotations

import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils import timezone

from siltfence.apps.audit.chain import change_record
from siltfence.apps.enforcement import errors
from siltfence.apps.enforcement.errors import ActionRefused
from siltfence.apps.enforcement.models import CaseEvent, EnforcementAction, EnforcementCase
from siltfence.apps.permits.models import Permit, TimelineEvent, Village
from siltfence.apps.permits.services.common import village_ordinance, village_zone
from siltfence.core.ordinance.model import Ordinance

MAX_DESCRIPTION = 5000
MAX_TEXT = 300


def _local_day(ordinance: Ordinance, at: datetime.datetime) -> datetime.date:
    return timezone.localtime(at, village_zone(ordinance)).date()


def clean_text(value: str, field: str, limit: int = MAX_TEXT) -> str:
    value = (value or "").strip()
    if len(value) > limit:
        raise ActionRefused(errors.TEXT_TOO_LONG.format(field=field, limit=limit), field=field)
    if any(ord(ch) < 32 and ch not in "\n\t\r" for ch in value):
        raise ActionRefused(errors.CONTROL_CHARACTERS.format(field=field), field=field)
    return value


def _number(prefix: str, village: Village | str, model: type[Any]) -> str:
    village_id = village if isinstance(village, str) else village.id
    parts = village_id.split("-")[:-1]
    initials = (parts[0][:2] if len(parts) == 1 else "".join(p[0] for p in parts)).upper()
    year = timezone.now().year
    stem = f"{initials}-{prefix}-{year}-"
    count = model.objects.filter(number__startswith=stem).count()
    return f"{stem}{count + 1:04d}"


def _case_snapshot(case: EnforcementCase) -> dict[str, Any]:
    return {
        "number": case.number,
        "application": case.application_id,
        "address": case.address,
        "actions": list(case.actions.values_list("kind", flat=True)),
    }


def event_add(
    case: EnforcementCase, *, type: str, at: datetime.datetime, fields: dict[str, Any] | None = None
) -> Any:
    """Record a contract event on the case: on the permit's timeline when it has one."""
    if case.application_id is not None:
        return TimelineEvent.objects.create(
            application_id=case.application_id, type=type, at=at, fields=fields or {}
        )
    return CaseEvent.objects.create(case=case, type=type, at=at, fields=fields or {})


def case_audit(
    case: EnforcementCase,
    *,
    actor: Any,
    action: str,
    citation: str,
    reason: str = "",
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> None:
    change_record(
        case,
        entity="enforcement_case",
        snapshot=_case_snapshot(case),
        actor=actor,
        action=action,
        citation=citation,
        reason=reason,
        before=before,
        after=after,
    )


def case_lock(case: EnforcementCase) -> EnforcementCase:
    return EnforcementCase.objects.select_for_update().get(pk=case.pk)


FUTURE = "date: a step is recorded when it is taken; {at} has not come yet"


def _not_future_day(day: datetime.date, field: str) -> None:
    if day > timezone.localdate() + datetime.timedelta(days=1):
        raise ActionRefused(errors.DAY_TO_COME.format(field=field, day=day), field=field)


def _not_future(at: datetime.datetime) -> None:
    if at > timezone.now() + datetime.timedelta(minutes=5):
        raise ActionRefused(FUTURE.format(at=at.strftime("%Y-%m-%d %H:%M")), field="date")


def _has_permit(case: EnforcementCase, at: datetime.datetime) -> Permit | None:
    if case.application_id is None:
        return None
    permit = Permit.objects.filter(application_id=case.application_id).first()
    if permit is None or permit.issued_on > _local_day(village_ordinance(case.village_id), at):
        return None
    return permit


def _permit_in_force(case: EnforcementCase, at: datetime.datetime) -> Permit | None:
    """The case's permit if it is in force at ``at``: issued, its last day not passed, and
    neither revoked nor closed. An expired or revoked permit is no permit (§ 413-10A(1),
    § 135-11A(1): "being undertaken without a permit")."""
    from siltfence.apps.permits.models import PermitStatus

    permit = _has_permit(case, at)
    if permit is None or permit.status != PermitStatus.ACTIVE:
        return None
    if _local_day(village_ordinance(case.village_id), at) > permit.expires_on:
        return None
    return permit


def _no_permit_why(case: EnforcementCase, at: datetime.datetime) -> str:
    permit = _has_permit(case, at)
    if permit is None:
        return ""
    if permit.status != "active":
        return f" (permit {permit.number} is {permit.get_status_display().lower()})"
    return f" (permit {permit.number} expired: its last day was {permit.expires_on})"


def _action_create(
    case: EnforcementCase,
    *,
    kind: str,
    at: datetime.datetime,
    staff: Any,
    citation: str,
    grounds: list[dict[str, Any]] | None = None,
    details: dict[str, Any] | None = None,
    note: str = "",
    public: bool = True,
) -> EnforcementAction:
    return EnforcementAction.objects.create(
        case=case,
        kind=kind,
        at=at,
        taken_by=staff if getattr(staff, "is_authenticated", False) else None,
        citation=citation,
        grounds=grounds or [],
        details=details or {},
        note=note,
        public=public,
    )


def _document(case: EnforcementCase, action: EnforcementAction | None, kind: str) -> Any:
    from siltfence.apps.enforcement.documents import document_store

    return document_store(case=case, action=action, kind=kind)


MAX_AMOUNT = Decimal("10000000")


def amount_read(value: Any, field: str = "amount") -> Decimal:
    """A dollar amount typed on a form: digits with at most two decimals, above 0."""
    text = str(value).strip().replace(",", "").removeprefix("$")
    try:
        amount = Decimal(text)
    except (InvalidOperation, ValueError):
        raise ActionRefused(
            errors.COST_AMOUNT.format(limit=f"${MAX_AMOUNT:,}"), field=field
        ) from None
    if (
        not amount.is_finite()
        or amount <= 0
        or amount > MAX_AMOUNT
        or amount != amount.quantize(Decimal("0.01"))
    ):
        raise ActionRefused(errors.COST_AMOUNT.format(limit=f"${MAX_AMOUNT:,}"), field=field)
    return amount.quantize(Decimal("0.01"))
