"""The village's own work on the land: the notice of intent, the work, its costs, the bill
and its interest, payments, and the unpaid costs certified to the tax roll."""

from __future__ import annotations

import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction

from siltfence.apps.audit.chain import event_record
from siltfence.apps.enforcement import errors
from siltfence.apps.enforcement.errors import ActionRefused
from siltfence.apps.enforcement.models import ActionKind, EnforcementAction, EnforcementCase
from siltfence.apps.enforcement.services.common import (
    MAX_DESCRIPTION,
    MAX_TEXT,
    _action_create,
    _document,
    _local_day,
    _not_future,
    _not_future_day,
    _number,
    amount_read,
    case_audit,
    case_lock,
    clean_text,
    event_add,
)
from siltfence.apps.enforcement.services.steps import _lawful_step, lawful
from siltfence.apps.permits.models import Village
from siltfence.apps.permits.services.common import require_staff, village_ordinance, village_zone

GIVEN = ("handed_over", "posted_on_site", "to_be_sent")


def given_read(given: str) -> str:
    if given not in GIVEN:
        raise ActionRefused(errors.GIVEN, field="given")
    return given


def notice_of_intent_issue(
    *,
    case: EnforcementCase,
    staff: Any,
    at: datetime.datetime,
    work: str,
    given: str = "handed_over",
) -> EnforcementAction:
    """The notice of intent to do the work needed to comply (§ 413-10E: from ten days after
    the stop-work order; § 135-11E: after posting it). ``given``: how it was given at
    ``at``: handed to the person (the step as always recorded), posted on the site, or to
    be sent (mailed or emailed, its service recorded when it is): the village's work runs
    from its issuing to the person, as the service records show (decision 46)."""
    _not_future(at)
    ordinance = village_ordinance(case.village_id)
    require_staff(staff, case, ordinance)
    given = given_read(given)
    work = clean_text(work, "work", MAX_DESCRIPTION)
    if not work:
        raise ActionRefused(errors.WORK_REQUIRED, field="work")
    return _lawful_step(
        case,
        "issue_notice_of_intent",
        staff=staff,
        at=at,
        reason=work,
        details={"work": work},
        given=given,
    )


def village_work_begin(
    *, case: EnforcementCase, staff: Any, at: datetime.datetime, note: str = ""
) -> EnforcementAction:
    """The village goes on the land and begins the work (§ 413-10E: after 14 days from the
    notice of intent; § 135-11E: after the notice)."""
    _not_future(at)
    ordinance = village_ordinance(case.village_id)
    require_staff(staff, case, ordinance)
    note = clean_text(note, "note", MAX_DESCRIPTION)
    return _lawful_step(case, "begin_village_work", staff=staff, at=at, note=note)


def work_cost_record(
    *,
    case: EnforcementCase,
    staff: Any,
    category: str,
    description: str,
    amount: Any,
    incurred_on: datetime.date,
) -> Any:
    """A cost of the village's work: labour, equipment, materials or contracts."""
    from siltfence.apps.enforcement.models import CostCategory, WorkCost

    ordinance = village_ordinance(case.village_id)
    require_staff(staff, case, ordinance)
    if category not in CostCategory.values:
        raise ActionRefused(
            errors.COST_CATEGORY.format(choices=", ".join(CostCategory.labels).lower()),
            field="category",
        )
    description = clean_text(description, "description", MAX_TEXT)
    if not description:
        raise ActionRefused(errors.COST_DESCRIPTION, field="description")
    money = amount_read(amount)
    _not_future_day(incurred_on, "date")
    with transaction.atomic():
        locked = case_lock(case)
        work = locked.actions.filter(kind=ActionKind.VILLAGE_WORK).first()
        if work is None:
            raise ActionRefused(errors.NO_WORK, field="village work")
        start = _local_day(ordinance, work.at)
        if incurred_on < start:
            raise ActionRefused(
                errors.COST_BEFORE_WORK.format(start=start, day=incurred_on), field="date"
            )
        cost = WorkCost.objects.create(
            case=locked,
            category=category,
            description=description,
            amount=money,
            incurred_on=incurred_on,
            recorded_by=staff,
        )
        case_audit(
            locked,
            actor=staff,
            action="work_cost_record",
            citation=work.citation,
            after={"cost": cost.pk, "category": category, "amount": str(money)},
        )
    return cost


