"""How each document of a case was served: posted on the site, handed to the person,
mailed (first class, or certified with its number) or emailed; when, by whom and to whom,
and the day a mailed or emailed document was received when that is known. The village's
staff or inspector records it.

The steps that run from a notice count from its service as recorded (decision 46): each
service of a stop-work placard, a notice of intent or a notice to cease is also written on
the case's timeline as a ``served`` event naming the notice's event, and the core reads
which service counts (``siltfence.core.timeline.enforcement.counted_from``)."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any
from zoneinfo import ZoneInfo

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone

from siltfence.apps.accounts.rules import is_inspector_of, is_staff_of
from siltfence.apps.enforcement import errors
from siltfence.apps.enforcement.errors import ActionRefused
from siltfence.apps.enforcement.models import (
    MAILED,
    EnforcementCase,
    EnforcementDocument,
    ServiceMethod,
    ServiceRecord,
)
from siltfence.apps.enforcement.services.common import (
    _local_day,
    case_audit,
    case_lock,
    clean_text,
    event_add,
)
from siltfence.apps.permits.models import Party
from siltfence.apps.permits.services.common import village_ordinance
from siltfence.apps.permits.services.parties import mailing_address_read
from siltfence.core.mailing import CERTIFIED_NUMBER, EMAIL_MAX, NAME_MAX

# The documents whose service a step counts from, and the id of the timeline event each
# names (the step's own event: ``<prefix>-<the action's id>``).
ANCHORS = {
    "stop_work_placard": "order",
    "notice_of_intent": "notice",
    "notice_to_cease": "cease",
}
# What each document is, as its proof of service names it.
KIND_TITLES = {
    "stop_work_placard": "Stop-work order",
    "revocation": "Revocation of the permit",
    "retraction": "Retraction",
    "notice_of_intent": "Notice of intent",
    "notice_to_cease": "Notice to cease",
    "invoice": "Invoice",
    "tax_roll_certification": "Certification to the tax roll",
}
# Letters to the village's attorney: not served on anyone.
NOT_SERVED = ("cease_and_desist_referral", "injunction_referral", "prosecution_referral")
MAX_NOTE = 1000
MAX_RECEIVED_HOW = 300
# On the timeline, how it was served, whatever the class of mail.
TIMELINE_METHOD = {
    "posted_on_site": "posted_on_site",
    "handed_over": "handed_over",
    "mailed_first_class": "mailed",
    "mailed_certified": "mailed",
    "emailed": "emailed",
}


def _require_staff_or_inspector(user: Any, case: EnforcementCase) -> None:
    if not (is_staff_of(user, case) or is_inspector_of(user, case)):
        ordinance = village_ordinance(case.village_id)
        raise ActionRefused(
            errors.NOT_STAFF_OR_INSPECTOR.format(
                authority=ordinance.authority_title, village=ordinance.name
            ),
            field="village",
        )


def issued_at(document: EnforcementDocument) -> datetime.datetime:
    """When the document was issued: its step's moment (an invoice: the start of its day)."""
    action = document.action
    if action is None:
        return document.created_at
    if action.kind == "invoice":
        ordinance = village_ordinance(document.case.village_id)
        day = _local_day(ordinance, action.at)
        return datetime.datetime.combine(
            day, datetime.time(0), tzinfo=ZoneInfo(ordinance.time_zone)
        )
    return action.at


def _name_of(user: Any) -> str:
    return str(user.get_full_name() or user.get_username())


def _certified(value: str) -> str:
    digits = "".join(str(value or "").split())
    if not CERTIFIED_NUMBER.match(digits):
        shown = repr(str(value)[:30])
        raise ActionRefused(errors.CERTIFIED_NUMBER.format(value=shown), field="certified number")
    return digits


def _email(value: str) -> str:
    email = clean_text(value, "email", EMAIL_MAX)
    try:
        validate_email(email)
    except ValidationError:
        raise ActionRefused(
            errors.EMAIL_INVALID_SERVED.format(value=repr(email[:60])), field="email"
        ) from None
    return email


