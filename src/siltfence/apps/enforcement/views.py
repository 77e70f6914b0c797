"""Enforcement screens: the cases list and a case's record with its steps (staff act,
inspectors and board members see), violations, public complaints, and the village's
enforcement settings (interest rate, forfeiture amounts set outside the chapter)."""

from __future__ import annotations

import datetime
from typing import Any
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import is_inspector_of, is_staff_of, village_ids
from siltfence.apps.documents.addressees import case_addressees
from siltfence.apps.enforcement import forms as f
from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement.documents import _outside
from siltfence.apps.enforcement.models import (
    ComplaintSlot,
    EnforcementCase,
    EnforcementDocument,
    Invoice,
    Violation,
    ViolationPhoto,
)
from siltfence.apps.enforcement.selectors import (
    ATTORNEY_LETTERS,
    case_timeline,
    case_with_everything,
    cases_visible_to,
    complaints_to_review,
    forfeiture_schedule_in_force,
    forfeiture_summary,
    interest_rate_in_force,
    open_stop_work_order,
    sees_internal_record,
)
from siltfence.apps.outbox.selectors import messages_about_case
from siltfence.apps.payments.forms import InvoicePaymentForm
from siltfence.apps.permits.models import Permit, Village
from siltfence.apps.permits.uploads import download_name
from siltfence.core.errors import SiltfenceError
from siltfence.core.ordinance.loader import load
from siltfence.presentation.paging import page_of, pk_path
from siltfence.presentation.tables import (
    CHUNK,
    VILLAGE,
    Column,
    Table,
    chosen_villages,
    download,
    refuses_bad_queries,
    village_filter,
    wants_csv,
)

COMPLAINTS_PER_HOUR = 5
COMPLAINT_SESSION_KEY = "siltfence_complaints"

ACTION_TITLES = {
    "revoke_permit": "Revoke the permit",
    "request_cease_and_desist": "Ask the attorney for a cease-and-desist order",
    "issue_notice_of_intent": "Issue a notice of intent",
    "begin_village_work": "Begin village work",
    "certify_special_assessment": "Certify unpaid costs to the tax roll",
}


def said(exc: SiltfenceError, form: Any = None) -> str:
    """A refusal as shown on a page: the field as the form labels it, then the reason."""
    text = str(exc)
    field = getattr(exc, "field", None)
    if form is not None and field in getattr(form, "fields", {}) and ": " in text:
        return f"{form.fields[field].label}:{text.split(':', 1)[1]}"
    return text[:1].upper() + text[1:]


def _officials(request: HttpRequest) -> set[str]:
    villages = village_ids(request.user, Role.STAFF, Role.INSPECTOR, Role.APPEALS_BOARD)
    if not villages:
        raise PermissionDenied("This page is for village staff.")
    return villages


def _now_local(village_id: str) -> datetime.datetime:
    return timezone.now().astimezone(ZoneInfo(load(village_id).time_zone))


def _aware(value: datetime.datetime, village_id: str) -> datetime.datetime:
    if value.tzinfo is None:
        return value.replace(tzinfo=ZoneInfo(load(village_id).time_zone))
    return value


def _photos(request: HttpRequest) -> list[s.Photo]:
    return [
        s.Photo(name=u.name or "photo", content=u.read(), content_type=u.content_type or "")
        for u in request.FILES.getlist("photos")[: s.MAX_PHOTOS + 1]
    ]


# -- lists and the case page ----------------------------------------------------------------


def _case_row(case: EnforcementCase, url: Any) -> dict[str, Any]:
    application = case.application
    permit = getattr(application, "permit", None) if application is not None else None
    return {
        "url": url(case.pk),
        "number": case.number,
        "village": case.village.name,
        "address": case.address,
        "permit": permit.number if permit is not None else "",
        "standing": permit.standing if permit is not None else "",
        "opened_at": case.opened_at.astimezone(ZoneInfo(load(case.village_id).time_zone)),
    }


# The enforcement cases, on the page and in its download.
CASES = Table[dict[str, Any]](
    name="enforcement-cases",
    label="the enforcement cases",
    testid="cases",
    columns=(
        Column("Case", lambda r: r["number"], link=lambda r: r["url"]),
        Column("Village", lambda r: r["village"]),
        Column("Site", lambda r: r["address"]),
        Column("Permit", lambda r: r["permit"], empty="none"),
        Column("Permit status", lambda r: r["standing"], empty="-"),
        Column("Opened", lambda r: r["opened_at"]),
    ),
)
CASES_PAGE = 25


@login_required
@require_GET
@refuses_bad_queries
def cases(request: HttpRequest) -> HttpResponse:
    yours = _officials(request)
    villages = chosen_villages(request, yours)
    listed = cases_visible_to(request.user).order_by("-opened_at", "-id")
    if villages != yours:
        listed = listed.filter(village_id__in=villages)
    url = pk_path("enforcement:case")
    if wants_csv(request):
        every = listed.iterator(chunk_size=CHUNK)
        return CASES.csv((_case_row(c, url) for c in every), villages=villages)
    page = page_of(request, listed, per_page=CASES_PAGE)
    query = urlencode({k: v for k, v in request.GET.items() if k == VILLAGE and v})
    return render(
        request,
        "enforcement/cases.html",
        {
            "page": page,
            "query": query,
            "cases": CASES.page(_case_row(c, url) for c in page.object_list),
            "download": download(request, CASES, count=page.paginator.count),
            "village_filter": village_filter(request, yours),
            "complaints": complaints_to_review(request.user)[:50],
            "staff_villages": Village.objects.filter(
                pk__in=village_ids(request.user, Role.STAFF)
            ).order_by("name"),
            "can_record": bool(village_ids(request.user, Role.STAFF, Role.INSPECTOR)),
        },
    )


def _lifted(actions: list[Any]) -> set[int]:
    """The orders and revocations a later retraction lifted: nothing is left of them to
    appeal, so no appeal is offered."""
    kinds = {"stop_work_order": "stop_work_order", "revocation": "revocation"}
    lifted: set[int] = set()
    for index, action in enumerate(actions):
        if action.kind != "retraction":
            continue
        kind = kinds.get(action.details.get("order", ""))
        earlier = [a for a in actions[:index] if a.kind == kind and a.pk not in lifted]
        if earlier:
            lifted.add(earlier[-1].pk)
    return lifted


def _back_link(
    request: HttpRequest, case: EnforcementCase, permit: Permit | None
) -> tuple[str, str]:
    """Where "back" leads: the case list for officials; for the permittee, who may not see
    that list, their permit (or their application, when no permit was issued)."""
    if village_ids(request.user, Role.STAFF, Role.INSPECTOR, Role.APPEALS_BOARD):
        return reverse("enforcement:cases"), "Enforcement"
    if permit is not None:
        return reverse("web:permit", args=[permit.pk]), f"Permit {permit.number}"
    if case.application_id is not None:
        return reverse("web:portal-application", args=[case.application_id]), "Your application"
    return reverse("web:portal"), "My applications"


@login_required
@require_GET
def case_detail(request: HttpRequest, pk: int) -> HttpResponse:
    case = case_with_everything(pk, request.user)
    ordinance = load(case.village_id)
    now = _now_local(case.village_id)
    timeline = case_timeline(case, now).to_json()
    allowed = [
        {
            **a,
            "title": ACTION_TITLES.get(a["action"], a["action"]),
            "runs_from_words": runs_from_words(a.get("runs_from")),
        }
        for a in timeline.get("allowed_actions", [])
    ]
    staff = is_staff_of(request.user, case)
    rule = ordinance.rules["enforcement"]
    permit = Permit.objects.filter(application_id=case.application_id).first()
    back, back_label = _back_link(request, case, permit)
    return render(
        request,
        "enforcement/case.html",
        {
            "case": case,
            "ordinance": ordinance,
            "zone": ordinance.time_zone,
            "permit": permit,
            "allowed": allowed,
            # The forms offered are the steps open now: a step taken is not offered again.
            "open_now": {a["action"] for a in allowed if a["available"]},
            "unpaid": {
                a.details.get("invoice") for a in case.actions.all() if a.kind == "costs_unpaid"
            },
            "lifted": _lifted(list(case.actions.all())),
            "notes": timeline.get("notes", []),
            "forfeiture": forfeiture_summary(case, now),
            "set_elsewhere": _outside(rule["forfeiture"]),
            "open_order": open_stop_work_order(case),
            "staff": staff,
            "official": sees_internal_record(request.user, case.village_id),
            "attorney_letters": ATTORNEY_LETTERS,
            "rule": rule,
            "now": now.strftime("%Y-%m-%dT%H:%M"),
            "today": now.date().isoformat(),
            "cost_form": f.CostForm(initial={"incurred_on": now.date().isoformat()}),
            "invoice_form": f.InvoiceForm(
                initial={"issued_on": now.date().isoformat(), "due_in_days": 30}
            ),
            "notice_to_cease": any(
                a["after_event"] == "notified_to_cease" for a in rule["actions"]
            ),
            "retract_by_authority": "authority" in rule["retraction"]["by"],
            "back": back,
            "back_label": back_label,
            "appeals": case.appeals.all() if hasattr(case, "appeals") else [],
            "emails": messages_about_case(request.user, case) if staff else [],
            "may_serve": staff or is_inspector_of(request.user, case),
            "anchors": list(s.ANCHORS),
            "addressees": case_addressees(case, ordinance),
        },
    )


