"""The staff console: the review queue by statutory clock, the application page with
its decision forms, permits with expiry and extensions, and the village's office
calendar and fee schedule. Inspectors and appeals board members see, but do not act."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import is_applicant_of, is_staff_of, village_ids
from siltfence.apps.permits import services
from siltfence.apps.permits.clocks import application_timeline, review_clock
from siltfence.apps.permits.models import (
    Application,
    FeeSchedule,
    OfficeClosure,
    PermitStatus,
    PlanAmendment,
    Village,
)
from siltfence.apps.permits.selectors import (
    applications_for_review,
    applications_visible_to,
    permits_visible_to,
)
from siltfence.apps.web.forms import (
    CloseForm,
    ClosureForm,
    DecisionForm,
    ExtendForm,
    FeeForm,
    FeeScheduleForm,
    InformationRequestForm,
    SuretyForm,
)
from siltfence.core.errors import SiltfenceError
from siltfence.core.ordinance.loader import load


def _officials_only(request: HttpRequest) -> None:
    if not village_ids(request.user, Role.STAFF, Role.INSPECTOR, Role.APPEALS_BOARD):
        raise PermissionDenied("This page is for village staff.")


def _staff_only(request: HttpRequest, obj: Any) -> None:
    if not is_staff_of(request.user, obj):
        raise PermissionDenied("Only the village's administering authority may do this.")


@login_required
@require_GET
def queue(request: HttpRequest) -> HttpResponse:
    if not village_ids(request.user, Role.STAFF):
        raise PermissionDenied("The review queue is for village staff.")
    today = timezone.localdate()
    rows = []
    for application in applications_for_review(request.user):
        clock = review_clock(application)
        due = clock["due"][:10] if clock else None
        days_left = None
        if due:
            from datetime import date

            days_left = (date.fromisoformat(due) - today).days
        rows.append(
            {"application": application, "clock": clock, "due": due, "days_left": days_left}
        )
    rows.sort(key=lambda r: (r["due"] is None, r["due"] or ""))
    return render(request, "web/staff_queue.html", {"rows": rows, "today": today})


@login_required
@require_GET
def application_detail(request: HttpRequest, pk: int) -> HttpResponse:
    _officials_only(request)
    application = get_object_or_404(applications_visible_to(request.user), pk=pk)
    if application.applicant_id == request.user.pk and not is_staff_of(request.user, application):
        return redirect("web:portal-application", pk=pk)
    ordinance = load(application.village_id)
    plan = application.determination.get("plan") or {}
    timeline = application_timeline(application).to_json() if application.received_at else None
    context = {
        "application": application,
        "ordinance": ordinance,
        "plan": plan,
        "checklist": [
            {"item": item, "ticked": i in set(application.checklist)}
            for i, item in enumerate(plan.get("contents", []))
        ],
        "clock": review_clock(application),
        "timeline": timeline,
        "can_decide": is_staff_of(request.user, application),
        "info_form": InformationRequestForm(),
        "decision_form": DecisionForm(),
        "fee_form": FeeForm(
            initial={"amount": application.fee_amount, "paid_on": timezone.localdate()}
        ),
        "permit": getattr(application, "permit", None),
        "audit": _audit_for("application", application.pk),
    }
    return render(request, "web/staff_application.html", context)


def _audit_for(entity: str, pk: int) -> Any:
    from siltfence.apps.audit.models import AuditEvent

    return AuditEvent.objects.filter(entity=entity, entity_id=pk).order_by("seq")


def _staff_application(request: HttpRequest, pk: int) -> Application:
    application = get_object_or_404(applications_visible_to(request.user), pk=pk)
    _staff_only(request, application)
    return application


def _done(request: HttpRequest, action: Any, success: str) -> None:
    try:
        action()
    except SiltfenceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, success)


@login_required
@require_POST
def request_information(request: HttpRequest, pk: int) -> HttpResponse:
    application = _staff_application(request, pk)
    form = InformationRequestForm(request.POST)
    message = form.data.get("message", "")
    _done(
        request,
        lambda: services.application_information_request(
            application=application, staff=request.user, message=message, at=timezone.now()
        ),
        "Information requested in writing.",
    )
    return redirect("web:staff-application", pk=pk)


@login_required
@require_POST
def approve(request: HttpRequest, pk: int) -> HttpResponse:
    application = _staff_application(request, pk)
    reasons = request.POST.get("reasons", "")
    _done(
        request,
        lambda: services.application_approve(
            application=application, staff=request.user, at=timezone.now(), reasons=reasons
        ),
        "Approved. The permit was issued.",
    )
    return redirect("web:staff-application", pk=pk)


@login_required
@require_POST
def disapprove(request: HttpRequest, pk: int) -> HttpResponse:
    application = _staff_application(request, pk)
    reasons = request.POST.get("reasons", "")
    _done(
        request,
        lambda: services.application_disapprove(
            application=application, staff=request.user, reasons=reasons, at=timezone.now()
        ),
        "Disapproved. The letter with the reasons was generated.",
    )
    return redirect("web:staff-application", pk=pk)


@login_required
@require_POST
def record_fee(request: HttpRequest, pk: int) -> HttpResponse:
    application = _staff_application(request, pk)
    form = FeeForm(request.POST)
    if not form.is_valid():
        messages.error(request, f"fee: {form.errors.as_text()}")
        return redirect("web:staff-application", pk=pk)
    _done(
        request,
        lambda: services.fee_payment_record(
            application=application,
            staff=request.user,
            paid_on=form.cleaned_data["paid_on"],
            amount=form.cleaned_data["amount"],
        ),
        "Fee payment recorded.",
    )
    return redirect("web:staff-application", pk=pk)


@login_required
@require_GET
def permits(request: HttpRequest) -> HttpResponse:
    _officials_only(request)
    today = timezone.localdate()
    rows = [
        {"permit": p, "days_left": (p.expires_on - today).days}
        for p in permits_visible_to(request.user)
        .filter(status=PermitStatus.ACTIVE)
        .exclude(application__applicant=request.user)
        .order_by("expires_on")
    ]
    return render(request, "web/staff_permits.html", {"rows": rows, "today": today})


@login_required
@require_GET
def permit_detail(request: HttpRequest, pk: int) -> HttpResponse:
    permit = get_object_or_404(permits_visible_to(request.user), pk=pk)
    ordinance = load(permit.village_id)
    from siltfence.apps.permits.services import AMENDMENT_TRIGGERS

    timeline = application_timeline(permit.application).to_json()
    return render(
        request,
        "web/permit.html",
        {
            "permit": permit,
            "ordinance": ordinance,
            "timeline": timeline,
            "can_manage": is_staff_of(request.user, permit),
            "is_permittee": permit.application.applicant_id == request.user.pk,
            "extend_form": ExtendForm(),
            "close_form": CloseForm(),
            "surety_form": SuretyForm(),
            "triggers": AMENDMENT_TRIGGERS[permit.village_id],
            "audit": _audit_for("permit", permit.pk),
        },
    )


def _staff_permit(request: HttpRequest, pk: int) -> Any:
    permit = get_object_or_404(permits_visible_to(request.user), pk=pk)
    _staff_only(request, permit)
    return permit


@login_required
@require_POST
def permit_extend(request: HttpRequest, pk: int) -> HttpResponse:
    permit = _staff_permit(request, pk)
    form = ExtendForm(request.POST)
    days = int(form.data.get("days") or 0) if str(form.data.get("days", "")).isdigit() else 0
    _done(
        request,
        lambda: services.permit_extend(
            permit=permit,
            staff=request.user,
            days=days,
            on=timezone.localdate(),
            added_measures=form.data.get("added_measures", ""),
        ),
        "Permit extended.",
    )
    return redirect("web:permit", pk=pk)


@login_required
@require_POST
def permit_close(request: HttpRequest, pk: int) -> HttpResponse:
    permit = _staff_permit(request, pk)
    raw = str(request.POST.get("cover_percent", ""))
    cover = int(raw) if raw.isdigit() else -1
    _done(
        request,
        lambda: services.permit_close(
            permit=permit, staff=request.user, on=timezone.localdate(), cover_percent=cover
        ),
        "Permit closed at final stabilization.",
    )
    return redirect("web:permit", pk=pk)


@login_required
@require_POST
def permit_surety(request: HttpRequest, pk: int) -> HttpResponse:
    permit = _staff_permit(request, pk)
    form = SuretyForm(request.POST)
    if not form.is_valid():
        messages.error(request, f"surety: {form.errors.as_text()}")
        return redirect("web:permit", pk=pk)
    _done(
        request,
        lambda: services.surety_record(permit=permit, staff=request.user, **form.cleaned_data),
        "Surety recorded.",
    )
    return redirect("web:permit", pk=pk)


@login_required
@require_POST
def amendment_request(request: HttpRequest, pk: int) -> HttpResponse:
    permit = get_object_or_404(permits_visible_to(request.user), pk=pk)
    if not (is_applicant_of(request.user, permit.application) or is_staff_of(request.user, permit)):
        raise PermissionDenied(
            "Only the permittee or the village's staff may ask to amend the plan."
        )
    _done(
        request,
        lambda: services.plan_amendment_request(
            permit=permit,
            user=request.user,
            trigger=request.POST.get("trigger", ""),
            description=request.POST.get("description", ""),
            on=timezone.localdate(),
        ),
        "Plan amendment requested; written permission comes first.",
    )
    return redirect("web:permit", pk=pk)


@login_required
@require_POST
def amendment_decide(request: HttpRequest, pk: int, amendment_pk: int) -> HttpResponse:
    permit = _staff_permit(request, pk)
    amendment = get_object_or_404(PlanAmendment, pk=amendment_pk, permit=permit)
    _done(
        request,
        lambda: services.plan_amendment_decide(
            amendment=amendment,
            staff=request.user,
            approve=request.POST.get("decision") == "approve",
            reasons=request.POST.get("reasons", ""),
            on=timezone.localdate(),
        ),
        "Decision on the amendment recorded.",
    )
    return redirect("web:permit", pk=pk)


@login_required
@require_GET
def village_settings(request: HttpRequest, village: str) -> HttpResponse:
    place = get_object_or_404(Village, pk=village)
    _staff_only(request, place)
    ordinance = load(place.id)
    return render(
        request,
        "web/village_settings.html",
        {
            "village": place,
            "ordinance": ordinance,
            "closures": OfficeClosure.objects.filter(village=place, day__gte=timezone.localdate()),
            "fees": FeeSchedule.objects.filter(village=place),
            "closure_form": ClosureForm(),
            "fee_form": FeeScheduleForm(),
        },
    )


@login_required
@require_POST
def village_closure(request: HttpRequest, village: str) -> HttpResponse:
    place = get_object_or_404(Village, pk=village)
    _staff_only(request, place)
    form = ClosureForm(request.POST)
    if not form.is_valid():
        messages.error(request, f"closure: {form.errors.as_text()}")
    elif request.POST.get("remove"):
        _done(
            request,
            lambda: services.office_closure_remove(
                village=place, staff=request.user, day=form.cleaned_data["day"]
            ),
            "Closure removed.",
        )
    else:
        _done(
            request,
            lambda: services.office_closure_add(
                village=place, staff=request.user, **form.cleaned_data
            ),
            "Closure added.",
        )
    return redirect("web:village-settings", village=village)


@login_required
@require_POST
def village_fee(request: HttpRequest, village: str) -> HttpResponse:
    place = get_object_or_404(Village, pk=village)
    _staff_only(request, place)
    form = FeeScheduleForm(request.POST)
    if not form.is_valid():
        messages.error(request, f"fee: {form.errors.as_text()}")
    else:
        _done(
            request,
            lambda: services.fee_schedule_set(
                village=place, staff=request.user, **form.cleaned_data
            ),
            "Fee schedule updated.",
        )
    return redirect("web:village-settings", village=village)
