"""Every write of the village's books: money received (with its receipt number), and the
corrections of a payment, an application's fee or a cost of village work.

Each runs in one transaction. It checks who acts (only the village's own staff), reads
what was typed strictly, locks the record the money is for, checks the figures against
what is owed inside that lock, writes, and appends the change to the audit chain. A
correction is a new entry naming the one it corrects, with the reason: nothing is ever
updated in place or deleted, and only the entries not corrected count in a total.
"""

from __future__ import annotations

import datetime
import re
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.utils import timezone

from siltfence.apps.payments import errors
from siltfence.apps.payments.errors import ActionRefused
from siltfence.apps.payments.models import (
    FEE_PURPOSES,
    MAX_CHECK_NUMBER,
    MAX_MONEY,
    MAX_PAYER,
    MAX_REASON,
    FeeCorrection,
    Payment,
    PaymentMethod,
    PaymentPurpose,
    ReceiptCounter,
)
from siltfence.apps.payments.selectors import (
    fee_corrected,
    fee_of_draft,
    fee_paid_total,
    invoice_paid_total,
    last_paid_on,
)
from siltfence.apps.permits.services.common import (
    _ordinance,
    _require_staff,
    _transition,
)
from siltfence.core.ordinance.model import Ordinance

# Dollars as a clerk types them: digits 0-9 only (never other scripts' digits, never an
# exponent), thousands marked with commas or not at all, at most two decimals.
_MONEY = re.compile(r"\$?(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]{1,2})?")
_CHECK_NUMBER = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]*")


# -- what was typed ----------------------------------------------------------------------------


def money_read(value: Any, field: str = "amount", *, nothing_allowed: bool = False) -> Decimal:
    """A dollar amount: more than $0 (or $0 itself, for a correction to nothing) and at most
    $1,000,000, in whole cents."""
    message = (errors.AMOUNT_OR_NOTHING if nothing_allowed else errors.AMOUNT).format(field=field)
    if isinstance(value, bool) or value is None or isinstance(value, float):
        raise ActionRefused(message, field=field)
    if isinstance(value, Decimal | int):
        if isinstance(value, Decimal) and not value.is_finite():
            raise ActionRefused(message, field=field)
        text = format(value, "f")
    else:
        text = str(value).strip()
    if len(text) > 20 or not _MONEY.fullmatch(text):
        raise ActionRefused(message, field=field)
    try:
        amount = Decimal(text.removeprefix("$").replace(",", ""))
    except InvalidOperation:  # pragma: no cover - the pattern admits only numbers
        raise ActionRefused(message, field=field) from None
    if amount > MAX_MONEY or amount < 0 or (amount == 0 and not nothing_allowed):
        raise ActionRefused(message, field=field)
    return amount.quantize(Decimal("0.01"))


_AREA = re.compile(r"(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]{1,4})?")
MAX_AREA = Decimal(1_000_000)


def area_read(value: Any) -> Decimal:
    """The area a fee schedule's base amount covers, in the schedule's unit (0 when empty)."""
    if value is None or value == "":
        return Decimal(0)
    if isinstance(value, bool | float):
        raise ActionRefused(errors.AREA_INCLUDED, field="area_included")
    text = format(value, "f") if isinstance(value, Decimal | int) else str(value).strip()
    if len(text) > 20 or not _AREA.fullmatch(text):
        raise ActionRefused(errors.AREA_INCLUDED, field="area_included")
    area = Decimal(text.replace(",", ""))
    if area > MAX_AREA:
        raise ActionRefused(errors.AREA_INCLUDED, field="area_included")
    return area


