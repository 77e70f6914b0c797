"""Production settings refuse to start half-configured, and pass Django's deploy check."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

import pytest

# Runs on its own SQLite file or on no database: the PostgreSQL pass leaves it out.
pytestmark = pytest.mark.no_suite_database


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    # The browser tests set DJANGO_ALLOW_ASYNC_UNSAFE in this process; a deployment would not.
    unset = ("SECRET_KEY", "ALLOWED_HOSTS", "DJANGO_ALLOW_ASYNC_UNSAFE", "EMAIL_HOST")
    unset += ("SILTFENCE_EMAIL", "SILTFENCE_AUDIT_KEY")
    clean = {k: v for k, v in os.environ.items() if k not in unset}
    return subprocess.run(
        [sys.executable, "-m", "siltfence.manage", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**clean, **env},
    )


@pytest.mark.parametrize("command", [["check"], ["check", "--deploy"]])
def test_production_refuses_to_start_without_a_secret_key_in_one_line(tmp_path, command):
    run = manage(
        *command,
        SILTFENCE_ENV="production",
        ALLOWED_HOSTS="x.org",
        SILTFENCE_DATA_DIR=str(tmp_path),
    )
    assert run.returncode == 2
    assert "SECRET_KEY must be set" in run.stderr
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr


def test_production_refuses_to_start_without_allowed_hosts(tmp_path):
    run = manage(
        "check",
        SILTFENCE_ENV="production",
        SECRET_KEY=secrets.token_urlsafe(50),
        SILTFENCE_DATA_DIR=str(tmp_path),
    )
    assert run.returncode == 2
    assert "ALLOWED_HOSTS must be set" in run.stderr
    assert "Traceback" not in run.stderr


# The production environment docs/deploy.md documents (its secrets made up here).
PRODUCTION = {
    "SILTFENCE_ENV": "production",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "permits.example.org",
    "EMAIL_HOST": "smtp.example.org",
    "SILTFENCE_AUDIT_KEY": secrets.token_urlsafe(48),
    "SILTFENCE_SECOND_FACTOR_KEY": secrets.token_urlsafe(48),
    "SILTFENCE_TRUSTED_PROXIES": "1",
}


def test_production_settings_pass_the_deploy_check_with_no_warning_at_all(tmp_path):
    run = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        **PRODUCTION,
        SILTFENCE_DATA_DIR=str(tmp_path),
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == "System check identified no issues (0 silenced).\n"
    assert run.stderr == ""


def test_the_deploy_check_warns_when_the_audit_checkpoints_cannot_be_signed(tmp_path):
    # Production no longer starts without the key at all (tests/unit/test_settings_fail_safe.py);
    # local settings do, and the deploy check still names what is missing there.
    run = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        SILTFENCE_ENV="local",
        SILTFENCE_AUDIT_KEY="",
        SILTFENCE_DATA_DIR=str(tmp_path),
    )
    assert run.returncode != 0
    assert "siltfence.W001" in run.stderr
    assert "SILTFENCE_AUDIT_KEY is not set" in run.stderr


def test_the_deploy_check_wants_a_real_mail_server_even_when_printing_is_said_on_purpose(
    tmp_path,
):
    # Without a mail server production starts only with SILTFENCE_EMAIL=console (make run's
    # demo), and the deploy check still fails it: printed emails are not a deployment.
    without_mail = {k: v for k, v in PRODUCTION.items() if k != "EMAIL_HOST"}
    run = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        **without_mail,
        SILTFENCE_EMAIL="console",
        SILTFENCE_DATA_DIR=str(tmp_path),
    )
    assert run.returncode != 0
    assert "mail.E001" in run.stderr
    assert "siltfence: SILTFENCE_EMAIL=console" in run.stderr


def test_the_content_security_policy_allows_no_inline_or_evaluated_script():
    from django.conf import settings

    scripts = [str(source) for source in settings.SECURE_CSP.get("script-src", [])]
    assert scripts == ["'self'"]
    assert settings.SECURE_CSP["default-src"] == ["'self'"]
    everything = " ".join(str(s) for sources in settings.SECURE_CSP.values() for s in sources)
    assert "unsafe-eval" not in everything
    assert "unsafe-inline" not in everything
