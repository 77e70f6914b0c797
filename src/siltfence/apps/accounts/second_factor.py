"""Two-step sign-in: the password, then a code (decision 20).

The code is the 6 digits an authenticator app shows (TOTP, RFC 6238: django-otp's
``TOTPDevice``), or one of ten backup codes (django-otp's ``StaticDevice``; each is deleted
once used). Everyone who acts for a village (staff, inspectors, appeals board members) and
the site's own administrators must use it; an applicant may turn it on.

The authenticator's key is stored encrypted and read only through ``accounts.seeds``
(decision 33). An enrolment keeps the new key in the person's session, not the database,
until its first right code: showing the enrolment page stores nothing.

Writes are ``<entity>_<verb>`` services that run in a transaction and append to the audit
chain; the sentences a person reads are the module constants below, each said to the field
"Code" on the screen.
"""

from __future__ import annotations

import base64
import logging
import math
import re
from dataclasses import dataclass
from typing import Any

import django_otp
import segno
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django_otp.oath import TOTP
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from siltfence.apps.accounts.models import Membership, Role
from siltfence.apps.accounts.rules import village_ids
from siltfence.apps.accounts.seeds import SeedUnreadable, seed_new, seed_open, seed_seal
from siltfence.apps.audit.chain import event_record
from siltfence.core.errors import SiltfenceError

REQUIRED_ROLES = (Role.STAFF, Role.INSPECTOR, Role.APPEALS_BOARD)
AUTHENTICATOR_NAME = "Authenticator app"
BACKUP_NAME = "Backup codes"
BACKUP_CODE_COUNT = 10
# Anything longer than this is not a code, whatever it holds: refused before it is read.
CODE_MAX_LENGTH = 40
REASON_MAX_LENGTH = 300

log = logging.getLogger(__name__)

CODE_MISSING = "Type the code your authenticator app shows."
CODE_MALFORMED = (
    "A code is the 6 digits your authenticator app shows (spaces are fine), or one of your "
    "backup codes (8 letters and digits)."
)
CODE_NOT_DIGITS = "Type the 6 digits your authenticator app shows for siltfence."
CODE_WRONG = (
    "That code did not match. Codes change every 30 seconds; type the one your app shows now."
)
CODE_USED = (
    "That code was used already. Wait for your app to show the next one (codes change every "
    "30 seconds), then type it."
)
BACKUP_WRONG = (
    "That backup code did not match, or it was used already: each backup code works once."
)
CODE_THROTTLED = (
    "Too many wrong codes in a row. Wait {seconds} seconds, then type the code your app shows now."
)
ENROL_EXPIRED = "Start again: the key on this page was replaced. Scan the new code below."
SEED_UNREADABLE = (
    "Codes from your app cannot be checked at the moment because of a problem on the server. "
    "Sign in with one of your backup codes, or call the village office."
)
ALREADY_ENROLLED = "This account already has an authenticator app."
REQUIRED_CANNOT_TURN_OFF = (
    "Village staff, inspectors and appeals board members sign in with a code every time; "
    "it cannot be turned off."
)
RESET_SELF = (
    "You cannot reset your own sign-in codes. Sign in with one of your backup codes, or ask "
    "another administrator of the village."
)
RESET_NOT_STAFF = "Only the village's administering authority may reset sign-in codes."
RESET_NOT_IN_VILLAGE = (
    "That person neither works for {village} nor has an application there, so its staff "
    "cannot reset their sign-in codes."
)
REASON_REQUIRED = "Say why, for the record (at most {limit} characters)."


class SecondFactorRefused(SiltfenceError):
    """A code or a change of sign-in codes was refused; nothing was written."""

    def __init__(self, message: str, *, field: str = "code") -> None:
        super().__init__(message, field=field)


# --- who must, and what they have ------------------------------------------------------------


