"""The orders and referrals: the stop-work order and compliance with it, revocation of the
permit, retraction (§ 413-10D, § 135-11D), the notice to cease, and the referrals to the
village's attorney for a cease-and-desist order or an injunction."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.db import transaction

from siltfence.apps.enforcement import errors
from siltfence.apps.enforcement.errors import ActionRefused
from siltfence.apps.enforcement.models import ActionKind, EnforcementAction, EnforcementCase
from siltfence.apps.enforcement.services.common import (
    MAX_DESCRIPTION,
    _action_create,
    _document,
    _local_day,
    _no_permit_why,
    _not_future,
    _permit_in_force,
    case_audit,
    case_lock,
    clean_text,
    event_add,
)
from siltfence.apps.enforcement.services.serving import served_on_taking
from siltfence.apps.enforcement.services.steps import _lawful_step
from siltfence.apps.enforcement.services.violations import _found_violation
from siltfence.apps.permits.models import Permit
from siltfence.apps.permits.services.common import require_staff, village_ordinance


def stop_work_order_post(
    *,
    case: EnforcementCase,
    staff: Any,
    at: datetime.datetime,
    grounds: Sequence[str],
    note: str = "",
) -> EnforcementAction:
    """Post a stop-work order on the site (§ 413-10A, § 135-11A), on the grounds the chapter
    lists, at a date and time; the site placard is made with it."""
    _not_future(at)
    ordinance = village_ordinance(case.village_id)
    require_staff(staff, case, ordinance)
    rule = ordinance.rules["enforcement"]["stop_work_order"]
    by_id = {g["id"]: g for g in rule["grounds"]}
    citations = ", ".join(g["citation"] for g in rule["grounds"])
    chosen = list(dict.fromkeys(grounds))
    if not chosen:
        raise ActionRefused(errors.GROUNDS_REQUIRED.format(citations=citations), field="grounds")
    for ground in chosen:
        if ground not in by_id:
            raise ActionRefused(
                errors.GROUNDS_UNKNOWN.format(ground=repr(str(ground)[:40]), citations=citations),
                field="grounds",
            )
    note = clean_text(note, "note", MAX_DESCRIPTION)
    with transaction.atomic():
        locked = case_lock(case)
        from siltfence.apps.enforcement.selectors import open_stop_work_order

        current = open_stop_work_order(locked)
        if current is not None:
            raise ActionRefused(
                errors.ORDER_OPEN.format(day=_local_day(ordinance, current.at)), field="order"
            )
        permit = _permit_in_force(locked, at)
        day = _local_day(ordinance, at)
        for ground in chosen:
            g = by_id[ground]
            if ground == "no-permit" and permit is not None:
                raise ActionRefused(
                    errors.GROUND_NO_PERMIT.format(
                        says=g["says"],
                        citation=g["citation"],
                        number=permit.number,
                        day=day,
                        issued=permit.issued_on,
                        expires=permit.expires_on,
                    ),
                    field="grounds",
                )
            if ground != "no-permit" and permit is None:
                raise ActionRefused(
                    errors.GROUND_NEEDS_PERMIT.format(
                        says=g["says"],
                        citation=g["citation"],
                        day=day,
                        why=_no_permit_why(locked, at),
                    ),
                    field="grounds",
                )
        action = _action_create(
            locked,
            kind=ActionKind.STOP_WORK_ORDER,
            at=at,
            staff=staff,
            citation=rule["citation"],
            grounds=[{k: by_id[g][k] for k in ("id", "citation", "says")} for g in chosen],
            note=note,
        )
        # Posting the order is its service: the waits run from it (decision 46).
        ident = f"order-{action.pk}"
        event_add(
            locked,
            type="stop_work_order_posted",
            at=at,
            fields={"id": ident, "counts_from_service": True},
        )
        event_add(locked, type="served", at=at, fields={"of": ident, "method": "posted_on_site"})
        case_audit(
            locked,
            actor=staff,
            action="stop_work_order_post",
            citation=rule["citation"],
            reason="; ".join(by_id[g]["says"] for g in chosen),
            after={"grounds": chosen, "posted_at": at.isoformat()},
        )
        placard = _document(locked, action, "stop_work_placard")
        served_on_taking(locked, placard, user=staff, method="posted_on_site", at=at)
    return action


def compliance_record(
    *, case: EnforcementCase, staff: Any, at: datetime.datetime, note: str = ""
) -> EnforcementAction:
    """The site complies with the stop-work order: the order ends."""
    _not_future(at)
    ordinance = village_ordinance(case.village_id)
    require_staff(staff, case, ordinance)
    note = clean_text(note, "note", MAX_DESCRIPTION)
    with transaction.atomic():
        locked = case_lock(case)
        from siltfence.apps.enforcement.selectors import open_stop_work_order

        if open_stop_work_order(locked) is None:
            raise ActionRefused(errors.NO_OPEN_ORDER, field="order")
        citation = ordinance.rules["enforcement"]["stop_work_order"]["citation"]
        action = _action_create(
            locked, kind=ActionKind.COMPLIANCE, at=at, staff=staff, citation=citation, note=note
        )
        event_add(locked, type="compliance_achieved", at=at)
        case_audit(locked, actor=staff, action="compliance_record", citation=citation, reason=note)
    return action


def permit_revoke(
    *, case: EnforcementCase, staff: Any, at: datetime.datetime, reasons: str
) -> EnforcementAction:
    """Revoke the permit where the chapter allows it, from the day it allows it (Spencer
    § 413-10B: after the 10 days to comply with a stop-work order; New Glarus § 135-11B: on a
    stop-work order not obeyed, or on a recorded violation of the plan or permit)."""
    _not_future(at)
    ordinance = village_ordinance(case.village_id)
    require_staff(staff, case, ordinance)
    reasons = clean_text(reasons, "reasons", MAX_DESCRIPTION)
    if not reasons:
        raise ActionRefused(errors.REVOCATION_REASONS, field="reasons")
    return _lawful_step(case, "revoke_permit", staff=staff, at=at, note=reasons, reason=reasons)


def order_retraction(
    locked: EnforcementCase,
    *,
    actor: Any,
    at: datetime.datetime,
    order: str,
    by: str,
    reason: str,
    appeal: Any = None,
) -> EnforcementAction:
    """Retract a stop-work order or a revocation (§ 413-10D, § 135-11D); a retracted
    revocation puts the permit back in force. Call inside the case's lock."""
    from siltfence.apps.enforcement.selectors import open_stop_work_order
    from siltfence.apps.permits.models import PermitStatus

    ordinance = village_ordinance(locked.village_id)
    rule = ordinance.rules["enforcement"]["retraction"]
    if by not in rule["by"]:
        titles = {
            "authority": f"the {ordinance.authority_title}",
            "appeals_board": f"the {ordinance.appeals_body['title']}",
        }
        raise ActionRefused(
            errors.RETRACT_BY.format(
                citation=rule["citation"], who=" or ".join(titles[b] for b in rule["by"])
            ),
            field="by",
        )
    details: dict[str, Any] = {"order": order, "by": by}
    if appeal is not None:
        details["appeal"] = appeal.number
    if order == "stop_work_order":
        if open_stop_work_order(locked) is None:
            raise ActionRefused(errors.NO_OPEN_ORDER, field="order")
    else:
        permit = (
            Permit.objects.select_for_update().filter(application_id=locked.application_id).first()
            if locked.application_id is not None
            else None
        )
        if permit is None or permit.status != PermitStatus.REVOKED:
            raise ActionRefused(errors.NOT_REVOKED, field="order")
        permit.status = PermitStatus.ACTIVE
        permit.save(update_fields=["status"])
        details["permit"] = permit.number
    action = _action_create(
        locked,
        kind=ActionKind.RETRACTION,
        at=at,
        staff=actor,
        citation=rule["citation"],
        details=details,
        note=reason,
    )
    event_add(locked, type="order_retracted", at=at, fields={"order": order, "by": by})
    _document(locked, action, "retraction")
    case_audit(
        locked,
        actor=actor,
        action="order_retract",
        citation=rule["citation"],
        reason=reason,
        after=details,
    )
    return action


