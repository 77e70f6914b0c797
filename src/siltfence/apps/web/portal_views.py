"""The applicant portal: apply from the "Do I need a permit?" answer, upload the plan,
file, follow the status and the clock, and answer information requests."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from siltfence.apps.permits import services
from siltfence.apps.permits.clocks import decision_due_if_filed, review_clock
from siltfence.apps.permits.models import Application, ApplicationStatus
from siltfence.apps.permits.selectors import (
    applications_of_applicant,
    applications_visible_to,
    village_by_pk,
)
from siltfence.apps.permits.stored_clocks import stored_review_clock
from siltfence.apps.web.forms import ApplyForm, ResponseForm, UploadForm
from siltfence.apps.web.htmx import HtmxHttpRequest
from siltfence.core.dates import DateRefused, read_date
from siltfence.core.errors import SiltfenceError
from siltfence.core.fees import schedule_fee
from siltfence.core.jsonread import read_json
from siltfence.core.ordinance.loader import load
from siltfence.core.rules import determine
from siltfence.presentation.paging import page_of, paging
from siltfence.presentation.wording import counting_words, duty_words, plain


def clock_words(application: Application) -> dict[str, Any] | None:
    """The application's decision clock with its true state in words."""
    clock = review_clock(application)
    if clock is None:
        return None
    return duty_words(clock, zone=load(application.village_id).time_zone)


def stored_clock_words(application: Application) -> dict[str, Any] | None:
    """The same, from the clock stored on the application (for lists: no events read)."""
    clock = stored_review_clock(application)
    if clock is None:
        return None
    return duty_words(clock, zone=load(application.village_id).time_zone)


# The id of a draft's checklist form, which the upload fields and buttons also submit.
CHECKLIST_FORM = "checklist-form"

# The facts carried from the permit check: a few hundred bytes; far more is not facts.
MAX_FACTS_BYTES = 64 * 1024


def own_application(request: HttpRequest, pk: int) -> Application:
    """The application if the signed-in person may see it; 404 otherwise (no IDOR)."""
    return get_object_or_404(applications_visible_to(request.user), pk=pk)


def applicant_application(request: HttpRequest, pk: int) -> Application:
    """The signed-in applicant's own application; 404 for anyone else's."""
    return get_object_or_404(Application, pk=pk, applicant_id=request.user.pk)


@login_required
@require_GET
def portal(request: HttpRequest) -> HttpResponse:
    assert request.user.is_authenticated  # login_required
    applications = applications_of_applicant(user=request.user)
    page = page_of(request, applications)
    rows = [{"application": a, "clock": stored_clock_words(a)} for a in page.object_list]
    return render(
        request,
        "web/portal.html",
        {"rows": rows, **paging(request, page, "your applications")},
    )


@login_required
@require_http_methods(["GET", "POST"])
def apply(request: HttpRequest) -> HttpResponse:
    source = request.POST if request.method == "POST" else request.GET
    jurisdiction = source.get("jurisdiction", "")
    try:
        ordinance = load(jurisdiction)
        facts = read_json(source.get("facts") or "{}", what="facts", max_bytes=MAX_FACTS_BYTES)
        on_text = source.get("on")
        try:
            on = read_date(on_text) if on_text else timezone.localdate()
        except DateRefused as exc:
            raise SiltfenceError(f"on: {exc}", field="on") from None
        answer = determine(jurisdiction, facts, on).to_json()
    except (SiltfenceError, ValueError) as exc:
        messages.error(request, f"Start from the permit check: {exc}")
        return redirect("web:permit-check")
    owner_label = OWNER_LABELS.get(ordinance.applicant_role, "")
    if request.method == "GET":
        form = ApplyForm(
            initial={"facts": json.dumps(facts), "jurisdiction": jurisdiction, "on": on},
            owner_label=owner_label,
        )
    else:
        form = ApplyForm(request.POST, owner_label=owner_label)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        named = form.parties(ordinance.applicant_role, ordinance.name)
        try:
            application = services.application_create(
                applicant=request.user,
                village=village_by_pk(village_id=jurisdiction),
                address=data["address"],
                parcel_number=data["parcel_number"],
                legal_description=data["legal_description"],
                description=data["description"],
                facts=facts,
                on=on,
                parties=[party for _, party in named],
                building_permit_expires=data["building_permit_expires"],
            )
        except SiltfenceError as exc:
            _party_error(form, exc, [prefix for prefix, _ in named])
        else:
            messages.success(request, f"Application {application.number} started.")
            return redirect("web:portal-application", pk=application.pk)
    due = counting_words(decision_due_if_filed(jurisdiction, timezone.now()))
    fee = schedule_fee(services.fee_in_force(jurisdiction, timezone.localdate()), answer["facts"])
    return render(
        request,
        "web/apply.html",
        {
            "form": form,
            "answer": answer,
            "ordinance": ordinance,
            "due_if_filed": due,
            "fee_due": fee.amount if fee is not None and fee.amount else None,
            "fee_basis": fee.words if fee is not None else "",
        },
    )


# How the apply form names the holder of the land, by the chapter's word for the
# applicant (jurisdiction.yaml's applicant_role).
OWNER_LABELS = {
    "landowner": "Landowner (holder of fee title)",
    "responsible_party": "Responsible party (holder of fee title)",
    "land_user": "Land user",
}


