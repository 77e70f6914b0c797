"""Shared test set-up.

Under CI=true a suite that cannot run fails instead of skipping (DESIGN.md): the
PostgreSQL suite needs its server, and the browser suite needs Chromium.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
IN_CI = os.environ.get("CI") == "true"

# Keep the compiled-ordinance cache of the test run away from the user's own.
os.environ.setdefault("SILTFENCE_CACHE_DIR", str(REPO / ".pytest_cache" / "siltfence"))
# The home page opens on Spencer in the tests, as in the demo (`make run`).
os.environ.setdefault("SILTFENCE_DEFAULT_JURISDICTION", "spencer-wi")


def pytest_configure(config):
    # Real password hashing costs half a second a user on these machines; the tests of
    # login and throttling do not depend on the hash's strength.
    from django.conf import settings

    if settings.configured:
        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
        # The sessions' shared cache (files, decision 45) of this test process alone, not the
        # data folder's: another run's sessions and answers must not be found here.
        import atexit
        import shutil
        import tempfile

        folder = tempfile.mkdtemp(prefix="siltfence-test-sessions-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        settings.CACHES[settings.SESSION_CACHE_ALIAS]["LOCATION"] = folder


@pytest.fixture(autouse=True)
def _an_empty_cache():
    """Each test starts with nothing kept in the process's cache (the public register's
    pages, the complaint counts), nor in the sessions' shared cache: a page or a session
    kept by one test would outlive its rolled-back database."""
    from django.core.cache import caches

    for kept in caches.all():
        kept.clear()


@pytest.fixture(autouse=True)
def _force_login_passes_the_code_step(monkeypatch):
    """In a test, ``client.force_login(user)`` stands for a whole sign-in: for a village
    official (who must type a code after the password) the session has also passed the code
    step, with an authenticator made for the user. The tests of the sign-in itself override
    this fixture to get a password-only session."""
    from django.test import Client

    signed_in = Client.force_login

    def force_login(self, user, backend=None):
        signed_in(self, user, backend)
        from signing_in import pass_code_step
        from siltfence.apps.accounts.second_factor import second_factor_required

        # A fresh copy: asking caches the user's roles on the object, which the test may
        # still give new memberships.
        if second_factor_required(type(user).objects.get(pk=user.pk)):
            pass_code_step(self, user)

    monkeypatch.setattr(Client, "force_login", force_login)
