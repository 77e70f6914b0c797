"""The review: information asked for and given, and the decision (approval, with the
conditions and surety the chapter allows, or disapproval with its reasons)."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from django.db import transaction

from siltfence.apps.permits import errors
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import (
    Application,
    ApplicationStatus,
    InformationRequest,
    Permit,
    TimelineEvent,
)
from siltfence.apps.permits.services.common import (
    MAX_CONDITION_LENGTH,
    _clock_cite,
    _require_applicant,
    application_transition,
    require_staff,
    village_ordinance,
)
from siltfence.apps.permits.services.permits import _dollars, _issue
from siltfence.core.ordinance.model import Ordinance


def application_information_request(
    *, application: Application, staff: Any, message: str, at: datetime.datetime
) -> InformationRequest:
    """Ask the applicant for needed information in writing (§ 413-8D, § 135-7C(4))."""
    ordinance = village_ordinance(application.village_id)
    require_staff(staff, application, ordinance)
    if not message.strip():
        raise ActionRefused(errors.MESSAGE_REQUIRED, field="message")
    with transaction.atomic():
        locked = Application.objects.select_for_update().get(pk=application.pk)
        if locked.status != ApplicationStatus.UNDER_REVIEW:
            raise ActionRefused(
                errors.NOT_UNDER_REVIEW.format(status=locked.status), field="status"
            )
        request = InformationRequest.objects.create(
            application=locked, requested_at=at, requested_by=staff, message=message.strip()
        )
        application_transition(
            locked,
            actor=staff,
            action="application_information_request",
            citation=_clock_cite(ordinance, "re_review_decision"),
            reason=message.strip(),
            event="information_requested",
            at=at,
            status=ApplicationStatus.INFORMATION_REQUESTED,
        )
    application.refresh_from_db()
    return request


def application_information_provide(
    *, application: Application, user: Any, response: str, at: datetime.datetime
) -> None:
    """The applicant answers; the shorter re-review clock starts."""
    _require_applicant(user, application)
    if not response.strip():
        raise ActionRefused(errors.RESPONSE_REQUIRED, field="response")
    ordinance = village_ordinance(application.village_id)
    with transaction.atomic():
        locked = Application.objects.select_for_update().get(pk=application.pk)
        if locked.status != ApplicationStatus.INFORMATION_REQUESTED:
            raise ActionRefused(
                errors.NOT_WAITING_FOR_INFORMATION.format(status=locked.status), field="status"
            )
        request = locked.information_requests.filter(received_at__isnull=True).last()
        assert request is not None  # the status says one is open
        request.received_at = at
        request.response = response.strip()
        request.save(update_fields=["received_at", "response"])
        application_transition(
            locked,
            actor=user,
            action="application_information_provide",
            citation=_clock_cite(ordinance, "re_review_decision"),
            reason=response.strip(),
            event="information_received",
            at=at,
            status=ApplicationStatus.UNDER_REVIEW,
        )
    application.refresh_from_db()


def _decision_checks(locked: Application, at: datetime.datetime) -> None:
    if locked.status != ApplicationStatus.UNDER_REVIEW:
        raise ActionRefused(errors.NOT_UNDER_REVIEW.format(status=locked.status), field="status")
    if locked.received_at and at < locked.received_at:
        raise ActionRefused(
            errors.DATE_BEFORE_RECEIPT.format(received=locked.received_at.isoformat()), field="at"
        )


MAX_CONDITIONS = 20


def _added_conditions(ordinance: Ordinance, conditions: list[str]) -> list[str]:
    """Conditions the authority adds, where the chapter allows it (New Glarus § 135-7F)."""
    cleaned = [c.strip() for c in conditions if c.strip()]
    if not cleaned:
        return []
    if "added_conditions" not in ordinance.rules["permit"]:
        raise ActionRefused(
            errors.CONDITIONS_NOT_ALLOWED.format(authority=ordinance.authority_title),
            field="conditions",
        )
    if any("\x00" in c for c in cleaned):
        raise ActionRefused(errors.NUL_IN_TEXT.format(field="conditions"), field="conditions")
    if len(cleaned) > MAX_CONDITIONS or any(len(c) > MAX_CONDITION_LENGTH for c in cleaned):
        raise ActionRefused(
            errors.CONDITIONS_INVALID.format(count=MAX_CONDITIONS, limit=MAX_CONDITION_LENGTH),
            field="conditions",
        )
    return cleaned


def application_approve(
    *,
    application: Application,
    staff: Any,
    at: datetime.datetime,
    reasons: str = "",
    conditions: list[str] | None = None,
    surety: Decimal | None = None,
) -> Permit | None:
    """Approve the plan and issue the permit (§ 413-8D, § 135-7C(2)), with the conditions
    the authority adds where the chapter allows it (§ 135-7F).

    With ``surety`` (an amount in dollars), the approval is subject to it: "As a condition
    of approval and issuance of the permit, the [authority] may require the applicant to
    deposit a surety bond or irrevocable letter of credit" (§ 413-8E(2), § 135-7D). The
    decision is made and written now (it meets the review clock), and the permit is issued
    by ``surety_receive`` once the surety is deposited: then None is returned."""
    ordinance = village_ordinance(application.village_id)
    require_staff(staff, application, ordinance)
    added = _added_conditions(ordinance, conditions or [])
    if surety is not None:
        surety = _dollars(surety, "surety")
    with transaction.atomic():
        locked = Application.objects.select_for_update().get(pk=application.pk)
        _decision_checks(locked, at)
        TimelineEvent.objects.create(application=locked, type="application_approved", at=at)
        if surety is not None:
            application_transition(
                locked,
                actor=staff,
                action="application_approve",
                citation=ordinance.rules["permit"]["approval_citation"],
                reason=reasons.strip(),
                after_extra={
                    "surety_required": str(surety),
                    **({"added_conditions": added} if added else {}),
                },
                status=ApplicationStatus.AWAITING_SURETY,
                decided_at=at,
                decision_reasons=reasons.strip(),
                surety_required=surety,
                pending_conditions=added,
            )
            from siltfence.apps.permits.services.letters import surety_required_document_store

            surety_required_document_store(application=locked)
            application.refresh_from_db()
            return None
        permit = _issue(locked, at=at, added=added, ordinance=ordinance)
        application_transition(
            locked,
            actor=staff,
            action="application_approve",
            citation=ordinance.rules["permit"]["approval_citation"],
            reason=reasons.strip(),
            after_extra={
                "permit": permit.number,
                "expires_on": permit.expires_on,
                **({"added_conditions": added} if added else {}),
            },
            status=ApplicationStatus.APPROVED,
            decided_at=at,
            decision_reasons=reasons.strip(),
        )
        # The permit document is part of the decision: if it cannot be made, nothing is.
        from siltfence.apps.permits.services.letters import permit_document_store

        permit_document_store(permit=permit)
    application.refresh_from_db()
    return permit


def application_disapprove(
    *, application: Application, staff: Any, reasons: str, at: datetime.datetime
) -> None:
    """Disapprove, with the reasons in writing (§ 413-8D, § 135-7C(3))."""
    ordinance = village_ordinance(application.village_id)
    require_staff(staff, application, ordinance)
    citation = ordinance.rules["permit"]["disapproval_citation"]
    if not reasons.strip():
        raise ActionRefused(errors.REASONS_REQUIRED.format(citation=citation), field="reasons")
    with transaction.atomic():
        locked = Application.objects.select_for_update().get(pk=application.pk)
        _decision_checks(locked, at)
        application_transition(
            locked,
            actor=staff,
            action="application_disapprove",
            citation=citation,
            reason=reasons.strip(),
            event="application_disapproved",
            at=at,
            event_fields={"reasons": reasons.strip()},
            status=ApplicationStatus.DISAPPROVED,
            decided_at=at,
            decision_reasons=reasons.strip(),
        )
        from siltfence.apps.permits.services.letters import disapproval_document_store

        disapproval_document_store(application=locked)
    application.refresh_from_db()
