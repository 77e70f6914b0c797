"""Appeals screens: the docket, filing, the record of an appeal with everything the
decision appealed rests on, the hearing, the board's roll and votes, and its documents
(the written decision, the hearing notice, the agenda of a day's hearings)."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import (
    is_board_member_of,
    is_staff_of,
    sees_appeals_docket,
    village_ids,
)
from siltfence.apps.appeals import forms as af
from siltfence.apps.appeals import hearings as h
from siltfence.apps.appeals import services as a
from siltfence.apps.appeals.documents import agenda_lines, board_rule_lines, notice_lines
from siltfence.apps.appeals.minutes import in_words, minutes_of
from siltfence.apps.appeals.models import Hearing
from siltfence.apps.appeals.selectors import (
    appeals_visible_to,
    docket,
    enforcement_actions_visible_to,
    extension_on_appeal,
    hearing_days,
    hearing_sitting,
    hearings_on,
    permit_last_day_of_application,
)
from siltfence.apps.documents.pdf import lines_to_pdf
from siltfence.apps.enforcement.selectors import ATTORNEY_LETTERS, sees_internal_record
from siltfence.apps.enforcement.views import said
from siltfence.apps.permits.models import Village
from siltfence.apps.permits.selectors import applications_visible_to, villages_where_staff
from siltfence.core.errors import SiltfenceError
from siltfence.core.ordinance.loader import load
from siltfence.presentation.forms import first_error, village_time
from siltfence.presentation.today import ordinance_on


@login_required
@require_GET
def docket_view(request: HttpRequest) -> HttpResponse:
    if not sees_appeals_docket(request.user):
        raise PermissionDenied("The docket is for the appeals board and the village's staff.")
    page = Paginator(docket(request.user), 25).get_page(request.GET.get("page"))
    staff_villages = villages_where_staff(user=request.user)
    return render(
        request,
        "appeals/docket.html",
        {"page": page, "staff_villages": staff_villages, "days": hearing_days(request.user)},
    )


def _decision_target(request: HttpRequest) -> tuple[Any, Any, Village | None]:
    """The step or the application appealed, among those the person may see."""
    source = request.POST if request.method == "POST" else request.GET
    action_id = str(source.get("action", ""))
    application_id = str(source.get("application", ""))
    if action_id.isdecimal():
        action = get_object_or_404(
            enforcement_actions_visible_to(user=request.user), pk=int(action_id)
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
    if appeal.action is None or appeal.action.kind != "revocation":
        return None
    return permit_last_day_of_application(application_id=appeal.action.case.application_id)


@login_required
@require_GET
def appeal_detail(request: HttpRequest, pk: int) -> HttpResponse:
    appeal = get_object_or_404(appeals_visible_to(request.user), pk=pk)
    return _detail(request, appeal)


def _sitting_now(appeal: Any) -> Hearing | None:
    """The sitting of the hearing now set on the appeal, if its roll is recorded."""
    if appeal.hearing_at is None:
        return None
    return hearing_sitting(appeal=appeal, held_at=appeal.hearing_at)


def _roll_form(appeal: Any, data: Any = None) -> af.RollForm | None:
    """The roll's form, once the hearing set has begun and until its roll is recorded."""
    if appeal.status == "decided" or appeal.hearing_at is None:
        return None
    if appeal.hearing_at > timezone.now() or _sitting_now(appeal) is not None:
        return None
    zone = load(appeal.village_id).time_zone
    return af.RollForm(data, roster=h.board_roster(appeal.village_id, appeal.hearing_at, zone))


def _motion_form(appeal: Any, data: Any = None) -> af.MotionForm | None:
    """The form of a motion and its votes, at a sitting with a quorum."""
    sitting = _sitting_now(appeal)
    if appeal.status == "decided" or sitting is None or not sitting.has_quorum:
        return None
    return af.MotionForm(
        data,
        seated=[line for line in sitting.roll.all() if line.seated],
        variance=appeal.kind == "variance",
        permit_last_day=_revoked_permit_last_day(appeal),
        initial={"voted_at": timezone.localtime().strftime("%Y-%m-%dT%H:%M")},
    )


