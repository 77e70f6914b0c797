"""The bills for the village's work: payments on one received and corrected, a cost corrected."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from siltfence.apps.payments import errors
from siltfence.apps.payments.errors import ActionRefused
from siltfence.apps.payments.models import Payment, PaymentPurpose
from siltfence.apps.payments.selectors import invoice_paid_total, last_paid_on
from siltfence.apps.payments.services.entries import (
    _correction_row,
    _lock_payment,
    _payer_of,
    _payment_row,
    _payment_words,
    _unchanged,
    cost_citation,
)
from siltfence.apps.payments.services.reading import _day_read, money_read, reason_read
from siltfence.apps.permits.services.common import require_staff, village_ordinance, village_zone
from siltfence.core.ordinance.model import Ordinance


def _invoice_payment_receive(
    *,
    invoice: Any,
    staff: Any,
    amount: Decimal,
    received_on: datetime.date,
    method: str,
    check_number: str,
    payer: str,
) -> Payment:
    from siltfence.apps.enforcement import errors as enforcement_errors
    from siltfence.apps.enforcement.models import Invoice
    from siltfence.apps.enforcement.services.common import case_audit, case_lock
    from siltfence.apps.enforcement.services.village_work import interest_due

    ordinance = village_ordinance(invoice.case.village_id)
    received_on = _day_read(received_on, start=invoice.issued_on, what="the invoice's date")
    with transaction.atomic():
        case = case_lock(invoice.case)
        locked = Invoice.objects.select_for_update().get(pk=invoice.pk)
        paid = invoice_paid_total(locked)
        owed = locked.principal - paid + interest_due(locked, received_on)
        if owed <= 0:
            raise ActionRefused(errors.INVOICE_PAID.format(number=locked.number), field="amount")
        if amount > owed:
            raise ActionRefused(enforcement_errors.PAYMENT_AMOUNT.format(owed=owed), field="amount")
        if not payer and case.application_id is not None:
            payer = _payer_of(case.application)
        payment = _payment_row(
            village_id=case.village_id,
            staff=staff,
            amount=amount,
            received_on=received_on,
            method=method,
            check_number=check_number,
            payer=payer,
            purpose=PaymentPurpose.INVOICE,
            invoice=locked,
        )
        before = {"invoice": locked.number, "paid": str(locked.paid_amount)}
        _invoice_totals(locked)
        case_audit(
            case,
            actor=staff,
            action="payment_record",
            citation=cost_citation(ordinance),
            before=before,
            after={
                "invoice": locked.number,
                **_payment_words(payment),
                "paid": str(locked.paid_amount),
            },
        )
    invoice.refresh_from_db()
    return payment


def _invoice_totals(locked: Any) -> None:
    """The invoice's paid amount and last day of payment, from the payments that count."""
    payments = Payment.objects.filter(invoice=locked)
    locked.paid_amount = invoice_paid_total(locked)
    locked.paid_on = last_paid_on(payments)
    locked.save(update_fields=["paid_amount", "paid_on"])


def _invoice_payment_correct(
    *,
    payment: Payment,
    staff: Any,
    ordinance: Ordinance,
    reason: str,
    money: Decimal,
    day: datetime.date,
    method: str,
    check_number: str,
) -> Payment:
    from siltfence.apps.enforcement.models import EnforcementCase, Invoice
    from siltfence.apps.enforcement.services.common import case_audit, case_lock
    from siltfence.apps.enforcement.services.village_work import interest_due

    # A payment not for an application is for an invoice (``payment_for_one_thing``).
    assert payment.invoice_id is not None
    invoice = Invoice.objects.get(pk=payment.invoice_id)
    case = case_lock(EnforcementCase.objects.get(pk=invoice.case_id))
    locked = Invoice.objects.select_for_update().get(pk=invoice.pk)
    day = _day_read(day, start=locked.issued_on, what="the invoice's date")
    original = _lock_payment(payment)
    if _unchanged(original, money, day, method, check_number):
        raise ActionRefused(errors.NOTHING_CHANGES, field="amount")
    after = invoice_paid_total(locked) - original.amount + money
    owed = locked.principal + interest_due(locked, day)
    if after > owed:
        raise ActionRefused(
            errors.CORRECTED_PAYMENTS_EXCEED.format(paid=after, owed=owed), field="amount"
        )
    correction = _correction_row(
        original,
        staff=staff,
        amount=money,
        received_on=day,
        method=method,
        check_number=check_number,
        reason=reason,
        invoice=locked,
    )
    before = {"invoice": locked.number, "paid": str(locked.paid_amount)}
    _invoice_totals(locked)
    case_audit(
        case,
        actor=staff,
        action="payment_correct",
        citation=cost_citation(ordinance),
        reason=reason,
        before=before,
        after={
            "invoice": locked.number,
            "corrects": _payment_words(original),
            **_payment_words(correction),
            "paid": str(locked.paid_amount),
        },
    )
    return correction


