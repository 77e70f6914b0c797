"""A unit cache left behind by another install cannot break siltfence.

pint's ``cache_folder=":auto:"`` keeps parsed definitions in the user's ``~/.cache/pint``,
shared by every install, keyed by the content of the definition files. A cache written by
a copy that has since been deleted makes any registry built on it raise
``FileNotFoundError`` (it follows the deleted copy's ``@import`` paths). siltfence keeps no
such cache: these tests build the broken caches for real, in a throw-away home, and run
siltfence there in a fresh process.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pint
import pytest

PINT_FILES = Path(pint.__file__).parent
FT = 0.3048

# Reads units outside the old fast path, converts a pint Quantity through the registry,
# and runs a determination; prints the numbers as JSON.
PROBE = """
import json
from siltfence.core.engineering.units import registry, to_float
from siltfence.core.quantities import to_unit
from siltfence.core.rules import determine
import datetime
quantity = registry().Quantity(2, "rod")
print(json.dumps({
    "rod_ft": to_float(quantity, "ft", field="x"),
    "ha_ft2": to_unit("1 ha", "ft**2"),
    "degc_degf": to_float("10 degC", "degF", field="t", minimum=None),
    "applies": determine("spencer-wi", {"disturbed_area": "0.1 ha"},
                         datetime.date(2026, 6, 1)).to_json()["applies"],
}))
"""


def _home_with(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A throw-away home (and XDG cache) for a fresh process."""
    home = tmp_path / "home"
    home.mkdir()
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "SILTFENCE_CACHE_DIR": str(tmp_path / "siltfence-cache"),
    }
    return home, env


def _stale_cache(tmp_path: Path, env: dict[str, str]) -> Path:
    """A pint cache written from a copy of pint's definitions that is then deleted."""
    copy = tmp_path / "other-checkout"
    copy.mkdir()
    for name in ("default_en.txt", "constants_en.txt"):
        shutil.copy(PINT_FILES / name, copy / name)
    definitions = str(copy / "default_en.txt")
    build = (
        f"import pint; r = pint.UnitRegistry(filename={definitions!r}, cache_folder=':auto:'); "
        "print(r.cache_folder)"
    )
    folder = subprocess.run(
        [sys.executable, "-c", build], env=env, capture_output=True, text=True, check=True
    ).stdout.strip()
    shutil.rmtree(copy)
    return Path(folder)


def _probe(env: dict[str, str]) -> dict[str, object]:
    run = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def _assert_right(answer: dict[str, object]) -> None:
    assert answer["rod_ft"] == pytest.approx(33.0, rel=1e-5)  # a rod is 16.5 (survey) ft
    assert answer["ha_ft2"] == pytest.approx(10_000 / FT**2, rel=1e-12)
    assert answer["degc_degf"] == pytest.approx(50.0)
    assert answer["applies"] is True  # 0.1 ha = 10,764 sq ft >= 4,000 (§ 413-7A(3))


def test_the_stale_cache_really_breaks_a_registry_that_reads_it(tmp_path):
    _home, env = _home_with(tmp_path)
    _stale_cache(tmp_path, env)
    crash = subprocess.run(
        [sys.executable, "-c", "import pint; pint.UnitRegistry(cache_folder=':auto:')"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert crash.returncode != 0 and "FileNotFoundError" in crash.stderr


def test_a_cache_built_from_a_since_deleted_copy_is_never_read(tmp_path):
    _home, env = _home_with(tmp_path)
    folder = _stale_cache(tmp_path, env)
    before = sorted(p.name for p in folder.iterdir())
    _assert_right(_probe(env))
    assert sorted(p.name for p in folder.iterdir()) == before  # nothing written there either


def test_a_truncated_or_garbage_cache_is_never_read(tmp_path):
    _home, env = _home_with(tmp_path)
    folder = _stale_cache(tmp_path, env)
    for index, entry in enumerate(sorted(folder.iterdir())):
        entry.write_bytes(b"" if index % 2 else b"\x80\x04garbage")
    _assert_right(_probe(env))


def test_a_plain_file_where_the_cache_folder_should_be_changes_nothing(tmp_path):
    home, env = _home_with(tmp_path)
    (home / ".cache").mkdir()
    (home / ".cache" / "pint").write_text("not a folder")
    _assert_right(_probe(env))