def _party_error(form: ApplyForm, exc: SiltfenceError, prefixes: list[str]) -> None:
    """Show a refusal about ``parties[i].<part>`` at the field the person typed it in."""
    import re

    field = str(getattr(exc, "field", "") or "")
    match = re.fullmatch(r"parties\[(\d+)\]\.(\w+)", field)
    if match and int(match.group(1)) < len(prefixes):
        prefix = prefixes[int(match.group(1))]
        name = f"{prefix}_{ApplyForm.PARTS.get(match.group(2), '')}"
        if name in form.fields:
            form.add_error(name, str(exc).split(": ", 1)[-1])
            return
    form.add_error(None, str(exc))


@login_required
@require_GET
def application_detail(request: HttpRequest, pk: int) -> HttpResponse:
    application = own_application(request, pk)
    if application.applicant_id != request.user.pk:
        return redirect("web:staff-application", pk=pk)
    ordinance = load(application.village_id)
    plan = application.determination.get("plan") or {}
    checklist = [
        {"index": i, "item": item, "ticked": i in set(application.checklist)}
        for i, item in enumerate(plan.get("contents", []))
    ]
    today = timezone.localdate()
    draft = application.status == ApplicationStatus.DRAFT
    upload_form = UploadForm()
    if draft:
        # In a draft, Upload sends the checklist form, so that what is ticked is saved with
        # the file instead of being lost to the reload (the fields sit in the Documents part).
        for field in upload_form.fields.values():
            field.widget.attrs["form"] = CHECKLIST_FORM
    context: dict[str, Any] = {
        "application": application,
        "ordinance": ordinance,
        "plan": plan,
        "checklist": checklist,
        "missing": services.application_missing(application, on=today) if draft else [],
        "fee_due": services.application_fee_due(application, today),
        "upload_form": upload_form,
        "checklist_form": CHECKLIST_FORM,
        "response_form": ResponseForm(),
        "clock": clock_words(application),
        "open_request": application.information_requests.filter(received_at__isnull=True).last(),
        "permit": getattr(application, "permit", None),
        "due_if_filed": counting_words(
            decision_due_if_filed(application.village_id, timezone.now())
        )
        if application.status == ApplicationStatus.DRAFT
        else None,
    }
    return render(request, "web/portal_application.html", context)


def _refused(request: HttpRequest, exc: SiltfenceError) -> None:
    messages.error(request, plain(exc))


def _ticked(request: HttpRequest) -> list[int]:
    return [int(v) for v in request.POST.getlist("items") if v.isdecimal()]


@login_required
@require_POST
def application_checklist(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Save the ticks. Ticking a box on the page sends them at once (htmx), and the answer
    is the "Still missing" list as it now stands; without JavaScript, "Save checklist"."""
    application = applicant_application(request, pk)
    try:
        services.application_checklist_set(
            application=application, user=request.user, items=_ticked(request)
        )
    except SiltfenceError as exc:
        _refused(request, exc)
        if request.htmx:  # the whole page, with the refusal shown
            return HttpResponseClientRedirect(reverse("web:portal-application", args=[pk]))
    else:
        if request.htmx:
            missing = services.application_missing(application, on=timezone.localdate())
            return render(request, "web/_still_missing.html", {"missing": missing})
    return redirect("web:portal-application", pk=pk)


@login_required
@require_POST
def application_upload(request: HttpRequest, pk: int) -> HttpResponse:
    application = applicant_application(request, pk)
    if request.POST.get("checklist") == "shown":
        # Upload sent the checklist form of a draft: keep what is ticked, file or no file.
        try:
            services.application_checklist_set(
                application=application, user=request.user, items=_ticked(request)
            )
        except SiltfenceError as exc:
            _refused(request, exc)
    form = UploadForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, "file: choose a file and what it is")
        return redirect("web:portal-application", pk=pk)
    upload = form.cleaned_data["file"]
    try:
        services.document_upload(
            application=application,
            user=request.user,
            kind=form.cleaned_data["kind"],
            name=upload.name,
            content=upload.read(),
            claimed_type=upload.content_type or "",
        )
    except SiltfenceError as exc:
        _refused(request, exc)
    else:
        messages.success(request, f"{upload.name} uploaded.")
    return redirect("web:portal-application", pk=pk)


@login_required
@require_POST
def application_submit(request: HttpRequest, pk: int) -> HttpResponse:
    application = applicant_application(request, pk)
    # The "File the application" button submits the checklist form: what is ticked on
    # the page is filed with it, saved or not.
    checklist = _ticked(request) if request.POST.get("checklist") == "shown" else None
    try:
        services.application_submit(
            application=application, user=request.user, at=timezone.now(), checklist=checklist
        )
    except SiltfenceError as exc:
        _refused(request, exc)
    else:
        messages.success(request, "Application filed. The review clock has started.")
    return redirect("web:portal-application", pk=pk)


@login_required
@require_POST
def application_respond(request: HttpRequest, pk: int) -> HttpResponse:
    application = applicant_application(request, pk)
    form = ResponseForm(request.POST)
    if not form.is_valid():
        messages.error(request, "response: describe the information provided")
        return redirect("web:portal-application", pk=pk)
    try:
        services.application_information_provide(
            application=application,
            user=request.user,
            response=form.cleaned_data["response"],
            at=timezone.now(),
        )
    except SiltfenceError as exc:
        _refused(request, exc)
    else:
        messages.success(request, "Information sent. The shorter review clock has started.")
    return redirect("web:portal-application", pk=pk)
