"""The doors: money received and a payment corrected, and the address receipts print."""

from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction

from siltfence.apps.payments import errors
from siltfence.apps.payments.errors import ActionRefused
from siltfence.apps.payments.models import FEE_PURPOSES, MAX_PAYER, Payment, PaymentPurpose
from siltfence.apps.payments.services.fees import _fee_payment_correct, _fee_payment_receive
from siltfence.apps.payments.services.invoices import (
    _invoice_payment_correct,
    _invoice_payment_receive,
)
from siltfence.apps.payments.services.reading import _text, method_read, money_read, reason_read
from siltfence.apps.permits.services.common import require_staff, village_ordinance


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
    require_staff(staff, subject, village_ordinance(subject.village_id))
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
    ordinance = village_ordinance(payment.village_id)
    require_staff(staff, payment, ordinance)
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
