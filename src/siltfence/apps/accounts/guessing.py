"""Slowing down the guessing of one account's password from many addresses.

django-axes locks a username out from one address after five wrong passwords or codes
(decision 20). Someone with many addresses (a botnet, or a forged ``X-Forwarded-For`` list
where too many proxies are trusted) gets five tries from each. So the failures for one
username are also counted across every address: from the ``LIMIT``-th failure within the
window on, a try for that username must wait 2, 4, 8 ... seconds after the last failure (at
most ``MAX_WAIT``). A try made during the wait is refused before the password is looked at,
right or wrong: a refusal that came only for wrong passwords would tell which one is right.

The owner is kept waiting minutes at most, never locked out: a refused try checks nothing,
so it neither counts nor makes the wait longer, and the per-address lockout stays as it was.
A browser that signed in to the account before (a signed cookie) does not wait at all, so
an attacker who keeps the account slowed down does not keep its owner out. A successful
sign-in clears the count. The counts live in the database (``SignInFailures``), which
every worker and every app server sees.
"""

from __future__ import annotations

import datetime
import math
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from siltfence.apps.accounts.models import SignInFailures

ACCOUNT_WAIT = "Too many attempts to sign in to this account. Wait {wait}, then try again."
# Set on a request whose try was refused for the account's wait (how many seconds were
# left), so that the refusal is not counted as a failure.
REFUSED = "siltfence_account_wait"
# Set on a request whose password Django's ``authenticate`` goes on to check: neither
# django-axes (listed before) nor this module refused it.
CHECKED = "siltfence_password_checked"
KNOWN_BROWSER_COOKIE = "siltfence_signed_in_here"
KNOWN_BROWSER_DAYS = 90
_KNOWN_BROWSER_SALT = "siltfence.accounts.guessing.known-browser"
USERNAME_MAX_LENGTH = 150


def _limit() -> int:
    return int(settings.SILTFENCE_ACCOUNT_GUESS_LIMIT)


def _window() -> datetime.timedelta:
    return datetime.timedelta(seconds=int(settings.SILTFENCE_ACCOUNT_GUESS_WINDOW_SECONDS))


def delay_seconds(failures: int) -> int:
    """How long a try waits after the last of ``failures`` failures: nothing below the
    limit, then 2, 4, 8 ... seconds, at most ``SILTFENCE_ACCOUNT_GUESS_MAX_WAIT_SECONDS``."""
    limit = _limit()
    if limit <= 0 or failures < limit:
        return 0
    most = int(settings.SILTFENCE_ACCOUNT_GUESS_MAX_WAIT_SECONDS)
    wait: int = 2 ** min(failures - limit + 1, 30)
    return min(wait, most)


def _username(value: object) -> str | None:
    if not isinstance(value, str) or not value:
        return None
    return value[:USERNAME_MAX_LENGTH]


def wait_seconds(username: str) -> int:
    """The seconds a try for this username must still wait; 0 when it may go on."""
    name = _username(username)
    if name is None:
        return 0
    row = SignInFailures.objects.filter(username=name).first()
    if row is None:
        return 0
    now = timezone.now()
    if now - row.last_failure_at > _window():
        return 0
    until = row.last_failure_at + datetime.timedelta(seconds=delay_seconds(row.failures))
    left = (until - now).total_seconds()
    return math.ceil(left) if left > 0 else 0


def wait_message(seconds: int) -> str:
    if seconds >= 120:
        wait = f"{math.ceil(seconds / 60)} minutes"
    else:
        wait = f"{seconds} second{'' if seconds == 1 else 's'}"
    return ACCOUNT_WAIT.format(wait=wait)


# --- the owner's own browser ----------------------------------------------------------------


def known_browser(request: HttpRequest, username: str) -> bool:
    """The browser signed in to this account before (within ``KNOWN_BROWSER_DAYS``)."""
    value = request.get_signed_cookie(
        KNOWN_BROWSER_COOKIE,
        default=None,
        salt=_KNOWN_BROWSER_SALT,
        max_age=datetime.timedelta(days=KNOWN_BROWSER_DAYS),
    )
    return value is not None and value == _username(username)


def known_browser_remember(response: HttpResponse, user: Any) -> None:
    """Mark the browser of a completed sign-in, so that a wait set off by someone else's
    guesses does not apply to it."""
    response.set_signed_cookie(
        KNOWN_BROWSER_COOKIE,
        _username(user.get_username()) or "",
        salt=_KNOWN_BROWSER_SALT,
        max_age=int(datetime.timedelta(days=KNOWN_BROWSER_DAYS).total_seconds()),
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def account_wait(request: HttpRequest | None, username: object) -> int:
    """The seconds this try must wait (0: it may go on). A try that must wait is marked on
    the request, so that its refusal does not count as a failure."""
    name = _username(username)
    if name is None:
        return 0
    if request is not None and known_browser(request, name):
        return 0
    wait = wait_seconds(name)
    if wait and request is not None:
        setattr(request, REFUSED, wait)
    return wait


# --- counting -----------------------------------------------------------------------------------


def failure_record(username: object) -> None:
    """Count one failed sign-in for the username (a wrong password or code)."""
    name = _username(username)
    if name is None:
        return
    now = timezone.now()
    with transaction.atomic():
        row, created = SignInFailures.objects.select_for_update().get_or_create(
            username=name, defaults={"failures": 1, "last_failure_at": now}
        )
        if not created:
            stale = now - row.last_failure_at > _window()
            row.failures = 1 if stale else row.failures + 1
            row.last_failure_at = now
            row.save(update_fields=["failures", "last_failure_at"])
    # Counts that have run out are of no use: usernames that were only guessed at go. Done
    # after the row lock above is let go, so that two of these never wait on each other.
    SignInFailures.objects.filter(last_failure_at__lt=now - _window()).delete()


def failures_clear(username: str) -> None:
    name = _username(username)
    if name is not None:
        SignInFailures.objects.filter(username=name).delete()


class AccountGuessingBackend:
    """Refuses a try made during the account's wait, wherever the password is checked
    (Django's ``authenticate``: the sign-in page, the admin's own login page). Listed after
    django-axes's backend and before the backends that check the password. The sign-in
    page's form asks first (``SignInForm``), so that there the refusal is not counted by
    django-axes either. It has no ``get_user``: it never signs anyone in, and so is never
    the backend a session is kept with."""

    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, **kwargs: Any
    ) -> None:
        if account_wait(request, username):
            raise PermissionDenied("this account is waiting after too many failed sign-ins")
        if request is not None:
            setattr(request, CHECKED, True)
        return None


def _on_failure(sender: Any, credentials: dict[str, Any], request: Any = None, **_: Any) -> None:
    # A try refused before anything was checked (this module's wait, django-axes's lockout)
    # is not a guess. From ``authenticate`` (sender django.contrib.auth), only a password
    # this module's backend let through was checked; the code step sends the signal itself,
    # and only for a code it checked.
    if request is not None and getattr(request, REFUSED, None):
        return
    from_authenticate = sender == "django.contrib.auth"
    if from_authenticate and request is not None and not getattr(request, CHECKED, False):
        return
    failure_record(credentials.get("username"))


def _on_success(sender: Any, request: Any, user: Any, **_: Any) -> None:
    failures_clear(user.get_username())


def install() -> None:
    user_login_failed.connect(_on_failure, dispatch_uid="accounts.guessing.failure")
    user_logged_in.connect(_on_success, dispatch_uid="accounts.guessing.success")
