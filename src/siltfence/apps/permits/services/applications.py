"""The applicant's side of an application: the draft from a determination, its facts, its
documents and checklist, what is still missing, the fee, and the filing that starts the
review clock."""

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
    Application,
    ApplicationStatus,
    Document,
    DocumentKind,
    Party,
    Site,
    Village,
)
from siltfence.apps.permits.services.common import (
    _clock_cite,
    _number,
    _require_applicant,
    _snapshot,
    _village_prefix,
    application_transition,
    village_ordinance,
    village_zone,
)
from siltfence.apps.permits.services.parties import parties_read
from siltfence.apps.permits.services.village import fee_in_force
from siltfence.apps.permits.uploads import checked_upload
from siltfence.core.fees import FeeComputed, schedule_fee
from siltfence.core.rules import determine

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
    ordinance = village_ordinance(village)
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
    fee = schedule_fee(fee_in_force(village, on), answer["facts"])
    named = parties_read(list(parties))
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
            fee_basis=fee.words if fee else "",
        )
        for party in named:
            Party.objects.create(
                application=application,
                role=party["role"],
                name=party["name"],
                email=party["email"],
                phone=party["phone"],
                address=party["address"],
                street=party["street"],
                city=party["city"],
                state=party["state"],
                zip_code=party["zip_code"],
            )
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
    ordinance = village_ordinance(application.village_id)
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
    application_transition(
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
        application_transition(
            locked,
            actor=user,
            action="application_checklist_set",
            citation=(locked.determination.get("plan") or {}).get("citation", ""),
            checklist=chosen,
        )
    application.refresh_from_db()


def _fee_on(application: Application, on: datetime.date) -> FeeComputed | None:
    """The fee of a draft from the schedule in force on ``on`` and its disturbed area;
    once filed, or once staff corrected it, the fee fixed then."""
    if application.status != ApplicationStatus.DRAFT or application.fee_corrected:
        if application.fee_amount is None:
            return None
        return FeeComputed(application.fee_amount, application.fee_basis)
    return schedule_fee(fee_in_force(application.village, on), application.facts or {})


def application_fee_due(application: Application, on: datetime.date) -> Decimal | None:
    """The application fee this application owes: for a draft, the fee in force on ``on``
    in the village's schedule, for its disturbed area (a draft started before a fee was set
    owes it once it is in force); once filed, the fee fixed at filing; once staff
    corrected it, the corrected fee. ``None`` when no fee, or a fee of $0, is set."""
    fee = _fee_on(application, on)
    return fee.amount if fee is not None and fee.amount else None


def _fee_missing(application: Application, on: datetime.date) -> str | None:
    due = application_fee_due(application, on)
    if due is None:
        return None
    paid = application.fee_paid
    if not paid:
        return errors.MISSING_FEE.format(amount=due)
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
        ordinance = village_ordinance(application.village_id)
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


def _received_words(application: Application, due: Decimal | None) -> str:
    """What the filing actually received, for the record."""
    if due is not None and application.fee_paid_on is not None:
        fee = f"the application fee of ${due} paid on {application.fee_paid_on}"
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
    ordinance = village_ordinance(application.village_id)
    on = timezone.localtime(at, village_zone(ordinance)).date()
    refusal: ActionRefused | None = None
    with transaction.atomic():
        locked = Application.objects.select_for_update().get(pk=application.pk)
        if locked.status != ApplicationStatus.DRAFT:
            raise ActionRefused(errors.NOT_DRAFT.format(status=locked.status), field="status")
        if checklist is not None:
            chosen = _checklist_items(locked, checklist)
            if chosen != sorted(locked.checklist):
                application_transition(
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
            # Nothing is missing, so any fee due was paid; it is fixed now, as worked out
            # on the filing day. With none due, none is kept.
            fee = _fee_on(locked, on)
            fee_amount = fee.amount if fee is not None and fee.amount else None
            application_transition(
                locked,
                actor=user,
                action="application_submit",
                citation=_clock_cite(ordinance, "review_decision"),
                reason=_received_words(locked, fee_amount),
                event="application_received",
                at=at,
                after_extra={"fee_amount": str(fee_amount) if fee_amount is not None else None},
                status=ApplicationStatus.UNDER_REVIEW,
                received_at=at,
                fee_amount=fee_amount,
                fee_basis=fee.words if fee_amount is not None and fee is not None else "",
            )
    application.refresh_from_db()
    if refusal is not None:
        raise refusal
