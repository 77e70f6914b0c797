"""The demo's authenticator apps: every demo official and ``demo-admin`` has one, with a
key anyone can work out from this file, so the demo stays usable without a phone.

``python -m tools.demo_code USERNAME`` prints the current code of such an account (``make
demo-code WHO=USERNAME``). It refuses any other account, and any account whose
authenticator is not the published demo one (reset and set up again, or never the demo's):
it can only ever print a code that this file already gives away.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django_otp.plugins.otp_totp.models import TOTPDevice

from siltfence.apps.accounts.second_factor import (
    AUTHENTICATOR_NAME,
    authenticator_of,
    second_factor_required,
)
from siltfence.apps.accounts.seeds import SeedUnreadable

ADMIN = "demo-admin"


def demo_key(username: str) -> str:
    """The published key of a demo account's authenticator (20 bytes, as hex)."""
    return hashlib.sha1(f"siltfence demo authenticator: {username}".encode()).hexdigest()


def demo_usernames() -> set[str]:
    from tools.demo import USERS

    return {username for username, *_ in USERS} | {ADMIN}


@transaction.atomic
def demo_authenticators_load() -> int:
    """A confirmed authenticator with the published key for each demo account that must
    sign in with a code and has none yet. Returns how many were added."""
    added = 0
    for user in get_user_model().objects.filter(username__in=demo_usernames()):
        if not second_factor_required(user) or authenticator_of(user) is not None:
            continue
        TOTPDevice.objects.filter(user=user).delete()  # an enrolment left unfinished
        TOTPDevice.objects.create(
            user=user,
            name=AUTHENTICATOR_NAME,
            key=demo_key(user.get_username()),
            confirmed=True,
        )
        added += 1
    return added


def demo_device(username: str) -> Any:
    """The account's authenticator if it is the demo's published one, else ``None``."""
    if username not in demo_usernames():
        return None
    user = get_user_model().objects.filter(username=username).first()
    device = authenticator_of(user) if user is not None else None
    if device is None:
        return None
    try:
        published = device.bin_key.hex() == demo_key(username)  # stored sealed (decision 33)
    except SeedUnreadable:
        return None
    return device if published else None
