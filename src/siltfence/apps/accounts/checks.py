"""``manage.py check``: the per-account count of failed sign-ins is wired in."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, Tags, register

BACKEND = "siltfence.apps.accounts.guessing.AccountGuessingBackend"
PASSWORDS = "django.contrib.auth.backends.ModelBackend"


@register(Tags.security)
def account_guessing_check(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    backends = list(getattr(settings, "AUTHENTICATION_BACKENDS", []))
    if BACKEND in backends and (
        PASSWORDS not in backends or backends.index(BACKEND) < backends.index(PASSWORDS)
    ):
        return []
    return [
        Error(
            f"{BACKEND} is not in AUTHENTICATION_BACKENDS ahead of the backends that check "
            "passwords: failed sign-ins are then neither counted nor slowed per account.",
            hint="List it right after axes.backends.AxesStandaloneBackend.",
            id="siltfence.E002",
        )
    ]