def fee_terms_read(
    *,
    amount: Any,
    per_area_amount: Any,
    area_unit: Any,
    area_included: Decimal,
    reinspection_fee: Any,
) -> dict[str, Any]:
    """A fee schedule's amounts as the village set them: the base (may be $0), an amount
    per unit of disturbed area with its unit (or neither), and a re-inspection fee (or
    none). Each is refused, naming its field, unless it is dollars and cents from $0 to
    $1,000,000."""
    from siltfence.apps.permits.models import FeeAreaUnit

    def optional(value: Any, field: str) -> Decimal | None:
        if value is None or value == "":
            return None
        return money_read(value, field, nothing_allowed=True)

    base = money_read(amount, "amount", nothing_allowed=True)
    per_area = optional(per_area_amount, "per_area_amount")
    unit = str(area_unit or "")
    if unit and unit not in FeeAreaUnit.values:
        raise ActionRefused(errors.AREA_UNIT, field="area_unit")
    if per_area is not None and not unit:
        raise ActionRefused(errors.AREA_UNIT, field="area_unit")
    if unit and per_area is None:
        raise ActionRefused(
            errors.AREA_UNIT_WITHOUT_AMOUNT.format(unit=FeeAreaUnit(unit).label),
            field="per_area_amount",
        )
    if per_area is None and area_included:
        raise ActionRefused(errors.AREA_INCLUDED_WITHOUT_AMOUNT, field="area_included")
    return {
        "amount": base,
        "per_area_amount": per_area,
        "area_unit": unit,
        "area_included": area_included,
        "reinspection_fee": optional(reinspection_fee, "reinspection_fee"),
    }


def _text(value: Any, field: str, limit: int, too_long: str) -> str:
    text = str(value or "").strip()
    if len(text) > limit:
        raise ActionRefused(too_long.format(length=len(text)), field=field)
    if any(ord(ch) < 32 and ch not in "\n\t\r" for ch in text) or "\x7f" in text:
        raise ActionRefused(errors.CONTROL_CHARACTERS.format(field=field), field=field)
    return text


def reason_read(value: Any) -> str:
    reason = _text(value, "reason", MAX_REASON, errors.REASON_TOO_LONG)
    if not reason:
        raise ActionRefused(errors.REASON_REQUIRED, field="reason")
    return reason


def method_read(method: Any, check_number: Any) -> tuple[str, str]:
    """How the money came, and a check's number (required for a check, and only then)."""
    if method not in PaymentMethod.values:
        raise ActionRefused(errors.METHOD, field="method")
    number = str(check_number or "").strip()
    if method != PaymentMethod.CHECK:
        if number:
            raise ActionRefused(errors.CHECK_NUMBER_NOT_A_CHECK, field="check_number")
        return str(method), ""
    if not number:
        raise ActionRefused(errors.CHECK_NUMBER_REQUIRED, field="check_number")
    if len(number) > MAX_CHECK_NUMBER or not _CHECK_NUMBER.fullmatch(number):
        raise ActionRefused(errors.CHECK_NUMBER_FORM, field="check_number")
    return str(method), number.upper()


def _day_read(day: Any, *, start: datetime.date, what: str) -> datetime.date:
    if not isinstance(day, datetime.date) or isinstance(day, datetime.datetime):
        raise ActionRefused(
            "received_on: give the day the money was received, written YYYY-MM-DD",
            field="received_on",
        )
    if day > timezone.localdate() + datetime.timedelta(days=1):
        raise ActionRefused(errors.DAY_TO_COME.format(day=day.isoformat()), field="received_on")
    if day < start:
        raise ActionRefused(
            f"received_on: {day.isoformat()} is before {what} ({start.isoformat()})",
            field="received_on",
        )
    return day


# -- what the money is for ------------------------------------------------------------------


def fee_citation(ordinance: Ordinance, on: datetime.date) -> str:
    """The section that requires the application fee (Spencer § 413-8A, New Glarus § 135-9)."""
    return str(ordinance.parameter("application_fee", on).citation)


def cost_citation(ordinance: Ordinance) -> str:
    """The section under which the village does the work and recovers its costs (Spencer
    § 413-10E, New Glarus § 135-11E)."""
    return next(
        (
            str(rule["citation"])
            for rule in ordinance.rules["enforcement"]["actions"]
            if rule["action"] == "begin_village_work"
        ),
        "",
    )