def work_cost_correct(*, cost: Any, staff: Any, amount: Any, reason: str) -> Any:
    """Correct a cost of the village's work entered wrong (§ 413-10E, § 135-11E): a new
    entry with the right amount ($0.00 for a cost that was not incurred) and why. On a bill,
    the bill's total follows the correction, so its balance and interest do too; a bill
    already certified to the tax roll is not corrected here."""
    from siltfence.apps.enforcement.documents import document_store
    from siltfence.apps.enforcement.models import Invoice, WorkCost
    from siltfence.apps.enforcement.services.common import case_audit, case_lock

    ordinance = village_ordinance(cost.case.village_id)
    require_staff(staff, cost.case, ordinance)
    money = money_read(amount, nothing_allowed=True)
    reason = reason_read(reason)
    with transaction.atomic():
        case = case_lock(cost.case)
        invoice = (
            Invoice.objects.select_for_update().get(pk=cost.invoice_id)
            if cost.invoice_id is not None
            else None
        )
        original = WorkCost.objects.select_for_update().get(pk=cost.pk)
        later = WorkCost.objects.filter(corrects=original).first()
        if later is not None:
            raise ActionRefused(
                errors.ALREADY_CORRECTED.format(
                    what="cost", by=f"the entry of {later.incurred_on} for ${later.amount}"
                ),
                field="cost",
            )
        if money == original.amount:
            raise ActionRefused(errors.NOTHING_CHANGES, field="amount")
        total = None
        if invoice is not None:
            if invoice.certified_on is not None:
                raise ActionRefused(
                    errors.COST_CERTIFIED.format(number=invoice.number, day=invoice.certified_on),
                    field="cost",
                )
            total = invoice.principal - original.amount + money
            if total <= 0:
                raise ActionRefused(
                    errors.COST_INVOICE_EMPTY.format(number=invoice.number), field="amount"
                )
            if (
                money > original.amount
                and case.actions.filter(
                    kind="costs_unpaid", details__invoice=invoice.number
                ).exists()
            ):
                raise ActionRefused(
                    errors.COST_RAISED_AFTER_UNPAID.format(number=invoice.number), field="amount"
                )
            paid = invoice_paid_total(invoice)
            if total < paid:
                raise ActionRefused(
                    errors.COST_BELOW_PAID.format(number=invoice.number, total=total, paid=paid),
                    field="amount",
                )
        corrected = WorkCost.objects.create(
            case=case,
            category=original.category,
            description=original.description,
            amount=money,
            incurred_on=original.incurred_on,
            recorded_by=staff,
            recorded_at=timezone.now(),
            invoice=invoice,
            corrects=original,
            reason=reason,
        )
        before: dict[str, Any] = {"cost": original.pk, "amount": str(original.amount)}
        after: dict[str, Any] = {"cost": corrected.pk, "amount": str(money)}
        if invoice is not None:
            assert total is not None  # worked out above for the invoice
            before |= _bill_words(invoice)
            _bill_corrected(invoice, total, village_zone(ordinance))
            after |= _bill_words(invoice)
        case_audit(
            case,
            actor=staff,
            action="work_cost_correct",
            citation=cost_citation(ordinance),
            reason=reason,
            before=before,
            after=after,
        )
        if invoice is not None:
            # The corrected bill, to serve like the first: the one sent stays on the record.
            bill = case.actions.filter(kind="invoice", details__invoice=invoice.number).first()
            document_store(case=case, action=bill, kind="invoice")
    return corrected


def _bill_words(invoice: Any) -> dict[str, Any]:
    return {
        "invoice": invoice.number,
        "principal": str(invoice.principal),
        "due_on": invoice.due_on.isoformat(),
    }


def _bill_corrected(invoice: Any, total: Decimal, zone: datetime.tzinfo) -> None:
    """The bill's total follows a corrected cost. Only what was billed may be charged to the
    tax roll once it is past due (§ 413-10E, § 135-11E: "fails to pay the amount due"), so a
    bill corrected to more is a new bill for its whole amount: due after the same term as
    the first, counted from the day of the correction (gap ``corrected-bill``). A bill
    corrected to less keeps its due day."""
    fields = ["principal"]
    if total > invoice.principal:
        today = timezone.now().astimezone(zone).date()
        invoice.due_on = max(invoice.due_on, today + (invoice.due_on - invoice.issued_on))
        fields.append("due_on")
    invoice.principal = total
    invoice.save(update_fields=fields)