def order_retract(
    *, case: EnforcementCase, staff: Any, at: datetime.datetime, order: str, reason: str
) -> EnforcementAction:
    """The authority retracts its own stop-work order or revocation, where the chapter lets
    it (Spencer § 413-10D: the Building Inspector may; New Glarus § 135-11D: only the
    Zoning Board of Appeals may, on appeal)."""
    _not_future(at)
    ordinance = village_ordinance(case.village_id)
    require_staff(staff, case, ordinance)
    if order not in ("stop_work_order", "revocation"):
        raise ActionRefused(errors.ORDER_CHOICE, field="order")
    reason = clean_text(reason, "reason", MAX_DESCRIPTION)
    with transaction.atomic():
        locked = case_lock(case)
        return order_retraction(
            locked, actor=staff, at=at, order=order, by="authority", reason=reason
        )


def notice_to_cease_give(
    *,
    case: EnforcementCase,
    staff: Any,
    at: datetime.datetime,
    note: str = "",
    given: str = "handed_over",
) -> EnforcementAction:
    """Tell a party working without a permit to cease (New Glarus § 135-11C): from when the
    party is notified, a cease-and-desist referral is open if they do not. The notice is
    written; ``given``: handed to the party at ``at`` (the step as always recorded), posted
    on the site, or to be sent (mailed or emailed, its service recorded when it is). The
    party is notified as the service records show (decision 46)."""
    from siltfence.apps.enforcement.services.village_work import given_read

    _not_future(at)
    ordinance = village_ordinance(case.village_id)
    require_staff(staff, case, ordinance)
    given = given_read(given)
    rules = [
        r
        for r in ordinance.rules["enforcement"]["actions"]
        if r["after_event"] == "notified_to_cease"
    ]
    if not rules:
        raise ActionRefused(
            errors.NO_NOTICE_TO_CEASE.format(chapter=ordinance.chapter),
            field="notice",
        )
    note = clean_text(note, "note", MAX_DESCRIPTION)
    with transaction.atomic():
        locked = case_lock(case)
        permit = _permit_in_force(locked, at)
        if permit is not None:
            raise ActionRefused(
                errors.NOTICE_NEEDS_NO_PERMIT.format(
                    citation=rules[0]["citation"],
                    number=permit.number,
                    day=_local_day(ordinance, at),
                ),
                field="notice",
            )
        action = _action_create(
            locked,
            kind=ActionKind.NOTICE_TO_CEASE,
            at=at,
            staff=staff,
            citation=rules[0]["citation"],
            note=note,
        )
        ident = f"cease-{action.pk}"
        event_add(
            locked,
            type="notified_to_cease",
            at=at,
            fields={"id": ident, "counts_from_service": True},
        )
        served = given in ("handed_over", "posted_on_site")
        if served:
            event_add(locked, type="served", at=at, fields={"of": ident, "method": given})
        case_audit(
            locked, actor=staff, action="notice_to_cease_give", citation=rules[0]["citation"]
        )
        document = _document(locked, action, "notice_to_cease")
        if served:
            from siltfence.apps.documents.addressees import case_addressees
            from siltfence.apps.enforcement.services.steps import _served_to

            _served_to(locked, document, staff, given, at, case_addressees, served_on_taking)
    return action


