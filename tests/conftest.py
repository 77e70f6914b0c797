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
