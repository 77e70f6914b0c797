"""``siltfence analyze`` as a user runs it: a real subprocess, real files, real exit codes."""

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


def siltfence(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*SILTFENCE, *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "200"},
    )


def test_a_board_sees_what_a_one_acre_trigger_would_change(tmp_path: Path):
    # Spencer § 413-7A(3) today: 4,000 sq ft or more. A draft at one acre drops the 5,000
    # and 30,000 sq ft sites; the 50,000 sq ft site and the road work still need permits.
    projects = tmp_path / "projects.csv"
    projects.write_text(
        "disturbed_area,road_work\n3000,false\n5000,false\n30000,false\n50000,false\n3000,true\n"
    )
    proposal = tmp_path / "draft.yaml"
    proposal.write_text("area_trigger: 1 acre\n")
    run = siltfence(
        "analyze", "amendment", "--jurisdiction", "spencer-wi", "--projects", str(projects),
        "--on", "2026-06-01", "--proposed", str(proposal), "--format", "json",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["permits"] == {"before": 4, "after": 2}
    assert report["drivers"] == [{"rule": "area-trigger", "citation": "§ 413-7A(3)", "projects": 2}]
    text = siltfence(
        "analyze", "amendment", "--jurisdiction", "spencer-wi", "--projects", str(projects),
        "--on", "2026-06-01", "--proposed", str(proposal),
    )  # fmt: skip
    assert "needed -> not needed" in text.stdout
    assert "control plan statement -> none" in text.stdout


def test_a_sample_file_round_trips_through_the_analysis(tmp_path: Path):
    out = tmp_path / "sample.jsonl"
    made = siltfence("analyze", "sample", "--count", "500", "--out", str(out), "--seed", "4")
    assert made.returncode == 0, made.stderr
    assert len(out.read_text().splitlines()) == 500
    run = siltfence(
        "analyze", "amendment", "--jurisdiction", "new-glarus-wi", "--projects", str(out),
        "--on", "2026-06-01", "--against", "2026-06-01", "--format", "json",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["changes"] == []


def test_a_bad_projects_file_exits_2_naming_the_row(tmp_path: Path):
    projects = tmp_path / "projects.csv"
    projects.write_text("disturbed_area\n1 mile^2 ** 100\n")
    proposal = tmp_path / "draft.yaml"
    proposal.write_text("area_trigger: 5000\n")
    run = siltfence(
        "analyze", "amendment", "--jurisdiction", "spencer-wi", "--projects", str(projects),
        "--on", "2026-06-01", "--proposed", str(proposal),
    )  # fmt: skip
    assert run.returncode == 2
    assert run.stderr.startswith("siltfence: row 1, column 'disturbed_area': ")
    assert "Traceback" not in run.stderr


def test_both_or_neither_version_option_is_refused(tmp_path: Path):
    projects = tmp_path / "projects.csv"
    projects.write_text("disturbed_area\n5000\n")
    run = siltfence(
        "analyze", "amendment", "--jurisdiction", "spencer-wi", "--projects", str(projects),
        "--on", "2026-06-01",
    )  # fmt: skip
    assert run.returncode == 2
    assert "--against DATE or --proposed FILE" in run.stderr
