"""Settings that fail safe: each case starts the settings in a fresh process with only the
environment given, and looks at the exit status and what was said.

- ``SILTFENCE_ENV`` is ``local`` (the default when unset) or ``production``; any other
  value, even an empty one set on purpose, is refused, never taken for local (debug on,
  the published development key).
- In production a missing or short audit key, or a missing mail server, stops start-up
  with one line naming the variable. Printing emails instead of sending them is said on
  purpose (``SILTFENCE_EMAIL=console``, as `make run` does) and logged at every start.
- The ordinance cache holds JSON only (decision 37): nothing in siltfence reads a pickle.
"""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

# Runs on its own SQLite file or on no database: the PostgreSQL pass leaves it out.
pytestmark = pytest.mark.no_suite_database

REPO = Path(__file__).resolve().parents[2]

# Nothing of the test run's own environment that the settings read leaks in.
_KEPT = {"SILTFENCE_CACHE_DIR"}
_DROPPED = {
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "DATABASE_URL",
    "DEBUG",
    "DEFAULT_FROM_EMAIL",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "DJANGO_SETTINGS_MODULE",
    "SECURE_SSL_REDIRECT",
}

# A whole production environment (docs/deploy.md's, its secrets made up here).
PRODUCTION = {
    "SILTFENCE_ENV": "production",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "permits.example.org",
    "SILTFENCE_SECOND_FACTOR_KEY": secrets.token_urlsafe(48),
    "SILTFENCE_AUDIT_KEY": secrets.token_urlsafe(48),
    "EMAIL_HOST": "smtp.example.org",
}

# What the settings came to: debug, and how emails go.
SHOW = (
    "shell",
    "--no-imports",
    "-c",
    "from django.conf import settings; "
    "print(settings.DEBUG, settings.MAILERS['default']['BACKEND'])",
)


