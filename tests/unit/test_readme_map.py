"""The README's map ("Where everything is") names every folder a newcomer would look for:
each app, each part of the core, each shared page helper, and each top-level folder the
repository tracks. A folder added without a line in the map fails here."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SRC = REPO / "src" / "siltfence"


def _map() -> str:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Where everything is", 1)[1]
    return section.split("```", 2)[1]


def _named(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w/.-]){re.escape(name)}(?![\w-])", text) is not None


def _folders(parent: Path) -> list[str]:
    return sorted(
        p.name
        for p in parent.iterdir()
        if p.is_dir() and not p.name.startswith(("_", ".")) and p.name != "migrations"
    )


def test_the_map_names_every_app_and_every_part_of_the_core():
    text = _map()
    missing = [
        f"{where}/{name}"
        for where in ("apps", "core")
        for name in _folders(SRC / where)
        if not _named(text, name)
    ]
    assert not missing, f"not in the README's map: {missing}"


def test_the_map_names_every_shared_page_helper_and_every_top_level_folder():
    text = _map()
    helpers = sorted(p.name for p in (SRC / "presentation").glob("*.py") if p.name[0] != "_")
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split()
    top = sorted({path.split("/")[0] for path in tracked if "/" in path})
    missing = [name for name in [*helpers, *top] if not _named(text, name)]
    assert not missing, f"not in the README's map: {missing}"


def test_the_scanner_sees_a_name_that_is_missing():
    assert _named("  permits              villages", "permits")
    assert not _named("  permits_extra        villages", "permits")
    assert not _named("src/siltfence/apps/    Django", "apps/x")