def second_factor_required(user: Any) -> bool:
    """Officials of any village (the roles of ``accounts.rules``) and the site's own
    administrators (``/admin/``) must sign in with a code."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff or user.is_superuser:
        return True
    return bool(village_ids(user, *REQUIRED_ROLES))


def authenticator_of(user: Any) -> TOTPDevice | None:
    """The user's confirmed authenticator app, if any."""
    if not getattr(user, "pk", None):
        return None
    return TOTPDevice.objects.filter(user=user, confirmed=True).order_by("-pk").first()


def backup_codes_left(user: Any) -> int:
    return StaticToken.objects.filter(device__user=user).count()


def key_text(device: TOTPDevice) -> str:
    """The key as an authenticator app asks for it: base32, in groups of four."""
    key = base64.b32encode(device.bin_key).decode().rstrip("=")
    return " ".join(key[i : i + 4] for i in range(0, len(key), 4))


def qr_data_uri(device: TOTPDevice) -> str:
    """The enrolment QR code as an SVG image (a data: URI, which the CSP's img-src allows)."""
    return str(segno.make(device.config_url, error="m").svg_data_uri(scale=4, light="#fff"))


# --- reading what was typed -------------------------------------------------------------------


def code_read(text: object) -> tuple[str, str]:
    """("authenticator", "123456") or ("backup", "abcd2345") from what a person typed.

    Spaces and dashes are dropped and letters lowered; anything else (another script, a NUL,
    a page of text) is refused with one sentence.
    """
    if not isinstance(text, str) or not text.strip():
        raise SecondFactorRefused(CODE_MISSING)
    if len(text) > CODE_MAX_LENGTH or not text.isascii():
        raise SecondFactorRefused(CODE_MALFORMED)
    compact = re.sub(r"[ \t\r\n-]", "", text).lower()
    if re.fullmatch(r"[0-9]{6}", compact):
        return "authenticator", compact
    if re.fullmatch(r"[a-z2-7]{8}", compact):
        return "backup", compact
    raise SecondFactorRefused(CODE_MALFORMED)


# --- checking a code at sign-in ---------------------------------------------------------------


@dataclass(frozen=True)
class CodeCheck:
    """What came of one code: the device that accepted it, or the sentence to show.

    ``guessed`` is true when a code was really checked and refused: such a try counts
    toward the login lockout (a throttled try checks nothing, so it does not).
    """

    device: Any = None
    error: str = ""
    guessed: bool = False


def _wait_seconds(info: dict[str, Any] | None) -> int:
    until = (info or {}).get("locked_until")
    if until is None:
        return 1
    seconds: float = (until - timezone.now()).total_seconds()
    return max(1, math.ceil(seconds))


def _used_already(device: TOTPDevice, code: str) -> bool:
    """The code is one the device accepted before (a replay), not a wrong one."""
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    return bool(totp.verify(int(code), device.tolerance)) and totp.t() <= device.last_t


def code_check(*, user: Any, text: object) -> CodeCheck:
    """Check a code against the user's authenticator app or backup codes.

    A backup code is deleted as it is accepted; a code from the app is accepted once (the
    device keeps the last time step it accepted). Each device slows repeated wrong codes
    down (django-otp's throttling: 1, 2, 4, 8 ... seconds). Raises ``SecondFactorRefused``
    for text that is not a code at all.
    """
    kind, code = code_read(text)
    device: Any
    if kind == "authenticator":
        device = authenticator_of(user)
        wrong = CODE_WRONG
    else:
        device = StaticDevice.objects.filter(user=user).first()
        wrong = BACKUP_WRONG
    if device is None:
        return CodeCheck(error=wrong, guessed=True)
    allowed, info = device.verify_is_allowed()
    if not allowed:
        return CodeCheck(error=CODE_THROTTLED.format(seconds=_wait_seconds(info)))
    try:
        accepted = django_otp.verify_token(user, device.persistent_id, code)
    except SeedUnreadable as unreadable:
        # The server's key is wrong or missing: nothing was checked, nothing counted.
        log.error("sign-in code of %s not checked: %s", user.get_username(), unreadable)
        return CodeCheck(error=SEED_UNREADABLE)
    if accepted is not None:
        return CodeCheck(device=accepted)
    if kind == "authenticator":
        device.refresh_from_db()
        if _used_already(device, code):
            return CodeCheck(error=CODE_USED, guessed=True)
    return CodeCheck(error=wrong, guessed=True)


