"""The staff console: the review queue by statutory clock, the application page with
its decision forms, permits with expiry and extensions, and the village's office
calendar and fee schedule. Inspectors and appeals board members see, but do not act."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import is_staff_of, village_ids
from siltfence.apps.audit.selectors import events_about
from siltfence.apps.payments.forms import FeeForm
from siltfence.apps.permits import services
from siltfence.apps.permits.clocks import application_timeline, review_clock
from siltfence.apps.permits.models import (
    Application,
)
from siltfence.apps.permits.selectors import (
    applications_for_review,
    applications_visible_to,
    drafts_awaiting_fee,
)
from siltfence.apps.permits.stored_clocks import stored_review_clock
from siltfence.apps.web.forms import (
    DecisionForm,
    InformationRequestForm,
    SuretyReceiveForm,
    blank,
)
from siltfence.apps.web.selectors import villages_by_name
from siltfence.core.ordinance.loader import load
from siltfence.presentation.paging import PAGE_SIZE, page_of, paging, pk_path
from siltfence.presentation.steps import form_step, step_done
from siltfence.presentation.tables import (
    CHUNK,
    Column,
    Table,
    chosen_villages,
    cite,
    download,
    refuses_bad_queries,
    village_filter,
    wants_csv,
)
from siltfence.presentation.wording import duty_words

# Asked of staff before a decision that cannot be undone (approve, disapprove, close).
CONFIRM_FIELD = "confirm"
NOT_CONFIRMED = (
    "Nothing was done: tick “I understand this cannot be undone” to {action}. {consequence}"
)


def officials_only(request: HttpRequest) -> None:
    if not village_ids(request.user, Role.STAFF, Role.INSPECTOR, Role.APPEALS_BOARD):
        raise PermissionDenied("This page is for village staff.")


def staff_only(request: HttpRequest, obj: Any) -> None:
    if not is_staff_of(request.user, obj):
        raise PermissionDenied("Only the village's administering authority may do this.")


def _queue_row(
    application: Application, today: datetime.date, url: Callable[[int], str]
) -> dict[str, Any]:
    """A row of the queue, from the clock stored on the application (no events read), in
    the words and links the row shows: 50 rows a page, so the table reads plain values
    rather than walking each application's relations and reversing its link."""
    clock = stored_clock_words(application)
    running = clock is not None and clock["state"] in ("running", "overdue")
    due = str(clock["due"])[:10] if clock and running else None
    if due:
        decision = due
    elif clock is not None and clock["state"] == "paused":
        decision = f"Paused: waiting for information since {clock['waiting_since']}"
    else:
        decision = ""
    overdue = clock is not None and clock["status"] == "overdue"
    days_left = (datetime.date.fromisoformat(due) - today).days if due else None
    return {
        "url": url(application.pk),
        "number": application.number,
        "village": application.village.name,
        "address": application.site.address,
        "status": application.get_status_display(),
        "decision": decision,
        "citation": clock["citation"] if clock else "",
        "overdue": overdue,
        "days_left": "OVERDUE" if overdue else days_left,
    }


# The review queue, on the page and in its download.
QUEUE = Table[dict[str, Any]](
    name="review-queue",
    label="the review queue",
    testid="queue",
    row_class=lambda r: "overdue" if r["overdue"] else "",
    columns=(
        Column("Decision due", lambda r: r["decision"], empty="-"),
        Column("Section", lambda r: r["citation"], markup=cite),
        Column("Days left", lambda r: r["days_left"], strong=lambda r: r["overdue"], empty="-"),
        Column("Application", lambda r: r["number"], link=lambda r: r["url"]),
        Column("Village", lambda r: r["village"]),
        Column("Site", lambda r: r["address"]),
        Column("Status", lambda r: r["status"]),
    ),
)


@login_required
@require_GET
@refuses_bad_queries
def queue(request: HttpRequest) -> HttpResponseBase:
    staff_of = village_ids(request.user, Role.STAFF)
    if not staff_of:
        raise PermissionDenied("The review queue is for village staff.")
    villages = chosen_villages(request, staff_of)
    today = timezone.localdate()
    url = pk_path("web:staff-application")
    # Running clocks first by the stored day a decision is due (overdue ones first of
    # all); paused ones (waiting for the applicant's information) after them.
    filed = applications_for_review(request.user).filter(village_id__in=villages)
    if wants_csv(request):
        every = filed.iterator(chunk_size=CHUNK)
        return QUEUE.csv((_queue_row(a, today, url) for a in every), villages=villages)
    page = page_of(request, filed)
    fees, fees_total = drafts_awaiting_fee(request.user, today, limit=PAGE_SIZE)
    return render(
        request,
        "web/staff_queue.html",
        {
            "queue": QUEUE.page(_queue_row(a, today, url) for a in page.object_list),
            "has_rows": bool(page.object_list),
            "download": download(request, QUEUE, count=page.paginator.count),
            "village_filter": village_filter(request, staff_of),
            "today": today,
            "awaiting_fee": [{"application": a, "amount": amount} for a, amount in fees],
            "awaiting_fee_more": fees_total - len(fees),
            "staff_villages": villages_by_name(staff_of),
            **paging(request, page, "the review queue"),
        },
    )


def stored_clock_words(application: Application) -> dict[str, Any] | None:
    clock = stored_review_clock(application)
    if clock is None:
        return None
    return duty_words(clock, zone=load(application.village_id).time_zone)


def _clock(application: Application) -> dict[str, Any] | None:
    clock = review_clock(application)
    if clock is None:
        return None
    return duty_words(clock, zone=load(application.village_id).time_zone)