def start(tmp_path: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """``manage.py check`` (or ``args``) with the settings read from ``env`` alone."""
    clean = {
        k: v
        for k, v in os.environ.items()
        if k in _KEPT or not (k in _DROPPED or k.startswith("SILTFENCE_") or k.startswith("EMAIL_"))
    }
    return subprocess.run(
        [sys.executable, "-m", "siltfence.manage", *(args or ("check",))],
        capture_output=True,
        text=True,
        timeout=120,
        env={**clean, "SILTFENCE_DATA_DIR": str(tmp_path), **env},
    )


def without(*names: str, **more: str) -> dict[str, str]:
    return {**{k: v for k, v in PRODUCTION.items() if k not in names}, **more}


def refused_in_one_line(run: subprocess.CompletedProcess[str], start_of_line: str) -> None:
    assert run.returncode == 2, (run.stdout, run.stderr)
    assert run.stderr.startswith(f"siltfence: {start_of_line}"), run.stderr
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert run.stderr.rstrip().endswith("refusing to start")


# --- 1. SILTFENCE_ENV is one of two names ----------------------------------------------------


@pytest.mark.parametrize(
    "name", ["Production", "prod", "PRODUCTION", "production ", "", "staging", "Local", "dev"]
)
def test_an_unknown_environment_name_is_refused_naming_the_variable_and_both_names(tmp_path, name):
    # Everything else a production server needs is set: the name alone decides.
    run = start(tmp_path, {**PRODUCTION, "SILTFENCE_ENV": name})
    refused_in_one_line(run, "SILTFENCE_ENV")
    said = run.stderr
    assert "local" in said and "production" in said
    assert repr(name) in said  # what was given, quoted, so an empty or spaced value shows


def test_an_unknown_environment_name_stops_the_web_server_too(tmp_path):
    """gunicorn loads the application, not manage.py: the import itself fails."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SILTFENCE_")}
    run = subprocess.run(
        [sys.executable, "-c", "import siltfence.config.wsgi"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**clean, **PRODUCTION, "SILTFENCE_ENV": "Production"},
    )
    assert run.returncode != 0
    assert "ImproperlyConfigured: SILTFENCE_ENV" in run.stderr


@pytest.mark.parametrize("env", [{}, {"SILTFENCE_ENV": "local"}], ids=["unset", "local"])
def test_local_is_the_default_and_its_own_name(tmp_path, env):
    run = start(tmp_path, env, *SHOW)
    assert run.returncode == 0, run.stderr
    # Locally, with no mail server, emails are printed, as before, and nothing is logged.
    assert run.stdout == "True django.core.mail.backends.console.EmailBackend\n"
    assert run.stderr == ""


# --- 2. production: the audit key and the mail server ----------------------------------------


def test_a_whole_production_environment_starts_with_smtp_and_says_nothing(tmp_path):
    run = start(tmp_path, PRODUCTION, *SHOW)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "False django.core.mail.backends.smtp.EmailBackend\n"
    assert run.stderr == ""


@pytest.mark.parametrize("key", [None, ""], ids=["unset", "empty"])
def test_production_without_the_audit_key_does_not_start(tmp_path, key):
    env = without("SILTFENCE_AUDIT_KEY")
    if key is not None:
        env["SILTFENCE_AUDIT_KEY"] = key
    run = start(tmp_path, env)
    refused_in_one_line(run, "SILTFENCE_AUDIT_KEY must be set when SILTFENCE_ENV=production")
    assert "secrets.token_urlsafe(48)" in run.stderr  # how to make one


def test_production_with_a_short_audit_key_does_not_start(tmp_path):
    run = start(tmp_path, without(SILTFENCE_AUDIT_KEY="x" * 31))
    refused_in_one_line(run, "SILTFENCE_AUDIT_KEY is too short")


@pytest.mark.parametrize("host", [None, "", "  "], ids=["unset", "empty", "blank"])
def test_production_without_a_mail_server_does_not_start(tmp_path, host):
    env = without("EMAIL_HOST")
    if host is not None:
        env["EMAIL_HOST"] = host
    run = start(tmp_path, env)
    refused_in_one_line(run, "EMAIL_HOST must be set when SILTFENCE_ENV=production")
    assert "SILTFENCE_EMAIL=console" in run.stderr  # the way to say it on purpose


def test_printing_emails_in_production_is_said_on_purpose_and_logged_at_start(tmp_path):
    run = start(tmp_path, without("EMAIL_HOST", SILTFENCE_EMAIL="console"), *SHOW)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "False django.core.mail.backends.console.EmailBackend\n"
    [warning] = run.stderr.splitlines()
    assert warning.startswith("siltfence: SILTFENCE_EMAIL=console")
    assert "not sent" in warning and "EMAIL_HOST" in warning


def test_console_and_a_mail_server_at_once_is_refused_as_a_contradiction(tmp_path):
    run = start(tmp_path, {**PRODUCTION, "SILTFENCE_EMAIL": "console"})
    refused_in_one_line(run, "SILTFENCE_EMAIL=console prints emails, but EMAIL_HOST is set")


@pytest.mark.parametrize("value", ["Console", "print", "", "none"])
def test_an_unknown_email_choice_is_refused_naming_both_choices(tmp_path, value):
    run = start(tmp_path, without("EMAIL_HOST", SILTFENCE_EMAIL=value))
    refused_in_one_line(run, "SILTFENCE_EMAIL")
    assert "smtp" in run.stderr and "console" in run.stderr and repr(value) in run.stderr


def test_smtp_said_without_a_mail_server_is_refused_locally_too(tmp_path):
    run = start(tmp_path, {"SILTFENCE_EMAIL": "smtp"})
    refused_in_one_line(run, "EMAIL_HOST must be set when SILTFENCE_EMAIL=smtp")


def test_make_run_says_on_purpose_that_its_demo_prints_emails():
    makefile = (REPO / "Makefile").read_text()
    run_env = re.search(r"(?ms)^RUN_ENV = (.*?)(?<!\\)\n", makefile)
    assert run_env, "the Makefile's RUN_ENV"
    assert "SILTFENCE_EMAIL=console" in run_env.group(1)
    assert "SILTFENCE_AUDIT_KEY=" in run_env.group(1)


# --- 3. the ordinance cache reads nothing that can run code ----------------------------------


def test_no_module_of_siltfence_reads_a_pickle():
    """The parsed-ordinance cache is JSON (decision 37); a pickle loaded from a file anyone
    could have written runs code."""
    readers = re.compile(r"^\s*(?:import|from)\s+(?:c?pickle|marshal|shelve|dill|joblib)\b", re.M)
    found = [
        str(path.relative_to(REPO))
        for path in (REPO / "src" / "siltfence").rglob("*.py")
        if readers.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []
