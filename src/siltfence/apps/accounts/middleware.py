"""No staff page for a session that has not passed the code step (decision 20).

The sign-in view asks for the code before it signs anyone in. This is the second line: a
session of an official made any other way (the admin's own login page, a session made by a
script) reaches only the sign-in steps and signing out until it has passed the code step,
and is sent there.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import get_script_prefix, reverse

from siltfence.apps.accounts.second_factor import authenticator_of, second_factor_required

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


class SecondFactorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = request.user
        if (
            user.is_authenticated
            and not _open(request.path)
            and not is_verified(user)
            and second_factor_required(user)
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
