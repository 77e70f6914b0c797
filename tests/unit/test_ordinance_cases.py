"""Every case in ``ordinances/*/cases/*.yaml`` is a test of a determination.

A case names a jurisdiction by its folder, gives facts and a date, and says what the
ordinance text makes of them. The expected values were worked out from the ordinance
texts, not read back from the code. A malformed case file fails collection loudly: an
unknown key, a missing key or a wrong type is never skipped.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from casefiles import MalformedCase, read_cases
from siltfence.core.errors import SiltfenceError
from siltfence.core.ordinance.loader import load
from siltfence.core.rules import determine

REPO = Path(__file__).resolve().parents[2]
CASE_FILES = sorted(REPO.glob("ordinances/*/cases/*.yaml"))

CASE_KEYS = {"name", "on", "facts", "expect"}
LIST_KEYS = ("holds", "not_holds", "requirements", "no_requirements", "notes", "no_notes")
EXPECT_KEYS = {"applies", "plan", "error", *LIST_KEYS}
PLAN_KINDS = {"control_plan", "control_plan_statement", "erosion_and_sediment_control_plan"}


@dataclass(frozen=True)
class Case:
    file: Path
    jurisdiction: str
    name: str
    on: datetime.date
    facts: dict[str, Any]
    expect: dict[str, Any]


def _fail(path: Path, where: str, reason: str) -> MalformedCase:
    return MalformedCase(f"{path.relative_to(REPO)}: {where}: {reason}")


def _read_cases(path: Path) -> list[Case]:
    try:
        data = read_cases(path, dates_as_text=False)
    except (yaml.YAMLError, MalformedCase, ValueError) as exc:
        raise _fail(path, "(file)", f"cannot be read as YAML: {exc}") from None
    if not isinstance(data, list) or not data:
        raise _fail(path, "(file)", "expected a non-empty list of cases")
    jurisdiction = path.parent.parent.name
    cases = []
    for index, item in enumerate(data):
        where = f"[{index}]"
        if not isinstance(item, dict):
            raise _fail(path, where, "a case is a mapping")
        unknown = set(item) - CASE_KEYS
        if unknown:
            raise _fail(path, where, f"unknown keys {sorted(unknown)}")
        missing = CASE_KEYS - set(item)
        if missing:
            raise _fail(path, where, f"missing keys {sorted(missing)}")
        name, on, facts, expect = item["name"], item["on"], item["facts"], item["expect"]
        if not isinstance(name, str) or not name.strip():
            raise _fail(path, f"{where}.name", "a case needs a name (a sentence)")
        where = f"{where} {name!r}"
        if isinstance(on, datetime.datetime) or not isinstance(on, datetime.date):
            raise _fail(path, f"{where}.on", f"expected a date YYYY-MM-DD, got {on!r}")
        if not isinstance(facts, dict):
            raise _fail(path, f"{where}.facts", "expected a mapping of facts")
        _check_expect(path, where, expect)
        cases.append(Case(path, jurisdiction, name, on, facts, expect))
    return cases


def _check_expect(path: Path, where: str, expect: Any) -> None:
    if not isinstance(expect, dict) or not expect:
        raise _fail(path, f"{where}.expect", "expected a non-empty mapping")
    unknown = set(expect) - EXPECT_KEYS
    if unknown:
        raise _fail(path, f"{where}.expect", f"unknown keys {sorted(unknown)}")
    error = expect.get("error")
    if error is not None:
        if not isinstance(error, str) or not error:
            raise _fail(path, f"{where}.expect.error", "expected a substring of the message")
        if set(expect) - {"error"}:
            raise _fail(path, f"{where}.expect", "a case expecting an error checks nothing else")
        return
    if "applies" in expect and not isinstance(expect["applies"], bool):
        raise _fail(path, f"{where}.expect.applies", "expected true or false")
    if "plan" in expect and expect["plan"] is not None and expect["plan"] not in PLAN_KINDS:
        raise _fail(path, f"{where}.expect.plan", f"expected null or one of {sorted(PLAN_KINDS)}")
    for key in LIST_KEYS:
        if key in expect:
            value = expect[key]
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise _fail(path, f"{where}.expect.{key}", "expected a list of ids")


def _all_cases() -> list[Case]:
    cases = [case for path in CASE_FILES for case in _read_cases(path)]
    names: dict[str, Path] = {}
    for case in cases:
        if case.name in names:
            raise _fail(case.file, case.name, f"the same name is used in {names[case.name]}")
        names[case.name] = case.file
    return cases


CASES = _all_cases()


@cache
def _known_requirement_ids() -> frozenset[str]:
    """Requirement ids of every jurisdiction: a typo in ``no_requirements`` would never fail."""
    ids = {"spencer-wi", "new-glarus-wi"}
    return frozenset(r["id"] for j in ids for r in load(j).rules["requirements"])


@cache
def _known_note_ids() -> frozenset[str]:
    """Note ids of every jurisdiction, for the same reason, for ``no_notes``."""
    ids = {"version-stands-in"}
    for jurisdiction in ("spencer-wi", "new-glarus-wi"):
        rules = load(jurisdiction).rules
        ids.update(n["id"] for group in ("notes", "gaps") for n in rules[group])
    return frozenset(ids)


def test_there_are_case_files_for_both_villages() -> None:
    villages = {path.parent.parent.name for path in CASE_FILES}
    assert {"spencer-wi", "new-glarus-wi"} <= villages


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_ordinance_case(case: Case) -> None:
    expect = case.expect
    error = expect.get("error")
    if error is not None:
        with pytest.raises(SiltfenceError) as raised:
            determine(case.jurisdiction, case.facts, case.on)
        assert error in str(raised.value)
        return

    result = determine(case.jurisdiction, case.facts, case.on).to_json()
    findings = {f["id"]: f for f in result["findings"]}
    requirements = {r["id"] for r in result["requirements"]}
    notes = {n["id"] for n in result["notes"]}
    problems = []

    if "applies" in expect and result["applies"] is not expect["applies"]:
        problems.append(f"applies is {result['applies']}, expected {expect['applies']}")
    for fid in expect.get("holds", []):
        if fid not in findings:
            problems.append(f"finding {fid} is missing")
        elif findings[fid]["holds"] is not True:
            problems.append(f"finding {fid} does not hold: {findings[fid]['says']}")
    for fid in expect.get("not_holds", []):
        if fid not in findings:
            problems.append(f"finding {fid} is missing (every finding considered is listed)")
        elif findings[fid]["holds"] is not False:
            problems.append(f"finding {fid} holds: {findings[fid]['says']}")
    if "plan" in expect:
        kind = None if result["plan"] is None else result["plan"]["kind"]
        if kind != expect["plan"]:
            problems.append(f"plan is {kind}, expected {expect['plan']}")
    for rid in expect.get("requirements", []):
        if rid not in requirements:
            problems.append(f"requirement {rid} is missing")
    for rid in expect.get("no_requirements", []):
        if rid not in _known_requirement_ids():
            problems.append(f"no_requirements names {rid}, which no jurisdiction has (a typo?)")
        if rid in requirements:
            problems.append(f"requirement {rid} is present")
    for nid in expect.get("notes", []):
        if nid not in notes:
            problems.append(f"note {nid} is missing")
    for nid in expect.get("no_notes", []):
        if nid not in _known_note_ids() and not nid.startswith("fact-not-used-"):
            problems.append(f"no_notes names {nid}, which no jurisdiction has (a typo?)")
        if nid in notes:
            problems.append(f"note {nid} is present")

    shown = [(f["id"], f["holds"]) for f in result["findings"]]
    context = [f"findings: {shown}", f"requirements: {sorted(requirements)}"]
    assert not problems, "\n".join([*problems, *context, f"notes: {sorted(notes)}"])


def _write(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "spencer-wi" / "cases"
    folder.mkdir(parents=True)
    path = folder / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (
            "- name: x\n  on: 2026-06-01\n  facts: {}\n  expect: {applies: true}\n  extra: 1\n",
            "unknown keys ['extra']",
        ),
        (
            "- name: x\n  on: 2026-06-01\n  facts: {}\n  expect: {applies: true, hold: [a]}\n",
            "unknown keys ['hold']",
        ),
        ("- name: x\n  on: 2026-06-01\n  facts: {}\n", "missing keys ['expect']"),
        ("- name: x\n  on: tomorrow\n  facts: {}\n  expect: {applies: true}\n", "expected a date"),
        (
            "- name: x\n  on: 2026-06-01\n  facts: {}\n  expect: {applies: yes please}\n",
            "expected true or false",
        ),
        (
            "- name: x\n  on: 2026-06-01\n  facts: {}\n  expect: {error: boom, applies: true}\n",
            "checks nothing else",
        ),
        (
            "- name: x\n  on: 2026-06-01\n  facts: {}\n  expect: {applies: true, applies: false}\n",
            "[0].expect.applies: duplicate key (first at line 4, again at line 4)",
        ),
        ("- name: x\n  on: [2026\n", "cannot be read as YAML"),
    ],
)
def test_a_malformed_case_file_fails_loudly_instead_of_being_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, reason: str
) -> None:
    monkeypatch.setattr(f"{__name__}.REPO", tmp_path)
    path = _write(tmp_path, text)
    with pytest.raises(MalformedCase, match=r"bad\.yaml") as raised:
        _read_cases(path)
    assert reason in str(raised.value)
