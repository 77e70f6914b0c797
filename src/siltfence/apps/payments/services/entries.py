"""The entries of the books: a payment's row, receipt number and words, the sections cited."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from django.utils import timezone

from siltfence.apps.payments import errors
from siltfence.apps.payments.errors import ActionRefused
from siltfence.apps.payments.models import MAX_PAYER, Payment, ReceiptCounter
from siltfence.core.ordinance.model import Ordinance


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
