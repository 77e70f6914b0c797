"""SILTFENCE_BENCH=1 (the web benchmark's baseline page) is refused by a production server
that is not serving plain http on this computer only."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

import pytest

# Runs on its own SQLite file or on no database: the PostgreSQL pass leaves it out.
pytestmark = pytest.mark.no_suite_database


def _check(tmp_path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in ("SECRET_KEY", "ALLOWED_HOSTS", "DJANGO_ALLOW_ASYNC_UNSAFE", "DATABASE_URL")
    }
    production = {
        "SILTFENCE_ENV": "production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "SILTFENCE_SECOND_FACTOR_KEY": secrets.token_urlsafe(48),
        "SILTFENCE_AUDIT_KEY": secrets.token_urlsafe(48),
        "EMAIL_HOST": "smtp.example.org",
        "SILTFENCE_DATA_DIR": str(tmp_path),
        "SILTFENCE_BENCH": "1",
    }
    return subprocess.run(
        [sys.executable, "-m", "siltfence.manage", "check"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**clean, **production, **env},
    )


def test_a_public_production_server_refuses_the_benchmark_page(tmp_path):
    run = _check(tmp_path, ALLOWED_HOSTS="permits.example.org")
    assert run.returncode != 0
    assert "SILTFENCE_BENCH=1 is for benchmarks on this computer" in run.stderr


def test_production_over_plain_http_on_this_computer_allows_it(tmp_path):
    run = _check(tmp_path, ALLOWED_HOSTS="127.0.0.1", SILTFENCE_LOCAL_HTTP="true")
    assert run.returncode == 0, run.stderr
