"""A village's office contact (as its notices print it), its office calendar (the days its
office is closed, which the review clock skips) and its fee schedule, kept by its staff."""

from __future__ import annotations

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


@login_required
@require_POST
def village_office(request: HttpRequest, village: str) -> HttpResponse:
    place = get_object_or_404(Village, pk=village)
    staff_only(request, place)
    form_step(
        request,
        OfficeContactForm(request.POST),
        lambda data: services.village_office_set(village=place, staff=request.user, **data),
        "The office's contact is saved; notices, letters and receipts print it from now on.",
    )
    return redirect("web:village-settings", village=village)


@login_required
@require_POST
def village_closure(request: HttpRequest, village: str) -> HttpResponse:
    place = get_object_or_404(Village, pk=village)
    staff_only(request, place)
    if request.POST.get("remove"):
        form_step(
            request,
            ClosureForm(request.POST),
            lambda data: services.office_closure_remove(
                village=place, staff=request.user, day=data["day"]
            ),
            "Closure removed.",
        )
    else:
        form_step(
            request,
            ClosureForm(request.POST),
            lambda data: services.office_closure_add(village=place, staff=request.user, **data),
            "Closure added.",
        )
    return redirect("web:village-settings", village=village)


@login_required
@require_POST
def village_fee(request: HttpRequest, village: str) -> HttpResponse:
    place = get_object_or_404(Village, pk=village)
    staff_only(request, place)
    form_step(
        request,
        FeeScheduleForm(request.POST),
        lambda data: services.fee_schedule_set(village=place, staff=request.user, **data),
        "Fee schedule updated.",
    )
    return redirect("web:village-settings", village=village)