# What a step's wait runs from, in words (the core's ``runs_from``).
RUNS_FROM = {
    "stop_work_order_posted": "the stop-work order, posted on the site",
    "notice_of_intent_issued": "the notice of intent",
    "notified_to_cease": "the notice to cease",
    "violation": "the violation recorded",
    "costs_unpaid": "the costs recorded as unpaid",
}
SERVED_WORDS = {
    "posted_on_site": "posted on the site",
    "handed_over": "handed to the person",
    "mailed": "mailed",
    "emailed": "emailed",
    "mailed_received": "mailed, and received",
    "emailed_received": "emailed, and received",
}


def runs_from_words(runs: dict[str, Any] | None) -> str:
    """ "the notice of intent, mailed, on June 12, 2026": the event and the day a step's wait
    counts from."""
    if not runs:
        return ""
    what = RUNS_FROM.get(runs["event"], "the step before")
    served = runs.get("served")
    if served and runs["event"] != "stop_work_order_posted":
        what = f"{what}, {SERVED_WORDS.get(served, 'served')}"
    day = datetime.date.fromisoformat(runs["day"])
    return f"{what}, on {day:%B %-d, %Y}"


# -- violations and complaints ----------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def violation_new(request: HttpRequest) -> HttpResponse:
    villages = village_ids(request.user, Role.STAFF, Role.INSPECTOR)
    if not villages:
        raise PermissionDenied("Only village staff and inspectors record violations.")
    village_id = request.POST.get("village") or request.GET.get("village") or sorted(villages)[0]
    if village_id not in villages:
        raise Http404
    village = get_object_or_404(Village, pk=village_id)
    form = f.ViolationForm(
        request.POST or None,
        initial={"party_role": "unknown", "permit": str(request.GET.get("permit", ""))[:30]},
    )
    form.fields["provision"].label = f"Section of Ch. {load(village.id).chapter} broken"
    if request.method == "POST":
        if not form.is_valid():
            messages.error(request, f.first_error(form))
        else:
            data = form.cleaned_data
            permit = None
            if data["permit"]:
                permit = Permit.objects.filter(
                    village=village, number=data["permit"].strip()
                ).first()
                if permit is None:
                    messages.error(
                        request,
                        f"Permit number: {village.name} has no permit {data['permit'][:30]}",
                    )
            if permit is not None or not data["permit"]:
                try:
                    violation = s.violation_record(
                        village=village,
                        recorded_by=request.user,
                        source=data["source"],
                        description=data["description"],
                        provision=data["provision"],
                        days_from=data["days_from"],
                        days_to=data["days_to"],
                        at=timezone.now(),
                        permit=permit,
                        address=data["address"],
                        party_name=data["party_name"],
                        party_role=data["party_role"],
                        latitude=data["latitude"],
                        longitude=data["longitude"],
                        photos=_photos(request),
                    )
                except SiltfenceError as exc:
                    messages.error(request, said(exc, form))
                else:
                    messages.success(request, "Violation recorded.")
                    return redirect("enforcement:case", pk=violation.case_id)
    return render(
        request,
        "enforcement/violation_new.html",
        {"form": form, "village": village, "ordinance": load(village.id)},
    )


