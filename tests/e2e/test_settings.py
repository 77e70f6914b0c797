"""Production settings refuse to start half-configured, and pass Django's deploy check."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    # The browser tests set DJANGO_ALLOW_ASYNC_UNSAFE in this process; a deployment would not.
    unset = ("SECRET_KEY", "ALLOWED_HOSTS", "DJANGO_ALLOW_ASYNC_UNSAFE")
    clean = {k: v for k, v in os.environ.items() if k not in unset}
    return subprocess.run(
        [sys.executable, "-m", "siltfence.manage", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**clean, **env},
    )


def test_production_refuses_to_start_without_a_secret_key(tmp_path):
    run = manage(
        "check", SILTFENCE_ENV="production", ALLOWED_HOSTS="x.org", SILTFENCE_DATA_DIR=str(tmp_path)
    )
    assert run.returncode != 0
    assert "SECRET_KEY must be set" in run.stderr


def test_production_refuses_to_start_without_allowed_hosts(tmp_path):
    run = manage(
        "check",
        SILTFENCE_ENV="production",
        SECRET_KEY=secrets.token_urlsafe(50),
        SILTFENCE_DATA_DIR=str(tmp_path),
    )
    assert run.returncode != 0
    assert "ALLOWED_HOSTS must be set" in run.stderr


def test_production_settings_pass_the_deploy_check(tmp_path):
    run = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        SILTFENCE_ENV="production",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="permits.example.org",
        SILTFENCE_DATA_DIR=str(tmp_path),
    )
    assert run.returncode == 0, run.stderr