def _receipt_number(village_id: str, year: int) -> str:
    """The next receipt number of the village in ``year``, e.g. SP-R-2026-0001. Call inside
    the transaction that writes the payment: the counter's row stays locked until it
    commits, so no two receipts of a village share a number."""
    ReceiptCounter.objects.get_or_create(village_id=village_id, year=year)
    counter = ReceiptCounter.objects.select_for_update().get(village_id=village_id, year=year)
    counter.last += 1
    counter.save(update_fields=["last"])
    # The village's initials, as its application numbers have them: SP, NG.
    parts = village_id.split("-")[:-1]
    prefix = (parts[0][:2] if len(parts) == 1 else "".join(p[0] for p in parts)).upper()
    return f"{prefix}-R-{year}-{counter.last:04d}"


def _correction_row(
    original: Payment,
    *,
    staff: Any,
    amount: Decimal,
    received_on: datetime.date,
    method: str,
    check_number: str,
    reason: str,
    application: Any = None,
    invoice: Any = None,
) -> Payment:
    """The entry that corrects ``original``: the same village, payer and purpose, the
    figures as they should have been, and why."""
    return _payment_row(
        village_id=original.village_id,
        staff=staff,
        amount=amount,
        received_on=received_on,
        method=method,
        check_number=check_number,
        payer=original.payer,
        purpose=original.purpose,
        application=application,
        invoice=invoice,
        corrects=original,
        reason=reason,
    )


def _payment_row(
    *,
    village_id: str,
    staff: Any,
    amount: Decimal,
    received_on: datetime.date,
    method: str,
    check_number: str,
    payer: str,
    purpose: str,
    application: Any = None,
    invoice: Any = None,
    corrects: Payment | None = None,
    reason: str = "",
) -> Payment:
    return Payment.objects.create(
        village_id=village_id,
        application=application,
        invoice=invoice,
        purpose=purpose,
        amount=amount,
        received_on=received_on,
        method=method,
        check_number=check_number,
        payer=payer,
        received_by=staff,
        recorded_at=timezone.now(),
        receipt_number=_receipt_number(village_id, received_on.year),
        corrects=corrects,
        reason=reason,
    )


def _payer_of(application: Any) -> str:
    party = application.parties.filter(
        role__in=["landowner", "responsible_party", "land_user"]
    ).first()
    if party is not None:
        return str(party.name)[:MAX_PAYER]
    user = application.applicant
    return str(user.get_full_name() or user.get_username())[:MAX_PAYER]


def _payment_words(payment: Payment) -> dict[str, Any]:
    return {
        "receipt": payment.receipt_number,
        "purpose": payment.purpose,
        "amount": str(payment.amount),
        "received_on": payment.received_on.isoformat(),
        "method": payment.method,
        "check_number": payment.check_number,
    }


# -- application fees -------------------------------------------------------------------------


def _fee_owed(locked: Any, on: datetime.date) -> tuple[Decimal | None, Decimal]:
    from siltfence.apps.permits.services import application_fee_due

    return application_fee_due(locked, on), fee_paid_total(locked)


def _reinspection_fee(village_id: str, on: datetime.date) -> Any:
    from siltfence.apps.permits.services.village import fee_in_force

    schedule = fee_in_force(village_id, on)
    if schedule is None or not schedule.reinspection_fee:
        raise ActionRefused(errors.NO_REINSPECTION_FEE.format(day=on.isoformat()), field="purpose")
    return schedule


def _fee_payment_receive(
    *,
    application: Any,
    staff: Any,
    purpose: str,
    amount: Decimal,
    received_on: datetime.date,
    method: str,
    check_number: str,
    payer: str,
) -> Payment:
    from siltfence.apps.permits.models import Application

    ordinance = _ordinance(application.village_id)
    received_on = _day_read(received_on, start=ordinance.adopted, what="the chapter's adoption")
    with transaction.atomic():
        locked = Application.objects.select_for_update().get(pk=application.pk)
        if purpose == PaymentPurpose.APPLICATION_FEE:
            due, paid = _fee_owed(locked, received_on)
            if due is None:
                raise ActionRefused(errors.NO_FEE_DUE.format(number=locked.number), field="amount")
            owed = due - paid
            if owed <= 0:
                raise ActionRefused(errors.FEE_PAID.format(due=due, paid=paid), field="amount")
            if amount > owed:
                raise ActionRefused(
                    errors.FEE_OVERPAID.format(amount=amount, owed=owed, due=due), field="amount"
                )
        else:
            schedule = _reinspection_fee(locked.village_id, received_on)
            if amount != schedule.reinspection_fee:
                raise ActionRefused(
                    errors.REINSPECTION_AMOUNT.format(
                        day=received_on.isoformat(),
                        fee=schedule.reinspection_fee,
                        authority=schedule.authority,
                    ),
                    field="amount",
                )
        payment = _payment_row(
            village_id=locked.village_id,
            staff=staff,
            amount=amount,
            received_on=received_on,
            method=method,
            check_number=check_number,
            payer=payer or _payer_of(locked),
            purpose=purpose,
            application=locked,
        )
        # A draft's fee is worked out afresh each day from the schedule; the one it was
        # paid against is kept with it, for the lists.
        fixed: dict[str, Any] = {}
        if purpose == PaymentPurpose.APPLICATION_FEE and locked.status == "draft":
            computed = None if fee_corrected(locked) else fee_of_draft(locked, received_on)
            if computed is not None and locked.fee_amount != computed.amount:
                fixed = {"fee_amount": computed.amount, "fee_basis": computed.words}
        _transition(
            locked,
            actor=staff,
            action="fee_payment_record",
            citation=fee_citation(ordinance, received_on),
            after_extra={**_payment_words(payment), "paid": str(fee_paid_total(locked))},
            **_fee_paid_on(locked),
            **fixed,
        )
    application.refresh_from_db()
    return payment


def _fee_paid_on(locked: Any) -> dict[str, Any]:
    """The application's day of payment, kept for the lists: the latest payment of its fee
    that counts, or none."""
    return {
        "fee_paid_on": last_paid_on(
            Payment.objects.filter(application=locked, purpose=PaymentPurpose.APPLICATION_FEE)
        )
    }