@login_required
@require_POST
def complaint_review(request: HttpRequest, pk: int) -> HttpResponse:
    violation = get_object_or_404(
        Violation.objects.filter(village_id__in=village_ids(request.user, Role.STAFF)), pk=pk
    )
    form = f.ReviewForm(request.POST)
    if not form.is_valid():
        messages.error(request, f.first_error(form))
        return redirect("enforcement:cases")
    data = form.cleaned_data
    permit = None
    if data["permit"]:
        permit = Permit.objects.filter(
            village_id=violation.village_id, number=data["permit"].strip()
        ).first()
        if permit is None:
            messages.error(request, f"Permit number: there is no permit {data['permit'][:30]}")
            return redirect("enforcement:cases")
    try:
        reviewed = s.violation_review(
            violation=violation,
            staff=request.user,
            at=timezone.now(),
            found=data["finding"] == "found",
            note=data["note"],
            provision=data["provision"],
            permit=permit,
            party_name=data["party_name"],
            party_role=data["party_role"],
        )
    except SiltfenceError as exc:
        messages.error(request, said(exc))
        return redirect("enforcement:cases")
    if reviewed.case_id:
        messages.success(request, "Violation found and put on the site's record.")
        return redirect("enforcement:case", pk=reviewed.case_id)
    messages.success(request, "Report dismissed.")
    return redirect("enforcement:cases")


@login_required
@require_GET
def photo(request: HttpRequest, pk: int) -> HttpResponse:
    villages = village_ids(request.user, Role.STAFF, Role.INSPECTOR, Role.APPEALS_BOARD)
    stored = get_object_or_404(
        ViolationPhoto.objects.filter(violation__village_id__in=villages), pk=pk
    )
    response = FileResponse(
        stored.file.open("rb"),
        as_attachment=True,
        # Saved under the type found in its contents: "a.png.html" holding a PNG is "a.png.png".
        filename=download_name(stored.original_name, stored.content_type),
        content_type=stored.content_type,
    )
    response["X-Content-Type-Options"] = "nosniff"
    return response


@login_required
@require_GET
def document(request: HttpRequest, pk: int) -> HttpResponse:
    stored = get_object_or_404(
        EnforcementDocument.objects.filter(case__in=cases_visible_to(request.user)), pk=pk
    )
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


# -- the steps ---------------------------------------------------------------------------------

