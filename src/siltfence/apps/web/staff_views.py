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
from django.db.models import Count, Exists, F, OuterRef, Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString
from django.views.decorators.http import require_GET, require_POST

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import is_applicant_of, is_staff_of, village_ids
from siltfence.apps.enforcement.forms import first_error
from siltfence.apps.enforcement.models import EnforcementCase
from siltfence.apps.outbox.models import Message
from siltfence.apps.outbox.selectors import messages_about_permit
from siltfence.apps.permits import services
from siltfence.apps.permits.clocks import application_timeline, office_closures, review_clock
from siltfence.apps.permits.models import (
    Application,
    ApplicationStatus,
    Document,
    DocumentKind,
    FeeSchedule,
    OfficeClosure,
    Permit,
    PermitExtension,
    PermitStatus,
    PlanAmendment,
    Surety,
    Village,
)
from siltfence.apps.permits.selectors import (
    applications_for_review,
    applications_visible_to,
    drafts_awaiting_fee,
    permits_visible_to,
    surety_expiry_warning,
)
from siltfence.apps.permits.stored_clocks import stored_review_clock
from siltfence.apps.sitelog.selectors import entries_without_permit
from siltfence.apps.web.forms import (
    CloseForm,
    CloseWhenCompletedForm,
    ClosureForm,
    DecisionForm,
    ExtendForm,
    FeeForm,
    FeeScheduleForm,
    InformationRequestForm,
    SuretyForm,
    SuretyMoveForm,
    SuretyReceiveForm,
    blank,
)
from siltfence.core.errors import SiltfenceError
from siltfence.core.ordinance.loader import load
from siltfence.presentation.labels import label
from siltfence.presentation.paging import PAGE_SIZE, page_of, paging, pk_path
from siltfence.presentation.tables import (
    CHUNK,
    Column,
    Item,
    Table,
    chosen_villages,
    cite,
    download,
    refuses_bad_queries,
    village_filter,
    wants_csv,
)
from siltfence.presentation.wording import duty_words, plain

# Asked of staff before a decision that cannot be undone (approve, disapprove, close).
CONFIRM_FIELD = "confirm"
NOT_CONFIRMED = (
    "Nothing was done: tick “I understand this cannot be undone” to {action}. {consequence}"
)

# The inspector's home works out each permit's duties as the page is served, so a page
# holds fewer permits than the other lists.
INSPECTOR_PAGE = 25
# The appeals board's home: its decisions a page at a time, and the latest permits.
BOARD_PAGE = 25
BOARD_LATEST_PERMITS = 10


def _officials_only(request: HttpRequest) -> None:
    if not village_ids(request.user, Role.STAFF, Role.INSPECTOR, Role.APPEALS_BOARD):
        raise PermissionDenied("This page is for village staff.")


def _staff_only(request: HttpRequest, obj: Any) -> None:
    if not is_staff_of(request.user, obj):
        raise PermissionDenied("Only the village's administering authority may do this.")


def _queue_row(
    application: Application, today: datetime.date, url: Callable[[int], str]
) -> dict[str, Any]:
    """A row of the queue, from the clock stored on the application (no events read), in
    the words and links the row shows: 50 rows a page, so the table reads plain values
    rather than walking each application's relations and reversing its link."""
    clock = _stored_clock(application)
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
def queue(request: HttpRequest) -> HttpResponse:
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
            "staff_villages": Village.objects.filter(pk__in=staff_of).order_by("name"),
            **paging(request, page, "the review queue"),
        },
    )


def _stored_clock(application: Application) -> dict[str, Any] | None:
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
    _officials_only(request)
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


def _confirmed(request: HttpRequest, action: str, consequence: str) -> bool:
    """The "I understand this cannot be undone" box was ticked; if not, say so and do
    nothing. Checked here, on the server, so the step holds without JavaScript."""
    if request.POST.get(CONFIRM_FIELD) == "yes":
        return True
    messages.error(request, NOT_CONFIRMED.format(action=action, consequence=consequence))
    return False


