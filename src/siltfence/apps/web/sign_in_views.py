"""Sign-in in two steps, enrolment of an authenticator app, the account page, and the reset
of a person's sign-in codes by the village's administering authority (decision 20).

After a right password, an account that has an authenticator app (or must have one) is
not signed in yet: the session holds only who is signing in, for ten minutes, and the
next step asks for the code, or, for an official with no app yet, sets one up. Only a
right code signs the session in, already passed the code step. An account many wrong
passwords were tried for, from any addresses, waits a little before each try
(``accounts.guessing``); the browser of a completed sign-in is remembered, and does not.
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlencode

from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_lockout_response
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.signals import user_login_failed
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_otp import login as otp_login

from siltfence.apps.accounts.guessing import known_browser_remember
from siltfence.apps.accounts.middleware import is_verified
from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import village_ids
from siltfence.apps.accounts.second_factor import (
    BACKUP_CODE_COUNT,
    ENROL_EXPIRED,
    CodeCheck,
    SecondFactorRefused,
    authenticator_confirm,
    authenticator_of,
    authenticator_pending,
    authenticator_start,
    backup_codes_issue,
    backup_codes_left,
    code_check,
    key_text,
    people_of_village,
    qr_data_uri,
    second_factor_required,
    second_factor_reset,
    second_factor_turn_off,
)
from siltfence.apps.accounts.selectors import active_user, user_by_pk
from siltfence.apps.permits.models import Village
from siltfence.apps.permits.selectors import villages_where_staff
from siltfence.apps.web.sign_in_forms import CodeForm, EnrolForm, ResetForm, SignInForm

PENDING = "siltfence_sign_in"
PENDING_SECONDS = 10 * 60
# A signed-in person who gave a code on the account page may set up a new phone for ten
# minutes; the old one keeps working until the new one is confirmed.
NEW_PHONE = "siltfence_new_phone"
# The key the enrolment page shows, sealed, until its first code confirms it: kept in the
# session, so that showing the page stores nothing and a reload shows the same key.
ENROLMENT = "siltfence_enrolment"
TOO_SLOW = "Your sign-in took more than ten minutes. Sign in again with your password."
BACKUP_USED = (
    "You signed in with a backup code; {left} of them are left. Make new ones on your "
    "account page before they run out."
)


# --- who is signing in ------------------------------------------------------------------------


def page_of_this_site(request: HttpRequest, url: str | None, default: str) -> str:
    """``url`` where it is a page of this site, else ``default``: a link to a sign-in or
    registration form must not send the person elsewhere afterwards."""
    if url and url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return url
    return default


def _safe(request: HttpRequest, url: str | None) -> str:
    return page_of_this_site(request, url, reverse(settings.LOGIN_REDIRECT_URL))


def _pending(request: HttpRequest) -> tuple[Any, dict[str, Any]] | None:
    """The person who gave a right password in this session and has yet to give a code."""
    data = request.session.get(PENDING)
    if not isinstance(data, dict):
        return None
    person = data.get("user")
    user = active_user(user_id=person) if person is not None else None
    fresh = time.time() - float(data.get("at", 0)) <= PENDING_SECONDS
    # The password changed since (a reset by email): the password step is void.
    same = user is not None and constant_time_compare(
        user.get_session_auth_hash(), str(data.get("hash", ""))
    )
    if not (fresh and same):
        del request.session[PENDING]
        if not fresh:
            messages.info(request, TOO_SLOW)
        return None
    return user, data


def _signing_in(request: HttpRequest) -> tuple[Any, dict[str, Any] | None] | None:
    """(user, the pending sign-in) during sign-in, (user, None) for a signed-in session."""
    pending = _pending(request)
    if pending is not None:
        return pending
    if request.user.is_authenticated:
        return request.user, None
    return None


def _next(request: HttpRequest, pending: dict[str, Any] | None) -> str:
    if pending is not None:
        return _safe(request, pending.get("next"))
    return _safe(request, request.POST.get("next") or request.GET.get("next"))


def _with_next(name: str, after: str) -> str:
    return f"{reverse(name)}?{urlencode({'next': after})}"


def _finish(request: HttpRequest, user: Any, pending: dict[str, Any] | None, device: Any) -> None:
    """Sign the session in (if it is not yet), as having passed the code step."""
    if pending is not None:
        del request.session[PENDING]
        login(request, user, backend=pending["backend"])
    else:
        request.session.cycle_key()  # more rights than before: a new session key
    otp_login(request, device)


class SignIn(auth_views.LoginView):
    """The password step. An account that needs a code is not signed in here."""

    template_name = "web/login.html"
    authentication_form = SignInForm

    def form_valid(self, form: Any) -> HttpResponse:
        user = form.get_user()
        has_app = authenticator_of(user) is not None
        if not has_app and not second_factor_required(user):
            response = super().form_valid(form)
            known_browser_remember(response, user)
            return response
        after = self.get_success_url()
        if self.request.user.is_authenticated:
            logout(self.request)  # someone else was signed in here: not any more
        else:
            self.request.session.cycle_key()
        self.request.session[PENDING] = {
            "user": user.pk,
            "backend": user.backend,
            "at": int(time.time()),
            "next": after,
            "hash": user.get_session_auth_hash(),
        }
        return redirect("web:sign-in-code" if has_app else "web:sign-in-enrol")

    def form_invalid(self, form: Any) -> HttpResponse:
        response = super().form_invalid(form)
        if getattr(form, "account_wait", 0):
            response.status_code = 429  # Too Many Requests, as django-axes's lockout answers
        return response


# --- the code step ------------------------------------------------------------------------------


def _credentials(user: Any) -> dict[str, str]:
    return {"username": user.get_username()}


def _locked_out(request: HttpRequest, user: Any) -> bool:
    return bool(settings.AXES_ENABLED and AxesProxyHandler.is_locked(request, _credentials(user)))


def _count_failure(request: HttpRequest, user: Any, check: CodeCheck) -> None:
    """A wrong code counts toward the lockout as a wrong password does (django-axes)."""
    if check.guessed:
        user_login_failed.send(sender=__name__, credentials=_credentials(user), request=request)


@never_cache
@sensitive_post_parameters("code")
@require_http_methods(["GET", "POST"])
def sign_in_code(request: HttpRequest) -> HttpResponse:
    who = _signing_in(request)
    if who is None:
        return redirect("web:login")
    user, pending = who
    after = _next(request, pending)
    if pending is None and is_verified(request.user):
        return redirect(after)
    if authenticator_of(user) is None:
        if second_factor_required(user):
            return redirect(_with_next("web:sign-in-enrol", after))
        if pending is not None:  # the codes were turned off or reset meanwhile: start again
            del request.session[PENDING]
            return redirect("web:login")
        return redirect(after)
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if _locked_out(request, user):
            request.session.pop(PENDING, None)
            return get_lockout_response(request, None, _credentials(user))
        check = code_check(user=user, text=form.cleaned_data["code"])
        if check.device is not None:
            _finish(request, user, pending, check.device)
            if check.device.persistent_id.startswith("otp_static."):
                messages.warning(request, BACKUP_USED.format(left=backup_codes_left(user)))
            response = redirect(after)
            known_browser_remember(response, user)
            return response
        form.add_error("code", check.error)
        _count_failure(request, user, check)
        if getattr(request, "axes_locked_out", False):
            request.session.pop(PENDING, None)  # the lockout page follows (AxesMiddleware)
    return render(
        request,
        "web/sign_in_code.html",
        {"form": form, "person": user, "next": after, "pending": pending is not None},
    )


# --- enrolment ----------------------------------------------------------------------------------


def _enrolment(request: HttpRequest, user: Any, replacing: bool) -> tuple[Any, bool]:
    """The (unsaved) authenticator the enrolment page shows, and whether its key is the one
    the session already held. A new key is made, and kept in the session, when there is
    none for this person or the server can no longer open it."""
    data = request.session.get(ENROLMENT)
    if isinstance(data, dict) and data.get("user") == user.pk and isinstance(data.get("key"), str):
        try:
            return authenticator_pending(user=user, sealed=data["key"]), True
        except SecondFactorRefused:
            pass
    sealed = authenticator_start(user=user, replacing=replacing)
    request.session[ENROLMENT] = {"user": user.pk, "key": sealed}
    return authenticator_pending(user=user, sealed=sealed), False


@never_cache
@sensitive_post_parameters("code")
@require_http_methods(["GET", "POST"])
def sign_in_enrol(request: HttpRequest) -> HttpResponse:
    """Set up an authenticator app: at an official's first sign-in, or an applicant's choice."""
    who = _signing_in(request)
    if who is None:
        return redirect("web:login")
    user, pending = who
    after = _next(request, pending)
    replacing = (
        pending is None
        and is_verified(request.user)
        and time.time() - float(request.session.get(NEW_PHONE, 0)) <= PENDING_SECONDS
    )
    if authenticator_of(user) is not None and not replacing:
        if pending is None and is_verified(request.user):
            return redirect("web:account")
        return redirect(_with_next("web:sign-in-code", after))
    device, kept = _enrolment(request, user, replacing)
    form = EnrolForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            if not kept:  # the key this page showed is gone (a new session, a new key)
                raise SecondFactorRefused(ENROL_EXPIRED)
            codes = authenticator_confirm(
                user=user,
                sealed=device.key,
                text=form.cleaned_data["code"],
                replacing=replacing,
            )
        except SecondFactorRefused as refused:
            form.add_error("code", str(refused))
        else:
            request.session.pop(NEW_PHONE, None)
            request.session.pop(ENROLMENT, None)
            _finish(request, user, pending, authenticator_of(user))
            asked = pending is not None or request.POST.get("next") or request.GET.get("next")
            response = render(
                request,
                "web/backup_codes.html",
                {
                    "codes": codes,
                    "next": after if asked else reverse("web:account"),
                    "first": True,
                    "signed_in": pending is not None,
                },
            )
            known_browser_remember(response, user)
            return response
    return render(
        request,
        "web/sign_in_enrol.html",
        {
            "form": form,
            "person": user,
            "next": after,
            "pending": pending is not None,
            "replacing": replacing,
            "required": second_factor_required(user),
            "qr": qr_data_uri(device),
            "key": key_text(device),
            "count": BACKUP_CODE_COUNT,
        },
    )


# --- the account page ---------------------------------------------------------------------------


def _account_page(
    request: HttpRequest, form: CodeForm | None = None, status: int = 200
) -> HttpResponse:
    user = request.user
    staff_of = villages_where_staff(user=user)
    return render(
        request,
        "web/account.html",
        {
            "form": form or CodeForm(),
            "has_app": authenticator_of(user) is not None,
            "required": second_factor_required(user),
            "backup_left": backup_codes_left(user),
            "staff_of": staff_of,
        },
        status=status,
    )


@login_required
@never_cache
@require_GET
def account(request: HttpRequest) -> HttpResponse:
    return _account_page(request)


def _checked_code(request: HttpRequest) -> tuple[CodeForm, bool]:
    """The account page's code, checked as at sign-in (a wrong one counts the same)."""
    form = CodeForm(request.POST)
    if not form.is_valid():
        return form, False
    if _locked_out(request, request.user):
        form.add_error("code", "Too many wrong codes or passwords: try again in an hour.")
        return form, False
    check = code_check(user=request.user, text=form.cleaned_data["code"])
    if check.device is None:
        form.add_error("code", check.error)
        _count_failure(request, request.user, check)
        return form, False
    return form, True


