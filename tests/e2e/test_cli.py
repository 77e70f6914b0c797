"""The CLI as a user runs it: a real subprocess, real files, real exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Runs on its own SQLite file or on no database: the PostgreSQL pass leaves it out.
pytestmark = pytest.mark.no_suite_database

SILTFENCE = [sys.executable, "-c", "from siltfence.cli.determine import run; run()"]


def siltfence(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*SILTFENCE, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": "200"},
    )


def test_a_spencer_site_of_5000_sq_ft_needs_a_permit_with_a_plan_statement():
    run = siltfence(
        "determine",
        "--jurisdiction",
        "spencer-wi",
        "--on",
        "2026-11-30",
        "--facts",
        "-",
        stdin='{"disturbed_area": 5000}',
    )
    assert run.returncode == 0, run.stderr
    answer = json.loads(run.stdout)
    assert answer["applies"] is True
    assert answer["plan"]["kind"] == "control_plan_statement"
    assert answer["plan"]["citation"] == "§ 413-8C"
    area = next(f for f in answer["findings"] if f["id"] == "area-trigger")
    assert area == {
        "id": "area-trigger",
        "holds": True,
        "citation": "§ 413-7A(3)",
        "says": "5,000 sq ft disturbed is 4,000 sq ft or more",
        "kind": "trigger",
    }


def test_facts_can_come_from_a_file_and_the_answer_as_text(tmp_path: Path):
    facts = tmp_path / "facts.json"
    facts.write_text('{"excavation_fill_volume": "401 yd^3"}')
    run = siltfence(
        "determine",
        "--jurisdiction",
        "new-glarus-wi",
        "--on",
        "2026-06-01",
        "--facts",
        str(facts),
        "--format",
        "text",
    )
    assert run.returncode == 0, run.stderr
    assert "YES: the chapter applies" in run.stdout
    assert "401 cu yd of excavation and fill is more than 400 cu yd" in run.stdout
    assert "§ 135-4A(1)(b)" in run.stdout


def test_a_unit_that_does_not_fit_exits_2_with_one_line_naming_the_fact():
    run = siltfence(
        "determine",
        "--jurisdiction",
        "spencer-wi",
        "--facts",
        "-",
        stdin='{"disturbed_area": "5 kg"}',
    )
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.count("\n") == 1
    assert "disturbed_area" in run.stderr


def test_bad_input_of_every_kind_exits_2_with_one_line():
    cases = [
        (["--jurisdiction", "nowhere-wi", "--facts", "-"], "{}", "jurisdiction"),
        (["--jurisdiction", "spencer-wi", "--facts", "-"], "{not json", "facts"),
        (["--jurisdiction", "spencer-wi", "--facts", "-"], '{"acreage": 3}', "acreage"),
        (["--jurisdiction", "spencer-wi", "--facts", "-"], '{"road_work": "yes"}', "road_work"),
        (["--jurisdiction", "spencer-wi", "--on", "2026-02-30", "--facts", "-"], "{}", "on"),
        (["--jurisdiction", "spencer-wi", "--on", "1993-10-03", "--facts", "-"], "{}", "adopted"),
        (["--jurisdiction", "spencer-wi", "--facts", "/nonexistent/facts.json"], None, "facts"),
        (["--facts", "-"], "{}", "--jurisdiction"),
    ]
    for args, stdin, named in cases:
        run = siltfence("determine", *args, stdin=stdin)
        assert run.returncode == 2, (args, run.stderr)
        assert run.stderr.count("\n") == 1, (args, run.stderr)
        assert named in run.stderr, (args, run.stderr)
        assert "Traceback" not in run.stderr


def test_ordinances_list_names_both_villages():
    run = siltfence("ordinances", "list", "--format", "json")
    assert run.returncode == 0, run.stderr
    listed = {j["id"]: j for j in json.loads(run.stdout)}
    assert listed["spencer-wi"]["authority"] == "Building Inspector"
    assert listed["new-glarus-wi"]["authority"] == "Village Administrator"
    assert listed["new-glarus-wi"]["county"] == "Green County"


def test_ordinances_show_prints_a_sections_verbatim_words():
    run = siltfence("ordinances", "show", "new-glarus-wi", "--section", "135-7")
    assert run.returncode == 0, run.stderr
    assert "Within 30 business days of the receipt of a complete permit application" in run.stdout


def test_ordinances_diff_sets_the_two_review_clocks_side_by_side():
    run = siltfence("ordinances", "diff", "spencer-wi", "new-glarus-wi", "--format", "json")
    assert run.returncode == 0, run.stderr
    topics = {t["topic"]: t for t in json.loads(run.stdout)["topics"]}
    review = topics["Review period"]
    assert review["spencer-wi"][0]["citation"] == "§ 413-8D"
    assert "45 days" in review["spencer-wi"][0]["says"]
    assert review["new-glarus-wi"][0]["citation"] == "§ 135-7C(1)"
    assert "30 days" in review["new-glarus-wi"][0]["says"]
    assert topics["Administering authority"]["same"] is False


def test_ordinances_diff_as_text_prints_a_table():
    run = siltfence("ordinances", "diff", "spencer-wi", "new-glarus-wi")
    assert run.returncode == 0, run.stderr
    assert "Building Inspector" in run.stdout and "Village Administrator" in run.stdout
