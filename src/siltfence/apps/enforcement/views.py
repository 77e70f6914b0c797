"""Enforcement screens: the cases list and a case's record (staff act, inspectors and
board members see), and the village's enforcement settings (interest rate, forfeiture
amounts set outside the chapter). The steps are in ``step_views``, violations and
public complaints in ``complaint_views``, documents and their service in
``document_views``."""

from __future__ import annotations

import datetime
from typing import Any
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import (
    is_inspector_of,
    is_staff_of,
    sees_appeals_docket,
    village_ids,
)
from siltfence.apps.documents.addressees import case_addressees
from siltfence.apps.enforcement import forms as f
from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement.documents import KIND_TITLES, _outside
from siltfence.apps.enforcement.models import EnforcementCase
from siltfence.apps.enforcement.selectors import (
    ATTORNEY_LETTERS,
    case_timeline,
    case_with_everything,
    cases_visible_to,
    complaints_to_review,
    forfeiture_schedule_in_force,
    forfeiture_summary,
    interest_rate_in_force,
    letter_wordings_of,
    open_stop_work_order,
    permit_of_application,
    sees_internal_record,
)
from siltfence.apps.outbox.selectors import messages_about_case
from siltfence.apps.permits.models import Permit, Village
from siltfence.apps.permits.selectors import villages_where_staff
from siltfence.core.errors import SiltfenceError
from siltfence.core.ordinance.loader import load
from siltfence.presentation.forms import first_error
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
def cases(request: HttpRequest) -> HttpResponseBase:
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
            "staff_villages": villages_where_staff(user=request.user),
            "can_record": bool(village_ids(request.user, Role.STAFF, Role.INSPECTOR)),
            "docket": sees_appeals_docket(request.user),
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
    permit = (
        permit_of_application(application_id=case.application_id)
        if case.application_id is not None
        else None
    )
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
                    raise _FormError(first_error(form))
                s.interest_rate_set(village=place, staff=request.user, **form.cleaned_data)
                messages.success(request, "Interest rate saved.")
            elif which == "letters":
                form = f.LetterWordingForm(request.POST, letters=_letters())
                if not form.is_valid():
                    raise _FormError(first_error(form))
                s.letter_wording_set(village=place, staff=request.user, **form.cleaned_data)
                messages.success(
                    request, "The village's words are saved; the letters made from now carry them."
                )
            elif which == "forfeiture":
                form = f.ForfeitureForm(request.POST)
                if not form.is_valid():
                    raise _FormError(first_error(form))
                s.forfeiture_schedule_set(village=place, staff=request.user, **form.cleaned_data)
                messages.success(request, "Forfeiture amounts saved.")
            else:
                raise _FormError(
                    "Setting: choose the interest rate, the forfeiture amounts or a letter's words"
                )
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
            "letters_form": f.LetterWordingForm(letters=_letters()),
            "wordings": [(KIND_TITLES[w.kind], w) for w in letter_wordings_of(village=place)],
        },
    )


def _letters() -> list[tuple[str, str]]:
    return [(kind, KIND_TITLES[kind]) for kind in s.PARTY_LETTERS]


class _FormError(Exception):
    pass