def _done(request: HttpRequest, action: Any, success: str) -> None:
    try:
        action()
    except SiltfenceError as exc:
        messages.error(request, plain(exc))
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
    if not _confirmed(request, "approve", "An approval issues the permit."):
        return redirect("web:staff-application", pk=pk)
    _done(
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
    form = SuretyReceiveForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect("web:staff-application", pk=pk)
    _done(
        request,
        lambda: services.surety_receive(
            application=application, staff=request.user, at=timezone.now(), **form.cleaned_data
        ),
        "Surety recorded. The permit was issued.",
    )
    return redirect("web:staff-application", pk=pk)


@login_required
@require_POST
def disapprove(request: HttpRequest, pk: int) -> HttpResponse:
    application = _staff_application(request, pk)
    reasons = request.POST.get("reasons", "")
    if not _confirmed(request, "disapprove", "A disapproval sends the letter with its reasons."):
        return redirect("web:staff-application", pk=pk)
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
        messages.error(request, first_error(form))
        return redirect("web:staff-application", pk=pk)
    _done(
        request,
        lambda: services.fee_payment_record(
            application=application, staff=request.user, **form.cleaned_data
        ),
        "Fee payment recorded; its receipt is under “Fees and payments”.",
    )
    return redirect("web:staff-application", pk=pk)


def _permit_row(permit: Permit, today: datetime.date, url: Callable[[int], str]) -> dict[str, Any]:
    days_left = (permit.expires_on - today).days
    return {
        "url": url(permit.pk),
        "number": permit.number,
        "village": permit.village.name,
        "address": permit.application.site.address,
        "expires_on": permit.expires_on,
        "expired": days_left < 0,
        "days_left": days_left
        if days_left >= 0
        else f"Expired {-days_left} day{'' if days_left == -1 else 's'} ago",
        "extensions": permit.extension_count,
    }


def _expired_marked(row: dict[str, Any], text: str) -> SafeString:
    """ "Expired 3 days ago", with "Expired" in bold."""
    word = "Expired"
    if not text.startswith(word):
        return conditional_escape(text)
    return format_html("<strong>{}</strong>{}", word, text[len(word) :])


# The permits not closed, on the page and in its download.
PERMITS = Table[dict[str, Any]](
    name="permits",
    label="the permits not closed",
    testid="permits",
    row_class=lambda r: "overdue" if r["expired"] else "",
    columns=(
        Column("Last day", lambda r: r["expires_on"]),
        Column("Days left", lambda r: r["days_left"], markup=_expired_marked),
        Column("Permit", lambda r: r["number"], link=lambda r: r["url"]),
        Column("Village", lambda r: r["village"]),
        Column("Site", lambda r: r["address"]),
        Column("Extensions", lambda r: r["extensions"]),
    ),
)


@login_required
@require_GET
@refuses_bad_queries
def permits(request: HttpRequest) -> HttpResponse:
    _officials_only(request)
    yours = village_ids(request.user, Role.STAFF, Role.INSPECTOR, Role.APPEALS_BOARD)
    villages = chosen_villages(request, yours)
    today = timezone.localdate()
    in_force = (
        permits_visible_to(request.user)
        .filter(status=PermitStatus.ACTIVE, village_id__in=villages)
        .exclude(application__applicant=request.user)
        .annotate(extension_count=Count("extensions"))
        .order_by("expires_on", "pk")
    )
    url = pk_path("web:permit")
    if wants_csv(request):
        every = in_force.iterator(chunk_size=CHUNK)
        return PERMITS.csv((_permit_row(p, today, url) for p in every), villages=villages)
    page = page_of(request, in_force)
    return render(
        request,
        "web/staff_permits.html",
        {
            "permits": PERMITS.page(_permit_row(p, today, url) for p in page.object_list),
            "has_rows": bool(page.object_list),
            "download": download(request, PERMITS, count=page.paginator.count),
            "village_filter": village_filter(request, yours),
            "today": today,
            **paging(request, page, "the permits not closed"),
        },
    )


@login_required
@require_GET
def permit_detail(request: HttpRequest, pk: int) -> HttpResponse:
    permit = get_object_or_404(
        permits_visible_to(request.user)
        .select_related("application__site__rain__station")
        # Not shown here: the determination (kilobytes) and the facts it was made from.
        .defer("application__determination", "application__facts")
        .prefetch_related(
            Prefetch(
                "application__documents",
                queryset=Document.objects.filter(kind__in=LETTER_KINDS),
                to_attr="letters",
            ),
        )
        # Most permits have no extension, surety, amendment or enforcement case: each list
        # is read only where the permit has one (one query in all when it has none).
        .annotate(
            with_extensions=Exists(PermitExtension.objects.filter(permit=OuterRef("pk"))),
            with_sureties=Exists(Surety.objects.filter(permit=OuterRef("pk"))),
            with_amendments=Exists(PlanAmendment.objects.filter(permit=OuterRef("pk"))),
            with_cases=Exists(
                EnforcementCase.objects.filter(application=OuterRef("application_id"))
            ),
            with_emails=Exists(Message.objects.filter(permit=OuterRef("pk"))),
        ),
        pk=pk,
    )
    ordinance = load(permit.village_id)
    from siltfence.apps.permits.services import amendment_triggers

    timeline = application_timeline(permit.application).to_json()
    timeline["duties"] = [duty_words(d, zone=ordinance.time_zone) for d in timeline["duties"]]
    # Site-log entries dated after the permit's last day: work without a permit
    # (§ 413-8A, § 135-7A). Read only once that day has passed.
    without_permit = (
        entries_without_permit(permit) if timezone.localdate() > permit.expires_on else []
    )
    back_url, back_label = back_link(request.user)
    if permit.application.applicant_id == request.user.pk:
        back_url, back_label = "web:portal", "My applications"
    return render(
        request,
        "web/permit.html",
        {
            "permit": permit,
            "extensions": list(permit.extensions.all()) if permit.with_extensions else [],
            "sureties": _sureties(permit, today=timezone.localdate()),
            "amendments": list(permit.amendments.all()) if permit.with_amendments else [],
            "cases": (
                list(permit.application.enforcement_cases.all()) if permit.with_cases else []
            ),
            "ordinance": ordinance,
            "timeline": timeline,
            "without_permit": without_permit,
            "can_manage": is_staff_of(request.user, permit),
            "is_permittee": permit.application.applicant_id == request.user.pk,
            "extend_form": blank(ExtendForm),
            "close_form": blank(
                CloseWhenCompletedForm
                if "activities_completed" in ordinance.rules["permit"]["final_stabilization"]
                else CloseForm
            ),
            "surety_form": blank(SuretyForm),
            "triggers": amendment_triggers(ordinance),
            "audit": _audit_for("permit", permit.pk),
            "emails": messages_about_permit(request.user, permit) if permit.with_emails else [],
            "back_url": back_url,
            "back_label": back_label,
        },
    )


def _sureties(permit: Any, *, today: datetime.date) -> list[Any]:
    """The permit's sureties, each with its form and a warning when it expires within
    ``SURETY_WATCH_DAYS`` days (or has expired) while the permit is not closed."""
    if not permit.with_sureties:
        return []
    sureties = list(permit.sureties.prefetch_related("movements"))
    for surety in sureties:
        surety.form = SuretyMoveForm(initial={"on": today}, auto_id=f"surety{surety.pk}-%s")
        surety.expiring = surety_expiry_warning(surety, permit, today)
    return sureties


# The documents the village issued on a permit's record, listed on the permit page.
LETTER_KINDS = [
    DocumentKind.PERMIT,
    DocumentKind.DISAPPROVAL_LETTER,
    DocumentKind.SURETY_REQUIRED_LETTER,
    DocumentKind.EXTENSION_LETTER,
    DocumentKind.CLOSEOUT_LETTER,
    DocumentKind.SURETY_RELEASE_LETTER,
]


def _staff_permit(request: HttpRequest, pk: int) -> Any:
    permit = get_object_or_404(permits_visible_to(request.user), pk=pk)
    _staff_only(request, permit)
    return permit


@login_required
@require_POST
def permit_extend(request: HttpRequest, pk: int) -> HttpResponse:
    permit = _staff_permit(request, pk)
    form = ExtendForm(request.POST)
    days = int(form.data.get("days") or 0) if str(form.data.get("days", "")).isdecimal() else 0
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
    raw = str(request.POST.get("cover_percent", "")).strip()
    cover = None if raw == "" else int(raw) if raw.isdecimal() and len(raw) <= 3 else -1
    measures = str(request.POST.get("equivalent_measures", ""))
    if not _confirmed(request, "close the permit", "A closed permit cannot be reopened."):
        return redirect("web:permit", pk=pk)
    _done(
        request,
        lambda: services.permit_close(
            permit=permit,
            staff=request.user,
            on=timezone.localdate(),
            cover_percent=cover,
            equivalent_measures=measures,
            activities_completed=request.POST.get("activities_completed") in ("on", "true", "1"),
        ),
        "Permit closed at final stabilization.",
    )
    return redirect("web:permit", pk=pk)


@login_required
@require_POST
def surety_move(request: HttpRequest, pk: int, surety_pk: int) -> HttpResponse:
    permit = _staff_permit(request, pk)
    surety = get_object_or_404(Surety, pk=surety_pk, permit=permit)
    move = request.POST.get("move")
    if move not in ("draw", "release"):
        messages.error(request, "move: choose to record a draw or a release")
        return redirect("web:permit", pk=pk)
    form = SuretyMoveForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect("web:permit", pk=pk)
    data = form.cleaned_data
    if move == "draw" and data["amount"] is None:
        messages.error(request, "amount: give the amount drawn")
        return redirect("web:permit", pk=pk)
    service = services.surety_draw if move == "draw" else services.surety_release
    _done(
        request,
        lambda: service(surety=surety, staff=request.user, **data),
        "Draw on the surety recorded."
        if move == "draw"
        else "Surety released. The letter was generated.",
    )
    return redirect("web:permit", pk=pk)


@login_required
@require_POST
def permit_surety(request: HttpRequest, pk: int) -> HttpResponse:
    permit = _staff_permit(request, pk)
    form = SuretyForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
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


def _village_names(ids: set[str]) -> list[str]:
    return [v.name for v in Village.objects.filter(pk__in=ids).order_by("name")]


def _inspector_row(
    permit: Permit, closures: dict[str, Any], url: Callable[[int], str]
) -> dict[str, Any]:
    """A permit in force with what is due on its site now: the open and overdue duties its
    timeline works out, overdue first."""
    zone = load(permit.village_id).time_zone
    timeline = application_timeline(permit.application, closures=closures[permit.village_id])
    duties = [
        duty_words(d, zone=zone)
        for d in timeline.to_json()["duties"]
        if d["status"] in ("open", "overdue")
    ]
    duties.sort(key=lambda d: (d["state"] != "overdue", str(d["due"])))
    return {
        "url": url(permit.pk),
        "number": permit.number,
        "village": permit.village.name,
        "address": permit.application.site.address,
        "expires_on": permit.expires_on,
        "due": [
            Item(f"{label(d['kind'])} ({label(d['party'])}): {d['label']}", d["citation"])
            for d in duties
        ],
    }


# The inspector's permits in force, on the page and in its download.
INSPECTOR_PERMITS = Table[dict[str, Any]](
    name="permits-in-force",
    label="the permits in force",
    testid="inspector-permits",
    columns=(
        Column("Permit", lambda r: r["number"], link=lambda r: r["url"]),
        Column("Village", lambda r: r["village"]),
        Column("Site", lambda r: r["address"]),
        Column("Valid through", lambda r: r["expires_on"]),
        Column("What is due", lambda r: r["due"], empty="Nothing due now."),
    ),
)


@login_required
@require_GET
@refuses_bad_queries
def inspector_home(request: HttpRequest) -> HttpResponse:
    """The inspector's work: permits in force in their village(s), each with what is due
    on the site (the duties the timeline computes, overdue first), and the applications
    under review, which they may read."""
    yours = village_ids(request.user, Role.INSPECTOR)
    if not yours:
        raise PermissionDenied("This page is for the village's inspectors.")
    villages = chosen_villages(request, yours)
    # A page of permits at a time, each with its events read in one query for the page,
    # so the duties shown are worked out now, from everything recorded up to this moment.
    in_force = (
        # In force: active and not past its last day (an expired permit is no permit).
        Permit.objects.filter(
            village_id__in=villages,
            status=PermitStatus.ACTIVE,
            expires_on__gte=timezone.localdate(),
        )
        .select_related("village", "application__site")
        .defer("application__determination", "application__facts")
        .prefetch_related("application__timeline")
        .order_by("expires_on", "pk")
    )
    closures = {village: office_closures(village) for village in villages}
    url = pk_path("web:permit")
    if wants_csv(request):
        every = in_force.iterator(chunk_size=CHUNK)
        rows = (_inspector_row(p, closures, url) for p in every)
        return INSPECTOR_PERMITS.csv(rows, villages=villages)
    page = page_of(request, in_force, per_page=INSPECTOR_PAGE)
    rows = [_inspector_row(permit, closures, url) for permit in page.object_list]
    filed = (
        Application.objects.filter(
            village_id__in=villages,
            status__in=[ApplicationStatus.UNDER_REVIEW, ApplicationStatus.INFORMATION_REQUESTED],
        )
        .select_related("site")
        .only(
            "number",
            "status",
            "village_id",
            "received_at",
            "decision_due",
            "decision_clock",
            "site__address",
        )
        .order_by(F("decision_due").asc(nulls_last=True), "pk")
    )
    return render(
        request,
        "web/inspector_home.html",
        {
            "villages": _village_names(villages),
            "permits": INSPECTOR_PERMITS.page(rows),
            "has_rows": bool(rows),
            "download": download(request, INSPECTOR_PERMITS, count=page.paginator.count),
            "village_filter": village_filter(request, yours),
            "filed": [{"application": a, "clock": _stored_clock(a)} for a in filed],
            "also_board": bool(village_ids(request.user, Role.APPEALS_BOARD)),
            **paging(request, page, "the permits in force"),
        },
    )


@login_required
@require_GET
def appeals_home(request: HttpRequest) -> HttpResponse:
    """The appeals board's docket, and the decisions and permits it may be asked about."""
    villages = village_ids(request.user, Role.APPEALS_BOARD)
    if not villages:
        raise PermissionDenied("This page is for the village's appeals board.")
    boards = []
    for village in Village.objects.filter(pk__in=villages).order_by("name"):
        ordinance = load(village.id)
        boards.append(
            {"village": village, "ordinance": ordinance, "appeals": ordinance.rules["appeals"]}
        )
    page = page_of(
        request,
        Application.objects.filter(
            village_id__in=villages,
            status__in=[
                ApplicationStatus.APPROVED,
                ApplicationStatus.AWAITING_SURETY,
                ApplicationStatus.DISAPPROVED,
            ],
        )
        .select_related("village", "site")
        .only(
            "number",
            "status",
            "decided_at",
            "decision_reasons",
            "village__name",
            "site__address",
        )
        .order_by(F("decided_at").desc(nulls_last=True), "-pk"),
        per_page=BOARD_PAGE,
    )
    decided = [{"application": a, "zone": load(a.village_id).time_zone} for a in page.object_list]
    # The latest permits; every one is in the public register, searchable by village.
    latest = (
        Permit.objects.filter(village_id__in=villages)
        .select_related("application__site")
        .only(
            "number",
            "status",
            "issued_on",
            "expires_on",
            "application__site__address",
        )
        .order_by("-issued_on", "-pk")[:BOARD_LATEST_PERMITS]
    )
    return render(
        request,
        "web/appeals_home.html",
        {
            "boards": boards,
            "decided": decided,
            "permits": list(latest),
            "also_inspector": bool(village_ids(request.user, Role.INSPECTOR)),
            **paging(request, page, "the decisions"),
        },
    )