# --- enrolment ----------------------------------------------------------------------------------


def authenticator_start(*, user: Any, replacing: bool = False) -> str:
    """A new random key for the enrolment page, sealed: the page keeps it in the session
    (so that reloading it shows the same QR code) and nothing is stored until the first
    right code. Refused once the user has a confirmed authenticator, unless it is being
    replaced (a new phone; the old one keeps working until the new one is confirmed)."""
    if not replacing and authenticator_of(user) is not None:
        raise SecondFactorRefused(ALREADY_ENROLLED)
    return seed_seal(seed_new())


def authenticator_pending(*, user: Any, sealed: str) -> TOTPDevice:
    """The authenticator an enrolment page shows, from its sealed key; never saved here.
    A key the server can no longer open (its key was changed meanwhile) is refused."""
    try:
        seed_open(sealed)
    except SeedUnreadable:
        raise SecondFactorRefused(ENROL_EXPIRED) from None
    return TOTPDevice(user=user, name=AUTHENTICATOR_NAME, key=sealed, confirmed=False)


def _audit_village(user: Any) -> str:
    villages = sorted(Membership.objects.filter(user=user).values_list("village_id", flat=True))
    return villages[0] if villages else ""


def _backup_codes_replace(user: Any) -> list[str]:
    # The same device with new codes: a session that passed the code step with a backup
    # code stays signed in.
    device = StaticDevice.objects.filter(user=user).order_by("pk").first()
    if device is None:
        device = StaticDevice.objects.create(user=user, name=BACKUP_NAME)
    StaticDevice.objects.filter(user=user).exclude(pk=device.pk).delete()
    device.token_set.all().delete()
    codes: list[str] = []
    while len(codes) < BACKUP_CODE_COUNT:
        token = StaticToken.random_token()
        if token not in codes:
            codes.append(token)
    StaticToken.objects.bulk_create(StaticToken(device=device, token=t) for t in codes)
    return codes


def authenticator_confirm(
    *, user: Any, sealed: str, text: object, replacing: bool = False
) -> list[str]:
    """Store the enrolment page's authenticator once its first code is right; return new
    backup codes.

    ``sealed`` is the key the page showed (``authenticator_start``). On success the
    authenticator is stored confirmed, having used that code (it is not accepted again),
    any other authenticator of the user is removed (the old phone, when ``replacing``), ten
    new backup codes replace the old ones, and the change is recorded. A wrong code stores
    nothing: whoever is here already sees the key, so there is nothing to guess.
    """
    kind, code = code_read(text)
    if kind != "authenticator":
        raise SecondFactorRefused(CODE_NOT_DIGITS)
    if not replacing and authenticator_of(user) is not None:
        raise SecondFactorRefused(ALREADY_ENROLLED)
    device = authenticator_pending(user=user, sealed=sealed)
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    if not totp.verify(int(code), device.tolerance):
        raise SecondFactorRefused(CODE_WRONG)
    with transaction.atomic():
        # One enrolment of a person at a time: a second tab's waits here, then finds the
        # first one's authenticator.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        if not replacing and authenticator_of(user) is not None:
            raise SecondFactorRefused(ALREADY_ENROLLED)
        device.confirmed = True
        device.last_t = totp.t()
        device.drift = totp.drift
        device.save()
        TOTPDevice.objects.filter(user=user).exclude(pk=device.pk).delete()
        codes = _backup_codes_replace(user)
        event_record(
            actor=user,
            entity="user",
            entity_id=user.pk,
            action="second_factor_enrol",
            village=_audit_village(user),
            reason=(
                "authenticator app moved to a new phone; new backup codes issued"
                if replacing
                else "authenticator app added; new backup codes issued"
            ),
            after={"authenticator": True, "backup_codes": len(codes)},
        )
    return codes


