"""Appeals screens: the docket, filing, the record of an appeal with everything the
decision appealed rests on, the hearing and the board's decision."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import is_board_member_of, is_staff_of, village_ids
from siltfence.apps.appeals import forms as af
from siltfence.apps.appeals import services as a
from siltfence.apps.appeals.selectors import appeals_visible_to, docket
from siltfence.apps.enforcement.forms import first_error
from siltfence.apps.enforcement.models import EnforcementAction
from siltfence.apps.enforcement.selectors import cases_visible_to
from siltfence.apps.enforcement.views import _aware, said
from siltfence.apps.permits.models import Village
from siltfence.apps.permits.selectors import applications_visible_to
from siltfence.core.errors import SiltfenceError
from siltfence.core.ordinance.loader import load


@login_required
@require_GET
def docket_view(request: HttpRequest) -> HttpResponse:
    if not village_ids(request.user, Role.STAFF, Role.APPEALS_BOARD):
        raise PermissionDenied("The docket is for the appeals board and the village's staff.")
    page = Paginator(docket(request.user), 25).get_page(request.GET.get("page"))
    staff_villages = Village.objects.filter(pk__in=village_ids(request.user, Role.STAFF))
    return render(request, "appeals/docket.html", {"page": page, "staff_villages": staff_villages})


def _decision_target(request: HttpRequest) -> tuple[Any, Any, Village | None]:
    """The step or the application appealed, among those the person may see."""
    source = request.POST if request.method == "POST" else request.GET
    action_id = str(source.get("action", ""))
    application_id = str(source.get("application", ""))
    if action_id.isdecimal():
        action = get_object_or_404(
            EnforcementAction.objects.filter(
                case__in=cases_visible_to(request.user)
            ).select_related("case", "case__village"),
            pk=int(action_id),
        )
        return action, None, action.case.village
    if application_id.isdecimal():
        application = get_object_or_404(
            applications_visible_to(request.user), pk=int(application_id)
        )
        return None, application, application.village
    village_id = str(source.get("village", ""))
    staff = village_ids(request.user, Role.STAFF)
    if village_id in staff:
        return None, None, get_object_or_404(Village, pk=village_id)
    if len(staff) == 1:
        return None, None, get_object_or_404(Village, pk=next(iter(staff)))
    raise Http404


@login_required
@require_http_methods(["GET", "POST"])
def appeal_new(request: HttpRequest) -> HttpResponse:
    action, application, village = _decision_target(request)
    assert village is not None
    ordinance = load(village.id)
    rule = ordinance.rules["appeals"]
    standings = [(w, a.standing_label(w).capitalize()) for w in rule["who_may_appeal"]]
    form = af.AppealForm(
        request.POST or None,
        standings=standings,
        initial={
            "filed_on": timezone.localdate().isoformat(),
            "kind": "variance" if action is None and application is None else "appeal",
        },
    )
    if request.method == "POST":
        if not form.is_valid():
            messages.error(request, first_error(form))
        else:
            data = form.cleaned_data
            try:
                appeal = a.appeal_file(
                    village=village,
                    filed_by=request.user,
                    on=data["filed_on"],
                    appellant_name=data["appellant_name"],
                    standing=data["standing"],
                    grounds=data["grounds"],
                    action=action,
                    application=application,
                    kind=data["kind"],
                )
            except SiltfenceError as exc:
                messages.error(request, said(exc, form))
            else:
                messages.success(request, f"Appeal {appeal.number} filed.")
                return redirect("appeals:detail", pk=appeal.pk)
    return render(
        request,
        "appeals/new.html",
        {
            "form": form,
            "action": action,
            "application": application,
            "village": village,
            "rule": rule,
            "ordinance": ordinance,
        },
    )


def _revoked_permit_last_day(appeal: Any) -> datetime.date | None:
    """The permit's last day when the appeal is of its revocation, which the board's decision
    may restore and extend; None otherwise."""
    from siltfence.apps.permits.models import Permit

    if appeal.action is None or appeal.action.kind != "revocation":
        return None
    return (
        Permit.objects.filter(application_id=appeal.action.case.application_id)
        .values_list("expires_on", flat=True)
        .first()
    )


@login_required
@require_GET
def appeal_detail(request: HttpRequest, pk: int) -> HttpResponse:
    appeal = get_object_or_404(appeals_visible_to(request.user), pk=pk)
    return _detail(request, appeal)


def _detail(request: HttpRequest, appeal: Any, decide_form: Any = None) -> HttpResponse:
    """The appeal's page; after a refused decision, with the board's form as it was filled
    in and the field in error marked, so nothing typed is lost."""
    ordinance = load(appeal.village_id)
    case = appeal.case
    return render(
        request,
        "appeals/detail.html",
        {
            "appeal": appeal,
            "ordinance": ordinance,
            "zone": ordinance.time_zone,
            "case": case,
            "violations": case.violations.prefetch_related("photos") if case else [],
            "actions": case.actions.prefetch_related("documents") if case else [],
            "board": is_board_member_of(request.user, appeal),
            "can_schedule": is_board_member_of(request.user, appeal)
            or is_staff_of(request.user, appeal),
            "hearing_form": af.HearingForm(),
            "decide_form": decide_form
            or af.DecideForm(
                initial={"decided_at": timezone.localtime().strftime("%Y-%m-%dT%H:%M")},
                permit_last_day=_revoked_permit_last_day(appeal),
            ),
            "restored": _restored_extension(appeal),
            "tests": a.VARIANCE_TESTS,
        },
    )


def _restored_extension(appeal: Any) -> Any:
    """The extension the board's decision set on restoring the permit, if it set one."""
    from siltfence.apps.permits.models import PermitExtension

    if appeal.status != "decided" or appeal.action is None:
        return None
    return PermitExtension.objects.filter(on_appeal=appeal.number).first()


