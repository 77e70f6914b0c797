"""A permit's page, for every official and its permittee, and what staff do to a permit:
extend it, close it, receive and move its surety, decide an amendment of its plan; the
list of the permits not closed."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString
from django.views.decorators.http import require_GET, require_POST

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import is_applicant_of, is_staff_of, village_ids
from siltfence.apps.audit.selectors import events_about
from siltfence.apps.outbox.selectors import messages_about_permit
from siltfence.apps.permits import services
from siltfence.apps.permits.clocks import application_timeline
from siltfence.apps.permits.models import (
    Permit,
    PlanAmendment,
    Surety,
)
from siltfence.apps.permits.selectors import (
    permits_visible_to,
    surety_expiry_warning,
)
from siltfence.apps.sitelog.selectors import entries_without_permit
from siltfence.apps.web.forms import (
    CloseForm,
    CloseWhenCompletedForm,
    ExtendForm,
    SuretyForm,
    SuretyMoveForm,
    blank,
)
from siltfence.apps.web.selectors import (
    ExtensionCount,
    PermitPageLists,
    permit_for_page,
    permits_not_closed,
)
from siltfence.apps.web.staff_views import (
    back_link,
    confirmed,
    officials_only,
    staff_only,
)
from siltfence.core.ordinance.loader import load
from siltfence.presentation.forms import first_error
from siltfence.presentation.paging import page_of, paging, pk_path
from siltfence.presentation.steps import form_step, step_done
from siltfence.presentation.tables import (
    CHUNK,
    Column,
    Table,
    chosen_villages,
    download,
    refuses_bad_queries,
    village_filter,
    wants_csv,
)
from siltfence.presentation.wording import duty_words

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


def _permit_row(
    permit: WithAnnotations[Permit, ExtensionCount],
    today: datetime.date,
    url: Callable[[int], str],
) -> dict[str, Any]:
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
def permits(request: HttpRequest) -> HttpResponseBase:
    officials_only(request)
    yours = village_ids(request.user, Role.STAFF, Role.INSPECTOR, Role.APPEALS_BOARD)
    villages = chosen_villages(request, yours)
    today = timezone.localdate()
    in_force = permits_not_closed(request.user, villages)
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
    # Its type named: the stubs' get_object_or_404 drops the annotations' attributes.
    permit: WithAnnotations[Permit, PermitPageLists] = get_object_or_404(
        permit_for_page(request.user), pk=pk
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
            "audit": events_about("permit", permit.pk),
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


def _staff_permit(request: HttpRequest, pk: int) -> Any:
    permit = get_object_or_404(permits_visible_to(request.user), pk=pk)
    staff_only(request, permit)
    return permit


@login_required
@require_POST
def permit_extend(request: HttpRequest, pk: int) -> HttpResponse:
    permit = _staff_permit(request, pk)
    form = ExtendForm(request.POST)
    days = int(form.data.get("days") or 0) if str(form.data.get("days", "")).isdecimal() else 0
    step_done(
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
    if not confirmed(request, "close the permit", "A closed permit cannot be reopened."):
        return redirect("web:permit", pk=pk)
    step_done(
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
    step_done(
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
    form_step(
        request,
        SuretyForm(request.POST),
        lambda data: services.surety_record(permit=permit, staff=request.user, **data),
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
    step_done(
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
    step_done(
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
