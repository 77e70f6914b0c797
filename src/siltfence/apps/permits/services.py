"""Every change to applications and permits: ``<entity>_<verb>`` functions.

Each runs in one transaction, locks the row it changes (PostgreSQL: SELECT ... FOR
UPDATE; SQLite: the IMMEDIATE transaction takes the write lock at its start), checks its
preconditions inside that lock, writes, records a timeline event where the law counts
time from it, and appends the change to the audit chain. Two conflicting transitions
(approve and disapprove of one application) cannot both succeed: the second finds the
status already changed and is refused.
"""

from __future__ import annotations

import datetime
import hashlib
import uuid
from decimal import Decimal
from typing import Any

from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone

from siltfence.apps.accounts.rules import is_applicant_of, is_staff_of
from siltfence.apps.audit.chain import event_record
from siltfence.apps.permits import errors
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import (
    AmendmentStatus,
    Application,
    ApplicationStatus,
    Document,
    DocumentKind,
    FeeSchedule,
    InformationRequest,
    OfficeClosure,
    Party,
    Permit,
    PermitExtension,
    PermitStatus,
    PlanAmendment,
    Site,
    Surety,
    SuretyKind,
    SuretyMovement,
    TimelineEvent,
    Village,
)
from siltfence.apps.permits.uploads import checked_upload
from siltfence.core.ordinance.loader import load
from siltfence.core.ordinance.model import Ordinance
from siltfence.core.rules import determine


def amendment_triggers(ordinance: Ordinance) -> dict[str, str]:
    """The events on which the plan must be amended (New Glarus § 135-8B) or written
    permission asked (Spencer § 413-8E(3)(c)), each with its citation, from the data."""
    return {t["id"]: t["citation"] for t in ordinance.rules["permit"]["amendment_triggers"]}


def _ordinance(village: Village | str) -> Ordinance:
    return load(village if isinstance(village, str) else village.id)


def _require_staff(user: Any, obj: Any, ordinance: Ordinance) -> None:
    if not is_staff_of(user, obj):
        raise ActionRefused(
            errors.NOT_STAFF.format(authority=ordinance.authority_title, village=ordinance.name),
            field="village",
        )


def _require_applicant(user: Any, application: Application) -> None:
    if not is_applicant_of(user, application):
        raise ActionRefused(errors.NOT_YOURS, field="application")


def _snapshot(application: Application) -> dict[str, Any]:
    return {
        "status": application.status,
        "received_at": application.received_at,
        "decided_at": application.decided_at,
        "checklist": application.checklist,
        "fee_paid_on": application.fee_paid_on,
    }