def back_link(user: Any) -> tuple[str, str]:
    """Where "back" goes for this person: their own home list, never a page they may not see."""
    if village_ids(user, Role.STAFF):
        return "web:staff-queue", "Review queue"
    if village_ids(user, Role.INSPECTOR):
        return "web:inspector-home", "Inspections"
    if village_ids(user, Role.APPEALS_BOARD):
        return "web:appeals-home", "Appeals board"
    return "web:portal", "My applications"


@login_required
@require_GET
def application_detail(request: HttpRequest, pk: int) -> HttpResponse:
    officials_only(request)
    application = get_object_or_404(applications_visible_to(request.user), pk=pk)
    if application.applicant_id == request.user.pk and not is_staff_of(request.user, application):
        return redirect("web:portal-application", pk=pk)
    ordinance = load(application.village_id)
    plan = application.determination.get("plan") or {}
    timeline = application_timeline(application).to_json() if application.received_at else None
    if timeline is not None:
        clock = review_clock(application) or {}
        for duty in timeline["duties"]:
            if duty["kind"] in ("review_decision", "re_review_decision"):
                duty["waiting_since"] = clock.get("waiting_since")
        timeline["duties"] = [duty_words(d, zone=ordinance.time_zone) for d in timeline["duties"]]
        # The readings of unclear text the clocks rest on, shown with them (New Glarus
        # § 135-7C(1), a request for information and the review clock).
        timeline["clock_readings"] = {
            r["id"] for d in timeline["duties"] for r in d.get("readings", [])
        }
    today = timezone.localdate()
    fee_due = services.application_fee_due(application, today)
    back_url, back_label = back_link(request.user)
    context = {
        "application": application,
        "ordinance": ordinance,
        "plan": plan,
        "checklist": [
            {"item": item, "ticked": i in set(application.checklist)}
            for i, item in enumerate(plan.get("contents", []))
        ],
        "clock": _clock(application),
        "timeline": timeline,
        "back_url": back_url,
        "back_label": back_label,
        "parties": application.parties.all(),
        "fee_due": fee_due,
        "can_decide": is_staff_of(request.user, application),
        "info_form": InformationRequestForm(),
        "decision_form": DecisionForm(),
        "fee_form": FeeForm(initial={"amount": fee_due, "paid_on": today}),
        "surety_form": blank(SuretyReceiveForm),
        "permit": getattr(application, "permit", None),
        "audit": events_about("application", application.pk),
    }
    return render(request, "web/staff_application.html", context)


def _staff_application(request: HttpRequest, pk: int) -> Application:
    application = get_object_or_404(applications_visible_to(request.user), pk=pk)
    staff_only(request, application)
    return application


def confirmed(request: HttpRequest, action: str, consequence: str) -> bool:
    """The "I understand this cannot be undone" box was ticked; if not, say so and do
    nothing. Checked here, on the server, so the step holds without JavaScript."""
    if request.POST.get(CONFIRM_FIELD) == "yes":
        return True
    messages.error(request, NOT_CONFIRMED.format(action=action, consequence=consequence))
    return False


@login_required
@require_POST
def request_information(request: HttpRequest, pk: int) -> HttpResponse:
    application = _staff_application(request, pk)
    form = InformationRequestForm(request.POST)
    message = form.data.get("message", "")
    step_done(
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
    # One added condition per line (where the chapter allows them, § 135-7F).
    conditions = str(request.POST.get("conditions", ""))[:50_000].splitlines()
    surety_text = str(request.POST.get("surety", "")).strip()[:40]
    surety = None
    if surety_text:
        try:
            surety = Decimal(surety_text.replace(",", "").removeprefix("$"))
        except InvalidOperation:
            messages.error(request, "surety: give the amount in dollars, like 5000 or 5000.00")
            return redirect("web:staff-application", pk=pk)
        if not surety.is_finite():
            messages.error(request, "surety: give the amount in dollars, like 5000 or 5000.00")
            return redirect("web:staff-application", pk=pk)
    if not confirmed(request, "approve", "An approval issues the permit."):
        return redirect("web:staff-application", pk=pk)
    step_done(
        request,
        lambda: services.application_approve(
            application=application,
            staff=request.user,
            at=timezone.now(),
            reasons=reasons,
            conditions=conditions,
            surety=surety,
        ),
        "Approved. The permit was issued."
        if surety is None
        else "Approved, subject to the surety. The permit will be issued when it is received.",
    )
    return redirect("web:staff-application", pk=pk)


@login_required
@require_POST
def surety_receive(request: HttpRequest, pk: int) -> HttpResponse:
    application = _staff_application(request, pk)
    form_step(
        request,
        SuretyReceiveForm(request.POST),
        lambda data: services.surety_receive(
            application=application, staff=request.user, at=timezone.now(), **data
        ),
        "Surety recorded. The permit was issued.",
    )
    return redirect("web:staff-application", pk=pk)


@login_required
@require_POST
def disapprove(request: HttpRequest, pk: int) -> HttpResponse:
    application = _staff_application(request, pk)
    reasons = request.POST.get("reasons", "")
    if not confirmed(request, "disapprove", "A disapproval sends the letter with its reasons."):
        return redirect("web:staff-application", pk=pk)
    step_done(
        request,
        lambda: services.application_disapprove(
            application=application, staff=request.user, reasons=reasons, at=timezone.now()
        ),
        "Disapproved. The letter with the reasons was generated.",
    )
    return redirect("web:staff-application", pk=pk)
