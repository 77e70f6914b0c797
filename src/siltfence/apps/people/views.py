"""The village's people, for its staff: who holds which role, with their terms and whether
they have set up their sign-in codes; add a person, change a term, remove a person
(decision 36). The services check again who may do each of these."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from siltfence.apps.accounts.models import Membership, Role
from siltfence.apps.accounts.rules import village_ids
from siltfence.apps.accounts.selectors import membership_of_village, user_by_pk, village_people
from siltfence.apps.people import services
from siltfence.apps.people.forms import AddForm, EndForm, TermForm
from siltfence.apps.permits.models import Village

NOT_STAFF = "Only the village's administering authority may see its people."


def _village(request: HttpRequest, village: str) -> Village:
    if village not in village_ids(request.user, Role.STAFF):
        raise PermissionDenied(NOT_STAFF)
    return get_object_or_404(Village, pk=village)


def _membership(place: Village, pk: int) -> Membership:
    found = membership_of_village(place.pk, pk)
    if found is None:
        raise Http404("No such membership in this village.")
    return found


def _site(request: HttpRequest) -> str:
    return request.build_absolute_uri("/")[:-1]


def _refused(form: forms.Form, refused: services.MembershipRefused) -> None:
    field = refused.field if refused.field in form.fields else None
    form.add_error(field, str(refused))


def _people_page(
    request: HttpRequest, place: Village, form: AddForm | None = None, status: int = 200
) -> HttpResponse:
    return render(
        request,
        "people/people.html",
        {"village": place, "people": village_people(place.pk), "form": form or AddForm()},
        status=status,
    )


@login_required
@never_cache
@require_GET
def people(request: HttpRequest, village: str) -> HttpResponse:
    return _people_page(request, _village(request, village))


@login_required
@require_POST
def person_add(request: HttpRequest, village: str) -> HttpResponse:
    place = _village(request, village)
    form = AddForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            membership = services.membership_add(
                actor=request.user,
                village_id=place.pk,
                role=data["role"],
                person=data["person"],
                username=data["username"],
                first_name=data["first_name"],
                last_name=data["last_name"],
                email=data["email"],
                term_start=data["term_start"],
                term_end=data["term_end"],
                board_seat=data["board_seat"] or "member",
                site=_site(request),
            )
        except services.MembershipRefused as refused:
            _refused(form, refused)
        else:
            person = membership.user
            sent = "" if person.has_usable_password() else " A link to choose a password was sent."
            messages.success(
                request,
                f"{person.get_username()} is now {membership.get_role_display().lower()} of "
                f"{place.name}.{sent} At their next sign-in they set up an authenticator app "
                "if they have none.",
            )
            return redirect("people:people", village=place.pk)
    return _people_page(request, place, form, status=400)


def _person_page(
    request: HttpRequest,
    place: Village,
    membership: Membership,
    *,
    term: TermForm | None = None,
    end: EndForm | None = None,
    status: int = 200,
) -> HttpResponse:
    initial: dict[str, Any] = {
        "term_start": membership.term_start.isoformat() if membership.term_start else "",
        "term_end": membership.term_end.isoformat() if membership.term_end else "",
        "board_seat": membership.board_seat,
    }
    return render(
        request,
        "people/person.html",
        {
            "village": place,
            "m": membership,
            "term_form": term or _term_form(membership, initial),
            "end_form": end or EndForm(yourself=_yourself(request, membership)),
            "yourself": _yourself(request, membership),
        },
        status=status,
    )


def _term_form(membership: Membership, initial: dict[str, Any]) -> TermForm:
    form = TermForm(initial=initial)
    if membership.role != Role.APPEALS_BOARD:  # only a board member has a seat to change
        del form.fields["board_seat"]
    return form


@login_required
@never_cache
@require_GET
def person(request: HttpRequest, village: str, pk: int) -> HttpResponse:
    place = _village(request, village)
    return _person_page(request, place, _membership(place, pk))


@login_required
@require_POST
def person_term(request: HttpRequest, village: str, pk: int) -> HttpResponse:
    place = _village(request, village)
    membership = _membership(place, pk)
    form = TermForm(request.POST)
    if form.is_valid():
        try:
            services.membership_term_change(
                actor=request.user,
                village_id=place.pk,
                membership_id=membership.pk,
                term_start=form.cleaned_data["term_start"],
                term_end=form.cleaned_data["term_end"],
                reason=form.cleaned_data["reason"],
                board_seat=form.cleaned_data["board_seat"] or None,
            )
        except services.MembershipRefused as refused:
            _refused(form, refused)
        else:
            messages.success(request, f"The term of {membership.user.get_username()} was changed.")
            return redirect("people:people", village=place.pk)
    return _person_page(request, place, membership, term=form, status=400)


@login_required
@require_POST
def person_end(request: HttpRequest, village: str, pk: int) -> HttpResponse:
    place = _village(request, village)
    membership = _membership(place, pk)
    form = EndForm(request.POST, yourself=_yourself(request, membership))
    if form.is_valid():
        try:
            services.membership_end(
                actor=request.user,
                village_id=place.pk,
                membership_id=membership.pk,
                confirm_self=bool(form.cleaned_data.get("confirm_self")),
                reason=form.cleaned_data["reason"],
            )
        except services.MembershipRefused as refused:
            _refused(form, refused)
        else:
            messages.success(
                request,
                f"{membership.user.get_username()} is no longer "
                f"{membership.get_role_display().lower()} of {place.name}. What they did "
                "stays on the record.",
            )
            if place.pk not in village_ids(_fresh(request), Role.STAFF):
                return redirect("web:home")
            return redirect("people:people", village=place.pk)
    return _person_page(request, place, membership, end=form, status=400)


def _yourself(request: HttpRequest, membership: Membership) -> bool:
    return bool(membership.user_id == request.user.pk)


def _fresh(request: HttpRequest) -> Any:
    """The signed-in user read again: its roles may have changed in this request."""
    assert request.user.is_authenticated  # the views that ask are ``login_required``
    return user_by_pk(user_id=request.user.pk)


@login_required
@require_POST
def person_link(request: HttpRequest, village: str, pk: int) -> HttpResponse:
    place = _village(request, village)
    membership = _membership(place, pk)
    try:
        services.account_link_send(
            actor=request.user,
            village_id=place.pk,
            membership_id=membership.pk,
            site=_site(request),
        )
    except services.MembershipRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(
            request, f"A new link to choose a password was sent to {membership.user.email}."
        )
    return redirect("people:people", village=place.pk)
