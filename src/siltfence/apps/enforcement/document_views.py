"""A case's documents: the PDF, how each was served, and its proof of service."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import is_inspector_of, is_staff_of, village_ids
from siltfence.apps.documents.addressees import case_addressees
from siltfence.apps.enforcement import forms as f
from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement.models import EnforcementDocument
from siltfence.apps.enforcement.selectors import (
    ATTORNEY_LETTERS,
    enforcement_documents_visible_to,
    enforcement_documents_with_service_visible_to,
    party_of_application,
    sees_internal_record,
    service_records_visible_to,
)
from siltfence.apps.enforcement.views import _now_local, said
from siltfence.core.errors import SiltfenceError
from siltfence.core.ordinance.loader import load
from siltfence.presentation.forms import first_error, village_time


@login_required
@require_GET
def document(request: HttpRequest, pk: int) -> HttpResponseBase:
    stored = get_object_or_404(enforcement_documents_visible_to(user=request.user), pk=pk)
    # The letters to the village's attorney carry the staff's notes to the attorney: the
    # village's officials read them, not the party the case is against.
    if stored.kind in ATTORNEY_LETTERS and not sees_internal_record(
        request.user, stored.case.village_id
    ):
        raise Http404
    response = FileResponse(
        stored.file.open("rb"),
        as_attachment=True,
        filename=stored.name,
        content_type="application/pdf",
    )
    response["X-Content-Type-Options"] = "nosniff"
    return response


def _official_document(request: HttpRequest, pk: int) -> EnforcementDocument:
    """A document of a case the person may see, for the village's officials only."""
    stored = get_object_or_404(
        enforcement_documents_with_service_visible_to(user=request.user), pk=pk
    )
    if not village_ids(request.user, Role.STAFF, Role.INSPECTOR, Role.APPEALS_BOARD) & {
        stored.case.village_id
    }:
        raise Http404
    return stored


def _to_choices(addressees: list[Any]) -> list[tuple[str, str]]:
    choices = []
    for a in addressees:
        where = "" if a.mailing else ", no mailing address on the record"
        key = f"party-{a.party_id}" if a.party_id is not None else f"name-{a.name}"
        choices.append((key[:200], f"{a.name} ({a.role.lower()}{where})"))
    return choices


@login_required
@require_http_methods(["GET", "POST"])
def document_service(request: HttpRequest, pk: int) -> HttpResponse:
    """How a document was served: the records, and (staff and inspectors) a form to add one;
    mail needs a mailing address, asked here when the person has none on the record."""
    stored = _official_document(request, pk)
    case = stored.case
    ordinance = load(case.village_id)
    may_serve = is_staff_of(request.user, case) or is_inspector_of(request.user, case)
    addressees = case_addressees(case, ordinance)
    now = _now_local(case.village_id)
    form = f.ServiceForm(
        request.POST if request.method == "POST" else None,
        to_choices=_to_choices(addressees),
        initial={"served_at": now.strftime("%Y-%m-%dT%H:%M")},
    )
    if request.method == "POST":
        if not may_serve:
            raise PermissionDenied("Only the village's staff and inspectors record service.")
        if not form.is_valid():
            messages.error(request, first_error(form))
        else:
            try:
                _serve(request, stored, form.cleaned_data)
            except SiltfenceError as exc:
                messages.error(request, _said_on_form(exc, form))
            else:
                messages.success(request, "Service recorded.")
                return redirect("enforcement:service", pk=stored.pk)
    return render(
        request,
        "enforcement/document_service.html",
        {
            "document": stored,
            "case": case,
            "ordinance": ordinance,
            "zone": ordinance.time_zone,
            "title": s.KIND_TITLES.get(stored.kind, stored.kind),
            "services": list(stored.services.all()),
            "addressees": addressees,
            "no_address": [a for a in addressees if not a.mailing],
            "form": form,
            "may_serve": may_serve,
            "issued": s.issued_at(stored),
            "counts_from": _counts_from(stored.kind, ordinance),
            "received_form": f.ReceivedForm(),
        },
    )


