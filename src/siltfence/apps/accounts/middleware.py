"""Who is signed in, whether the session passed the code step, and no staff page for a
session that has not (decision 20).

The sign-in view asks for the code before it signs anyone in. ``SecondFactorMiddleware`` is
the second line: a session of an official made any other way (the admin's own login page, a
session made by a script) reaches only the sign-in steps and signing out until it has passed
the code step, and is sent there.

None of the three asks the database on every request (decision 45): the person's row,
whether the session's device is still valid and whether a person needs a code at all are
kept in the cache every worker shares until the person's row, devices or roles change
(``accounts.signed_in``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import get_script_prefix, reverse
from django.utils.functional import SimpleLazyObject
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.middleware import OTPMiddleware

from siltfence.apps.accounts import signed_in
from siltfence.apps.accounts.second_factor import authenticator_of

OPEN = ("web:login", "web:logout", "web:sign-in-code", "web:sign-in-enrol")


@functools.cache
def _open_paths(script_prefix: str) -> frozenset[str]:
    """The paths of ``OPEN`` and the health check, reversed once a process (for each
    script prefix the server is mounted under), not on every request."""
    return frozenset(reverse(name) for name in (*OPEN, "health"))


def _open(path: str) -> bool:
    """The sign-in steps, signing out, the static files and the health check."""
    static = settings.STATIC_URL or "/static/"
    return path.startswith(static) or path in _open_paths(get_script_prefix())


def is_verified(user: object) -> bool:
    """The session passed the code step (django-otp's OTPMiddleware says which device)."""
    check = getattr(user, "is_verified", None)
    return bool(check and check())


def code_step_url(user: object, after: str | None) -> str:
    """The code step, or enrolment for an official who has no authenticator yet."""
    url = reverse("web:sign-in-code" if authenticator_of(user) else "web:sign-in-enrol")
    return f"{url}?{urlencode({'next': after})}" if after else url


def _user(request: HttpRequest) -> Any:
    # Django's own attribute for the user read once a request (its auth middleware's
    # ``get_user``), which the stubs leave out.
    if not hasattr(request, "_cached_user"):
        request._cached_user = signed_in.user_of(request)  # type: ignore[attr-defined]
    return request._cached_user  # type: ignore[attr-defined]


class SignedInMiddleware(AuthenticationMiddleware):
    """Django's ``AuthenticationMiddleware``, the person's row read from the shared cache
    while it is current (``accounts.signed_in.user_of``). ``request.user`` stays lazy: a
    request that never asks who is signed in reads nothing."""

    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)
        # A lazy stand-in for the user, as Django's middleware sets; the stubs want the user.
        request.user = SimpleLazyObject(  # type: ignore[assignment]
            functools.partial(_user, request)
        )


class VerifiedDeviceMiddleware(OTPMiddleware):
    """django-otp's middleware (``request.user.is_verified()``), without loading the
    session's device from the database on every request: it is loaded once, and again only
    after the person's devices changed. A device deleted or no longer confirmed ends the
    session's verified state on the next request, on any worker. ``user.otp_device`` is
    then the device, loaded when something reads it."""

    def _verify_user_sync(self, request: HttpRequest, user: Any) -> Any:
        self._init_user_fields(user)  # type: ignore[no-untyped-call]  # django-otp: no types
        if not user.is_authenticated:
            return user
        persistent_id = request.session.get(DEVICE_ID_SESSION_KEY)
        if not persistent_id:
            return user
        if signed_in.device_known(request, user.pk, persistent_id):
            user.otp_device = SimpleLazyObject(
                functools.partial(self._device_from_persistent_id, persistent_id)
            )
            return user
        device = self._device_from_persistent_id(persistent_id)
        user.otp_device = self._finalize_device(  # type: ignore[no-untyped-call]  # django-otp
            request, user, device
        )
        if user.otp_device is not None:
            signed_in.device_remember(request, user.pk, persistent_id)
        return user


class SecondFactorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = request.user
        if (
            user.is_authenticated
            and not _open(request.path)
            and not is_verified(user)
            and signed_in.code_required(request, user)
        ):
            after = request.get_full_path() if request.method == "GET" else None
            url = code_step_url(user, after)
            if request.headers.get("HX-Request"):
                # htmx would swap the code page into a fragment: have the browser go there.
                response = HttpResponse(status=204)
                response["HX-Redirect"] = url
                return response
            return HttpResponseRedirect(url)
        return self.get_response(request)
