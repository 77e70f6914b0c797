"""The steps of a case and of its bills, each taken by the village's staff."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from siltfence.apps.accounts.rules import is_staff_of
from siltfence.apps.enforcement import forms as f
from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement.models import EnforcementCase
from siltfence.apps.enforcement.selectors import cases_visible_to, invoices_visible_to
from siltfence.apps.enforcement.views import _FormError, said
from siltfence.core.errors import SiltfenceError
from siltfence.core.ordinance.loader import load
from siltfence.presentation.forms import first_error, village_time

STEP_DONE = {
    "stop-work": "Stop-work order posted. Print the placard and post it on the site; its "
    "posting is recorded as its service.",
    "compliance": "Compliance recorded; the stop-work order has ended.",
    "revoke": "Permit revoked. The revocation notice was generated.",
    "retract": "Order retracted.",
    "notice-to-cease": "Notice to cease recorded.",
    "warning-letter": "Warning letter written. Print it from the documents below and record "
    "how it was served.",
    "cease-and-desist": "Referral to the attorney recorded, with its letter.",
    "notice-of-intent": "Notice of intent issued.",
    "village-work": "Village work recorded as begun.",
    "cost": "Cost recorded.",
    "invoice": "Invoice issued.",
    "parcel": "Parcel number saved.",
    "injunction": "Injunction referral recorded, with its letter.",
    "prosecution": "Forfeiture prosecution referral recorded, with its letter.",
}


def _step(request: HttpRequest, case: EnforcementCase, step: str) -> Any:
    staff = request.user
    if step == "stop-work":
        rule = load(case.village_id).rules["enforcement"]["stop_work_order"]
        form: forms.Form = f.StopWorkForm(
            request.POST, grounds=[(g["id"], g["says"]) for g in rule["grounds"]]
        )
        if not form.is_valid():
            return first_error(form)
        data = form.cleaned_data
        return s.stop_work_order_post(
            case=case,
            staff=staff,
            at=village_time(data["posted_at"], case.village_id),
            grounds=data["grounds"],
            note=data["note"],
        )
    if step == "cost":
        form = f.CostForm(request.POST)
        if not form.is_valid():
            return first_error(form)
        return s.work_cost_record(case=case, staff=staff, **form.cleaned_data)
    if step == "invoice":
        form = f.InvoiceForm(request.POST)
        if not form.is_valid():
            return first_error(form)
        return s.invoice_issue(
            case=case,
            staff=staff,
            on=form.cleaned_data["issued_on"],
            due_in_days=form.cleaned_data["due_in_days"],
        )
    if step == "parcel":
        form = f.ParcelForm(request.POST)
        if not form.is_valid():
            return first_error(form)
        return s.case_parcel_set(case=case, staff=staff, **form.cleaned_data)
    form = f.StepForm(request.POST)
    if not form.is_valid():
        return first_error(form)
    at = village_time(form.cleaned_data["at"], case.village_id)
    text = form.cleaned_data["text"]
    match step:
        case "compliance":
            return s.compliance_record(case=case, staff=staff, at=at, note=text)
        case "revoke":
            return s.permit_revoke(case=case, staff=staff, at=at, reasons=text)
        case "retract":
            return s.order_retract(
                case=case, staff=staff, at=at, order=form.cleaned_data["order"], reason=text
            )
        case "notice-to-cease":
            return s.notice_to_cease_give(
                case=case, staff=staff, at=at, note=text, given=_given(request)
            )
        case "warning-letter":
            return s.warning_letter_send(case=case, staff=staff, at=at, asks=text)
        case "cease-and-desist":
            return s.cease_and_desist_refer(case=case, staff=staff, at=at, note=text)
        case "notice-of-intent":
            return s.notice_of_intent_issue(
                case=case, staff=staff, at=at, work=text, given=_given(request)
            )
        case "village-work":
            return s.village_work_begin(case=case, staff=staff, at=at, note=text)
        case "injunction":
            return s.injunction_refer(case=case, staff=staff, at=at, note=text)
        case "prosecution":
            return s.prosecution_refer(case=case, staff=staff, at=at, note=text)
    raise Http404


def _given(request: HttpRequest) -> str:
    """How a notice was given, as the form's radio says (the service refuses anything else);
    a form without the choice (an older page) records it handed over, as always."""
    return str(request.POST.get("given") or "handed_over")[:20]


@login_required
@require_POST
def case_step(request: HttpRequest, pk: int, step: str) -> HttpResponse:
    if step not in STEP_DONE:
        raise Http404
    case = get_object_or_404(cases_visible_to(request.user), pk=pk)
    if not is_staff_of(request.user, case):
        raise PermissionDenied("Only the village's administering authority takes these steps.")
    try:
        result = _step(request, case, step)
    except SiltfenceError as exc:
        messages.error(request, said(exc))
    else:
        if isinstance(result, str):
            messages.error(request, result)
        else:
            messages.success(request, STEP_DONE[step])
    return redirect("enforcement:case", pk=pk)


@login_required
@require_POST
def invoice_step(request: HttpRequest, pk: int, step: str) -> HttpResponse:
    invoice = get_object_or_404(invoices_visible_to(user=request.user), pk=pk)
    if step not in ("unpaid", "certify"):
        raise Http404
    if not is_staff_of(request.user, invoice.case):
        raise PermissionDenied("Only the village's administering authority takes these steps.")
    try:
        step_form = f.StepForm(request.POST)
        if not step_form.is_valid():
            raise _FormError(first_error(step_form))
        at = village_time(step_form.cleaned_data["at"], invoice.case.village_id)
        if step == "unpaid":
            s.costs_unpaid_record(invoice=invoice, staff=request.user, at=at)
            done = "The costs are recorded as unpaid."
        else:
            s.tax_roll_certify(invoice=invoice, staff=request.user, at=at)
            done = "Certified to the tax roll. The certification was generated."
    except _FormError as exc:
        messages.error(request, str(exc))
    except SiltfenceError as exc:
        messages.error(request, said(exc))
    else:
        messages.success(request, done)
    return redirect("enforcement:case", pk=invoice.case_id)
