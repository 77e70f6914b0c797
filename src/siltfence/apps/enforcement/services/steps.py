"""The steps the chapter allows only from a day the core works out: ``lawful`` asks the core
timeline, and ``_lawful_step`` takes a step of the table ``STEPS``."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from siltfence.apps.enforcement import errors
from siltfence.apps.enforcement.errors import ActionRefused
from siltfence.apps.enforcement.models import ActionKind, EnforcementAction, EnforcementCase
from siltfence.apps.enforcement.services.common import (
    _action_create,
    _document,
    _has_permit,
    case_audit,
    case_lock,
    event_add,
)
from siltfence.apps.permits.models import Permit, PermitStatus
from siltfence.apps.permits.services.common import village_ordinance

ACTION_WORDS = {
    "revoke_permit": "revocation of the permit",
    "request_cease_and_desist": "a cease-and-desist referral",
    "issue_notice_of_intent": "a notice of intent",
    "begin_village_work": "village work on the land",
    "certify_special_assessment": "certification to the tax roll",
}
FIELDS = {
    "revoke_permit": "revocation",
    "request_cease_and_desist": "referral",
    "issue_notice_of_intent": "notice of intent",
    "begin_village_work": "village work",
    "certify_special_assessment": "certification",
}


def lawful(case: EnforcementCase, action: str, at: datetime.datetime) -> dict[str, Any]:
    """The core's word on ``action`` in this case at ``at``: the allowed action (with its
    ``from`` date and citation), or ``ActionRefused`` with the reason and, when it is only
    early, the date it becomes lawful."""
    from siltfence.apps.enforcement.selectors import case_timeline

    ordinance = village_ordinance(case.village_id)
    timeline = case_timeline(case, at).to_json()
    field = FIELDS[action]
    found = [a for a in timeline.get("allowed_actions", []) if a["action"] == action]
    if not found:
        # The action's precondition has not happened (or the permit is already revoked).
        preconditions = [
            rule for rule in ordinance.rules["enforcement"]["actions"] if rule["action"] == action
        ]
        why = (
            "; or ".join(f"{rule['says']} ({rule['citation']})" for rule in preconditions)
            or "the chapter does not give this step"
        )
        raise ActionRefused(
            errors.NOT_LAWFUL.format(field=field, what=ACTION_WORDS[action], why=why),
            field=field,
        )
    allowed = found[0]
    if not allowed["available"]:
        raise ActionRefused(
            errors.NOT_LAWFUL_YET.format(
                field=field,
                start=allowed["from"],
                citation=allowed["citation"],
                because=allowed["because"],
            ),
            field=field,
        )
    return dict(allowed)


def _work_from(case: EnforcementCase, at: datetime.datetime) -> str | None:
    """The day village work becomes lawful after the notice (from the core)."""
    from siltfence.apps.enforcement.selectors import case_timeline

    far = at + datetime.timedelta(days=400)
    for allowed in case_timeline(case, far).to_json().get("allowed_actions", []):
        if allowed["action"] == "begin_village_work":
            return str(allowed["from"])
    return None


@dataclass(frozen=True)
class Step:
    """What taking a lawful step records: an action of ``kind``, the timeline event
    ``event`` (its id ``<event_id>-<the action's id>``), the audit record ``action`` and,
    if any, the ``document`` written with it."""

    kind: str
    action: str
    event: str
    event_id: str
    document: str = ""
    # Refused, with this reason, once an action of this kind is on the case.
    once: str = ""
    # The permit must be active, and the step revokes it.
    revokes_permit: bool = False
    # The action notes the day the village's work may begin, before its document is written.
    notes_work_from: bool = False
    # The steps that run from this one count from its notice's service (decision 46).
    counts_from_service: bool = False


# By the core's name of the step (``allowed_actions``, ``lawful``).
STEPS = {
    "revoke_permit": Step(
        ActionKind.REVOCATION,
        action="permit_revoke",
        event="permit_revoked",
        event_id="order",
        document="revocation",
        revokes_permit=True,
    ),
    "request_cease_and_desist": Step(
        ActionKind.CEASE_AND_DESIST_REFERRAL,
        action="cease_and_desist_refer",
        event="cease_and_desist_requested",
        event_id="referral",
        document="cease_and_desist_referral",
    ),
    "issue_notice_of_intent": Step(
        ActionKind.NOTICE_OF_INTENT,
        action="notice_of_intent_issue",
        event="notice_of_intent_issued",
        event_id="notice",
        document="notice_of_intent",
        notes_work_from=True,
        counts_from_service=True,
    ),
    "begin_village_work": Step(
        ActionKind.VILLAGE_WORK,
        action="village_work_begin",
        event="village_work_begun",
        event_id="work",
        once=errors.WORK_BEGUN,
    ),
}


def _lawful_step(
    case: EnforcementCase,
    name: str,
    *,
    staff: Any,
    at: datetime.datetime,
    note: str = "",
    reason: str = "",
    details: dict[str, Any] | None = None,
    given: str = "",
) -> EnforcementAction:
    """Take the step ``name`` of ``STEPS``, once the caller has checked who acts and what
    they typed. In one transaction: lock the case; refuse the step if the table says so,
    then if the core says it is not lawful on ``at``; record the action (with ``details``,
    the core's reason and the day it became lawful, and ``note``), its timeline event and
    its audit record (with ``reason``); and write its document. A notice ``given`` at
    ``at`` (handed over, or posted on the site) is served then: its service is recorded
    with it, before the document, whose words count from it."""
    step = STEPS[name]
    with transaction.atomic():
        locked = case_lock(case)
        if step.once and locked.actions.filter(kind=step.kind).exists():
            raise ActionRefused(step.once, field=FIELDS[name])
        permit = _revocable(locked, at) if step.revokes_permit else None
        allowed = lawful(locked, name, at)
        before: dict[str, Any] | None = None
        after: dict[str, Any] | None = None
        if permit is not None:
            permit.status = PermitStatus.REVOKED
            permit.save(update_fields=["status"])
            before = {"permit_status": "active"}
            after = {"permit": permit.number, "permit_status": "revoked"}
        action = _action_create(
            locked,
            kind=step.kind,
            at=at,
            staff=staff,
            citation=allowed["citation"],
            details={
                **(details or {}),
                "because": allowed["because"],
                "lawful_from": allowed["from"],
            },
            note=note,
        )
        ident = f"{step.event_id}-{action.pk}"
        fields: dict[str, Any] = {"id": ident}
        if step.counts_from_service:
            fields["counts_from_service"] = True
        event_add(locked, type=step.event, at=at, fields=fields)
        served = step.counts_from_service and given in ("handed_over", "posted_on_site")
        if served:
            event_add(locked, type="served", at=at, fields={"of": ident, "method": given})
        case_audit(
            locked,
            actor=staff,
            action=step.action,
            citation=allowed["citation"],
            reason=reason,
            before=before,
            after=after,
        )
        if step.notes_work_from:
            # The day the work may begin is worked out before the notice is written: it says so.
            action.details["work_from"] = _work_from(locked, at)
            action.save(update_fields=["details"])
        if step.document:
            document = _document(locked, action, step.document)
            if served:
                from siltfence.apps.documents.addressees import case_addressees
                from siltfence.apps.enforcement.services.serving import served_on_taking

                _served_to(locked, document, staff, given, at, case_addressees, served_on_taking)
    return action


def _served_to(
    locked: EnforcementCase,
    document: Any,
    staff: Any,
    given: str,
    at: datetime.datetime,
    addressees: Any,
    record: Any,
) -> None:
    """The service of a notice given as the step is taken: to the first addressee (the
    permittee, or the party the violations name), or posted on the site."""
    from siltfence.apps.permits.models import Party

    first = addressees(locked, village_ordinance(locked.village_id))[0]
    party = Party.objects.filter(pk=first.party_id).first() if first.party_id else None
    to_name = "Posted on the site" if given == "posted_on_site" else first.name
    record(locked, document, user=staff, method=given, at=at, party=party, to_name=to_name)


def _revocable(locked: EnforcementCase, at: datetime.datetime) -> Permit:
    """The case's permit, locked, if it may be revoked: issued by ``at`` and active (not
    already revoked, nor closed). Call inside the case's lock."""
    permit = _has_permit(locked, at)
    if permit is None:
        raise ActionRefused(errors.REVOKE_NO_PERMIT, field="permit")
    permit = Permit.objects.select_for_update().get(pk=permit.pk)
    if permit.status != PermitStatus.ACTIVE:
        raise ActionRefused(
            errors.PERMIT_NOT_ACTIVE.format(status=permit.get_status_display().lower()),
            field="permit",
        )
    return permit
