"""An application's fee: money received for it, a payment of it corrected, the fee corrected."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from siltfence.apps.payments import errors
from siltfence.apps.payments.errors import ActionRefused
from siltfence.apps.payments.models import FeeCorrection, Payment, PaymentPurpose
from siltfence.apps.payments.selectors import (
    fee_of_draft,
    fee_paid_total,
    last_paid_on,
)
from siltfence.apps.payments.services.entries import (
    _correction_row,
    _lock_payment,
    _payer_of,
    _payment_row,
    _payment_words,
    _unchanged,
    fee_citation,
)
from siltfence.apps.payments.services.reading import _day_read, money_read, reason_read
from siltfence.apps.permits.services.common import (
    application_transition,
    require_staff,
    village_ordinance,
)
from siltfence.core.ordinance.model import Ordinance


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

    ordinance = village_ordinance(application.village_id)
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
            computed = None if locked.fee_corrected else fee_of_draft(locked, received_on)
            if computed is not None and locked.fee_amount != computed.amount:
                fixed = {"fee_amount": computed.amount, "fee_basis": computed.words}
        application_transition(
            locked,
            actor=staff,
            action="fee_payment_record",
            citation=fee_citation(ordinance, received_on),
            after_extra={**_payment_words(payment), "paid": str(fee_paid_total(locked))},
            **_fee_kept(locked),
            **fixed,
        )
    application.refresh_from_db()
    return payment


def _fee_kept(locked: Any) -> dict[str, Any]:
    """What the application keeps of its fee's payments, for filing and the lists: what is
    paid (every payment not corrected) and the day of the latest payment that counts."""
    return {
        "fee_paid": fee_paid_total(locked),
        "fee_paid_on": last_paid_on(
            Payment.objects.filter(application=locked, purpose=PaymentPurpose.APPLICATION_FEE)
        ),
    }


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
    assert payment.application_id is not None  # the caller's test
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
    application_transition(
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
        **_fee_kept(locked_application),
    )
    return correction


def application_fee_correct(
    *, application: Any, staff: Any, amount: Any, reason: str
) -> FeeCorrection:
    """Correct an application's fee (worked out from a schedule entered wrong, or from a
    wrong area): the new figure and why. The figure it replaces stays on the record; the
    fee can no longer fall below what is already recorded as paid."""
    from siltfence.apps.permits.models import Application

    ordinance = village_ordinance(application.village_id)
    require_staff(staff, application, ordinance)
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
        application_transition(
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
            fee_corrected=True,
        )
    application.refresh_from_db()
    return correction
