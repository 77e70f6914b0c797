"""Shared test set-up.

Under CI=true a suite that cannot run fails instead of skipping (DESIGN.md): the
PostgreSQL suite needs its server, and the browser suite needs Chromium.
"""

from __future__ import annotations

import os
from pathlib import Path

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