# -- invoices ---------------------------------------------------------------------------------


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
    from siltfence.apps.enforcement.services.common import _audit, _lock
    from siltfence.apps.enforcement.services.village_work import interest_due

    ordinance = _ordinance(invoice.case.village_id)
    received_on = _day_read(received_on, start=invoice.issued_on, what="the invoice's date")
    with transaction.atomic():
        case = _lock(invoice.case)
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
        _audit(
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
    return payment


def _invoice_totals(locked: Any) -> None:
    """The invoice's paid amount and last day of payment, from the payments that count."""
    payments = Payment.objects.filter(invoice=locked)
    locked.paid_amount = invoice_paid_total(locked)
    locked.paid_on = last_paid_on(payments)
    locked.save(update_fields=["paid_amount", "paid_on"])


# -- the services -----------------------------------------------------------------------------


def payment_receive(
    *,
    staff: Any,
    amount: Any,
    received_on: datetime.date,
    method: str,
    check_number: str = "",
    payer: str = "",
    application: Any = None,
    invoice: Any = None,
    purpose: str = PaymentPurpose.APPLICATION_FEE,
) -> Payment:
    """Record money received for an application's fee (or one re-inspection), or for an
    invoice of the village's work, and give it the village's next receipt number of the
    year. A payment is at most what is still owed; a re-inspection is the fee the schedule
    in force sets for one."""
    if (application is None) == (invoice is None):
        raise ValueError("payment_receive: give an application or an invoice")
    subject = application if application is not None else invoice.case
    _require_staff(staff, subject, _ordinance(subject.village_id))
    if application is not None and purpose not in FEE_PURPOSES:
        raise ActionRefused(errors.PURPOSE, field="purpose")
    money = money_read(amount)
    method, check_number = method_read(method, check_number)
    payer = _text(payer, "payer", MAX_PAYER, errors.PAYER_TOO_LONG)
    if application is not None:
        return _fee_payment_receive(
            application=application,
            staff=staff,
            purpose=str(purpose),
            amount=money,
            received_on=received_on,
            method=method,
            check_number=check_number,
            payer=payer,
        )
    return _invoice_payment_receive(
        invoice=invoice,
        staff=staff,
        amount=money,
        received_on=received_on,
        method=method,
        check_number=check_number,
        payer=payer,
    )


def payment_correct(
    *,
    payment: Payment,
    staff: Any,
    reason: str,
    amount: Any,
    received_on: datetime.date | None = None,
    method: str | None = None,
    check_number: str | None = None,
) -> Payment:
    """Correct a payment entered wrong: a new entry, with its own receipt number, says what
    the payment was (an amount of $0.00 if none was received) and why; the entry it
    corrects stays, marked corrected, and no longer counts. What is not given is kept."""
    ordinance = _ordinance(payment.village_id)
    _require_staff(staff, payment, ordinance)
    reason = reason_read(reason)
    money = money_read(amount, nothing_allowed=True)
    method, check_number = method_read(
        payment.method if method is None else method,
        (payment.check_number if method is None else "") if check_number is None else check_number,
    )
    day = payment.received_on if received_on is None else received_on
    with transaction.atomic():
        if payment.application_id is not None:
            return _fee_payment_correct(
                payment=payment,
                staff=staff,
                ordinance=ordinance,
                reason=reason,
                money=money,
                day=day,
                method=method,
                check_number=check_number,
            )
        return _invoice_payment_correct(
            payment=payment,
            staff=staff,
            ordinance=ordinance,
            reason=reason,
            money=money,
            day=day,
            method=method,
            check_number=check_number,
        )


def _unchanged(original: Payment, money: Decimal, day: Any, method: str, number: str) -> bool:
    return (original.amount, original.received_on, original.method, original.check_number) == (
        money,
        day,
        method,
        number,
    )


def _lock_payment(payment: Payment) -> Payment:
    locked = Payment.objects.select_for_update().get(pk=payment.pk)
    later = Payment.objects.filter(corrects=locked).values_list("receipt_number", flat=True)
    if later:
        raise ActionRefused(
            errors.ALREADY_CORRECTED.format(what="payment", by=f"receipt {later[0]}"),
            field="payment",
        )
    return locked


def _fee_payment_correct(
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
    from siltfence.apps.permits.models import Application

    day = _day_read(day, start=ordinance.adopted, what="the chapter's adoption")
    locked_application = Application.objects.select_for_update().get(pk=payment.application_id)
    original = _lock_payment(payment)
    if _unchanged(original, money, day, method, check_number):
        raise ActionRefused(errors.NOTHING_CHANGES, field="amount")
    if original.purpose == PaymentPurpose.APPLICATION_FEE:
        due, paid = _fee_owed(locked_application, day)
        after = paid - original.amount + money
        if after > (due or Decimal(0)):
            raise ActionRefused(
                errors.CORRECTED_PAYMENTS_EXCEED.format(paid=after, owed=due or Decimal("0.00")),
                field="amount",
            )
    elif money:
        schedule = _reinspection_fee(locked_application.village_id, day)
        if money != schedule.reinspection_fee:
            raise ActionRefused(
                errors.REINSPECTION_AMOUNT.format(
                    day=day.isoformat(), fee=schedule.reinspection_fee, authority=schedule.authority
                ),
                field="amount",
            )
    correction = _correction_row(
        original,
        staff=staff,
        amount=money,
        received_on=day,
        method=method,
        check_number=check_number,
        reason=reason,
        application=locked_application,
    )
    _transition(
        locked_application,
        actor=staff,
        action="fee_payment_correct",
        citation=fee_citation(ordinance, day),
        reason=reason,
        after_extra={
            "corrects": _payment_words(original),
            **_payment_words(correction),
            "paid": str(fee_paid_total(locked_application)),
        },
        **_fee_paid_on(locked_application),
    )
    return correction


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
    from siltfence.apps.enforcement.services.common import _audit, _lock
    from siltfence.apps.enforcement.services.village_work import interest_due

    invoice = Invoice.objects.get(pk=payment.invoice_id)
    case = _lock(EnforcementCase.objects.get(pk=invoice.case_id))
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
    _audit(
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


def application_fee_correct(
    *, application: Any, staff: Any, amount: Any, reason: str
) -> FeeCorrection:
    """Correct an application's fee (worked out from a schedule entered wrong, or from a
    wrong area): the new figure and why. The figure it replaces stays on the record; the
    fee can no longer fall below what is already recorded as paid."""
    from siltfence.apps.permits.models import Application

    ordinance = _ordinance(application.village_id)
    _require_staff(staff, application, ordinance)
    money = money_read(amount, nothing_allowed=True)
    reason = reason_read(reason)
    today = timezone.localdate()
    with transaction.atomic():
        locked = Application.objects.select_for_update().get(pk=application.pk)
        before, paid = _fee_owed(locked, today)
        if money == (before or Decimal(0)):
            raise ActionRefused(errors.NOTHING_CHANGES, field="amount")
        if money < paid:
            raise ActionRefused(errors.FEE_BELOW_PAID.format(paid=paid), field="amount")
        correction = FeeCorrection.objects.create(
            application=locked,
            amount_before=before,
            amount=money,
            reason=reason,
            corrected_by=staff,
            corrected_at=timezone.now(),
        )
        _transition(
            locked,
            actor=staff,
            action="fee_correct",
            citation=fee_citation(ordinance, today),
            reason=reason,
            after_extra={
                "fee_before": str(before) if before is not None else None,
                "fee": str(money),
            },
            fee_amount=money,
        )
    application.refresh_from_db()
    return correction


def work_cost_correct(*, cost: Any, staff: Any, amount: Any, reason: str) -> Any:
    """Correct a cost of the village's work entered wrong (§ 413-10E, § 135-11E): a new
    entry with the right amount ($0.00 for a cost that was not incurred) and why. On a bill,
    the bill's total follows the correction, so its balance and interest do too; a bill
    already certified to the tax roll is not corrected here."""
    from siltfence.apps.enforcement.models import Invoice, WorkCost
    from siltfence.apps.enforcement.services.common import _audit, _lock

    ordinance = _ordinance(cost.case.village_id)
    _require_staff(staff, cost.case, ordinance)
    money = money_read(amount, nothing_allowed=True)
    reason = reason_read(reason)
    with transaction.atomic():
        case = _lock(cost.case)
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
            before |= {"invoice": invoice.number, "principal": str(invoice.principal)}
            invoice.principal = total
            invoice.save(update_fields=["principal"])
            after |= {"invoice": invoice.number, "principal": str(total)}
        _audit(
            case,
            actor=staff,
            action="work_cost_correct",
            citation=cost_citation(ordinance),
            reason=reason,
            before=before,
            after=after,
        )
    return corrected


def village_address_set(*, village: Any, staff: Any, address: str) -> Any:
    """The village office's mailing address, as printed on its receipts."""
    from siltfence.apps.audit.chain import event_record
    from siltfence.apps.permits.models import Village

    ordinance = _ordinance(village)
    _require_staff(staff, village, ordinance)
    text = _text(address, "address", 300, errors.ADDRESS_TOO_LONG)
    with transaction.atomic():
        locked = Village.objects.select_for_update().get(pk=village.pk)
        before = {"address": locked.address}
        locked.address = text
        locked.save(update_fields=["address"])
        event_record(
            actor=staff,
            entity="village",
            entity_id=0,
            action="village_address_set",
            village=locked.id,
            citation=fee_citation(ordinance, timezone.localdate()),
            before=before,
            after={"address": text},
        )
    village.address = text
    return locked