@login_required
@never_cache
@sensitive_post_parameters("code")
@require_POST
def account_backup_codes(request: HttpRequest) -> HttpResponse:
    if authenticator_of(request.user) is None:
        return redirect("web:account")
    form, ok = _checked_code(request)
    if not ok:
        return _account_page(request, form, status=400)
    codes = backup_codes_issue(user=request.user)
    return render(
        request,
        "web/backup_codes.html",
        {"codes": codes, "next": reverse("web:account"), "first": False},
    )


@login_required
@never_cache
@sensitive_post_parameters("code")
@require_POST
def account_new_phone(request: HttpRequest) -> HttpResponse:
    """A code first (from the old phone, or a backup code), then the enrolment page."""
    if authenticator_of(request.user) is None:
        return redirect("web:sign-in-enrol")
    form, ok = _checked_code(request)
    if not ok:
        return _account_page(request, form, status=400)
    request.session[NEW_PHONE] = int(time.time())
    return redirect(_with_next("web:sign-in-enrol", reverse("web:account")))


@login_required
@never_cache
@sensitive_post_parameters("code")
@require_POST
def account_turn_off(request: HttpRequest) -> HttpResponse:
    if second_factor_required(request.user):
        raise PermissionDenied("Village officials sign in with a code every time.")
    if authenticator_of(request.user) is None:
        return redirect("web:account")
    form, ok = _checked_code(request)
    if not ok:
        return _account_page(request, form, status=400)
    second_factor_turn_off(user=request.user)
    messages.success(request, "Signing in now takes your password only.")
    return redirect("web:account")


