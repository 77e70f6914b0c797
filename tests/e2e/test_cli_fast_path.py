"""``siltfence determine`` answers through a light path (its options read by hand, no typer)
and every other call through the full command line. The light path must be invisible: for any
arguments, the same output, the same errors and the same exit status as the full command line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.no_suite_database

ENTRY = [sys.executable, "-c", "from siltfence.cli.determine import run; run()"]
FULL = [sys.executable, "-c", "from siltfence.cli.main import run; run()"]


def _run(command: list[str], args: list[str], stdin: str) -> tuple[int, str, str]:
    done = subprocess.run(
        [*command, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": "200"},
    )
    return done.returncode, done.stdout, done.stderr


def _light_path_taken(args: list[str]) -> bool:
    from siltfence.cli.determine import _determination

    return _determination(args) is not None


ARGS = [
    # plain determinations: the light path answers
    ["determine", "--jurisdiction", "spencer-wi", "--facts", "-", "--on", "2026-06-01"],
    ["determine", "--jurisdiction=new-glarus-wi", "--facts=-", "--on=2026-06-01"],
    [
        "determine",
        "--facts",
        "-",
        "--jurisdiction",
        "spencer-wi",
        "--on",
        "2026-06-01",
        "--format",
        "text",
    ],
    # the light path answers, and the core refuses: the same one line and status 2
    ["determine", "--jurisdiction", "nowhere-wi", "--facts", "-", "--on", "2026-06-01"],
    ["determine", "--jurisdiction", "spencer-wi", "--facts", "-", "--on", "2026-02-30"],
    ["determine", "--jurisdiction", "spencer-wi", "--facts", "/no/such/file", "--on", "2026-06-01"],
    # not a plain determination: the full command line reads it
    ["determine", "--jurisdiction", "spencer-wi", "--facts", "-", "--format", "yaml"],
    ["determine", "--jurisdiction", "spencer-wi"],
    ["determine", "--jurisdictio", "spencer-wi", "--facts", "-"],
    ["determine", "--jurisdiction", "spencer-wi", "--facts", "-", "extra"],
    ["determine", "--help"],
    ["determine", "--jurisdiction", "spencer-wi", "--facts", "-", "--on", "-5"],
    ["determine", "--jurisdiction", "spencer-wi", "--facts", "-", "--on"],
    ["determine", "--jurisdiction", "spencer-wi", "--jurisdiction", "spencer-wi", "--facts", "-"],
    ["determine", "--jurisdiction", "spencer-wi", "--facts", "-", "--format=text=json"],
]
LIGHT = [True] * 6 + [False] * 9


@pytest.mark.parametrize(("args", "light"), list(zip(ARGS, LIGHT, strict=True)))
def test_the_light_path_answers_exactly_as_the_full_command_line(
    args: list[str], light: bool
) -> None:
    assert _light_path_taken(args) is light
    stdin = '{"disturbed_area": "0.5 acre"}'
    assert _run(ENTRY, args, stdin) == _run(FULL, args, stdin)


def test_a_determination_does_not_import_the_full_command_line(tmp_path: Path) -> None:
    facts = tmp_path / "facts.json"
    facts.write_text('{"disturbed_area": 5000}')
    probe = (
        "import sys\n"
        "sys.argv = ['siltfence', 'determine', '--jurisdiction', 'spencer-wi', "
        f"'--facts', {str(facts)!r}, '--on', '2026-06-01']\n"
        "from siltfence.cli.determine import run\n"
        "run()\n"
        # Nor what only types, the checks of a chapter or naming its cache need: typing
        # (the core imports it for the type checker only), hashlib, the YAML reader.
        "heavy = ('typer', 'click', 'rich', 'django', 'argparse', 'typing', 'hashlib', 'yaml')\n"
        "heavy = sorted(m for m in heavy if m in sys.modules)\n"
        "sys.stderr.write(repr(heavy))\n"
    )
    env = {**os.environ, "SILTFENCE_CACHE_DIR": str(tmp_path / "cache")}
    # The first run reads and checks the chapter and keeps it; the second is a user's.
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, env=env
        )
    assert done.returncode == 0, done.stderr
    assert '"applies": true' in done.stdout
    assert done.stderr == "[]"
