"""The authenticator apps' keys are stored encrypted, under a key kept outside the database
(decision 33): a copy of the database no longer gives away anyone's codes."""

from __future__ import annotations

import base64
import importlib
import os
import re
import secrets
import subprocess
import sys
from io import StringIO
from types import SimpleNamespace
from typing import Any

import django_otp
import factories
import pytest
from axes.models import AccessAttempt
from django.apps import apps
from django.core.exceptions import ImproperlyConfigured
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django_otp.plugins.otp_totp.models import TOTPDevice

from signing_in import authenticator_for, code_now
from siltfence.apps.accounts import second_factor as sf
from siltfence.apps.accounts import seeds
from siltfence.apps.accounts.models import SignInFailures
from tools.demo.sign_in import demo_key

pytestmark = pytest.mark.django_db

PASSWORD = "not-used-in-tests-7x!"  # factories.make_user's
LOGIN = "/accounts/login/"
CODE = "/accounts/login/code/"
OLD_KEY = "the-key-before-the-change-" + "o" * 24
NEW_KEY = "the-key-after-the-change-" + "n" * 24


@pytest.fixture(autouse=True)
def _force_login_passes_the_code_step() -> None:
    """Sign-in itself is under test here: ``force_login`` makes a password-only session."""


def stored_key(device: TOTPDevice) -> str:
    """The key column as the database holds it, read past the model."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT key FROM otp_totp_totpdevice WHERE id = %s", [device.pk])
        (value,) = cursor.fetchone()
    return str(value)


def sign_in_with_code(username: str, code: str) -> Any:
    client = Client()
    assert client.post(LOGIN, {"username": username, "password": PASSWORD})["Location"] == CODE
    return client.post(CODE, {"code": code})


def field_errors(response: Any) -> list[str]:
    page = response.content.decode().replace("&#x27;", "'")
    return [
        re.sub(r"\s+", " ", e).strip()
        for e in re.findall(r'class="usa-error-message[^"]*"[^>]*>(.*?)</span>', page, re.S)
    ]


def test_the_stored_key_is_neither_the_hex_nor_the_base32_of_the_authenticator_key(
    people: Any,
) -> None:
    staff = people.staff[factories.SPENCER]
    device = authenticator_for(staff)
    seed = device.bin_key
    column = stored_key(device)
    assert len(seed) == 20
    assert seed.hex() not in column.lower()
    assert base64.b32encode(seed).decode().rstrip("=") not in column.upper()
    assert column.startswith("gAAAAA") and seeds.seed_is_sealed(column)
    # A key given in hex (the demo's published ones, the admin's form) is sealed on save.
    inspector = people.inspector[factories.SPENCER]
    published = TOTPDevice.objects.create(
        user=inspector, name=sf.AUTHENTICATOR_NAME, key=demo_key("x"), confirmed=True
    )
    assert stored_key(published) != demo_key("x") and demo_key("x") not in stored_key(published)
    assert published.bin_key.hex() == demo_key("x")


def test_a_code_worked_out_from_the_key_still_signs_in(people: Any) -> None:
    staff = people.staff[factories.SPENCER]
    device = authenticator_for(staff)
    assert seeds.seed_is_sealed(stored_key(device))
    response = sign_in_with_code(staff.username, code_now(device))
    assert response.status_code == 302 and response["Location"] == "/home/"
    # django-otp's own path, as any other caller would use it, reads the key decrypted too.
    assert django_otp.verify_token(staff, device.persistent_id, code_now(device)) == device


def test_a_key_written_in_clear_around_the_model_is_refused_not_used(people: Any) -> None:
    staff = people.staff[factories.SPENCER]
    device = authenticator_for(staff)
    TOTPDevice.objects.filter(pk=device.pk).update(key=device.bin_key.hex())
    response = sign_in_with_code(staff.username, "123456")
    assert response.status_code == 200
    assert field_errors(response) == [f"Code: {sf.SEED_UNREADABLE}"]
    with pytest.raises(seeds.SeedUnreadable, match="unencrypted"):
        TOTPDevice.objects.get(pk=device.pk).bin_key  # noqa: B018


def _migration() -> Any:
    return importlib.import_module(
        "siltfence.apps.accounts.migrations.0003_authenticator_keys_sealed"
    )


def test_the_migration_seals_keys_stored_in_clear_and_they_still_sign_in(people: Any) -> None:
    staff = people.staff[factories.SPENCER]
    inspector = people.inspector[factories.SPENCER]
    before = {user: authenticator_for(user) for user in (staff, inspector)}
    plain = {user: device.bin_key.hex() for user, device in before.items()}
    for user, device in before.items():  # as django-otp stored them before this change
        TOTPDevice.objects.filter(pk=device.pk).update(key=plain[user])
    assert {stored_key(d) for d in before.values()} == set(plain.values())

    _migration().seal(apps, SimpleNamespace(connection=connection))

    for user, device in before.items():
        column = stored_key(device)
        assert seeds.seed_is_sealed(column) and plain[user] not in column
        device.refresh_from_db()
        assert device.bin_key.hex() == plain[user]
    assert sign_in_with_code(staff.username, code_now(before[staff]))["Location"] == "/home/"
    # Run again, it leaves sealed keys as they are.
    sealed = stored_key(before[staff])
    _migration().seal(apps, SimpleNamespace(connection=connection))
    assert stored_key(before[staff]) == sealed


def test_the_migration_needs_no_key_on_a_database_with_no_authenticator(
    db: Any, settings: Any
) -> None:
    settings.SILTFENCE_SECOND_FACTOR_KEY = ""
    assert not TOTPDevice.objects.exists()
    _migration().seal(apps, SimpleNamespace(connection=connection))  # nothing to seal: no error
    with pytest.raises(ImproperlyConfigured, match="SILTFENCE_SECOND_FACTOR_KEY is not set"):
        seeds.seed_seal(b"k" * 20)


def test_a_change_of_key_keeps_every_authenticator_working(people: Any, settings: Any) -> None:
    settings.SILTFENCE_SECOND_FACTOR_KEY = OLD_KEY
    staff = people.staff[factories.SPENCER]
    device = authenticator_for(staff)
    seed = device.bin_key
    under_old = stored_key(device)
    # 1. The new key first, the old one still accepted: existing keys open, new ones are
    #    sealed under the new key.
    settings.SILTFENCE_SECOND_FACTOR_KEY = NEW_KEY
    settings.SILTFENCE_SECOND_FACTOR_KEY_FALLBACKS = [OLD_KEY]
    assert sign_in_with_code(staff.username, code_now(device))["Location"] == "/home/"
    # 2. Every stored key sealed again under the new key.
    out = StringIO()
    call_command("second_factor_rekey", stdout=out)
    assert "1 authenticator key is now sealed under SILTFENCE_SECOND_FACTOR_KEY" in out.getvalue()
    assert stored_key(device) != under_old
    # 3. The old key removed: the authenticator still signs in, with the same key.
    settings.SILTFENCE_SECOND_FACTOR_KEY_FALLBACKS = []
    device.refresh_from_db()
    assert device.bin_key == seed
    assert sign_in_with_code(staff.username, code_now(device))["Location"] == "/home/"


def test_without_the_key_it_was_sealed_under_a_code_is_refused_in_plain_words(
    people: Any, settings: Any
) -> None:
    staff = people.staff[factories.SPENCER]
    device = authenticator_for(staff)
    backup = sf.backup_codes_issue(user=staff)[0]
    code = code_now(device)
    settings.SILTFENCE_SECOND_FACTOR_KEY = NEW_KEY  # not the key the app's key is sealed under
    client = Client(raise_request_exception=False)
    client.post(LOGIN, {"username": staff.username, "password": PASSWORD})
    response = client.post(CODE, {"code": code})
    assert response.status_code == 200
    assert field_errors(response) == [f"Code: {sf.SEED_UNREADABLE}"]
    # Nothing was checked, so nothing counts against the person.
    device.refresh_from_db()
    assert device.throttling_failure_count == 0 and device.last_t == -1
    assert not AccessAttempt.objects.exists() and not SignInFailures.objects.exists()
    # The backup codes, which need no key, still sign in.
    assert client.post(CODE, {"code": backup})["Location"] == "/home/"


def test_a_change_of_key_with_a_key_that_opens_nothing_changes_nothing(
    people: Any, settings: Any
) -> None:
    staff = people.staff[factories.SPENCER]
    device = authenticator_for(staff)
    before = stored_key(device)
    settings.SILTFENCE_SECOND_FACTOR_KEY = NEW_KEY  # the old key left out of the fallbacks
    with pytest.raises(CommandError) as refused:
        call_command("second_factor_rekey")
    message = str(refused.value)
    assert "SILTFENCE_SECOND_FACTOR_KEY_FALLBACKS" in message and staff.username in message
    assert "nothing was changed" in message
    assert stored_key(device) == before
    settings.SILTFENCE_SECOND_FACTOR_KEY = "short"
    with pytest.raises(CommandError, match="SILTFENCE_SECOND_FACTOR_KEY is too short"):
        call_command("second_factor_rekey")


# --- start-up -----------------------------------------------------------------------------------


def _check(tmp_path: Any, **env: str) -> subprocess.CompletedProcess[str]:
    unset = ("SECRET_KEY", "ALLOWED_HOSTS", "DJANGO_ALLOW_ASYNC_UNSAFE", "DATABASE_URL")
    unset += ("SILTFENCE_SECOND_FACTOR_KEY", "SILTFENCE_SECOND_FACTOR_KEY_FALLBACKS")
    clean = {k: v for k, v in os.environ.items() if k not in unset}
    production = {
        "SILTFENCE_ENV": "production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "permits.example.org",
        "SILTFENCE_AUDIT_KEY": secrets.token_urlsafe(48),
        "EMAIL_HOST": "smtp.example.org",
        "SILTFENCE_DATA_DIR": str(tmp_path),
    }
    return subprocess.run(
        [sys.executable, "-m", "siltfence.manage", "check"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**clean, **production, **env},
    )


@pytest.mark.no_suite_database
def test_production_refuses_to_start_without_the_key_in_one_line_naming_it(
    tmp_path: Any,
) -> None:
    missing = _check(tmp_path)
    assert missing.returncode == 2
    assert missing.stderr.startswith("siltfence: SILTFENCE_SECOND_FACTOR_KEY must be set")
    assert "var/second-factor-key" in missing.stderr
    assert missing.stderr.count("\n") == 1 and "Traceback" not in missing.stderr
    short = _check(tmp_path, SILTFENCE_SECOND_FACTOR_KEY="too-short")
    assert short.returncode == 2 and short.stderr.count("\n") == 1
    assert "SILTFENCE_SECOND_FACTOR_KEY is too short" in short.stderr
    fallback = _check(
        tmp_path,
        SILTFENCE_SECOND_FACTOR_KEY=secrets.token_urlsafe(48),
        SILTFENCE_SECOND_FACTOR_KEY_FALLBACKS="too-short",
    )
    assert "SILTFENCE_SECOND_FACTOR_KEY_FALLBACKS is too short" in fallback.stderr
    fine = _check(tmp_path, SILTFENCE_SECOND_FACTOR_KEY=secrets.token_urlsafe(48))
    assert fine.returncode == 0, fine.stderr
