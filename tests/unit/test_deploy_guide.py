"""docs/deploy.md names every environment variable the settings and gunicorn's
configuration read, in its table, so an operator never meets an undocumented one."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

READERS = [
    REPO / "src" / "siltfence" / "config" / "settings.py",
    REPO / "src" / "siltfence" / "config" / "gunicorn.py",
]
GUIDE = REPO / "docs" / "deploy.md"


def _read_variables() -> set[str]:
    found: set[str] = set()
    for path in READERS:
        found |= set(re.findall(r"os\.environ(?:\.get\(|\[)\"([A-Z_]+)\"", path.read_text()))
    if "dj_database_url.config(" in READERS[0].read_text():
        found.add("DATABASE_URL")  # read by dj-database-url
    return found


def _table_variables() -> set[str]:
    rows = [line for line in GUIDE.read_text().splitlines() if line.startswith("| `")]
    return {name for row in rows for name in re.findall(r"`([A-Z_]+)`", row.split("|")[1])}


def test_the_settings_read_the_variables_this_test_looks_for():
    variables = _read_variables()
    assert {"SECRET_KEY", "DATABASE_URL", "SILTFENCE_AUDIT_KEY", "WEB_CONCURRENCY"} <= variables


def test_every_environment_variable_read_is_in_the_deploy_guides_table():
    missing = _read_variables() - _table_variables()
    assert not missing, f"docs/deploy.md does not document {sorted(missing)}"


def test_the_readme_links_the_deploy_guide_from_running_it_for_real():
    readme = (REPO / "README.md").read_text()
    section = readme[readme.index("## Running it for real") :]
    assert "(docs/deploy.md)" in section.split("\n## ")[0]
