"""``siltfence rain storms`` and ``siltfence duties --rain`` as a user runs them: a real
subprocess, real files (the Milwaukee record and NOAA-layout fixtures), real exit codes.

The storms and duties below were worked out by hand from the rows of the Milwaukee file
(tests/unit/rain/test_storms_milwaukee.py shows the sums).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

# Runs on its own SQLite file or on no database: the PostgreSQL pass leaves it out.
pytestmark = pytest.mark.no_suite_database

REPO = Path(__file__).resolve().parents[2]
MILWAUKEE = REPO / ".." / "shared" / "data" / "rain" / "GHCN_USW00014839.csv"
FIXTURES = REPO / "tests" / "unit" / "rain" / "fixtures"
SILTFENCE = [sys.executable, "-c", "from siltfence.cli.determine import run; run()"]
NEW_GLARUS = "42.8147,-89.6351"


def siltfence(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*SILTFENCE, *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "200"},
    )


def storms(*extra: str) -> subprocess.CompletedProcess[str]:
    return siltfence(
        "rain",
        "storms",
        "--file",
        str(MILWAUKEE),
        "--station",
        "USW00014839",
        "--jurisdiction",
        "spencer-wi",
        "--from",
        "2024-05-01",
        "--to",
        "2024-05-31",
        *extra,
    )


def test_storms_of_may_2024_at_milwaukee_four_of_eight_qualify():
    run = storms("--site", NEW_GLARUS)
    assert run.returncode == 0, run.stderr
    answer = json.loads(run.stdout)
    assert answer["station"]["id"] == "USW00014839"
    assert answer["station"]["name"] == "MILWAUKEE MITCHELL AP"
    # New Glarus to Mitchell airport: 0.14 deg of latitude and 1.73 deg of longitude,
    # about 15.6 km and 141 km on a flat patch at 42.9 N: 142 km.
    assert 141 < answer["station"]["distance_km"] < 143
    found = [(s["first_day"], s["last_day"], s["mm"], s["qualifies"]) for s in answer["storms"]]
    assert [f for f in found if f[3]] == [
        ("2024-05-02", "2024-05-04", 27.0, True),
        ("2024-05-07", "2024-05-07", 31.0, True),
        ("2024-05-20", "2024-05-20", 29.7, True),
        ("2024-05-26", "2024-05-28", 55.1, True),
    ]
    assert len(found) == 8
    assert {s["citation"] for s in answer["storms"]} == {"§ 413-8E(3)(g)"}
    assert set(answer["storms"][0]) >= {
        "first_day",
        "last_day",
        "inches",
        "mm",
        "qualifies",
        "citation",
        "says",
    }


def test_storms_as_text_list_each_storm_and_the_count():
    run = storms("--format", "text")
    assert run.returncode == 0, run.stderr
    assert re.search(r"2024-05-26 to 2024-05-28 +2\.17 in +55\.1 mm +QUALIFIES", run.stdout)
    assert re.search(r"2024-05-24 +0\.37 in +9\.4 mm +below", run.stdout)
    assert "4 of 8 storm(s) meet the rule." in run.stdout


def test_the_nearest_registered_station_of_a_by_year_file_is_chosen_from_the_site():
    run = siltfence(
        "rain",
        "storms",
        "--file",
        str(FIXTURES / "2024-by_year-sample.csv"),
        "--site",
        NEW_GLARUS,
        "--jurisdiction",
        "new-glarus-wi",
        "--from",
        "2024-06-01",
        "--to",
        "2024-06-05",
    )
    assert run.returncode == 0, run.stderr
    answer = json.loads(run.stdout)
    # Monroe WWTP (24 km) is nearer than Madison (43 km) and Milwaukee (142 km).
    assert answer["station"]["id"] == "USC00475573"
    # Monroe: 06-01 5.1 mm; 06-02 dry; 06-03 14.2 mm reaches 12.7 alone, a rain; 06-04
    # 0.3 mm is the next rain, below it; 06-05 dry.
    assert [(s["first_day"], s["last_day"], s["mm"], s["qualifies"]) for s in answer["storms"]] == [
        ("2024-06-01", "2024-06-01", 5.1, False),
        ("2024-06-03", "2024-06-03", 14.2, True),
        ("2024-06-04", "2024-06-04", 0.3, False),
    ]


def test_a_file_that_is_not_rain_exits_2_with_one_line(tmp_path):
    bad = tmp_path / "rain.csv"
    bad.write_text("name,address\nJo,Main St\n")
    run = siltfence(
        "rain", "storms", "--file", str(bad), "--jurisdiction", "spencer-wi",
        "--from", "2024-05-01", "--to", "2024-05-31",
    )  # fmt: skip
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.startswith("siltfence: rain: line 1: not a rain file siltfence reads")
    assert run.stderr.count("\n") == 1


def test_a_bad_date_and_a_missing_file_exit_2_naming_the_field():
    run = storms("--site", "north")
    assert run.returncode == 2
    assert run.stderr.startswith("siltfence: site: expected LAT,LON")
    bad_date = siltfence(
        "rain", "storms", "--file", str(MILWAUKEE), "--jurisdiction", "spencer-wi",
        "--from", "2024-13-01", "--to", "2024-05-31",
    )  # fmt: skip
    assert bad_date.returncode == 2
    assert bad_date.stderr.startswith(
        "siltfence: from: expected a date written YYYY-MM-DD, got '2024-13-01'"
    )
    assert bad_date.stderr.count("\n") == 1
    missing = siltfence(
        "rain", "storms", "--file", "no-such-file.csv", "--jurisdiction", "spencer-wi",
        "--from", "2024-05-01", "--to", "2024-05-31",
    )  # fmt: skip
    assert missing.returncode == 2
    assert missing.stderr.startswith("siltfence: rain: cannot read no-such-file.csv")


PERMIT = [
    {"type": "permit_issued", "at": "2024-04-20"},
    {"type": "work_started", "at": "2024-05-01T08:00"},
]


def duties(tmp_path: Path, jurisdiction: str, events: list[dict], *extra: str):
    path = tmp_path / "events.json"
    path.write_text(json.dumps(events))
    return siltfence(
        "duties", "--jurisdiction", jurisdiction, "--events", str(path),
        "--as-of", "2024-05-31", "--rain", str(MILWAUKEE), "--station", "USW00014839", *extra,
    )  # fmt: skip


def test_duties_from_the_rain_file_owe_four_rain_inspections_in_may_2024(tmp_path):
    run = duties(tmp_path, "new-glarus-wi", PERMIT, "--site", NEW_GLARUS)
    assert run.returncode == 0, run.stderr
    answer = json.loads(run.stdout)
    inspections = [d for d in answer["duties"] if d["kind"] == "rain_inspection"]
    # New Glarus asks for inspections after rain "during active construction periods"
    # (§ 135-7E(7)): the storm of 04-26..29 (14.8 mm) ended before work started on 05-01.
    # Nothing says whether the others ran off the site, so runoff is assumed.
    assert [(d["rain"]["from"], d["rain"]["to"]) for d in inspections] == [
        ("2024-05-02", "2024-05-04"),
        ("2024-05-07", "2024-05-07"),
        ("2024-05-20", "2024-05-20"),
        ("2024-05-26", "2024-05-28"),
    ]
    assert all(d["status"] == "overdue" for d in inspections)  # nobody inspected
    # The record spans 2024-04-20 to 2024-05-31; it has 19 wet days at the station.
    assert answer["rain"]["rain_days_added"] == 19
    assert (answer["rain"]["from"], answer["rain"]["to"]) == ("2024-04-20", "2024-05-31")
    assert answer["rain"]["station"]["id"] == "USW00014839"
    assert 141 < answer["rain"]["station"]["distance_km"] < 143
    # The reading of "results in runoff" (gap 19) is shown with its citation.
    runoff = next(n for n in answer["notes"] if n["id"] == "rain-runoff")
    assert (runoff["gap"], runoff["citations"]) == (19, ["§ 135-7E(7)"])


def test_a_rain_recorded_at_the_site_without_runoff_replaces_the_stations_day(tmp_path):
    events = [
        *PERMIT,
        {"type": "rain", "at": "2024-05-20", "inches": 1.17, "runoff": False},
        {"type": "self_inspection", "at": "2024-05-05", "inspector": "Jo", "phase": "grading"},
    ]
    run = duties(tmp_path, "new-glarus-wi", events)
    assert run.returncode == 0, run.stderr
    answer = json.loads(run.stdout)
    inspections = [d for d in answer["duties"] if d["kind"] == "rain_inspection"]
    # 05-20 recorded no runoff at the site: only three storms set a duty (§ 135-7E(7)).
    assert [d["rain"]["from"] for d in inspections] == ["2024-05-02", "2024-05-07", "2024-05-26"]
    assert inspections[0]["status"] == "met"  # the inspection of 05-05 came after that storm
    assert answer["rain"]["rain_days_added"] == 18
    says = " ".join(n["says"] for n in answer["rain"]["notes"])
    assert "1 day(s) already held a rain event in the record" in says
    assert "rain-without-runoff" in {n["id"] for n in answer["notes"]}


def test_duties_with_a_rain_file_of_another_station_exit_2(tmp_path):
    run = duties(tmp_path, "spencer-wi", PERMIT)
    assert run.returncode == 0
    path = tmp_path / "events.json"
    wrong = siltfence(
        "duties", "--jurisdiction", "spencer-wi", "--events", str(path),
        "--rain", str(FIXTURES / "USW00014839-by_station.csv"), "--station", "USW00014837",
    )  # fmt: skip
    assert wrong.returncode == 2
    assert wrong.stderr == (
        "siltfence: rain: the file holds no precipitation values of station USW00014837\n"
    )


def test_duties_read_a_cdo_file_whose_unit_only_the_user_can_tell(tmp_path):
    # Whole numbers only: 13 could be inches or millimetres, so the file cannot tell.
    cdo = tmp_path / "cdo.csv"
    cdo.write_text(
        '"STATION","DATE","PRCP"\n'
        '"USW00014839","2024-05-06","0"\n'
        '"USW00014839","2024-05-07","13"\n'
        '"USW00014839","2024-05-08","0"\n'
    )
    events = tmp_path / "events.json"
    events.write_text(json.dumps(PERMIT))
    args = [
        "duties", "--jurisdiction", "new-glarus-wi", "--events", str(events),
        "--as-of", "2024-05-31", "--rain", str(cdo),
    ]  # fmt: skip
    unclear = siltfence(*args)
    assert unclear.returncode == 2
    assert "the unit is unclear" in unclear.stderr and "--units" in unclear.stderr
    told = siltfence(*args, "--units", "mm")
    assert told.returncode == 0, told.stderr
    answer = json.loads(told.stdout)
    # 13 mm (0.51 in) on 2024-05-07 is 0.5 inch or more: one rain inspection.
    [inspection] = [d for d in answer["duties"] if d["kind"] == "rain_inspection"]
    assert inspection["rain"]["mm"] == 13.0
    assert answer["rain"]["rain_days_added"] == 1