STEP_DONE = {
    "stop-work": "Stop-work order posted. Print the placard and post it on the site; its "
    "posting is recorded as its service.",
    "compliance": "Compliance recorded; the stop-work order has ended.",
    "revoke": "Permit revoked. The revocation notice was generated.",
    "retract": "Order retracted.",
    "notice-to-cease": "Notice to cease recorded.",
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
        form = f.StopWorkForm(request.POST, grounds=[(g["id"], g["says"]) for g in rule["grounds"]])
        if not form.is_valid():
            return f.first_error(form)
        data = form.cleaned_data
        return s.stop_work_order_post(
            case=case,
            staff=staff,
            at=_aware(data["posted_at"], case.village_id),
            grounds=data["grounds"],
            note=data["note"],
        )
    if step == "cost":
        form = f.CostForm(request.POST)
        if not form.is_valid():
            return f.first_error(form)
        return s.work_cost_record(case=case, staff=staff, **form.cleaned_data)
    if step == "invoice":
        form = f.InvoiceForm(request.POST)
        if not form.is_valid():
            return f.first_error(form)
        return s.invoice_issue(
            case=case,
            staff=staff,
            on=form.cleaned_data["issued_on"],
            due_in_days=form.cleaned_data["due_in_days"],
        )
    if step == "parcel":
        form = f.ParcelForm(request.POST)
        if not form.is_valid():
            return f.first_error(form)
        return s.case_parcel_set(case=case, staff=staff, **form.cleaned_data)
    form = f.StepForm(request.POST)
    if not form.is_valid():
        return f.first_error(form)
    at = _aware(form.cleaned_data["at"], case.village_id)
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
    invoice = get_object_or_404(
        Invoice.objects.filter(case__in=cases_visible_to(request.user)).select_related("case"),
        pk=pk,
    )
    if step not in ("payment", "unpaid", "certify"):
        raise Http404
    if not is_staff_of(request.user, invoice.case):
        raise PermissionDenied("Only the village's administering authority takes these steps.")
    try:
        if step == "payment":
            form = InvoicePaymentForm(request.POST)
            if not form.is_valid():
                raise _FormError(f.first_error(form))
            s.payment_record(
                invoice=invoice,
                staff=request.user,
                amount=form.cleaned_data["amount"],
                on=form.cleaned_data["paid_on"],
                method=form.cleaned_data["method"],
                check_number=form.cleaned_data["check_number"],
            )
            receipt = invoice.payments.order_by("-id").first()
            done = f"Payment recorded: receipt {receipt.receipt_number if receipt else ''}."
        else:
            step_form = f.StepForm(request.POST)
            if not step_form.is_valid():
                raise _FormError(f.first_error(step_form))
            at = _aware(step_form.cleaned_data["at"], invoice.case.village_id)
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


class _FormError(Exception):
    pass


# -- service of documents --------------------------------------------------------------------


def _official_document(request: HttpRequest, pk: int) -> EnforcementDocument:
    """A document of a case the person may see, for the village's officials only."""
    stored = get_object_or_404(
        EnforcementDocument.objects.filter(case__in=cases_visible_to(request.user))
        .select_related("case", "action", "case__application")
        .prefetch_related("services"),
        pk=pk,
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
            messages.error(request, f.first_error(form))
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
    from siltfence.apps.permits.models import Party

    case = stored.case
    to = data["to"]
    party = None
    to_name = data["to_name"]
    if to.startswith("party-") and to.removeprefix("party-").isdecimal():
        party = Party.objects.filter(
            pk=int(to.removeprefix("party-")), application_id=case.application_id
        ).first()
        if party is None or case.application_id is None:
            raise s.ActionRefused("to: that party is not named on this case", field="to")
    elif to.startswith("name-") and not to_name:
        to_name = to.removeprefix("name-")
    s.document_serve(
        document=stored,
        user=request.user,
        method=data["method"],
        at=_aware(data["served_at"], case.village_id),
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
    from siltfence.apps.enforcement.models import ServiceRecord

    record = get_object_or_404(
        ServiceRecord.objects.filter(
            document__case__in=cases_visible_to(request.user)
        ).select_related("document", "document__case"),
        pk=pk,
    )
    case = record.document.case
    if not (is_staff_of(request.user, case) or is_inspector_of(request.user, case)):
        raise PermissionDenied("Only the village's staff and inspectors record service.")
    form = f.ReceivedForm(request.POST)
    if not form.is_valid():
        messages.error(request, f.first_error(form))
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


# -- village settings -------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def village_settings(request: HttpRequest, village: str) -> HttpResponse:
    place = get_object_or_404(Village, pk=village)
    if not is_staff_of(request.user, place):
        raise PermissionDenied("Only the village's administering authority sets these.")
    ordinance = load(place.id)
    if request.method == "POST":
        which = request.POST.get("setting")
        try:
            if which == "interest":
                form: Any = f.InterestRateForm(request.POST)
                if not form.is_valid():
                    raise _FormError(f.first_error(form))
                s.interest_rate_set(village=place, staff=request.user, **form.cleaned_data)
                messages.success(request, "Interest rate saved.")
            elif which == "forfeiture":
                form = f.ForfeitureForm(request.POST)
                if not form.is_valid():
                    raise _FormError(f.first_error(form))
                s.forfeiture_schedule_set(village=place, staff=request.user, **form.cleaned_data)
                messages.success(request, "Forfeiture amounts saved.")
            else:
                raise _FormError("Setting: choose the interest rate or the forfeiture amounts")
        except _FormError as exc:
            messages.error(request, str(exc))
        except SiltfenceError as exc:
            messages.error(request, said(exc))
        return redirect("enforcement:village", village=village)
    today = timezone.localdate()
    rule = ordinance.rules["enforcement"]["forfeiture"]
    low = ordinance.parameter(rule["min"], today).value
    return render(
        request,
        "enforcement/village.html",
        {
            "village": place,
            "ordinance": ordinance,
            "rate": interest_rate_in_force(place.id, today),
            "forfeiture": forfeiture_schedule_in_force(place.id, today),
            "forfeiture_in_chapter": low is not None,
            "rule": rule,
            "interest_form": f.InterestRateForm(initial={"effective_from": today.isoformat()}),
            "forfeiture_form": f.ForfeitureForm(initial={"effective_from": today.isoformat()}),
        },
    )


# -- public complaints ------------------------------------------------------------------------


def _client_key(request: HttpRequest) -> str:
    """Whom the hourly bound counts: the client's address as the trusted proxies report
    it (the same reading as login throttling), else the connection's."""
    from siltfence.apps.accounts.client_ip import client_ip

    return "complaints:" + (client_ip(request) or "unknown")


def _complaint_slot(request: HttpRequest) -> ComplaintSlot | None:
    """Take one of this address's complaint slots of the current clock hour, or None when
    all are taken. Shared by every worker process through the database."""
    return ComplaintSlot.take(_client_key(request), COMPLAINTS_PER_HOUR)


@require_http_methods(["GET", "POST"])
def complaint(request: HttpRequest) -> HttpResponse:
    """The public complaint form: no login; a place (map, address, or latitude and
    longitude, all without JavaScript), what was seen, photos, and how to reach the
    person (kept private)."""
    villages = list(Village.objects.order_by("name"))
    village_id = request.POST.get("village") or request.GET.get("village") or ""
    form = f.ComplaintForm(request.POST or None)
    chosen = next((v for v in villages if v.id == village_id), None)
    if request.method == "POST":
        if chosen is None:
            messages.error(request, "Village: choose the village where the site is")
        elif not form.is_valid():
            messages.error(request, f.first_error(form))
        elif (slot := _complaint_slot(request)) is None:
            messages.error(
                request,
                f"Form: at most {COMPLAINTS_PER_HOUR} reports an hour can be sent from one "
                "place; please call the village office instead",
            )
        else:
            data = form.cleaned_data
            try:
                violation = s.complaint_file(
                    village=chosen,
                    description=data["description"],
                    at=timezone.now(),
                    address=data["address"],
                    latitude=data["latitude"],
                    longitude=data["longitude"],
                    seen_on=data["seen_on"],
                    name=data["name"],
                    email=data["email"],
                    phone=data["phone"],
                    photos=_photos(request),
                )
            except SiltfenceError as exc:
                slot.delete()  # a report refused does not count
                messages.error(request, said(exc, form))
            else:
                mine = request.session.get(COMPLAINT_SESSION_KEY, [])
                request.session[COMPLAINT_SESSION_KEY] = [*mine[-9:], violation.pk]
                return redirect("enforcement:complaint-received", pk=violation.pk)
    from django.conf import settings

    centres = {v.id: list(load(v.id).map_centre) for v in villages}
    return render(
        request,
        "enforcement/complaint.html",
        {
            "form": form,
            "villages": villages,
            "chosen": chosen,
            "centres": centres,
            "tile_url": settings.SILTFENCE_TILE_URL,
            "tile_attribution": settings.SILTFENCE_TILE_ATTRIBUTION,
        },
    )


def _own_complaint(request: HttpRequest, pk: int) -> Violation:
    if pk not in request.session.get(COMPLAINT_SESSION_KEY, []):
        raise Http404
    return get_object_or_404(Violation, pk=pk, source="complaint")


@require_GET
def complaint_received(request: HttpRequest, pk: int) -> HttpResponse:
    violation = _own_complaint(request, pk)
    return render(
        request,
        "enforcement/complaint_received.html",
        {"violation": violation, "ordinance": load(violation.village_id)},
    )


@require_GET
def complaint_receipt(request: HttpRequest, pk: int) -> HttpResponse:
    from siltfence.apps.enforcement.documents import complaint_pdf

    violation = _own_complaint(request, pk)
    response = HttpResponse(complaint_pdf(violation), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="complaint-C-{violation.pk}.pdf"'
    return response
