"""A chapter under another number, name and id gets the same answers, in its own numbers.

Why this test exists. A third municipality must need a data folder, not code. The scale
generator's municipalities all keep Spencer's or New Glarus's section numbers, so a rule
that matched "413-" or "135-" somewhere in the code would pass with them. Here each
village's folder is copied with its chapter renumbered (Spencer's Ch. 413 as Ch. 952 of the
"Village of Otherton", New Glarus's Ch. 135 as Ch. 718 of the "Village of Far Meadow"),
every file alike: the text, the section map, the parameters, the rules. The copy is no
ordinance of anywhere; it is the same law under other numbers. Then every worked case
the villages have (determinations, duties and design checks) is answered for the original
and for the copy. The copy's answer must be the original's with the numbers, the name and
the id replaced, word for word: a section the code chose by its number would show up as a
difference, or as an error.

The cases themselves are checked against the ordinance elsewhere
(``test_ordinance_cases.py``, ``test_timeline_cases.py``, the design tests); this test
holds only that nothing in the answers comes from anywhere but the folder.
"""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from casefiles import read_cases
from renumbered import COPIES, ORDINANCES, as_text, renamed, write_root
from siltfence.core.engineering.report import review_plan
from siltfence.core.ordinance.loader import load
from siltfence.core.rules import determine
from siltfence.core.timeline import compute, parse_as_of


def _cites_its_own_chapter(answer: Any, village: str) -> bool:
    chapter = renamed(f"§ {load(village).chapter}-", village)
    return chapter in as_text(answer)


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """An ordinances folder with both villages and their renumbered copies."""
    root = write_root(tmp_path_factory.mktemp("ordinances"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SILTFENCE_ORDINANCES", str(root))
        patch.setenv("SILTFENCE_CACHE_DIR", str(root.parent / "cache"))
        load.cache_clear()
        yield root
    load.cache_clear()


def _cases(village: str, folder: str) -> list[dict[str, Any]]:
    found = []
    for path in sorted((ORDINANCES / village / "cases" / folder).glob("*.yaml")):
        found += read_cases(path, dates_as_text=folder == "duties")
    return found


def _answer_or_error(compute_it: Any) -> Any:
    try:
        return compute_it()
    except Exception as exc:  # the same refusal, renumbered, is the same answer
        return {"refused": type(exc).__name__, "says": str(exc)}


@pytest.mark.parametrize("village", sorted(COPIES))
def test_every_determination_case_is_answered_the_same_under_other_numbers(root, village):
    copy = COPIES[village][0]
    cases = _cases(village, "")
    assert len(cases) >= 20, "the villages' determination cases should all be read"
    cited = 0
    for case in cases:
        original = _answer_or_error(
            lambda c=case: determine(village, c["facts"], c["on"]).to_json()
        )
        answer = _answer_or_error(lambda c=case: determine(copy, c["facts"], c["on"]).to_json())
        assert as_text(answer) == renamed(as_text(original), village), case["name"]
        cited += _cites_its_own_chapter(answer, village)
    assert cited > len(cases) // 2, "most answers cite a section of the copy's chapter"


@pytest.mark.parametrize("village", sorted(COPIES))
def test_every_duty_case_is_answered_the_same_under_other_numbers(root, village):
    copy = COPIES[village][0]
    cases = _cases(village, "duties")
    assert len(cases) >= 10
    zone = ZoneInfo(load(village).time_zone)
    for case in cases:
        days = case.get("office_closures")
        closures = None if days is None else frozenset(map(datetime.date.fromisoformat, days))

        def duties(jurisdiction: str, c: dict[str, Any] = case, shut: Any = closures) -> Any:
            as_of = parse_as_of(c["as_of"], zone)
            return compute(jurisdiction, c["events"], as_of, shut).to_json()

        original = _answer_or_error(lambda: duties(village))
        answer = _answer_or_error(lambda: duties(copy))
        # A case the law refuses (an expired permit extended) is refused the same way.
        assert ("refused" in original) == ("error" in case["expect"]), (case["name"], original)
        assert as_text(answer) == renamed(as_text(original), village), case["name"]
        assert _cites_its_own_chapter(answer, village), case["name"]


@pytest.mark.parametrize("village", sorted(COPIES))
def test_every_design_case_is_answered_the_same_under_other_numbers(root, village):
    plans = sorted((ORDINANCES / village / "cases" / "design").glob("*.json"))
    assert plans
    cited = 0
    for path in plans:
        plan = json.loads(path.read_text(encoding="utf-8"))
        assert plan["jurisdiction"] == village
        original = _answer_or_error(lambda p=plan: review_plan(p).to_dict())
        answer = _answer_or_error(
            lambda p=plan: review_plan({**p, "jurisdiction": COPIES[village][0]}).to_dict()
        )
        assert as_text(answer) == renamed(as_text(original), village), path.name
        cited += _cites_its_own_chapter(answer, village)
    assert cited == len(plans), "every design report cites a section of the copy's chapter"


def test_the_command_line_answers_for_the_renumbered_chapter(root):
    """The installed command reads the copy like any village: its sections, its words."""
    env = {**os.environ, "SILTFENCE_ORDINANCES": str(root)}
    command = [str(Path(sys.executable).with_name("siltfence"))]
    asked = ["determine", "--jurisdiction", "otherton-wi", "--on", "2026-06-01", "--facts", "-"]
    done = subprocess.run(
        [*command, *asked],
        input='{"disturbed_area": "5000 sq ft"}',
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["applies"] is True
    area = next(f for f in answer["findings"] if f["id"] == "area-trigger")
    assert area["holds"] is True and area["citation"] == "§ 952-7A(3)"
    listed = subprocess.run(
        [*command, "ordinances", "list"], capture_output=True, text=True, env=env, check=False
    )
    assert "Village of Otherton" in listed.stdout and "Village of Far Meadow" in listed.stdout
