"""`siltfence rain outlook` on the real Milwaukee record, in a subprocess, with its exit
codes. The figures are worked out by hand in tests/unit/rain/test_outlook_milwaukee.py
(April 15 to October 15 over 1991-2020: median 17, 10th percentile 12.9, 90th 22.3)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Runs on its own SQLite file or on no database: the PostgreSQL pass leaves it out.
pytestmark = pytest.mark.no_suite_database

REPO = Path(__file__).resolve().parents[2]
MILWAUKEE = REPO / ".." / "shared" / "data" / "rain" / "GHCN_USW00014839.csv"
SILTFENCE = [sys.executable, "-c", "from siltfence.cli.determine import run; run()"]


def outlook(*extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            *SILTFENCE,
            "rain",
            "outlook",
            "--file",
            str(MILWAUKEE),
            "--station",
            "USW00014839",
            *extra,
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": "200"},
    )


def test_the_outlook_of_a_spencer_season_prints_the_median_and_percentiles_as_json():
    done = outlook("--jurisdiction", "spencer-wi", "--from", "2027-04-15", "--to", "2027-10-15")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    rains = report["qualifying_rains"]
    assert (rains["median"], rains["p10"], rains["p90"]) == (17.0, 12.9, 22.3)
    assert report["station"]["id"] == "USW00014839"
    assert report["rule"]["citation"] == "§ 413-8E(3)(g)"


def test_the_text_outlook_reads_as_sentences():
    done = outlook(
        "--jurisdiction", "spencer-wi", "--from", "2027-05-01", "--to", "2027-05-31",
        "--years", "2024-2024", "--format", "text",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Rains that meet the rule: median 4," in done.stdout
    assert "History: 2024 to 2024 (1 year)" in done.stdout


def test_bad_years_and_dates_exit_2_with_one_line_naming_the_field():
    bad_years = outlook(
        "--jurisdiction", "spencer-wi", "--from", "2027-05-01", "--to", "2027-05-31",
        "--years", "2020-1991",
    )  # fmt: skip
    assert bad_years.returncode == 2
    assert bad_years.stderr.strip() == (
        "siltfence: years: the last year 1991 is before the first 2020"
    )
    backwards = outlook(
        "--jurisdiction", "spencer-wi", "--from", "2027-05-31", "--to", "2027-05-01"
    )
    assert backwards.returncode == 2
    assert backwards.stderr.startswith("siltfence: to: ")
