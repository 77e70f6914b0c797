"""Amendments of the approved plan: the written permission asked for, and the decision."""

from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction

from siltfence.apps.accounts.rules import is_applicant_of, is_staff_of
from siltfence.apps.audit.chain import event_record
from siltfence.apps.permits import errors
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import AmendmentStatus, Permit, PlanAmendment
from siltfence.apps.permits.services.common import require_staff, village_ordinance
from siltfence.core.ordinance.model import Ordinance


def amendment_triggers(ordinance: Ordinance) -> dict[str, str]:
    """The events on which the plan must be amended (New Glarus § 135-8B) or written
    permission asked (Spencer § 413-8E(3)(c)), each with its citation, from the data."""
    return {t["id"]: t["citation"] for t in ordinance.rules["permit"]["amendment_triggers"]}


def plan_amendment_request(
    *, permit: Permit, user: Any, trigger: str, description: str, on: datetime.date
) -> PlanAmendment:
    """Ask for written permission to change the plan (§ 413-8E(3)(c); § 135-8B, 7E(3))."""
    if not (is_applicant_of(user, permit.application) or is_staff_of(user, permit)):
        raise ActionRefused(errors.NOT_YOURS, field="application")
    triggers = amendment_triggers(village_ordinance(permit.village_id))
    if trigger not in triggers:
        raise ActionRefused(
            errors.AMENDMENT_TRIGGER.format(choices=", ".join(triggers)), field="trigger"
        )
    with transaction.atomic():
        amendment = PlanAmendment.objects.create(
            permit=permit,
            trigger=trigger,
            description=description.strip(),
            requested_on=on,
            requested_by=user,
        )
        event_record(
            actor=user,
            entity="permit",
            entity_id=permit.pk,
            action="plan_amendment_request",
            village=permit.village_id,
            reason=description.strip(),
            citation=triggers[trigger],
            after={"amendment": amendment.pk, "trigger": trigger},
        )
    return amendment


def plan_amendment_decide(
    *, amendment: PlanAmendment, staff: Any, approve: bool, reasons: str, on: datetime.date
) -> None:
    """Give or refuse the written permission."""
    permit = amendment.permit
    ordinance = village_ordinance(permit.village_id)
    require_staff(staff, permit, ordinance)
    with transaction.atomic():
        locked = PlanAmendment.objects.select_for_update().get(pk=amendment.pk)
        if locked.status != AmendmentStatus.REQUESTED:
            raise ActionRefused(
                errors.AMENDMENT_DECIDED.format(status=locked.status), field="amendment"
            )
        if not approve and not reasons.strip():
            raise ActionRefused(
                errors.REASONS_REQUIRED.format(
                    citation=ordinance.rules["permit"]["amendment_citation"]
                ),
                field="reasons",
            )
        locked.status = AmendmentStatus.APPROVED if approve else AmendmentStatus.DENIED
        locked.decided_on = on
        locked.decision_reasons = reasons.strip()
        locked.save(update_fields=["status", "decided_on", "decision_reasons"])
        event_record(
            actor=staff,
            entity="permit",
            entity_id=permit.pk,
            action="plan_amendment_decide",
            village=permit.village_id,
            reason=reasons.strip(),
            citation=ordinance.rules["permit"]["amendment_citation"],
            before={"amendment": locked.pk, "status": "requested"},
            after={"amendment": locked.pk, "status": locked.status},
        )
    amendment.refresh_from_db()
