"""Every example plan in ``ordinances/*/cases/design/`` has its expected review in the
folder's ``expected.yaml``, as the other case files have theirs: the result of each check
the review reports, worked out from the text, not read back from the code.

A plan with no expectation, an expectation for a plan that is not there, or a malformed
entry (an unknown key, a result that is not one of the four) fails collection loudly.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from casefiles import MalformedCase, read_cases
from siltfence.core.engineering.report import review_plan

REPO = Path(__file__).resolve().parents[3]
FOLDERS = sorted(REPO.glob("ordinances/*/cases/design"))
RESULTS = {"pass", "fail", "needs-action", "info"}
ENTRY_KEYS = {"plan", "checks", "doubts"}
CHECK_KEYS = {"check", "about", "result", "why"}
# The element a check is about, as its first step names it: "Basin B-1 (plan.site.features[2])".
ELEMENT = re.compile(r"^(?P<name>.+?) \(plan[.\w\[\]]*\)$")


@dataclass(frozen=True)
class DesignCase:
    plan: Path
    checks: list[dict[str, Any]]


def _fail(path: Path, where: str, reason: str) -> MalformedCase:
    return MalformedCase(f"{path.relative_to(REPO)}: {where}: {reason}")


def _cases(folder: Path) -> list[DesignCase]:
    path = folder / "expected.yaml"
    if not path.is_file():
        raise _fail(path, "(file)", "every design folder needs its expected results")
    data = read_cases(path, dates_as_text=True)
    if not isinstance(data, list) or not data:
        raise _fail(path, "(file)", "expected a non-empty list of plans")
    cases = []
    for index, entry in enumerate(data):
        where = f"[{index}]"
        if not isinstance(entry, dict) or set(entry) - ENTRY_KEYS or "plan" not in entry:
            raise _fail(path, where, f"an entry is a mapping of {sorted(ENTRY_KEYS)}")
        plan = folder / str(entry["plan"])
        if not plan.is_file():
            raise _fail(path, f"{where}.plan", f"no plan {entry['plan']!r} in the folder")
        checks = entry.get("checks")
        if not isinstance(checks, list) or not checks:
            raise _fail(path, f"{where}.checks", "expected a non-empty list of checks")
        for number, check in enumerate(checks):
            here = f"{where}.checks[{number}]"
            if not isinstance(check, dict) or set(check) - CHECK_KEYS:
                raise _fail(path, here, f"a check is a mapping of {sorted(CHECK_KEYS)}")
            if check.get("result") not in RESULTS:
                raise _fail(path, f"{here}.result", f"one of {sorted(RESULTS)}")
            if not str(check.get("why", "")).strip():
                raise _fail(path, f"{here}.why", "say why, with the figures and the section")
        cases.append(DesignCase(plan, checks))
    planned = Counter(case.plan.name for case in cases)
    drawn = {plan.name for plan in folder.glob("*.json")}
    if missing := sorted(drawn - set(planned)):
        raise _fail(path, "(file)", f"plans with no expected results: {missing}")
    if twice := sorted(name for name, n in planned.items() if n > 1):
        raise _fail(path, "(file)", f"plans expected twice: {twice}")
    return cases


CASES = [case for folder in FOLDERS for case in _cases(folder)]


def _about(check: dict[str, Any]) -> str | None:
    """The name of the plan's element a reported check is about, or None for the site."""
    first = check["steps"][0] if check["steps"] else {}
    if first.get("label") != "plan element":
        return None
    found = ELEMENT.match(first.get("text") or "")
    return found["name"] if found else None


def _reported(check: dict[str, Any], expected: dict[str, Any]) -> tuple[str, str | None, str]:
    about = _about(check) if "about" in expected else None
    return check["id"], about, check["result"]


def test_every_design_folder_has_its_expected_results():
    assert len(FOLDERS) == 2
    assert {case.plan.parent.parent.parent.name for case in CASES} == {
        "spencer-wi",
        "new-glarus-wi",
    }


@pytest.mark.parametrize(
    "case", CASES, ids=lambda c: f"{c.plan.parent.parent.parent.name}/{c.plan.stem}"
)
def test_the_review_of_each_example_plan_is_as_worked_out(case: DesignCase):
    answer = review_plan(json.loads(case.plan.read_text(encoding="utf-8"))).to_dict()
    expected = Counter((c["check"], c.get("about"), c["result"]) for c in case.checks)
    # Each expected check is matched to a reported one of the same id; its element is
    # compared only where the expectation names one.
    by_id = {c["check"]: c for c in case.checks}
    reported = Counter(_reported(check, by_id.get(check["id"], {})) for check in answer["checks"])
    assert reported == expected
    # The summary counts the same results.
    results = Counter(c["result"] for c in case.checks)
    assert {k: answer["summary"][k] for k in RESULTS} == {k: results[k] for k in RESULTS}
