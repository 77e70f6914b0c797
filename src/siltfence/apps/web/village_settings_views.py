"""A village's office contact (as its notices print it), its office calendar (the days its
office is closed, which the review clock skips) and its fee schedule, kept by its staff."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from siltfence.apps.documents.addressees import office_contact
from siltfence.apps.payments.forms import FeeScheduleForm
from siltfence.apps.permits import services
from siltfence.apps.permits.models import Village
from siltfence.apps.web.forms import ClosureForm, OfficeContactForm
from siltfence.apps.web.selectors import closures_from, fee_schedules
from siltfence.apps.web.staff_views import staff_only
from siltfence.core.ordinance.loader import load
from siltfence.presentation.steps import form_step


@login_required
@require_GET
def village_settings(request: HttpRequest, village: str) -> HttpResponse:
    place = get_object_or_404(Village, pk=village)
    staff_only(request, place)
    ordinance = load(place.id)
    return render(
        request,
        "web/village_settings.html",
        {
            "village": place,
            "ordinance": ordinance,
            "closures": closures_from(place, timezone.localdate()),
            "fees": fee_schedules(place),
            "office": ordinance.office,
            "office_printed": office_contact(ordinance, place),
            "office_form": OfficeContactForm(
                initial={"phone": place.phone, "email": place.email, "hours": place.hours}
            ),
            "closure_form": ClosureForm(),
            "fee_form": FeeScheduleForm(),
        },
    )


def _settings_step(
    request: HttpRequest,
    village: str,
    form: Any,
    write: Callable[[Village, dict[str, Any]], Any],
    success: str,
) -> HttpResponse:
    """One of the settings page's forms, posted by the village's own staff: the form's
    first error or the step taken, then back to the page."""
    place = get_object_or_404(Village, pk=village)
    staff_only(request, place)
    form_step(request, form, lambda data: write(place, data), success)
    return redirect("web:village-settings", village=village)


@login_required
@require_POST
def village_office(request: HttpRequest, village: str) -> HttpResponse:
    return _settings_step(
        request,
        village,
        OfficeContactForm(request.POST),
        lambda place, data: services.village_office_set(village=place, staff=request.user, **data),
        "The office's contact is saved; notices, letters and receipts print it from now on.",
    )


@login_required
@require_POST
def village_closure(request: HttpRequest, village: str) -> HttpResponse:
    if request.POST.get("remove"):
        return _settings_step(
            request,
            village,
            ClosureForm(request.POST),
            lambda place, data: services.office_closure_remove(
                village=place, staff=request.user, day=data["day"]
            ),
            "Closure removed.",
        )
    return _settings_step(
        request,
        village,
        ClosureForm(request.POST),
        lambda place, data: services.office_closure_add(village=place, staff=request.user, **data),
        "Closure added.",
    )


@login_required
@require_POST
def village_fee(request: HttpRequest, village: str) -> HttpResponse:
    return _settings_step(
        request,
        village,
        FeeScheduleForm(request.POST),
        lambda place, data: services.fee_schedule_set(village=place, staff=request.user, **data),
        "Fee schedule updated.",
    )
