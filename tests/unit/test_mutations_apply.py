"""Each deliberate breakage in ``tests/mutations.py`` still finds the line it breaks: its
``old`` text occurs exactly once in its file, and the tests it names (files or folders)
exist. A move or an edit of the code that leaves a breakage pointing at nothing fails here,
in ``make test``, instead of the day someone runs the breakages."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TESTS))

import mutations  # noqa: E402


@pytest.mark.parametrize(
    ("number", "mutation"),
    list(enumerate(mutations.MUTATIONS, start=1)),
    ids=lambda value: str(value) if isinstance(value, int) else "",
)
def test_each_breakage_finds_its_line_once(number: int, mutation: mutations.Mutation) -> None:
    text = (mutations.ROOT / mutation.path).read_text(encoding="utf-8")
    assert text.count(mutation.old) == 1, f"mutation {number}: {mutation.what}"
    assert mutation.old != mutation.new
    for test in mutation.tests:
        assert (mutations.ROOT / test.split("::")[0]).exists(), test