@login_required
@require_POST
def appeal_hearing(request: HttpRequest, pk: int) -> HttpResponse:
    appeal = get_object_or_404(appeals_visible_to(request.user), pk=pk)
    form = af.HearingForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect("appeals:detail", pk=pk)
    data = form.cleaned_data
    try:
        a.appeal_hearing_schedule(
            appeal=appeal,
            user=request.user,
            hearing_at=_aware(data["hearing_at"], appeal.village_id),
            notice_given_on=data["notice_given_on"],
            notice_to=data["notice_to"],
            place=data["place"],
        )
    except SiltfenceError as exc:
        if getattr(exc, "field", "") == "village":
            raise PermissionDenied(str(exc)) from None
        messages.error(request, said(exc))
    else:
        messages.success(request, "Hearing scheduled.")
    return redirect("appeals:detail", pk=pk)


@login_required
@require_POST
def appeal_decide(request: HttpRequest, pk: int) -> HttpResponse:
    appeal = get_object_or_404(appeals_visible_to(request.user), pk=pk)
    if not is_board_member_of(request.user, appeal):
        raise PermissionDenied("Only the appeals board decides appeals.")
    form = af.DecideForm(request.POST, permit_last_day=_revoked_permit_last_day(appeal))
    if not form.is_valid():
        messages.error(request, first_error(form))
        return _detail(request, appeal, form)
    data = form.cleaned_data
    try:
        a.appeal_decide(
            appeal=appeal,
            board_member=request.user,
            at=_aware(data["decided_at"], appeal.village_id),
            decision=data["decision"],
            reasons=data["reasons"],
            modification=data["modification"],
            findings={t: data[t] for t in a.VARIANCE_TESTS},
            retracts=data["retracts"],
            restored_until=data.get("restored_until"),
        )
    except SiltfenceError as exc:
        messages.error(request, said(exc, form))
        field = getattr(exc, "field", None)
        if field in form.fields:
            form.add_error(field, str(exc).split(": ", 1)[-1])
        return _detail(request, appeal, form)
    messages.success(request, "Decision recorded. The decision document was generated.")
    return redirect("appeals:detail", pk=pk)


@login_required
@require_GET
def appeal_document(request: HttpRequest, pk: int) -> HttpResponse:
    appeal = get_object_or_404(appeals_visible_to(request.user), pk=pk)
    if not appeal.decision_document:
        raise Http404
    response = FileResponse(
        appeal.decision_document.open("rb"),
        as_attachment=True,
        filename=f"decision-{appeal.number}.pdf",
        content_type="application/pdf",
    )
    response["X-Content-Type-Options"] = "nosniff"
    return response