# What the steps after a notice count from (decision 46), by the notice's kind, and the
# event the chapter's rules name for it.
COUNTS_FROM = {
    "stop_work_placard": (
        "stop_work_order_posted",
        "The steps that follow this order count from its posting on the site; a copy "
        "mailed, handed over or emailed does not move them.",
    ),
    "notice_of_intent": (
        "notice_of_intent_issued",
        "The village's work counts from the first time this notice was handed over, posted "
        "on the site or mailed (the day it was sent); an email alone does not count. Until "
        "then, the work may not begin.",
    ),
    "notice_to_cease": (
        "notified_to_cease",
        "The party is notified when this notice reaches them: handed over, at that moment; "
        "mailed or emailed, on the day it is shown to have been received. Until then, no "
        "step follows from it.",
    ),
}


def _counts_from(kind: str, ordinance: Any) -> dict[str, Any] | None:
    found = COUNTS_FROM.get(kind)
    if found is None:
        return None
    event, says = found
    citations = sorted(
        {
            r["citation"]
            for r in ordinance.rules["enforcement"]["actions"]
            if r["after_event"] == event
        }
    )
    return {"says": says, "citations": citations}


def _said_on_form(exc: SiltfenceError, form: Any) -> str:
    """A refusal of the service named by the label of the form's field ("served at" is the
    field ``served_at``)."""
    field = str(getattr(exc, "field", "") or "").replace(" ", "_")
    text = str(exc)
    if field in form.fields and ": " in text:
        return f"{form.fields[field].label}:{text.split(':', 1)[1]}"
    return said(exc, form)


def _serve(request: HttpRequest, stored: EnforcementDocument, data: dict[str, Any]) -> None:
    case = stored.case
    to = data["to"]
    party = None
    to_name = data["to_name"]
    if to.startswith("party-") and to.removeprefix("party-").isdecimal():
        party = (
            party_of_application(
                party_id=int(to.removeprefix("party-")), application_id=case.application_id
            )
            if case.application_id is not None
            else None
        )
        if party is None or case.application_id is None:
            raise s.ActionRefused("to: that party is not named on this case", field="to")
    elif to.startswith("name-") and not to_name:
        to_name = to.removeprefix("name-")
    s.document_serve(
        document=stored,
        user=request.user,
        method=data["method"],
        at=village_time(data["served_at"], case.village_id),
        served_by=data["served_by"],
        party=party,
        to_name=to_name,
        address={
            "street": data["street"],
            "city": data["city"],
            "state": data["state"],
            "zip_code": data["zip_code"],
        },
        email=data["email"],
        certified_number=data["certified_number"],
        received_on=data["received_on"],
        received_how=data["received_how"],
        note=data["note"],
    )


@login_required
@require_POST
def service_received(request: HttpRequest, pk: int) -> HttpResponse:
    record = get_object_or_404(service_records_visible_to(user=request.user), pk=pk)
    case = record.document.case
    if not (is_staff_of(request.user, case) or is_inspector_of(request.user, case)):
        raise PermissionDenied("Only the village's staff and inspectors record service.")
    form = f.ReceivedForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
    else:
        try:
            s.service_receipt_record(
                service=record,
                user=request.user,
                received_on=form.cleaned_data["received_on"],
                how=form.cleaned_data["received_how"],
            )
        except SiltfenceError as exc:
            messages.error(request, _said_on_form(exc, form))
        else:
            messages.success(request, "The day it was received is recorded.")
    return redirect("enforcement:service", pk=record.document_id)


@login_required
@require_GET
def proof_of_service(request: HttpRequest, pk: int) -> HttpResponse:
    """The document's service as a page to print and keep with it: how, when, by whom and
    to whom, made from the records each time it is asked for."""
    from siltfence.apps.documents.pdf import lines_to_pdf
    from siltfence.apps.enforcement.documents import proof_of_service_lines

    stored = _official_document(request, pk)
    lines = proof_of_service_lines(document=stored)
    content = lines_to_pdf(lines, title=f"Proof of service {stored.name}")
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = (
        f'attachment; filename="proof-of-service-{stored.name.removesuffix(".pdf")}.pdf"'
    )
    response["X-Content-Type-Options"] = "nosniff"
    return response