def interest_due(invoice: Any, on: datetime.date) -> Decimal:
    """Simple interest at the invoice's annual rate on what is still owed, for each day
    after the due date up to ``on`` (none when the authority set no rate)."""
    if invoice.interest_rate_percent is None or on <= invoice.due_on:
        return Decimal("0.00")
    owed = invoice.principal - invoice.paid_amount
    if owed <= 0:
        return Decimal("0.00")
    days = (on - invoice.due_on).days
    interest: Decimal = (
        owed * invoice.interest_rate_percent / Decimal(100) * Decimal(days) / Decimal(365)
    )
    return interest.quantize(Decimal("0.01"))


def invoice_issue(
    *, case: EnforcementCase, staff: Any, on: datetime.date, due_in_days: int = 30
) -> Any:
    """Bill the costs of village work not yet billed. The interest rate is the one the
    authority set and in force on the issue day; with none set, the bill charges no
    interest and says so (docs/decisions)."""
    from siltfence.apps.enforcement.models import Invoice, WorkCost
    from siltfence.apps.enforcement.selectors import interest_rate_in_force

    ordinance = village_ordinance(case.village_id)
    require_staff(staff, case, ordinance)
    if (
        isinstance(due_in_days, bool)
        or not isinstance(due_in_days, int)
        or not 1 <= due_in_days <= 365
    ):
        raise ActionRefused(errors.DUE_DAYS, field="due_in_days")
    _not_future_day(on, "invoice date")
    with transaction.atomic():
        locked = case_lock(case)
        # The costs that count: not corrected by a later entry, and more than nothing.
        costs = list(
            # Only the costs' own rows are locked: the correction is joined to find those
            # not corrected, and PostgreSQL cannot lock the empty side of that join.
            WorkCost.objects.select_for_update(of=("self",)).filter(
                case=locked, invoice__isnull=True, correction__isnull=True, amount__gt=0
            )
        )
        if not costs:
            raise ActionRefused(errors.NO_COSTS, field="costs")
        rate = interest_rate_in_force(locked.village_id, on)
        work = locked.actions.filter(kind=ActionKind.VILLAGE_WORK).first()
        invoice = Invoice.objects.create(
            case=locked,
            number=_number("INV", locked.village_id, Invoice),
            issued_on=on,
            due_on=on + datetime.timedelta(days=due_in_days),
            principal=sum((c.amount for c in costs), Decimal("0.00")),
            interest_rate_percent=rate.annual_percent if rate else None,
            interest_authority=rate.authority if rate else "",
        )
        WorkCost.objects.filter(pk__in=[c.pk for c in costs]).update(invoice=invoice)
        action = _action_create(
            locked,
            kind=ActionKind.INVOICE,
            at=datetime.datetime.combine(on, datetime.time(12), tzinfo=village_zone(ordinance)),
            staff=staff,
            citation=work.citation if work else "",
            details={"invoice": invoice.number, "principal": str(invoice.principal)},
        )
        case_audit(
            locked,
            actor=staff,
            action="invoice_issue",
            citation=action.citation,
            after={
                "invoice": invoice.number,
                "principal": str(invoice.principal),
                "rate": str(invoice.interest_rate_percent) if rate else None,
            },
        )
        _document(locked, action, "invoice")
    return invoice


def costs_unpaid_record(*, invoice: Any, staff: Any, at: datetime.datetime) -> EnforcementAction:
    """The bill is past due and not paid: the precondition of certifying the costs to the
    tax roll (``costs_unpaid``)."""
    from siltfence.apps.enforcement.models import Invoice

    _not_future(at)
    ordinance = village_ordinance(invoice.case.village_id)
    require_staff(staff, invoice.case, ordinance)
    day = _local_day(ordinance, at)
    with transaction.atomic():
        locked_case = case_lock(invoice.case)
        locked = Invoice.objects.select_for_update().get(pk=invoice.pk)
        if day <= locked.due_on:
            raise ActionRefused(
                errors.NOT_DUE_YET.format(number=locked.number, due=locked.due_on), field="date"
            )
        if locked.principal - locked.paid_amount <= 0:
            raise ActionRefused(errors.NOTHING_UNPAID.format(number=locked.number), field="invoice")
        if locked_case.actions.filter(
            kind=ActionKind.COSTS_UNPAID, details__invoice=locked.number
        ).exists():
            raise ActionRefused(errors.ALREADY_UNPAID.format(number=locked.number), field="invoice")
        work = locked_case.actions.filter(kind=ActionKind.VILLAGE_WORK).first()
        action = _action_create(
            locked_case,
            kind=ActionKind.COSTS_UNPAID,
            at=at,
            staff=staff,
            citation=work.citation if work else "",
            details={"invoice": locked.number},
            public=False,
        )
        event_add(locked_case, type="costs_unpaid", at=at, fields={"id": locked.number})
        case_audit(
            locked_case,
            actor=staff,
            action="costs_unpaid_record",
            citation=action.citation,
            after={"invoice": locked.number},
        )
    return action


