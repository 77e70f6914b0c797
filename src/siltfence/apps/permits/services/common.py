"""What the permit services share: the village's ordinance, who may act, an application's
change with its timeline event and audit record, the numbers given, and the moment a step
given by its day is recorded at."""

from __future__ import annotations

import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.utils import timezone

from siltfence.apps.accounts.rules import is_applicant_of, is_staff_of
from siltfence.apps.audit.chain import event_record
from siltfence.apps.permits import errors
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import Application, Permit, TimelineEvent, Village
from siltfence.core.ordinance.loader import load
from siltfence.core.ordinance.model import Ordinance


def village_ordinance(village: Village | str) -> Ordinance:
    return load(village if isinstance(village, str) else village.id)


def require_staff(user: Any, obj: Any, ordinance: Ordinance) -> None:
    if not is_staff_of(user, obj):
        raise ActionRefused(
            errors.NOT_STAFF.format(authority=ordinance.authority_title, village=ordinance.name),
            field="village",
        )


def _require_applicant(user: Any, application: Application) -> None:
    if not is_applicant_of(user, application):
        raise ActionRefused(errors.NOT_YOURS, field="application")


def village_zone(ordinance: Ordinance) -> ZoneInfo:
    return ZoneInfo(ordinance.time_zone)


def _snapshot(application: Application) -> dict[str, Any]:
    return {
        "status": application.status,
        "received_at": application.received_at,
        "decided_at": application.decided_at,
        "checklist": application.checklist,
        "fee_paid_on": application.fee_paid_on,
    }


def application_transition(
    locked: Application,
    *,
    actor: Any,
    action: str,
    citation: str,
    reason: str = "",
    event: str | None = None,
    at: datetime.datetime | None = None,
    event_fields: dict[str, Any] | None = None,
    after_extra: dict[str, Any] | None = None,
    **changes: Any,
) -> None:
    """Apply ``changes`` to a locked application, record the timeline event the law
    counts from, and append the change to the audit chain. Call inside the transaction
    that holds the row lock, after the preconditions were checked."""
    before = _snapshot(locked)
    for field, value in changes.items():
        setattr(locked, field, value)
    locked.save(update_fields=list(changes))
    if event is not None:
        assert at is not None
        TimelineEvent.objects.create(
            application=locked, type=event, at=at, fields=event_fields or {}
        )
    event_record(
        actor=actor,
        entity="application",
        entity_id=locked.pk,
        action=action,
        village=locked.village_id,
        reason=reason,
        citation=citation,
        before=before,
        after={**_snapshot(locked), **(after_extra or {})},
    )


def _clock_cite(ordinance: Ordinance, kind: str) -> str:
    for clock in ordinance.rules["clocks"]:
        if clock["kind"] == kind:
            return str(clock["citation"])
    return ""


def _number(prefix: str, village: Village, model: type[Any]) -> str:
    year = timezone.now().year
    count = model.objects.filter(village=village, number__startswith=f"{prefix}-{year}-").count()
    return f"{prefix}-{year}-{count + 1:04d}"


def _village_prefix(village: Village) -> str:
    """SP for spencer-wi, NG for new-glarus-wi: the name's initials, or its first two letters."""
    parts = village.id.split("-")[:-1]
    return (parts[0][:2] if len(parts) == 1 else "".join(p[0] for p in parts)).upper()


# The longest condition or correction (review, fee), and the longest description of
# measures or reason (closeout, surety).
MAX_CONDITION_LENGTH = 1000
MAX_MEASURES_LENGTH = 2000


def _day_moment(permit: Permit, on: datetime.date, ordinance: Ordinance) -> datetime.datetime:
    """The moment recorded for a step given by its day (an extension, the closing): noon in
    the village, but never before the permit's issue, which the timeline counts it from (a
    permit issued at 3 p.m. and extended that day is extended at 3 p.m.). Call after
    checking that ``on`` is not before the day of issue."""
    noon = datetime.datetime.combine(on, datetime.time(12), tzinfo=village_zone(ordinance))
    issued = (
        TimelineEvent.objects.filter(application_id=permit.application_id, type="permit_issued")
        .order_by("-at")
        .values_list("at", flat=True)
        .first()
    )
    return max(noon, issued) if issued is not None else noon


def _not_before_issue(permit: Permit, on: datetime.date) -> None:
    if on < permit.issued_on:
        raise ActionRefused(
            errors.DATED_BEFORE_ISSUE.format(issued=permit.issued_on, on=on), field="on"
        )
