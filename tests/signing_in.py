"""Signing in with the code step in tests: an authenticator for a user, the code it accepts
now, and a test client's session marked as having passed the code step (django-otp keeps
the device that passed it under ``DEVICE_ID_SESSION_KEY`` in the session)."""

from __future__ import annotations

import base64
import time
from typing import Any

from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.oath import TOTP, hotp
from django_otp.plugins.otp_totp.models import TOTPDevice

from siltfence.apps.accounts.second_factor import AUTHENTICATOR_NAME, authenticator_of


def authenticator_for(user: Any) -> TOTPDevice:
    """The user's confirmed authenticator, made (with a random key) if they have none."""
    device = authenticator_of(user)
    if device is None:
        device = TOTPDevice.objects.create(user=user, name=AUTHENTICATOR_NAME, confirmed=True)
    return device


def code_at(key: bytes, t: int) -> str:
    return f"{hotp(key, t):06d}"


def code_for_key(text: str) -> str:
    """The code a phone shows now for a key typed from the enrolment page (base32, in
    groups of four)."""
    compact = text.replace(" ", "")
    key = base64.b32decode(compact + "=" * (-len(compact) % 8))
    return code_at(key, TOTP(key).t())


def code_now(device: TOTPDevice) -> str:
    """A code the device accepts now and has not accepted before.

    The device takes the codes of the time steps around its own (``tolerance``), each once;
    when a test signs the same person in several times within 30 seconds, the next unused
    step is taken, and once none is left this waits for the next step. A past step is never
    taken: its code may run out between being worked out and being typed, when the step
    turns over (as a person's phone shows the current code, not the last one).
    """
    while True:
        device.refresh_from_db()
        totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
        now = totp.t()
        for t in range(now, now + device.tolerance + 1):
            if t > device.last_t:
                return code_at(device.bin_key, t)
        time.sleep(1)


def pass_code_step(client: Any, user: Any) -> TOTPDevice:
    """Mark the client's (signed-in) session as having passed the code step."""
    device = authenticator_for(user)
    session = client.session
    session[DEVICE_ID_SESSION_KEY] = device.persistent_id
    session.save()
    return device
