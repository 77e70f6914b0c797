"""No state's legal holidays or counting rule in the code: a village in another state needs
a state folder, not code.

Why this test exists. Wisconsin's legal holidays (§ 995.20 Wis. Stats.) and its rule for
counting time (§ 990.001(4) Wis. Stats.) were once a class in ``src/`` with the holidays
written out, and the counting rules were classes named by id. Now they are data, in
``ordinances/_states/<state>/`` (and a village's own rule in its ``jurisdiction.yaml``).
Once one of them is written back into ``src/``, the code answers for Wisconsin and is
quietly wrong for the next state.

What it reads: every text file under ``src/`` (code, comments and docstrings alike, and
templates). What it looks for, read from the data when the test runs: the section numbers
the state folders cite (995.20, 990.001, ...), the names of their holidays, and the ids of
the holiday lists and counting rules (the states' and the villages' own).
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
SRC = REPO / "src"
ORDINANCES = REPO / "ordinances"
STATES = ORDINANCES / "_states"
TEXT = (".py", ".html", ".txt", ".js", ".css", ".md")
SECTION = re.compile(r"§§?\s*(\d+\.\d+)")


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


def state_law_facts() -> dict[str, re.Pattern[str]]:
    """Each fact of the state folders (and the villages' own counting rules) that must not
    be in the code, with the pattern that finds it."""
    facts: dict[str, re.Pattern[str]] = {}

    def word(text: str) -> None:
        facts[text] = re.compile(rf"(?<![\w-]){re.escape(text)}(?![\w-])")

    for folder in sorted(p for p in STATES.iterdir() if (p / "state.yaml").is_file()):
        holidays = yaml.safe_load((folder / "holidays.yaml").read_text(encoding="utf-8"))
        counting = yaml.safe_load((folder / "counting.yaml").read_text(encoding="utf-8"))
        for text in _strings(holidays) + _strings(counting):
            for number in SECTION.findall(text):
                facts[number] = re.compile(rf"(?<![\d.]){re.escape(number)}(?!\d)")
        word(holidays["id"])
        for holiday in holidays["holidays"]:
            word(holiday["name"])
        for rule in counting:
            word(rule["id"])
    for folder in sorted(p for p in ORDINANCES.iterdir() if (p / "jurisdiction.yaml").is_file()):
        data = yaml.safe_load((folder / "jurisdiction.yaml").read_text(encoding="utf-8"))
        for rule in data.get("counting_rules", []):
            word(rule["id"])
    return facts


def findings(root: Path, facts: dict[str, re.Pattern[str]]) -> list[str]:
    found = []
    for path in sorted(root.rglob("*")):
        if not path.is_file() or path.suffix not in TEXT or "__pycache__" in path.parts:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for fact, pattern in facts.items():
                if pattern.search(line):
                    found.append(f"{path.relative_to(root.parent)}:{number}: {fact!r}")
    return found


def test_the_facts_looked_for_include_wisconsins_sections_and_holidays():
    facts = state_law_facts()
    for fact in ("995.20", "990.001", "Thanksgiving Day", "Memorial Day", "Juneteenth"):
        assert fact in facts
    assert "wisconsin-legal-holidays" in facts and "wis-stats-990-001-4" in facts
    assert "weekends-and-holidays-excluded" in facts  # New Glarus's own rule


def test_no_state_law_of_the_state_folders_is_written_in_the_code():
    found = findings(SRC, state_law_facts())
    assert not found, (
        "A state's holidays and counting rules belong in ordinances/_states/<state>/ (and a "
        "village's own rule in its jurisdiction.yaml), read through the loader, not in code "
        "or its comments:\n" + "\n".join(found)
    )


def test_the_scan_finds_a_section_number_a_holiday_or_an_id_anywhere_in_a_file(tmp_path):
    (tmp_path / "rule.py").write_text(
        '"""Counted under § 990.001(4)."""\n'
        "# the 4th Thursday: Thanksgiving Day\n"
        'RULE = "wis-stats-990-001-4"\n'
        "SCALE = 1990.0015  # not a section\n",
        encoding="utf-8",
    )
    found = findings(tmp_path, state_law_facts())
    assert [f.split(":")[1] for f in found] == ["1", "2", "3"]