def backup_codes_issue(*, user: Any) -> list[str]:
    """Ten new backup codes for a user who has an authenticator; the old ones stop working."""
    with transaction.atomic():
        codes = _backup_codes_replace(user)
        event_record(
            actor=user,
            entity="user",
            entity_id=user.pk,
            action="backup_codes_issue",
            village=_audit_village(user),
            reason="new backup codes issued; the earlier ones no longer work",
            after={"backup_codes": len(codes)},
        )
    return codes


# --- turning off and resetting -------------------------------------------------------------------


def _devices_delete(user: Any) -> dict[str, Any]:
    before: dict[str, Any] = {"authenticator": authenticator_of(user) is not None}
    before["backup_codes"] = backup_codes_left(user)
    TOTPDevice.objects.filter(user=user).delete()
    StaticDevice.objects.filter(user=user).delete()
    return before


def second_factor_turn_off(*, user: Any) -> None:
    """An applicant turns the code step off (the view has checked a code first)."""
    if second_factor_required(user):
        raise SecondFactorRefused(REQUIRED_CANNOT_TURN_OFF)
    with transaction.atomic():
        before = _devices_delete(user)
        event_record(
            actor=user,
            entity="user",
            entity_id=user.pk,
            action="second_factor_turn_off",
            reason="turned off by the account holder",
            before=before,
            after={"authenticator": False, "backup_codes": 0},
        )


def _reason(reason: str) -> str:
    text = (reason or "").strip()
    if not text or len(text) > REASON_MAX_LENGTH or "\x00" in text:
        raise SecondFactorRefused(REASON_REQUIRED.format(limit=REASON_MAX_LENGTH), field="reason")
    return text


def people_of_village(village_id: str) -> Any:
    """Everyone a village's staff may reset: its current officials and its applicants."""
    from django.contrib.auth import get_user_model
    from django.db.models import Q

    # Through the memberships' own manager, not a join: a join would count ended ones.
    officials = Membership.objects.filter(village_id=village_id).values("user_id")
    return (
        get_user_model()
        .objects.filter(Q(pk__in=officials) | Q(applications__village_id=village_id))
        .distinct()
        .order_by("username")
    )


def second_factor_reset(*, staff: Any, user: Any, village_id: str, reason: str) -> None:
    """The village's administering authority removes a person's authenticator and backup
    codes (a lost phone). Staff sign in again through enrolment; an applicant with a
    password only. Their sessions stop passing the code step at once."""
    text = _reason(reason)
    if village_id not in village_ids(staff, Role.STAFF):
        raise SecondFactorRefused(RESET_NOT_STAFF, field="user")
    if user.pk == staff.pk:
        raise SecondFactorRefused(RESET_SELF, field="user")
    if not people_of_village(village_id).filter(pk=user.pk).exists():
        raise SecondFactorRefused(RESET_NOT_IN_VILLAGE.format(village=village_id), field="user")
    with transaction.atomic():
        before = _devices_delete(user)
        event_record(
            actor=staff,
            entity="user",
            entity_id=user.pk,
            action="second_factor_reset",
            village=village_id,
            reason=text,
            before=before,
            after={"authenticator": False, "backup_codes": 0, "user": user.get_username()},
        )


def second_factor_reset_by_operator(*, user: Any, reason: str) -> None:
    """The same reset, by whoever runs the server (``manage.py second_factor_reset``): for
    the village's only administrator, once their phone and backup codes are both lost."""
    text = _reason(reason)
    with transaction.atomic():
        before = _devices_delete(user)
        event_record(
            actor=None,
            entity="user",
            entity_id=user.pk,
            action="second_factor_reset",
            village=_audit_village(user),
            reason=text,
            before=before,
            after={"authenticator": False, "backup_codes": 0, "user": user.get_username()},
        )