def _detail(
    request: HttpRequest,
    appeal: Any,
    *,
    roll_form: Any = None,
    motion_form: Any = None,
    close_form: Any = None,
    status: int = 200,
) -> HttpResponse:
    """The appeal's page; after a refused roll or vote, with the form as it was filled in
    and the field in error marked, so nothing typed is lost."""
    ordinance = load(appeal.village_id)
    case = appeal.case
    recorder = h.may_record(request.user, appeal)
    closing = recorder and h.may_close_not_reversed(appeal)
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
            # The steps' internal notes and the letters to the attorney: the same rule as
            # the case's page, so the appellant reads here no more than there.
            "internal": sees_internal_record(request.user, appeal.village_id),
            "attorney_letters": ATTORNEY_LETTERS,
            "board": is_board_member_of(request.user, appeal),
            "docket": sees_appeals_docket(request.user),
            "recorder": recorder,
            "can_schedule": is_board_member_of(request.user, appeal)
            or is_staff_of(request.user, appeal),
            "hearing_form": af.HearingForm(),
            "minutes": minutes_of(appeal),
            "board_says": board_rule_lines(ordinance),
            "roll_form": (roll_form or _roll_form(appeal)) if recorder else None,
            "motion_form": (motion_form or _motion_form(appeal)) if recorder else None,
            "close_form": (
                close_form
                or af.CloseForm(
                    initial={"decided_at": timezone.localtime().strftime("%Y-%m-%dT%H:%M")}
                )
            )
            if closing
            else None,
            "hearing_words": in_words(appeal.hearing_at, ordinance.time_zone)
            if appeal.hearing_at
            else "",
            "hearing_due": appeal.hearing_at is not None and appeal.hearing_at <= timezone.now(),
            "restored": _restored_extension(appeal),
            "tests": a.VARIANCE_TESTS,
        },
        status=status,
    )


def _restored_extension(appeal: Any) -> Any:
    """The extension the board's decision set on restoring the permit, if it set one."""
    if appeal.status != "decided" or appeal.action is None:
        return None
    return extension_on_appeal(number=appeal.number)


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
            hearing_at=village_time(data["hearing_at"], appeal.village_id),
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


def _recorder(request: HttpRequest, pk: int) -> Any:
    appeal = get_object_or_404(appeals_visible_to(request.user), pk=pk)
    if not h.may_record(request.user, appeal):
        raise PermissionDenied(
            "Only the village's staff, or the chair of its board, record the board's hearing "
            "and votes."
        )
    return appeal


def _refused(request: HttpRequest, exc: SiltfenceError, form: Any) -> None:
    """Show a refusal, and mark the field it names on the form."""
    if getattr(exc, "field", "") == "village":
        raise PermissionDenied(str(exc))
    messages.error(request, said(exc, form))
    field = getattr(exc, "field", None)
    if form is not None and field in form.fields:
        form.add_error(field, str(exc).split(": ", 1)[-1])


@login_required
@require_POST
def appeal_roll(request: HttpRequest, pk: int) -> HttpResponse:
    appeal = _recorder(request, pk)
    form = _roll_form(appeal, request.POST)
    if form is None:
        messages.error(request, ROLL_NOT_NOW)
        return _detail(request, appeal, status=400)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return _detail(request, appeal, roll_form=form, status=400)
    try:
        sitting = h.hearing_record(
            appeal=appeal,
            user=request.user,
            roll=[h.RollCall(person, status, reason) for person, status, reason in form.calls()],
        )
    except SiltfenceError as exc:
        _refused(request, exc, form)
        return _detail(request, appeal, roll_form=form, status=400)
    if sitting.has_quorum:
        messages.success(request, f"Roll recorded. {sitting.quorum_says}")
    else:
        messages.warning(request, f"Roll recorded. {sitting.quorum_says}")
    return redirect("appeals:detail", pk=pk)