def warning_letter_send(
    *, case: EnforcementCase, staff: Any, at: datetime.datetime, asks: str = ""
) -> EnforcementAction:
    """A warning letter to the parties, before any stop-work order: what was found, what the
    village asks (``asks``, printed on the letter), and that the chapter does not require the
    letter, since the order may be posted on its grounds without it (§ 413-10A, § 135-11A).
    No step counts from it: it is not the notice to cease of a chapter that has one, nor a
    notice of intent. Its service is recorded like any document's."""
    from siltfence.apps.enforcement.selectors import open_stop_work_order

    _not_future(at)
    ordinance = village_ordinance(case.village_id)
    require_staff(staff, case, ordinance)
    asks = clean_text(asks, "asks", MAX_DESCRIPTION)
    with transaction.atomic():
        locked = case_lock(case)
        if open_stop_work_order(locked) is not None:
            raise ActionRefused(errors.WARNING_AFTER_ORDER, field="letter")
        if not locked.violations.filter(status="found", days_to__isnull=True).exists():
            raise ActionRefused(errors.WARNING_NOTHING_OPEN, field="letter")
        citation = ordinance.rules["enforcement"]["stop_work_order"]["citation"]
        action = _action_create(
            locked,
            kind=ActionKind.WARNING_LETTER,
            at=at,
            staff=staff,
            citation=citation,
            details={"asks": asks, "required": False},
            public=False,
        )
        case_audit(locked, actor=staff, action="warning_letter_send", citation=citation)
        _document(locked, action, "warning_letter")
    return action


def cease_and_desist_refer(
    *, case: EnforcementCase, staff: Any, at: datetime.datetime, note: str = ""
) -> EnforcementAction:
    """Ask the village's attorney to obtain a cease-and-desist order (§ 413-10C, § 135-11C),
    from the day the chapter allows it. Recorded as an action with its letter, in the audit
    chain, and as ``cease_and_desist_requested`` on the timeline, so it is not offered
    again."""
    _not_future(at)
    ordinance = village_ordinance(case.village_id)
    require_staff(staff, case, ordinance)
    note = clean_text(note, "note", MAX_DESCRIPTION)
    return _lawful_step(case, "request_cease_and_desist", staff=staff, at=at, note=note)


def injunction_refer(
    *, case: EnforcementCase, staff: Any, at: datetime.datetime, note: str = ""
) -> EnforcementAction:
    """Refer the case to the village's attorney for an injunction (§ 413-10F; § 135-11G,
    without first prosecuting for a forfeiture or a cease-and-desist order)."""
    _not_future(at)
    ordinance = village_ordinance(case.village_id)
    require_staff(staff, case, ordinance)
    rule = ordinance.rules["enforcement"]["injunction"]
    note = clean_text(note, "note", MAX_DESCRIPTION)
    with transaction.atomic():
        locked = case_lock(case)
        _found_violation(locked)
        action = _action_create(
            locked,
            kind=ActionKind.INJUNCTION_REFERRAL,
            at=at,
            staff=staff,
            citation=rule["citation"],
            details={"says": rule["says"]},
            note=note,
        )
        case_audit(locked, actor=staff, action="injunction_refer", citation=rule["citation"])
        _document(locked, action, "injunction_referral")
    return action