# --- the village's administering authority resets a person's codes -----------------------------


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def village_sign_in(request: HttpRequest, village: str) -> HttpResponse:
    if village not in village_ids(request.user, Role.STAFF):
        raise PermissionDenied("Only the village's administering authority may see this page.")
    place = get_object_or_404(Village, pk=village)
    people = list(people_of_village(village).prefetch_related("memberships"))
    rows = []
    for person in people:
        roles = sorted(
            {m.get_role_display() for m in person.memberships.all() if m.village_id == village}
        )
        rows.append(
            {
                "person": person,
                "roles": ", ".join(roles) or "Applicant",
                "has_app": authenticator_of(person) is not None,
                "backup_left": backup_codes_left(person),
                "required": second_factor_required(person),
            }
        )
    choices = [
        (p.pk, f"{p.get_full_name() or p.get_username()} ({p.get_username()})")
        for p in people
        if p.pk != request.user.pk
    ]
    form = ResetForm(request.POST or None, people=choices)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            person = user_by_pk(user_id=form.cleaned_data["user"])
            try:
                second_factor_reset(
                    staff=request.user,
                    user=person,
                    village_id=village,
                    reason=form.cleaned_data["reason"],
                )
            except SecondFactorRefused as refused:
                form.add_error(refused.field or "user", str(refused))
            else:
                messages.success(
                    request,
                    f"The sign-in codes of {person.get_username()} were reset. "
                    + (
                        "At their next sign-in they set up an authenticator app again."
                        if second_factor_required(person)
                        else "They now sign in with their password only."
                    ),
                )
                return redirect("web:village-sign-in", village=village)
        status = 400
    return render(
        request,
        "web/village_sign_in.html",
        {"village": place, "rows": rows, "form": form},
        status=status,
    )