def _transition(
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


def fee_in_force(village: Village | str, on: datetime.date) -> FeeSchedule | None:
    return (
        FeeSchedule.objects.filter(village=village, effective_from__lte=on)
        .order_by("-effective_from")
        .first()
    )


# A description of the work, or a parcel's legal description, is a paragraph or a page.
MAX_DESCRIPTION = 5000
# A building permit runs a year or two; one ending before the filing authorises nothing, and
# one said to run more than this is a typing mistake.
BUILDING_PERMIT_YEARS = 10
BUILDING_PERMIT_MAX_DAYS = 366 * BUILDING_PERMIT_YEARS


def application_create(
    *,
    applicant: Any,
    village: Village,
    address: str,
    facts: dict[str, Any],
    on: datetime.date,
    parcel_number: str = "",
    legal_description: str = "",
    description: str = "",
    parties: list[dict[str, str]] = (),  # type: ignore[assignment]
    building_permit_expires: datetime.date | None = None,
    geometry: dict[str, Any] | None = None,
) -> Application:
    """Open a draft application from the facts of a determination (no retyping)."""
    ordinance = _ordinance(village)
    for field, text in (("description", description), ("legal_description", legal_description)):
        if len(str(text)) > MAX_DESCRIPTION or "\x00" in str(text):
            raise ActionRefused(
                errors.TEXT_TOO_LONG.format(field=field, limit=MAX_DESCRIPTION), field=field
            )
    if building_permit_expires is not None and not (
        on <= building_permit_expires <= on + datetime.timedelta(days=BUILDING_PERMIT_MAX_DAYS)
    ):
        raise ActionRefused(
            errors.BUILDING_PERMIT_EXPIRY.format(on=on.isoformat(), years=BUILDING_PERMIT_YEARS),
            field="building_permit_expires",
        )
    result = determine(village.id, facts, on)
    if not result.applies:
        raise ActionRefused(
            errors.CHAPTER_DOES_NOT_APPLY.format(village=ordinance.name, chapter=ordinance.chapter),
            field="facts",
        )
    answer = result.to_json()
    fee = fee_in_force(village, on)
    with transaction.atomic():
        site = Site.objects.create(
            village=village,
            address=address,
            parcel_number=parcel_number,
            legal_description=legal_description,
            geometry=geometry,
        )
        application = Application.objects.create(
            village=village,
            number=_number(_village_prefix(village), village, Application),
            applicant=applicant,
            site=site,
            description=description,
            facts=answer["facts"],
            determination=answer,
            ordinance_version=answer["ordinance"]["version"],
            plan_kind=answer["plan"]["kind"] if answer["plan"] else "",
            building_permit_expires=building_permit_expires,
            fee_amount=fee.amount if fee else None,
        )
        for party in parties:
            Party.objects.create(application=application, **party)
        event_record(
            actor=applicant,
            entity="application",
            entity_id=application.pk,
            action="application_create",
            village=village.id,
            citation=answer["findings"][0]["citation"],
            after={
                **_snapshot(application),
                "number": application.number,
                "facts": answer["facts"],
            },
        )
    return application


def application_facts_update(
    *, application: Application, user: Any, facts: dict[str, Any], on: datetime.date, reason: str
) -> None:
    """Determine a draft again on new facts (for example, areas measured on the site's
    geometry), so the plan required and its checklist follow what was measured.

    Call inside the transaction that holds the application's row lock. A plan of another
    kind starts its checklist afresh; a project the chapter no longer covers is refused."""
    ordinance = _ordinance(application.village_id)
    if application.status != ApplicationStatus.DRAFT:
        raise ActionRefused(errors.NOT_DRAFT.format(status=application.status), field="status")
    result = determine(application.village_id, facts, on)
    if not result.applies:
        raise ActionRefused(
            errors.CHAPTER_DOES_NOT_APPLY.format(village=ordinance.name, chapter=ordinance.chapter),
            field="facts",
        )
    answer = result.to_json()
    kind = answer["plan"]["kind"] if answer["plan"] else ""
    _transition(
        application,
        actor=user,
        action="application_facts_update",
        citation=answer["plan"]["citation"] if answer["plan"] else "",
        reason=reason,
        after_extra={"facts": answer["facts"], "plan_kind": kind},
        facts=answer["facts"],
        determination=answer,
        ordinance_version=answer["ordinance"]["version"],
        plan_kind=kind,
        checklist=application.checklist if kind == application.plan_kind else [],
    )


def document_upload(
    *, application: Application, user: Any, kind: str, name: str, content: bytes, claimed_type: str
) -> Document:
    """Store an upload under a server-made name, after checking its size and real type."""
    if not (is_applicant_of(user, application) or is_staff_of(user, application)):
        raise ActionRefused(errors.NOT_YOURS, field="application")
    checked = checked_upload(name=name, content=content, claimed_type=claimed_type, kind=kind)
    with transaction.atomic():
        document = Document(
            application=application,
            kind=kind,
            original_name=checked.display_name,
            content_type=checked.content_type,
            size=len(content),
            sha256=hashlib.sha256(content).hexdigest(),
            uploaded_by=user,
        )
        document.file.save(
            f"{uuid.uuid4().hex}{checked.extension}", ContentFile(content), save=False
        )
        document.save()
        event_record(
            actor=user,
            entity="application",
            entity_id=application.pk,
            action="document_upload",
            village=application.village_id,
            citation=(application.determination.get("plan") or {}).get("citation", ""),
            after={"document": document.pk, "kind": kind, "sha256": document.sha256},
        )
    return document


def _checklist_items(application: Application, items: list[int]) -> list[int]:
    """The ticked items that name a plan content of this application, sorted, once each."""
    contents = (application.determination.get("plan") or {}).get("contents", [])
    return sorted({i for i in items if 0 <= i < len(contents)})


def application_checklist_set(*, application: Application, user: Any, items: list[int]) -> None:
    """The applicant marks which required plan contents the plan holds."""
    _require_applicant(user, application)
    chosen = _checklist_items(application, items)
    with transaction.atomic():
        locked = Application.objects.select_for_update().get(pk=application.pk)
        # The checklist is part of what is filed: it changes only before filing, or when
        # the village has asked for more information.
        if locked.status not in (ApplicationStatus.DRAFT, ApplicationStatus.INFORMATION_REQUESTED):
            raise ActionRefused(
                errors.CHECKLIST_CLOSED.format(status=locked.status), field="status"
            )
        _transition(
            locked,
            actor=user,
            action="application_checklist_set",
            citation=(locked.determination.get("plan") or {}).get("citation", ""),
            checklist=chosen,
        )
    application.refresh_from_db()


def application_fee_due(application: Application, on: datetime.date) -> Decimal | None:
    """The application fee this application owes: for a draft, the fee in force on ``on``
    in the village's schedule (a draft started before a fee was set owes it once it is in
    force); once filed, the fee fixed at filing. ``None`` when no fee, or a fee of $0, is set."""
    if application.status != ApplicationStatus.DRAFT:
        amount = application.fee_amount
    else:
        fee = fee_in_force(application.village, on)
        amount = fee.amount if fee is not None else None
    return amount if amount else None


def _fee_missing(application: Application, on: datetime.date) -> str | None:
    due = application_fee_due(application, on)
    if due is None:
        return None
    if application.fee_paid_on is None:
        return errors.MISSING_FEE.format(amount=due)
    paid = application.fee_amount or Decimal(0)
    if paid < due:
        return errors.MISSING_FEE_BALANCE.format(amount=due, paid=paid, rest=due - paid)
    return None


def application_missing(application: Application, *, on: datetime.date) -> list[str]:
    """What keeps an application from being complete on ``on``, each with its section."""
    plan = application.determination.get("plan") or {}
    contents = plan.get("contents", [])
    missing = [
        f"{item['item']} ({item['citation']})"
        for index, item in enumerate(contents)
        if index not in set(application.checklist)
    ]
    kinds = set(application.documents.values_list("kind", flat=True))
    if not kinds & {DocumentKind.PLAN, DocumentKind.PLAN_STATEMENT}:
        ordinance = _ordinance(application.village_id)
        missing.append(
            errors.MISSING_PLAN_DOCUMENT.format(
                plan=ordinance.words.get("control_plan", "control plan"),
                citation=plan.get("citation", ""),
            )
        )
    fee = _fee_missing(application, on)
    if fee:
        missing.append(fee)
    return missing


def _received_words(application: Application) -> str:
    """What the filing actually received, for the record."""
    if application.fee_paid_on is not None:
        fee = f"the application fee of ${application.fee_amount} paid on {application.fee_paid_on}"
    else:
        fee = "no application fee was due on the filing date"
    return f"complete application and plan received; {fee}"


def application_submit(
    *,
    application: Application,
    user: Any,
    at: datetime.datetime,
    checklist: list[int] | None = None,
) -> None:
    """File the application: complete plan, documents and any fee in force on the filing
    date start the review clock.

    ``checklist`` (optional) is what the applicant ticked on the page when filing: it is
    saved first, in the filing's transaction. If the filing is then refused, the saved
    checklist is kept (it is a complete change of its own) and nothing else is written.
    """
    _require_applicant(user, application)
    ordinance = _ordinance(application.village_id)
    on = timezone.localtime(at, _zone(ordinance)).date()
    refusal: ActionRefused | None = None
    with transaction.atomic():
        locked = Application.objects.select_for_update().get(pk=application.pk)
        if locked.status != ApplicationStatus.DRAFT:
            raise ActionRefused(errors.NOT_DRAFT.format(status=locked.status), field="status")
        if checklist is not None:
            chosen = _checklist_items(locked, checklist)
            if chosen != sorted(locked.checklist):
                _transition(
                    locked,
                    actor=user,
                    action="application_checklist_set",
                    citation=(locked.determination.get("plan") or {}).get("citation", ""),
                    checklist=chosen,
                )
        missing = application_missing(locked, on=on)
        if missing:
            refusal = ActionRefused(
                errors.INCOMPLETE.format(missing="; ".join(missing)), field="application"
            )
        else:
            # Nothing is missing, so any fee in force was paid; with none due, none is kept.
            fee_amount = locked.fee_amount if locked.fee_paid_on is not None else None
            _transition(
                locked,
                actor=user,
                action="application_submit",
                citation=_clock_cite(ordinance, "review_decision"),
                reason=_received_words(locked),
                event="application_received",
                at=at,
                after_extra={"fee_amount": str(fee_amount) if fee_amount is not None else None},
                status=ApplicationStatus.UNDER_REVIEW,
                received_at=at,
                fee_amount=fee_amount,
            )
    application.refresh_from_db()
    if refusal is not None:
        raise refusal


def fee_payment_record(
    *,
    application: Application,
    staff: Any,
    paid_on: datetime.date,
    amount: Decimal,
    correction: str = "",
) -> None:
    """Record the application fee paid. Once recorded, a second recording is refused with
    what is on record (two clerks at once record it once); changing it is a correction,
    with its reason on the audit record."""
    ordinance = _ordinance(application.village_id)
    _require_staff(staff, application, ordinance)
    correction = str(correction).strip()
    if len(correction) > MAX_CONDITION_LENGTH or "\x00" in correction:
        raise ActionRefused(
            errors.SHORT_TEXT.format(field="correction", limit=1000), field="correction"
        )
    with transaction.atomic():
        locked = Application.objects.select_for_update().get(pk=application.pk)
        if locked.fee_paid_on is not None and not correction:
            raise ActionRefused(
                errors.FEE_ALREADY_RECORDED.format(
                    amount=locked.fee_amount, on=locked.fee_paid_on.isoformat()
                ),
                field="amount",
            )
        _transition(
            locked,
            actor=staff,
            action="fee_payment_correct" if locked.fee_paid_on else "fee_payment_record",
            citation=ordinance.parameter("application_fee", paid_on).citation,
            reason=correction,
            after_extra={"amount": str(amount)},
            fee_paid_on=paid_on,
            fee_amount=amount,
        )
    application.refresh_from_db()


def application_information_request(
    *, application: Application, staff: Any, message: str, at: datetime.datetime
) -> InformationRequest:
    """Ask the applicant for needed information in writing (§ 413-8D, § 135-7C(4))."""
    ordinance = _ordinance(application.village_id)
    _require_staff(staff, application, ordinance)
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
        _transition(
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
    ordinance = _ordinance(application.village_id)
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
        _transition(
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
MAX_CONDITION_LENGTH = 1000


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


MAX_SURETY = 10_000_000


def _dollars(amount: Any, field: str) -> Decimal:
    """An amount of money as it was given: whole cents, more than $0, at most
    ``MAX_SURETY``. A fraction of a cent is refused, never rounded away."""
    what = "surety's amount" if field == "surety" else "amount"
    if not isinstance(amount, Decimal) or not amount.is_finite():
        raise ActionRefused(
            errors.SURETY_AMOUNT.format(field=field, what=what, limit=MAX_SURETY), field=field
        )
    if not Decimal(0) < amount <= MAX_SURETY or amount != amount.quantize(Decimal("0.01")):
        raise ActionRefused(
            errors.SURETY_AMOUNT.format(field=field, what=what, limit=MAX_SURETY), field=field
        )
    return amount.quantize(Decimal("0.01"))


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
    ordinance = _ordinance(application.village_id)
    _require_staff(staff, application, ordinance)
    added = _added_conditions(ordinance, conditions or [])
    if surety is not None:
        surety = _dollars(surety, "surety")
    with transaction.atomic():
        locked = Application.objects.select_for_update().get(pk=application.pk)
        _decision_checks(locked, at)
        TimelineEvent.objects.create(application=locked, type="application_approved", at=at)
        if surety is not None:
            _transition(
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
            from siltfence.apps.documents.services import surety_required_document_store

            surety_required_document_store(application=locked)
            application.refresh_from_db()
            return None
        permit = _issue(locked, at=at, added=added, ordinance=ordinance)
        _transition(
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
        from siltfence.apps.documents.services import permit_document_store

        permit_document_store(permit=permit)
    application.refresh_from_db()
    return permit


def _issue(
    locked: Application, *, at: datetime.datetime, added: list[str], ordinance: Ordinance
) -> Permit:
    """The permit, issued at ``at``: its event, its row, its term from the core."""
    from siltfence.apps.permits.clocks import permit_expiry

    fields: dict[str, Any] = {}
    if locked.building_permit_expires:
        fields["building_permit_expires"] = locked.building_permit_expires.isoformat()
    TimelineEvent.objects.create(application=locked, type="permit_issued", at=at, fields=fields)
    return Permit.objects.create(
        application=locked,
        village_id=locked.village_id,
        number=_number(_village_prefix(locked.village) + "-P", locked.village, Permit),
        issued_on=timezone.localtime(at, _zone(ordinance)).date(),
        expires_on=permit_expiry(locked),
        added_conditions=added,
    )


def surety_receive(
    *,
    application: Application,
    staff: Any,
    kind: str,
    amount: Decimal,
    issuer: str,
    reference: str,
    at: datetime.datetime,
    expires_on: datetime.date | None = None,
) -> Permit:
    """The surety the approval required is deposited: record it and issue the permit, whose
    term runs from today (§ 413-8E(1)-(2), § 135-7D, § 135-7G)."""
    ordinance = _ordinance(application.village_id)
    _require_staff(staff, application, ordinance)
    citation = ordinance.rules["permit"]["surety_citation"]
    if kind not in SuretyKind.values:
        raise ActionRefused(errors.SURETY_KIND, field="kind")
    issuer, reference = _short(issuer, "issuer", 200), _short(reference, "reference", 100)
    amount = _dollars(amount, "amount")
    if at > timezone.now():
        raise ActionRefused(errors.SURETY_FUTURE, field="at")
    with transaction.atomic():
        locked = Application.objects.select_for_update().get(pk=application.pk)
        if locked.status != ApplicationStatus.AWAITING_SURETY or locked.surety_required is None:
            raise ActionRefused(
                errors.SURETY_NOT_AWAITED.format(status=locked.get_status_display().lower()),
                field="application",
            )
        if amount < locked.surety_required:
            raise ActionRefused(
                errors.SURETY_SHORT.format(
                    required=locked.surety_required, citation=citation, given=amount
                ),
                field="amount",
            )
        if locked.decided_at and at < locked.decided_at:
            raise ActionRefused(
                errors.DATE_BEFORE_RECEIPT.format(received=locked.decided_at.isoformat()),
                field="at",
            )
        received_on = timezone.localtime(at, _zone(ordinance)).date()
        if expires_on is not None and expires_on <= received_on:
            raise ActionRefused(
                errors.SURETY_EXPIRES_BEFORE.format(expires=expires_on, received=received_on),
                field="expires_on",
            )
        permit = _issue(locked, at=at, added=list(locked.pending_conditions), ordinance=ordinance)
        Surety.objects.create(
            permit=permit,
            kind=kind,
            amount=amount,
            issuer=issuer,
            reference=reference,
            received_on=received_on,
            expires_on=expires_on,
        )
        _transition(
            locked,
            actor=staff,
            action="surety_receive",
            citation=citation,
            reason="",
            after_extra={
                "permit": permit.number,
                "expires_on": permit.expires_on,
                "surety": {
                    "kind": kind,
                    "amount": str(amount),
                    "issuer": issuer,
                    "reference": reference,
                    **({"expires_on": expires_on} if expires_on else {}),
                },
            },
            status=ApplicationStatus.APPROVED,
        )
        from siltfence.apps.documents.services import permit_document_store

        permit_document_store(permit=permit)
    application.refresh_from_db()
    return permit


def _short(text: str, field: str, limit: int) -> str:
    text = str(text).strip()
    if not text or len(text) > limit or "\x00" in text:
        raise ActionRefused(errors.SHORT_TEXT.format(field=field, limit=limit), field=field)
    return text


def application_disapprove(
    *, application: Application, staff: Any, reasons: str, at: datetime.datetime
) -> None:
    """Disapprove, with the reasons in writing (§ 413-8D, § 135-7C(3))."""
    ordinance = _ordinance(application.village_id)
    _require_staff(staff, application, ordinance)
    citation = ordinance.rules["permit"]["disapproval_citation"]
    if not reasons.strip():
        raise ActionRefused(errors.REASONS_REQUIRED.format(citation=citation), field="reasons")
    with transaction.atomic():
        locked = Application.objects.select_for_update().get(pk=application.pk)
        _decision_checks(locked, at)
        _transition(
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
        from siltfence.apps.documents.services import disapproval_document_store

        disapproval_document_store(application=locked)
    application.refresh_from_db()


def _zone(ordinance: Ordinance) -> Any:
    from zoneinfo import ZoneInfo

    return ZoneInfo(ordinance.time_zone)


def _day_moment(permit: Permit, on: datetime.date, ordinance: Ordinance) -> datetime.datetime:
    """The moment recorded for a step given by its day (an extension, the closing): noon in
    the village, but never before the permit's issue, which the timeline counts it from (a
    permit issued at 3 p.m. and extended that day is extended at 3 p.m.). Call after
    checking that ``on`` is not before the day of issue."""
    noon = datetime.datetime.combine(on, datetime.time(12), tzinfo=_zone(ordinance))
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


def permit_extend(
    *, permit: Permit, staff: Any, days: int, on: datetime.date, added_measures: str = ""
) -> PermitExtension:
    """Extend the permit by up to 180 days, possibly adding measures (§ 413-8E(1), § 135-7G)."""
    from siltfence.apps.permits.clocks import permit_expiry
    from siltfence.core.timeline.clocks import extension_refused

    ordinance = _ordinance(permit.village_id)
    _require_staff(staff, permit, ordinance)
    maximum = int(ordinance.parameter("extension_max", on).value or 180)
    citation = ordinance.rules["permit"]["citation"]
    if not 1 <= days <= maximum:
        raise ActionRefused(
            errors.EXTENSION_DAYS.format(max=maximum, citation=citation, days=days), field="days"
        )
    with transaction.atomic():
        locked = Permit.objects.select_for_update().get(pk=permit.pk)
        if locked.status != PermitStatus.ACTIVE:
            raise ActionRefused(
                errors.PERMIT_NOT_ACTIVE.format(status=locked.status), field="permit"
            )
        refused = extension_refused(locked.expires_on, on, citation)
        if refused is not None:
            raise ActionRefused(f"permit: {refused}", field="permit")
        _not_before_issue(locked, on)
        fields: dict[str, Any] = {"days": days}
        if added_measures.strip():
            fields["added_measures"] = [added_measures.strip()]
        at = _day_moment(locked, on, ordinance)
        TimelineEvent.objects.create(
            application_id=locked.application_id, type="permit_extended", at=at, fields=fields
        )
        before = locked.expires_on
        locked.expires_on = permit_expiry(locked.application)
        locked.save(update_fields=["expires_on"])
        extension = PermitExtension.objects.create(
            permit=locked,
            days=days,
            added_measures=added_measures.strip(),
            granted_on=on,
            granted_by=staff,
            expires_before=before,
            expires_after=locked.expires_on,
        )
        event_record(
            actor=staff,
            entity="permit",
            entity_id=locked.pk,
            action="permit_extend",
            village=locked.village_id,
            reason=added_measures.strip(),
            citation=citation,
            before={"expires_on": before},
            after={"expires_on": locked.expires_on, "days": days},
        )
        # The letter and the new permit document are part of the extension.
        from siltfence.apps.documents.services import (
            extension_letter_store,
            permit_document_store,
        )

        extension_letter_store(extension=extension)
        permit_document_store(permit=locked)
    permit.refresh_from_db()
    return extension


MAX_MEASURES_LENGTH = 2000


def permit_close(
    *,
    permit: Permit,
    staff: Any,
    on: datetime.date,
    cover_percent: int | None,
    equivalent_measures: str = "",
    activities_completed: bool = False,
) -> None:
    """Close the permit at final stabilization.

    New Glarus § 135-13: "a uniform perennial vegetative cover has been established, with a
    density of at least 70% of the cover ... or employment of equivalent permanent
    stabilization measures". Staff record the cover, or describe the equivalent measures;
    either closes the permit. Spencer's chapter sets no cover density (§ 413-6), so staff
    record what they found. Where the chapter's final stabilization also needs the work
    finished (New Glarus § 135-13: "all land-disturbing construction activities at the
    construction site have been completed"), staff say so (``activities_completed``).
    """
    ordinance = _ordinance(permit.village_id)
    _require_staff(staff, permit, ordinance)
    final = ordinance.rules["permit"]["final_stabilization"]
    citation = final["citation"]
    if "activities_completed" in final and not activities_completed:
        raise ActionRefused(
            errors.ACTIVITIES_NOT_COMPLETED.format(
                says=final["activities_completed"], citation=citation
            ),
            field="completed",
        )
    measures = equivalent_measures.strip()
    if cover_percent is not None and not 0 <= cover_percent <= 100:
        raise ActionRefused(errors.COVER_OUT_OF_RANGE, field="cover")
    if "\x00" in measures:
        raise ActionRefused(errors.NUL_IN_TEXT.format(field="measures"), field="measures")
    if len(measures) > MAX_MEASURES_LENGTH:
        raise ActionRefused(
            errors.MEASURES_TOO_LONG.format(limit=MAX_MEASURES_LENGTH), field="measures"
        )
    if cover_percent is None and not measures:
        raise ActionRefused(
            errors.STABILIZATION_NOT_RECORDED.format(citation=citation), field="cover"
        )
    if "final_stabilization_cover" in ordinance.parameters and not measures:
        required = ordinance.parameter("final_stabilization_cover", on)
        citation = required.citation
        if (
            required.value is not None
            and cover_percent is not None
            and cover_percent < float(required.value)
        ):
            raise ActionRefused(
                errors.COVER_OR_MEASURES.format(
                    minimum=int(float(required.value)), citation=citation, given=cover_percent
                ),
                field="cover",
            )
    with transaction.atomic():
        locked = Permit.objects.select_for_update().get(pk=permit.pk)
        if locked.status != PermitStatus.ACTIVE:
            raise ActionRefused(
                errors.PERMIT_NOT_ACTIVE.format(status=locked.status), field="permit"
            )
        _not_before_issue(locked, on)
        locked.status = PermitStatus.CLOSED
        locked.closed_on = on
        locked.final_cover_percent = cover_percent
        locked.final_stabilization_measures = measures
        locked.save(
            update_fields=[
                "status",
                "closed_on",
                "final_cover_percent",
                "final_stabilization_measures",
            ]
        )
        TimelineEvent.objects.create(
            application_id=locked.application_id,
            type="final_stabilization",
            at=_day_moment(locked, on, ordinance),
        )
        how = []
        if cover_percent is not None:
            how.append(f"{cover_percent}% perennial cover")
        if measures:
            how.append(f"equivalent permanent stabilization measures: {measures}")
        event_record(
            actor=staff,
            entity="permit",
            entity_id=locked.pk,
            action="permit_close",
            village=locked.village_id,
            reason="final stabilization, " + "; ".join(how),
            citation=citation,
            before={"status": "active"},
            after={
                "status": "closed",
                "closed_on": on,
                "cover_percent": cover_percent,
                **({"equivalent_measures": measures} if measures else {}),
            },
        )
        from siltfence.apps.documents.services import closeout_letter_store

        closeout_letter_store(permit=locked)
    permit.refresh_from_db()


def surety_record(
    *,
    permit: Permit,
    staff: Any,
    kind: str,
    amount: Decimal,
    issuer: str,
    reference: str,
    received_on: datetime.date,
    expires_on: datetime.date | None = None,
) -> Surety:
    """Record a surety bond or letter of credit deposited for an issued permit (§ 413-8E(2),
    § 135-7D): a replacement for one that expires, or one held before this program. A
    surety required at approval is recorded by ``surety_receive``, which issues the permit."""
    ordinance = _ordinance(permit.village_id)
    _require_staff(staff, permit, ordinance)
    if kind not in SuretyKind.values:
        raise ActionRefused(errors.SURETY_KIND, field="kind")
    amount = _dollars(amount, "amount")
    issuer, reference = _short(issuer, "issuer", 200), _short(reference, "reference", 100)
    if received_on > timezone.localdate():
        raise ActionRefused(errors.SURETY_FUTURE, field="received_on")
    if expires_on is not None and expires_on <= received_on:
        raise ActionRefused(
            errors.SURETY_EXPIRES_BEFORE.format(expires=expires_on, received=received_on),
            field="expires_on",
        )
    with transaction.atomic():
        surety = Surety.objects.create(
            permit=permit,
            kind=kind,
            amount=amount,
            issuer=issuer,
            reference=reference,
            received_on=received_on,
            expires_on=expires_on,
        )
        event_record(
            actor=staff,
            entity="permit",
            entity_id=permit.pk,
            action="surety_record",
            village=permit.village_id,
            citation=ordinance.rules["permit"]["surety_citation"],
            after={"kind": kind, "amount": str(amount), "issuer": issuer, "reference": reference},
        )
    return surety


def surety_draw(
    *, surety: Surety, staff: Any, amount: Decimal, on: datetime.date, reason: str
) -> SuretyMovement:
    """Draw on a surety for what the village spent doing the permittee's work. The chapters
    say only what the surety guarantees ("a good faith execution of the approved ... plan
    and any permit conditions", § 413-8E(2), § 135-7D); how it is drawn is the bond's or
    the letter of credit's own terms, so the draw is recorded, not computed."""
    return _surety_move(
        surety=surety, staff=staff, amount=amount, on=on, reason=reason, kind="draw"
    )


def surety_release(
    *,
    surety: Surety,
    staff: Any,
    on: datetime.date,
    amount: Decimal | None = None,
    reason: str = "",
) -> SuretyMovement:
    """Release a surety, in whole (``amount`` None: what is left) or in part, with a letter
    to the permittee."""
    return _surety_move(
        surety=surety, staff=staff, amount=amount, on=on, reason=reason, kind="release"
    )


def _surety_move(
    *,
    surety: Surety,
    staff: Any,
    amount: Decimal | None,
    on: datetime.date,
    reason: str,
    kind: str,
) -> SuretyMovement:
    permit = surety.permit
    ordinance = _ordinance(permit.village_id)
    _require_staff(staff, permit, ordinance)
    reason = str(reason).strip()
    if len(reason) > MAX_MEASURES_LENGTH or "\x00" in reason:
        raise ActionRefused(
            errors.MEASURES_TOO_LONG.format(limit=MAX_MEASURES_LENGTH), field="reason"
        )
    if kind == "draw" and not reason:
        raise ActionRefused(errors.SHORT_TEXT.format(field="reason", limit=2000), field="reason")
    if on > timezone.localdate():
        raise ActionRefused(errors.SURETY_FUTURE, field="on")
    with transaction.atomic():
        locked = Surety.objects.select_for_update().get(pk=surety.pk)
        if locked.released_on is not None:
            raise ActionRefused(
                errors.SURETY_RELEASED.format(on=locked.released_on), field="surety"
            )
        if on < locked.received_on:
            raise ActionRefused(errors.SURETY_DATE.format(received=locked.received_on), field="on")
        balance = locked.balance
        taken = balance if amount is None else _dollars(amount, "amount")
        if not taken > 0:
            raise ActionRefused(errors.SURETY_NOTHING_LEFT, field="amount")
        if taken > balance:
            raise ActionRefused(
                errors.SURETY_OVER_BALANCE.format(amount=taken, balance=balance), field="amount"
            )
        movement = SuretyMovement.objects.create(
            surety=locked, kind=kind, amount=taken, on=on, reason=reason, recorded_by=staff
        )
        if kind == "release" and taken == balance:
            locked.released_on = on
            locked.save(update_fields=["released_on"])
        event_record(
            actor=staff,
            entity="permit",
            entity_id=permit.pk,
            action=f"surety_{kind}",
            village=permit.village_id,
            reason=reason,
            citation=ordinance.rules["permit"]["surety_citation"],
            before={"balance": str(balance)},
            after={"amount": str(taken), "balance": str(balance - taken), "on": on},
        )
        if kind == "release":
            from siltfence.apps.documents.services import surety_release_document_store

            surety_release_document_store(movement=movement)
    return movement


def plan_amendment_request(
    *, permit: Permit, user: Any, trigger: str, description: str, on: datetime.date
) -> PlanAmendment:
    """Ask for written permission to change the plan (§ 413-8E(3)(c); § 135-8B, 7E(3))."""
    if not (is_applicant_of(user, permit.application) or is_staff_of(user, permit)):
        raise ActionRefused(errors.NOT_YOURS, field="application")
    triggers = amendment_triggers(_ordinance(permit.village_id))
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
    ordinance = _ordinance(permit.village_id)
    _require_staff(staff, permit, ordinance)
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