def document_serve(
    *,
    document: EnforcementDocument,
    user: Any,
    method: str,
    at: datetime.datetime,
    served_by: str = "",
    party: Party | None = None,
    to_name: str = "",
    address: Mapping[str, Any] | None = None,
    email: str = "",
    certified_number: str = "",
    received_on: datetime.date | None = None,
    received_how: str = "",
    note: str = "",
    now: datetime.datetime | None = None,
) -> ServiceRecord:
    """Record how ``document`` was served. Refused, naming the field, when: the person is
    not the village's staff or inspector; the method is not one of the list; the moment is
    after ``now`` (the request's clock) or before the document was issued; nobody is named
    served; it was mailed with no mailing address on the record or given; a certified mail
    number is not 20 to 22 digits; a received day is for anything but mail or email, before
    it was sent, or still to come. Nothing is written then.

    A mailing address given for a party with none on the record is kept on the party."""
    case = document.case
    _require_staff_or_inspector(user, case)
    if document.kind in NOT_SERVED:
        raise ActionRefused(errors.SERVED_ATTORNEY, field="document")
    if method not in ServiceMethod.values:
        raise ActionRefused(
            errors.SERVICE_METHOD.format(choices=", ".join(ServiceMethod.labels).lower()),
            field="method",
        )
    ordinance = village_ordinance(case.village_id)
    clock = now or timezone.now()
    if at.tzinfo is None:
        raise ActionRefused(errors.SERVED_FUTURE.format(at=at), field="served at")
    zone = ZoneInfo(ordinance.time_zone)
    if at > clock:
        shown = timezone.localtime(at, zone).strftime("%Y-%m-%d %H:%M")
        raise ActionRefused(errors.SERVED_FUTURE.format(at=shown), field="served at")
    issued = issued_at(document)
    if at < issued:
        raise ActionRefused(
            errors.SERVED_BEFORE_ISSUE.format(
                issued=timezone.localtime(issued, zone).strftime("%Y-%m-%d %H:%M"),
                at=timezone.localtime(at, zone).strftime("%Y-%m-%d %H:%M"),
            ),
            field="served at",
        )
    served_by = clean_text(served_by, "served by", NAME_MAX) or _name_of(user)
    note = clean_text(note, "note", MAX_NOTE)
    received_how = clean_text(received_how, "received how", MAX_RECEIVED_HOW)
    if party is not None and (
        case.application_id is None or party.application_id != case.application_id
    ):
        raise ActionRefused(errors.SERVED_PARTY, field="to")
    to_name = clean_text(to_name, "to", NAME_MAX)
    if party is not None:
        to_name = party.name
    elif not to_name and method == ServiceMethod.POSTED_ON_SITE:
        to_name = "Posted on the site"
    if not to_name:
        raise ActionRefused(errors.SERVED_TO, field="to")
    mailing = {"street": "", "city": "", "state": "", "zip_code": ""}
    keep_on_party = False
    if method in MAILED:
        typed = mailing_address_read(address or {})
        if typed["street"]:
            mailing = typed
            keep_on_party = party is not None and not party.has_mailing_address
        elif party is not None and party.has_mailing_address:
            mailing = {k: getattr(party, k) for k in mailing}
        else:
            raise ActionRefused(errors.MAIL_ADDRESS_NEEDED.format(name=to_name), field="street")
    number = ""
    if method == ServiceMethod.MAILED_CERTIFIED:
        number = _certified(certified_number)
    elif str(certified_number or "").strip():
        raise ActionRefused(errors.CERTIFIED_ONLY, field="certified number")
    sent_to = ""
    if method == ServiceMethod.EMAILED:
        typed_email = str(email or "").strip() or (party.email if party is not None else "")
        if not typed_email:
            raise ActionRefused(errors.EMAIL_NEEDED, field="email")
        sent_to = _email(typed_email)
    if received_on is not None:
        _received_check(method, at, received_on, ordinance, clock)
    with transaction.atomic():
        locked = case_lock(case)
        if keep_on_party and party is not None:
            Party.objects.filter(pk=party.pk, street="").update(**mailing)
        record = ServiceRecord.objects.create(
            document=document,
            method=method,
            served_at=at,
            served_by=served_by,
            party=party,
            to_name=to_name,
            email=sent_to,
            certified_number=number,
            received_on=received_on,
            received_how=received_how if received_on is not None else "",
            note=note,
            recorded_by=user,
            **mailing,
        )
        _timeline(locked, document, record)
        case_audit(
            locked,
            actor=user,
            action="document_serve",
            citation=document.action.citation if document.action else "",
            reason=note,
            after=_snapshot(record),
        )
    return record


