"""The panels of the village's books on the application and case pages: the fee with how
it was worked out, every payment with its receipt, and every correction, the entries
corrected kept and marked; and for the village's staff, the forms to record and correct."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo

from django import template
from django.utils import timezone

from siltfence.apps.accounts.rules import is_staff_of
from siltfence.apps.payments.forms import (
    CostCorrectForm,
    FeeCorrectForm,
    FeeForm,
    InvoicePaymentForm,
    PaymentCorrectForm,
    money_initial,
)
from siltfence.apps.payments.models import Payment
from siltfence.apps.payments.selectors import fee_ledger, invoice_paid_total
from siltfence.core.ordinance.loader import load

register = template.Library()


def _today(village_id: str) -> Any:
    return timezone.localtime(timezone.now(), ZoneInfo(load(village_id).time_zone)).date()


def _correct_form(payment: Payment) -> PaymentCorrectForm:
    return PaymentCorrectForm(
        initial={
            "amount": money_initial(payment.amount),
            "received_on": payment.received_on.isoformat(),
            "method": payment.method,
            "check_number": payment.check_number,
        },
        auto_id=f"fix-{payment.pk}-%s",
    )


@register.inclusion_tag("payments/_fees.html", takes_context=True)
def fee_panel(context: Any, application: Any) -> dict[str, Any]:
    user = context["request"].user
    today = _today(application.village_id)
    ledger = fee_ledger(application, today)
    staff = is_staff_of(user, application)
    ordinance = load(application.village_id)
    return {
        "csrf_token": context.get("csrf_token"),
        "application": application,
        "ordinance": ordinance,
        "citation": ordinance.parameter("application_fee", today).citation,
        "ledger": ledger,
        "staff": staff,
        "pay_form": FeeForm(
            initial={
                "amount": money_initial(ledger.owed) if ledger.owed else "",
                "paid_on": today.isoformat(),
            },
            auto_id="pay-%s",
        )
        if staff
        else None,
        "fee_form": FeeCorrectForm(auto_id="fee-%s") if staff else None,
        "rows": [
            {"payment": p, "form": _correct_form(p) if staff and not p.superseded_by else None}
            for p in ledger.payments
        ],
    }


@register.inclusion_tag("payments/_invoice.html", takes_context=True)
def invoice_panel(context: Any, invoice: Any, staff: bool) -> dict[str, Any]:
    payments = list(
        invoice.payments.select_related("received_by", "corrects", "correction").order_by(
            "recorded_at", "id"
        )
    )
    today = _today(invoice.case.village_id)
    return {
        "csrf_token": context.get("csrf_token"),
        "invoice": invoice,
        "staff": staff,
        "paid": invoice_paid_total(invoice),
        "pay_form": InvoicePaymentForm(
            initial={"paid_on": today.isoformat()}, auto_id=f"inv-{invoice.pk}-%s"
        )
        if staff
        else None,
        "rows": [
            {"payment": p, "form": _correct_form(p) if staff and not p.superseded_by else None}
            for p in payments
        ],
    }


@register.inclusion_tag("payments/_cost.html", takes_context=True)
def cost_row(context: Any, cost: Any, staff: bool) -> dict[str, Any]:
    try:
        later = cost.correction
    except type(cost).DoesNotExist:
        later = None
    return {
        "csrf_token": context.get("csrf_token"),
        "cost": cost,
        "later": later,
        "staff": staff,
        "form": CostCorrectForm(
            initial={"amount": money_initial(cost.amount)}, auto_id=f"cost-{cost.pk}-%s"
        )
        if staff and later is None and not (cost.invoice_id and cost.invoice.certified_on)
        else None,
    }


@register.simple_tag
def staff_of(user: Any, obj: Any) -> bool:
    return bool(is_staff_of(user, obj))


@register.simple_tag
def fee_paid(application: Any) -> Any:
    """What is recorded as paid toward an application's fee."""
    from siltfence.apps.payments.selectors import fee_paid_total

    return fee_paid_total(application)


@register.simple_tag
def receipts_of(application: Any) -> list[Payment]:
    """An application's receipts, each for the applicant to print."""
    return list(Payment.objects.filter(application=application).order_by("recorded_at", "id"))


@register.simple_tag
def fee_words(application: Any) -> str:
    """How the application's fee is worked out, as of today for a draft."""
    return fee_ledger(application, _today(application.village_id)).basis