def tax_roll_certify(*, invoice: Any, staff: Any, at: datetime.datetime) -> EnforcementAction:
    """Certify the unpaid costs to the village's billing officer for the tax roll, as a
    special assessment against the parcel (§ 413-10E and § 66.0703; § 135-11E and Subch.
    VII of Ch. 66), once the costs are recorded as unpaid."""
    from siltfence.apps.enforcement.models import Invoice

    _not_future(at)
    ordinance = village_ordinance(invoice.case.village_id)
    require_staff(staff, invoice.case, ordinance)
    day = _local_day(ordinance, at)
    with transaction.atomic():
        locked_case = case_lock(invoice.case)
        locked = Invoice.objects.select_for_update().get(pk=invoice.pk)
        if locked.certified_on is not None:
            raise ActionRefused(
                errors.ALREADY_CERTIFIED.format(number=locked.number, day=locked.certified_on),
                field="invoice",
            )
        if not locked_case.parcel_number:
            raise ActionRefused(errors.NO_PARCEL, field="parcel number")
        allowed = lawful(locked_case, "certify_special_assessment", at)
        owed = locked.principal - locked.paid_amount
        if owed <= 0:
            raise ActionRefused(errors.NOTHING_UNPAID.format(number=locked.number), field="invoice")
        interest = interest_due(locked, day)
        locked.certified_on = day
        locked.save(update_fields=["certified_on"])
        action = _action_create(
            locked_case,
            kind=ActionKind.CERTIFICATION,
            at=at,
            staff=staff,
            citation=allowed["citation"],
            details={
                "invoice": locked.number,
                "principal_unpaid": str(owed),
                "interest": str(interest),
                "total": str(owed + interest),
                "parcel": locked_case.parcel_number,
            },
        )
        event_add(
            locked_case,
            type="special_assessment_certified",
            at=at,
            fields={"id": locked.number},
        )
        case_audit(
            locked_case,
            actor=staff,
            action="tax_roll_certify",
            citation=allowed["citation"],
            after=action.details,
        )
        _document(locked_case, action, "tax_roll_certification")
    return action


def case_parcel_set(*, case: EnforcementCase, staff: Any, parcel_number: str) -> None:
    ordinance = village_ordinance(case.village_id)
    require_staff(staff, case, ordinance)
    parcel = clean_text(parcel_number, "parcel number", 60)
    if not parcel:
        raise ActionRefused(errors.PARCEL_REQUIRED, field="parcel number")
    with transaction.atomic():
        locked = case_lock(case)
        before = {"parcel_number": locked.parcel_number}
        locked.parcel_number = parcel
        locked.save(update_fields=["parcel_number"])
        case_audit(
            locked,
            actor=staff,
            action="case_parcel_set",
            citation="",
            before=before,
            after={"parcel_number": parcel},
        )


def interest_rate_set(
    *,
    village: Village,
    staff: Any,
    effective_from: datetime.date,
    annual_percent: Any,
    authority: str,
) -> Any:
    """Enter the interest rate the authority set on the costs of village work (§ 413-10E,
    § 135-11E: "plus interest at the rate authorized"), in force from a date."""
    from siltfence.apps.enforcement.models import InterestRate

    ordinance = village_ordinance(village)
    require_staff(staff, village, ordinance)
    text = str(annual_percent).strip().removesuffix("%").strip()
    try:
        rate = Decimal(text)
    except (InvalidOperation, ValueError):
        raise ActionRefused(errors.RATE_INVALID, field="rate") from None
    if not rate.is_finite() or not 0 <= rate <= 100 or rate != rate.quantize(Decimal("0.001")):
        raise ActionRefused(errors.RATE_INVALID, field="rate")
    authority = clean_text(authority, "authority", 200)
    if not authority:
        raise ActionRefused(errors.AUTHORITY_REQUIRED, field="authority")
    citation = next(
        (
            r["citation"]
            for r in ordinance.rules["enforcement"]["actions"]
            if r["action"] == "begin_village_work"
        ),
        "",
    )
    with transaction.atomic():
        entry, created = InterestRate.objects.update_or_create(
            village=village,
            effective_from=effective_from,
            defaults={"annual_percent": rate, "authority": authority},
        )
        event_record(
            actor=staff,
            entity="village",
            entity_id=0,
            action="interest_rate_set",
            village=village.id,
            reason=authority,
            citation=citation,
            after={"effective_from": effective_from, "rate": str(rate), "new": created},
        )
    return entry
