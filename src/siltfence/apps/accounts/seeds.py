"""The keys of the authenticator apps, encrypted in the database (decision 33).

django-otp keeps each authenticator's key (the TOTP seed every code is worked out from) in
``TOTPDevice.key`` as hex, in clear: a copy of the database, a backup or a dump would give
away every official's second step. Here that column holds the key encrypted instead, as a
Fernet token (AES-128-CBC and HMAC-SHA256, from the ``cryptography`` package), under a key
the database does not hold: ``SILTFENCE_SECOND_FACTOR_KEY``, read from the environment as
the audit key is.

``seed_open`` is the one place a stored key is decrypted. django-otp reads the key through
``TOTPDevice.bin_key`` alone (to check a code in ``verify_token``, to draw the QR code in
``config_url``); ``install`` replaces that property at start-up with one that calls
``seed_open``, and seals a key given in hex before the row is saved. A stored key that
cannot be decrypted (hex written around the model's ``save``, or sealed under a key the
server no longer holds) raises ``SeedUnreadable``: it is never used as it stands.

Changing the key: the new one in ``SILTFENCE_SECOND_FACTOR_KEY``, the old one in
``SILTFENCE_SECOND_FACTOR_KEY_FALLBACKS``. Every key listed opens a stored key, the first
seals; ``manage.py second_factor_rekey`` then seals every stored key again under the first,
after which the old one can go (MultiFernet's rotation).
"""

from __future__ import annotations

import base64
import functools
import re
import secrets
from typing import Any

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db.models.signals import pre_save

KEY_SETTING = "SILTFENCE_SECOND_FACTOR_KEY"
FALLBACKS_SETTING = "SILTFENCE_SECOND_FACTOR_KEY_FALLBACKS"
KEY_MIN_LENGTH = 32
# The size of a new authenticator key: 160 bits, as RFC 4226 recommends (and django-otp's
# default); a key under 128 bits (RFC 4226's minimum) is refused.
SEED_BYTES = 20
SEED_MIN_BYTES = 16
# The widest a sealed key gets: a 40-byte key (django-otp's largest) is a 140-character
# token. The column is widened to this (accounts migration 0003).
SEALED_MAX_LENGTH = 255
_HKDF_INFO = b"siltfence: authenticator keys, v1"
_HEX = re.compile(r"[0-9a-fA-F]*")

KEY_MISSING = (
    f"{KEY_SETTING} is not set: the keys of the authenticator apps are encrypted with a key "
    "kept outside the database (make one with: python3 -c 'import secrets; "
    "print(secrets.token_urlsafe(48))')"
)
KEY_SHORT = f"{{name}} is too short: use at least {KEY_MIN_LENGTH} characters"


class SeedUnreadable(Exception):
    """A stored authenticator key that none of the configured keys decrypts."""

    def __init__(self, detail: str) -> None:
        super().__init__(
            f"{detail}: it cannot be decrypted with {KEY_SETTING} or any of {FALLBACKS_SETTING}"
        )


def _keys() -> tuple[str, ...]:
    """The keys, newest first: the current one, then the fallbacks still accepted."""
    current = str(getattr(settings, KEY_SETTING, "") or "").strip()
    if not current:
        raise ImproperlyConfigured(KEY_MISSING)
    fallbacks = [str(k).strip() for k in getattr(settings, FALLBACKS_SETTING, []) or []]
    keys = (current, *[k for k in fallbacks if k])
    for position, key in enumerate(keys):
        if len(key) < KEY_MIN_LENGTH:
            name = KEY_SETTING if position == 0 else f"{FALLBACKS_SETTING} (number {position})"
            raise ImproperlyConfigured(KEY_SHORT.format(name=name))
    return keys


def keys_check() -> None:
    """Raise ``ImproperlyConfigured`` (one line, naming the setting) for a missing or short key."""
    _keys()


@functools.lru_cache(maxsize=8)
def _cipher(keys: tuple[str, ...]) -> MultiFernet:
    # The setting is text of any kind (as the audit key is); Fernet wants 32 random bytes,
    # so each is stretched with HKDF-SHA256, which suits a key that is itself random.
    def fernet(text: str) -> Fernet:
        raw = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_HKDF_INFO).derive(
            text.encode()
        )
        return Fernet(base64.urlsafe_b64encode(raw))

    return MultiFernet([fernet(k) for k in keys])


def seed_is_sealed(stored: str) -> bool:
    """A sealed key, as opposed to django-otp's hex. A Fernet token always holds letters
    past ``f`` (it starts ``gAAAAA``), so the two cannot be mistaken for each other."""
    return bool(stored) and not _HEX.fullmatch(stored)


def seed_new() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def seed_seal(seed: bytes) -> str:
    """The authenticator key as it is stored: encrypted under the current key."""
    if len(seed) < SEED_MIN_BYTES:
        raise ValueError(
            f"authenticator key: expected at least {SEED_MIN_BYTES} bytes, got {len(seed)}"
        )
    return _cipher(_keys()).encrypt(seed).decode("ascii")


def seed_open(stored: str) -> bytes:
    """The authenticator key a stored value holds. The one place one is decrypted."""
    if not seed_is_sealed(stored):
        raise SeedUnreadable("the authenticator key is stored unencrypted")
    try:
        return _cipher(_keys()).decrypt(stored.encode("ascii"))
    except (InvalidToken, UnicodeEncodeError):
        raise SeedUnreadable("the authenticator key is sealed under another key") from None


def seed_reseal(stored: str) -> str:
    """The same authenticator key sealed again under the current key (a key still in hex is
    sealed for the first time)."""
    if not seed_is_sealed(stored):
        try:
            seed = bytes.fromhex(stored)
        except ValueError:
            raise SeedUnreadable("the authenticator key is neither hex nor sealed") from None
        return seed_seal(seed)
    try:
        return _cipher(_keys()).rotate(stored.encode("ascii")).decode("ascii")
    except (InvalidToken, UnicodeEncodeError):
        raise SeedUnreadable("the authenticator key is sealed under another key") from None


# --- django-otp's TOTPDevice reads and writes its key through these --------------------------


def _bin_key(device: Any) -> bytes:
    return seed_open(device.key)


def _seal_before_save(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A key given in hex (django-otp's random default, the admin's form, the demo's
    published keys) is sealed before it reaches the database."""
    if not seed_is_sealed(instance.key):
        instance.key = seed_reseal(instance.key)


def install() -> None:
    """Make every TOTPDevice read its key through ``seed_open`` and store it sealed."""
    from django_otp.plugins.otp_totp.models import TOTPDevice

    # A deliberate patch of django-otp's property, which a type checker cannot follow.
    TOTPDevice.bin_key = property(  # type: ignore[method-assign, assignment]
        _bin_key, doc="The key, decrypted (accounts.seeds)."
    )
    pre_save.connect(_seal_before_save, sender=TOTPDevice, dispatch_uid="accounts.seeds.seal")
