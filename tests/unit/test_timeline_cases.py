"""Every case in ``ordinances/*/cases/duties/*.yaml`` is a test of the duties engine.

A case gives a permit's events, the time to judge them at and (optionally) the office's
closure days, and says what the ordinance makes of them: the permit's expiry, every duty
with its due date and status, and (optionally) the enforcement steps allowed and from
when. The expected values were worked out by hand from the ordinance texts and the
counting rules, with the arithmetic in a comment beside each case; they are never read
back from the code. A malformed case file fails collection loudly.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from casefiles import MalformedCase, read_cases
from siltfence.core.errors import SiltfenceError
from siltfence.core.timeline import compute, parse_as_of

REPO = Path(__file__).resolve().parents[2]
CASE_FILES = sorted(REPO.glob("ordinances/*/cases/duties/*.yaml"))

CASE_KEYS = {"name", "events", "as_of", "expect"}
OPTIONAL_KEYS = {"office_closures"}
EXPECT_KEYS = {"duties"}
OPTIONAL_EXPECT_KEYS = {"permit_expires", "allowed_actions", "forfeiture_offenses"}
DUTY_KEYS = {"kind", "due", "status"}
ACTION_KEYS = {"action", "from"}
STATUSES = {"open", "met", "overdue"}


@dataclass(frozen=True)
class Case:
    file: Path
    jurisdiction: str
    name: str
    events: list[dict[str, Any]]
    as_of: str
    office_closures: list[str] | None
    expect: dict[str, Any]


def _fail(path: Path, where: str, reason: str) -> MalformedCase:
    return MalformedCase(f"{path.relative_to(REPO)}: {where}: {reason}")


def _is_date(text: Any) -> bool:
    if not isinstance(text, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        return False
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _read_cases(path: Path) -> list[Case]:
    try:
        data = read_cases(path, dates_as_text=True)
    except (yaml.YAMLError, MalformedCase, ValueError) as exc:
        raise _fail(path, "(file)", f"cannot be read as YAML: {exc}") from None
    if not isinstance(data, list) or not data:
        raise _fail(path, "(file)", "expected a non-empty list of cases")
    jurisdiction = path.parent.parent.parent.name
    cases = []
    for index, item in enumerate(data):
        where = f"[{index}]"
        if not isinstance(item, dict):
            raise _fail(path, where, "a case is a mapping")
        unknown = set(item) - CASE_KEYS - OPTIONAL_KEYS
        if unknown:
            raise _fail(path, where, f"unknown keys {sorted(unknown)}")
        missing = CASE_KEYS - set(item)
        if missing:
            raise _fail(path, where, f"missing keys {sorted(missing)}")
        name = item["name"]
        if not isinstance(name, str) or not name.strip():
            raise _fail(path, f"{where}.name", "a case needs a name (a sentence)")
        where = f"{where} {name!r}"
        if not isinstance(item["events"], list):
            raise _fail(path, f"{where}.events", "expected a list of events")
        if not isinstance(item["as_of"], str):
            raise _fail(path, f"{where}.as_of", "expected a date or datetime as text")
        closures = item.get("office_closures")
        if closures is not None and not (
            isinstance(closures, list) and all(_is_date(c) for c in closures)
        ):
            raise _fail(path, f"{where}.office_closures", "expected a list of dates YYYY-MM-DD")
        _check_expect(path, where, item["expect"])
        cases.append(
            Case(path, jurisdiction, name, item["events"], item["as_of"], closures, item["expect"])
        )
    return cases


def _check_expect(path: Path, where: str, expect: Any) -> None:
    if not isinstance(expect, dict):
        raise _fail(path, f"{where}.expect", "expected a mapping")
    if set(expect) == {"error"}:
        if not isinstance(expect["error"], str) or not re.fullmatch(
            r"events\[\d+\]", expect["error"]
        ):
            raise _fail(path, f"{where}.expect.error", "expected the refused event: events[N]")
        return
    if "forfeiture_offenses" in expect and not (
        isinstance(expect["forfeiture_offenses"], int) and expect["forfeiture_offenses"] >= 0
    ):
        raise _fail(path, f"{where}.expect.forfeiture_offenses", "expected a whole number")
    unknown = set(expect) - EXPECT_KEYS - OPTIONAL_EXPECT_KEYS
    if unknown:
        raise _fail(path, f"{where}.expect", f"unknown keys {sorted(unknown)}")
    if "duties" not in expect:
        raise _fail(path, f"{where}.expect.duties", "is required (write [] for no duties)")
    if "permit_expires" in expect and not (
        expect["permit_expires"] is None or _is_date(expect["permit_expires"])
    ):
        raise _fail(path, f"{where}.expect.permit_expires", "expected a date YYYY-MM-DD or null")
    for key, keys in (("duties", DUTY_KEYS), ("allowed_actions", ACTION_KEYS)):
        if key not in expect:
            continue
        items = expect[key]
        if not isinstance(items, list):
            raise _fail(path, f"{where}.expect.{key}", "expected a list")
        for number, entry in enumerate(items):
            at = f"{where}.expect.{key}[{number}]"
            if not isinstance(entry, dict) or set(entry) != keys:
                raise _fail(path, at, f"expected exactly the keys {sorted(keys)}")
            if not all(isinstance(v, str) for v in entry.values()):
                raise _fail(path, at, "expected text values")
            if key == "duties" and entry["status"] not in STATUSES:
                raise _fail(path, at, f"status must be one of {sorted(STATUSES)}")


def _all_cases() -> list[Case]:
    cases = [case for path in CASE_FILES for case in _read_cases(path)]
    names: dict[str, Path] = {}
    for case in cases:
        if case.name in names:
            raise _fail(case.file, case.name, f"the same name is used in {names[case.name]}")
        names[case.name] = case.file
    return cases


CASES = _all_cases()


def test_each_village_has_at_least_ten_duty_cases():
    for village in ("spencer-wi", "new-glarus-wi"):
        assert sum(1 for c in CASES if c.jurisdiction == village) >= 10, village


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_timeline_case(case: Case) -> None:
    from zoneinfo import ZoneInfo

    zone = ZoneInfo("America/Chicago")
    closures = (
        None
        if case.office_closures is None
        else frozenset(datetime.date.fromisoformat(d) for d in case.office_closures)
    )
    expect = case.expect
    if "error" in expect:
        with pytest.raises(SiltfenceError) as refused:
            compute(case.jurisdiction, case.events, parse_as_of(case.as_of, zone), closures)
        assert str(refused.value).startswith(expect["error"]), str(refused.value)
        return
    result = compute(case.jurisdiction, case.events, parse_as_of(case.as_of, zone), closures)
    answer = result.to_json()
    got_duties = [(d["kind"], d["due"], d["status"]) for d in answer["duties"]]
    want_duties = [(d["kind"], d["due"], d["status"]) for d in expect["duties"]]
    problems = []
    if sorted(got_duties) != sorted(want_duties):
        problems.append(f"duties are {got_duties}, expected {want_duties}")
    if "permit_expires" in expect:
        got = None if answer["permit"] is None else answer["permit"]["expires"]
        if got != expect["permit_expires"]:
            problems.append(f"permit expires {got}, expected {expect['permit_expires']}")
    if "allowed_actions" in expect:
        got_actions = sorted((a["action"], a["from"]) for a in answer["allowed_actions"])
        want_actions = sorted((a["action"], a["from"]) for a in expect["allowed_actions"])
        if got_actions != want_actions:
            problems.append(f"allowed actions are {got_actions}, expected {want_actions}")
    if "forfeiture_offenses" in expect:
        fine = answer["forfeiture"]
        got_offenses = 0 if fine is None else fine["offenses"]
        if got_offenses != expect["forfeiture_offenses"]:
            problems.append(
                f"forfeiture offenses {got_offenses}, expected {expect['forfeiture_offenses']}"
            )
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (
            "- name: x\n  events: []\n  as_of: '2026-06-01'\n  expect: {duties: []}\n  on: 1\n",
            "unknown keys ['on']",
        ),
        ("- name: x\n  events: []\n  as_of: '2026-06-01'\n  expect: {}\n", "is required"),
        ("- name: x\n  events: []\n  expect: {duties: []}\n", "missing keys ['as_of']"),
        (
            "- name: x\n  events: []\n  as_of: '2026-06-01'\n"
            "  expect: {duties: [{kind: start_notice, due: '2026-06-01', status: late}]}\n",
            "status must be one of",
        ),
        (
            "- name: x\n  events: []\n  as_of: '2026-06-01'\n  expect: {duties: [], duties: []}\n",
            "[0].expect.duties: duplicate key (first at line 4, again at line 4)",
        ),
        (
            "- name: x\n  events: []\n  as_of: '2026-06-01'\n  office_closures: [soon]\n"
            "  expect: {duties: []}\n",
            "expected a list of dates",
        ),
        ("- name: x\n  events: [\n", "cannot be read as YAML"),
    ],
)
def test_a_malformed_duty_case_file_fails_loudly_instead_of_being_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, reason: str
) -> None:
    monkeypatch.setattr(f"{__name__}.REPO", tmp_path)
    folder = tmp_path / "spencer-wi" / "cases" / "duties"
    folder.mkdir(parents=True)
    path = folder / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MalformedCase, match=r"bad\.yaml") as raised:
        _read_cases(path)
    assert reason in str(raised.value)