@login_required
@require_POST
def appeal_vote(request: HttpRequest, pk: int) -> HttpResponse:
    appeal = _recorder(request, pk)
    sitting = _sitting_now(appeal)
    form = _motion_form(appeal, request.POST)
    if form is None or sitting is None:
        messages.error(
            request,
            sitting.quorum_says
            if sitting is not None and not sitting.has_quorum
            else NO_SITTING
            if appeal.status != "decided"
            else f"Appeal {appeal.number} is decided already.",
        )
        return _detail(request, appeal, status=400)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return _detail(request, appeal, motion_form=form, status=400)
    data = form.cleaned_data
    try:
        motion = h.motion_vote(
            hearing=sitting,
            user=request.user,
            kind=data["kind"],
            votes=form.votes(),
            reasons=data["reasons"],
            at=village_time(data["voted_at"], appeal.village_id),
            modification=data.get("modification", ""),
            findings={t: data.get(t, "") for t in a.VARIANCE_TESTS},
            retracts=bool(data.get("retracts")),
            restored_until=data.get("restored_until"),
        )
    except SiltfenceError as exc:
        _refused(request, exc, form)
        return _detail(request, appeal, motion_form=form, status=400)
    if motion.carried:
        messages.success(
            request, f"{motion.outcome} The decision is recorded, and the written decision made."
        )
    else:
        messages.warning(request, motion.outcome)
    return redirect("appeals:detail", pk=pk)


@login_required
@require_POST
def appeal_close(request: HttpRequest, pk: int) -> HttpResponse:
    appeal = _recorder(request, pk)
    form = af.CloseForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return _detail(request, appeal, close_form=form, status=400)
    try:
        h.appeal_close_not_reversed(
            appeal=appeal,
            user=request.user,
            at=village_time(form.cleaned_data["decided_at"], appeal.village_id),
            note=form.cleaned_data["note"],
        )
    except SiltfenceError as exc:
        _refused(request, exc, form)
        return _detail(request, appeal, close_form=form, status=400)
    messages.success(request, "Recorded: the decision appealed is not reversed.")
    return redirect("appeals:detail", pk=pk)


ROLL_NOT_NOW = (
    "The roll is recorded once the hearing has begun, once for each hearing set, and not "
    "after the appeal is decided."
)
NO_SITTING = "Record the roll of the hearing first: the board votes at a hearing with a quorum."


def _pdf(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


@login_required
@require_GET
def appeal_notice(request: HttpRequest, pk: int) -> HttpResponse:
    """The notice of the hearing set on the appeal, made from the record when asked."""
    appeal = get_object_or_404(appeals_visible_to(request.user), pk=pk)
    if appeal.hearing_at is None:
        raise Http404("No hearing is set.")
    lines = notice_lines(ordinance=ordinance_on(appeal.village_id), appeal=appeal)
    return _pdf(
        lines_to_pdf(lines, title=f"Notice of hearing {appeal.number}"),
        f"hearing-notice-{appeal.number}.pdf",
    )


@login_required
@require_GET
def agenda(request: HttpRequest, village: str, day: str) -> HttpResponse:
    """The agenda of the board's hearings of a village on a day, for its staff and board."""
    if village not in village_ids(request.user, Role.STAFF, Role.APPEALS_BOARD):
        raise PermissionDenied("The agenda is for the appeals board and the village's staff.")
    try:
        when = datetime.date.fromisoformat(day)
    except ValueError:
        raise Http404("No such day.") from None
    ordinance = ordinance_on(village, when)
    appeals = hearings_on(village, when, ordinance.time_zone)
    lines = agenda_lines(ordinance=ordinance, day=when, appeals=appeals)
    return _pdf(
        lines_to_pdf(lines, title=f"Agenda {when.isoformat()}"),
        f"agenda-{village}-{when.isoformat()}.pdf",
    )


@login_required
@require_GET
def appeal_document(request: HttpRequest, pk: int) -> HttpResponseBase:
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