def _received_check(
    method: str,
    at: datetime.datetime,
    received_on: datetime.date,
    ordinance: Any,
    clock: datetime.datetime,
) -> None:
    if method not in (*MAILED, ServiceMethod.EMAILED):
        raise ActionRefused(errors.RECEIVED_METHOD, field="received on")
    sent = _local_day(ordinance, at)
    if received_on < sent:
        raise ActionRefused(
            errors.RECEIVED_BEFORE.format(day=received_on, sent=sent), field="received on"
        )
    if received_on > _local_day(ordinance, clock):
        raise ActionRefused(errors.RECEIVED_FUTURE.format(day=received_on), field="received on")


def service_receipt_record(
    *,
    service: ServiceRecord,
    user: Any,
    received_on: datetime.date,
    how: str = "",
    now: datetime.datetime | None = None,
) -> ServiceRecord:
    """The day a mailed or emailed document is shown to have reached the person (a return
    receipt, a reply, their word), learned after its sending was recorded: added once."""
    document = service.document
    case = document.case
    _require_staff_or_inspector(user, case)
    ordinance = village_ordinance(case.village_id)
    how = clean_text(how, "received how", MAX_RECEIVED_HOW)
    _received_check(
        service.method, service.served_at, received_on, ordinance, now or timezone.now()
    )
    with transaction.atomic():
        locked = case_lock(case)
        record = ServiceRecord.objects.select_for_update().get(pk=service.pk)
        if record.received_on is not None:
            raise ActionRefused(
                errors.RECEIVED_ALREADY.format(day=record.received_on), field="received on"
            )
        record.received_on = received_on
        record.received_how = how
        record.save(update_fields=["received_on", "received_how"])
        _timeline(locked, document, record)
        case_audit(
            locked,
            actor=user,
            action="service_receipt_record",
            citation=document.action.citation if document.action else "",
            after={"service": record.pk, "received_on": received_on.isoformat(), "how": how},
        )
    return record


def _timeline(case: EnforcementCase, document: EnforcementDocument, record: ServiceRecord) -> None:
    """A ``served`` event for a notice a step counts from (the placard, the notice of intent,
    the notice to cease); a later one of the same service adds its received day."""
    prefix = ANCHORS.get(document.kind)
    if prefix is None or document.action_id is None:
        return
    fields: dict[str, Any] = {
        "of": f"{prefix}-{document.action_id}",
        "method": TIMELINE_METHOD[record.method],
        "service": record.event_id,
    }
    if record.received_on is not None:
        fields["received"] = record.received_on.isoformat()
    event_add(case, type="served", at=record.served_at, fields=fields)


def _snapshot(record: ServiceRecord) -> dict[str, Any]:
    return {
        "service": record.pk,
        "document": record.document_id,
        "method": record.method,
        "served_at": record.served_at.isoformat(),
        "served_by": record.served_by,
        "to": record.to_name,
        "party": record.party_id,
        "mailed_to": record.mailing_lines(),
        "email": record.email,
        "certified_number": record.certified_number,
        "received_on": record.received_on.isoformat() if record.received_on else None,
    }


def served_on_taking(
    locked: EnforcementCase,
    document: EnforcementDocument,
    *,
    user: Any,
    method: str,
    at: datetime.datetime,
    party: Party | None = None,
    to_name: str = "",
) -> ServiceRecord:
    """A step that is itself the service (a stop-work order posted, a notice handed over
    when it is given): its record, inside the step's transaction. The timeline event is
    the caller's (written before the document, whose words may count from it)."""
    return ServiceRecord.objects.create(
        document=document,
        method=method,
        served_at=at,
        served_by=_name_of(user) if getattr(user, "is_authenticated", False) else "",
        party=party,
        to_name=to_name or (party.name if party is not None else "Posted on the site"),
        recorded_by=user,
    )
