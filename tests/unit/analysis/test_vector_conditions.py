"""Each test of a choice or a yes/no fact over many projects, against the same test made
project by project in plain Python: every set of choices, with "not given" among the
rows, in and not in."""

from __future__ import annotations

import datetime
import itertools

import numpy as np
import pytest

from siltfence.core.analysis.vector import Columns, _Compiler, code_of
from siltfence.core.facts import FACTS
from siltfence.core.ordinance.loader import load

ON = datetime.date(2026, 6, 1)
CHOICE_FACTS = [key for key, spec in FACTS.items() if spec.kind == "choice"]


def _subsets(choices):
    for size in range(0, len(choices) + 1):
        yield from itertools.combinations(choices, size)


@pytest.mark.parametrize("key", CHOICE_FACTS)
def test_in_and_not_in_match_the_plain_test_for_every_set_of_choices(key):
    choices = FACTS[key].choices
    # Every code twice and "not given" (-1), in an order that is not sorted.
    codes = [-1, *range(len(choices))] * 2
    codes = codes[1::2] + codes[::2]
    value = np.array(codes, dtype=np.int8)
    columns = Columns(n=len(codes), values={key: value}, given={key: value >= 0})
    compiler = _Compiler(load("spencer-wi"), columns, ON, {})
    for chosen in _subsets(choices):
        for op in ("in", "not_in"):
            got = compiler({"fact": key, op: list(chosen)})
            wanted = {choices.index(c) for c in chosen}
            expected = [(code in wanted) == (op == "in") for code in codes]
            assert got.tolist() == expected, (key, op, chosen)
    # A choice the fact does not have matches only the rows not given (code -1), as
    # ``code_of`` reads it.
    assert code_of(key, "no such choice") == -1
    got = compiler({"fact": key, "in": ["no such choice", choices[-1]]})
    assert got.tolist() == [code in (-1, len(choices) - 1) for code in codes]


@pytest.mark.parametrize("target", [True, False])
def test_a_yes_no_test_is_the_column_or_its_negation_and_leaves_the_column_writable(target):
    value = np.array([True, False, False, True, True])
    columns = Columns(n=5, values={"road_work": value}, given={"road_work": np.ones(5, bool)})
    got = _Compiler(load("spencer-wi"), columns, ON, {})({"fact": "road_work", "is": target})
    assert got.tolist() == [v == target for v in [True, False, False, True, True]]
    assert not got.flags.writeable  # the result is shared between versions: locked
    assert value.flags.writeable  # the caller's column is not
