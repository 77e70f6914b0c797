"""The pages' doors to the village's books: a receipt as a PDF, and the corrections of a
payment, an application's fee or a cost of village work. Each finds its record through a
queryset scoped to the person (someone else's record answers 404), lets only the
village's staff write, and leaves every check of the figures to the services."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_GET, require_POST

from siltfence.apps.accounts.rules import is_staff_of
from siltfence.apps.enforcement.selectors import invoices_visible_to
from siltfence.apps.payments import services
from siltfence.apps.payments.forms import (
    CostCorrectForm,
    FeeCorrectForm,
    FeeForm,
    InvoicePaymentForm,
    PaymentCorrectForm,
)
from siltfence.apps.payments.receipts import receipt_pdf
from siltfence.apps.payments.selectors import (
    payments_visible_to,
    work_costs_visible_to,
)
from siltfence.apps.permits.selectors import applications_visible_to
from siltfence.presentation.steps import form_step

STAFF_ONLY = "Only the village's administering authority corrects its books."


def _staff_only(request: HttpRequest, subject: Any) -> None:
    if not is_staff_of(request.user, subject):
        raise PermissionDenied(STAFF_ONLY)


@login_required
@require_GET
def receipt(request: HttpRequest, pk: int) -> HttpResponse:
    payment = get_object_or_404(payments_visible_to(request.user), pk=pk)
    response = HttpResponse(receipt_pdf(payment), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="receipt-{payment.receipt_number}.pdf"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


@login_required
@require_POST
def payment_correct(request: HttpRequest, pk: int) -> HttpResponse:
    payment = get_object_or_404(payments_visible_to(request.user), pk=pk)
    _staff_only(request, payment)
    form_step(
        request,
        PaymentCorrectForm(request.POST),
        lambda data: services.payment_correct(payment=payment, staff=request.user, **data),
        "Payment corrected: receipt {done.receipt_number} replaces it.",
    )
    if payment.invoice is not None:
        return redirect("enforcement:case", pk=payment.invoice.case_id)
    return redirect("web:staff-application", pk=payment.application_id)


@login_required
@require_POST
def fee_payment(request: HttpRequest, pk: int) -> HttpResponse:
    """A fee received toward an application (its fee, or one re-inspection)."""
    application = get_object_or_404(applications_visible_to(request.user), pk=pk)
    _staff_only(request, application)
    form_step(
        request,
        FeeForm(request.POST),
        lambda data: services.payment_receive(
            staff=request.user,
            application=application,
            purpose=data["purpose"],
            amount=data["amount"],
            received_on=data["paid_on"],
            method=data["method"],
            check_number=data["check_number"],
            payer=data["payer"],
        ),
        "Fee payment recorded: receipt {done.receipt_number}, under “Fees and payments”.",
    )
    return redirect("web:staff-application", pk=pk)


@login_required
@require_POST
def invoice_payment(request: HttpRequest, pk: int) -> HttpResponse:
    """A payment of the bill for the village's work, at most what is still owed."""
    invoice = get_object_or_404(invoices_visible_to(user=request.user), pk=pk)
    _staff_only(request, invoice.case)
    form_step(
        request,
        InvoicePaymentForm(request.POST),
        lambda data: services.payment_receive(
            staff=request.user,
            invoice=invoice,
            amount=data["amount"],
            received_on=data["paid_on"],
            method=data["method"],
            check_number=data["check_number"],
        ),
        "Payment recorded: receipt {done.receipt_number}.",
    )
    return redirect("enforcement:case", pk=invoice.case_id)


@login_required
@require_POST
def fee_correct(request: HttpRequest, pk: int) -> HttpResponse:
    application = get_object_or_404(applications_visible_to(request.user), pk=pk)
    _staff_only(request, application)
    form_step(
        request,
        FeeCorrectForm(request.POST),
        lambda data: services.application_fee_correct(
            application=application, staff=request.user, **data
        ),
        "Fee corrected to ${done.amount}.",
    )
    return redirect("web:staff-application", pk=pk)


@login_required
@require_POST
def cost_correct(request: HttpRequest, pk: int) -> HttpResponse:
    cost = get_object_or_404(work_costs_visible_to(user=request.user), pk=pk)
    _staff_only(request, cost.case)
    form_step(
        request,
        CostCorrectForm(request.POST),
        lambda data: services.work_cost_correct(cost=cost, staff=request.user, **data),
        "Cost corrected to ${done.amount}.",
    )
    return redirect("enforcement:case", pk=cost.case_id)
