"""``siltfence duties`` as a user runs it: a real subprocess, real files, real exit codes."""

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

EVENTS = [
    {"type": "permit_issued", "at": "2026-05-01"},
    {
        "type": "measure_installed",
        "at": "2026-05-11",
        "measure": "SF-1",
        "description": "silt fence",
    },
    {"type": "stop_work_order_posted", "at": "2026-07-01"},
]


def siltfence(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*SILTFENCE, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": "200"},
    )


def test_duties_from_a_file_answer_the_contract_shape(tmp_path: Path):
    events = tmp_path / "events.json"
    events.write_text(json.dumps(EVENTS))
    run = siltfence(
        "duties", "--jurisdiction", "spencer-wi", "--events", str(events), "--as-of", "2026-05-20"
    )
    assert run.returncode == 0, run.stderr
    answer = json.loads(run.stdout)
    assert set(answer) >= {"permit", "duties", "allowed_actions", "forfeiture", "notes"}
    assert answer["permit"]["expires"] == "2026-10-28"  # May 1 + 180 days
    notice = next(d for d in answer["duties"] if d["kind"] == "measure_completion_notice")
    # May 11 + 14 = Memorial Day, May 25 -> Tuesday May 26.
    assert notice["due"] == "2026-05-26"
    assert notice["status"] == "open"
    assert notice["because"] == "silt fence SF-1 installed 2026-05-11; notice within 14 days"
    assert answer["allowed_actions"] == []  # the stop-work order is after as_of
    assert answer["as_of"] == "2026-05-20T23:59:59-05:00"


def test_duties_read_stdin_wrapped_in_an_events_object_and_print_text():
    run = siltfence(
        "duties",
        "--jurisdiction",
        "spencer-wi",
        "--events",
        "-",
        "--as-of",
        "2026-07-12T09:00",
        "--format",
        "text",
        stdin=json.dumps({"events": EVENTS}),
    )
    assert run.returncode == 0, run.stderr
    assert "expires 2026-10-28" in run.stdout
    # Posted Wednesday July 1: the 10th day is Saturday July 11; revocation from July 12.
    assert "from 2026-07-12  revoke_permit (§ 413-10B)" in run.stdout


def test_office_closures_replace_the_holidays_and_an_empty_list_means_weekends_only():
    # Received Friday November 20, 2026; 30 business days: January 6, 2027 with the legal
    # holidays closed, January 1 with weekends only (see the unit tests for the count).
    events = json.dumps([{"type": "application_received", "at": "2026-11-20"}])
    base = ["duties", "--jurisdiction", "new-glarus-wi", "--events", "-", "--as-of", "2026-12-01"]
    default = json.loads(siltfence(*base, stdin=events).stdout)
    weekends = json.loads(siltfence(*base, "--office-closures", "", stdin=events).stdout)
    assert default["duties"][0]["due"] == "2027-01-06"
    assert weekends["duties"][0]["due"] == "2027-01-01"


def test_without_as_of_the_cli_judges_at_the_present_time():
    run = siltfence(
        "duties",
        "--jurisdiction",
        "spencer-wi",
        "--events",
        "-",
        stdin='[{"type": "application_received", "at": "2026-03-02"}]',
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["as_of"] >= "2026-"


def test_a_bad_event_exits_2_with_one_line_naming_the_field():
    run = siltfence(
        "duties",
        "--jurisdiction",
        "spencer-wi",
        "--events",
        "-",
        stdin=json.dumps(
            [{"type": "work_started", "at": "2026-05-01"}, {"type": "rain", "at": "x", "inches": 1}]
        ),
    )
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr == (
        "siltfence: events[1].at: expected an ISO 8601 date or datetime, got 'x' "
        "(write YYYY-MM-DD, or YYYY-MM-DDTHH:MM with a time)\n"
    )


def test_an_extension_over_180_days_exits_2_citing_the_section():
    events = [
        {"type": "permit_issued", "at": "2026-05-01"},
        {"type": "permit_extended", "at": "2026-09-01", "days": 200},
    ]
    run = siltfence(
        "duties", "--jurisdiction", "new-glarus-wi", "--events", "-", stdin=json.dumps(events)
    )
    assert run.returncode == 2
    assert run.stderr.startswith("siltfence: events[1].days: ")
    assert "§ 135-7G" in run.stderr
    assert run.stderr.count("\n") == 1


def test_bad_options_and_files_exit_2():
    cases = [
        (["--as-of", "tomorrow"], "[]", "as_of: "),
        (["--office-closures", "2026-11-27,soon"], "[]", "office_closures[1]: "),
        ([], "{not json", "events: not valid JSON"),
        ([], '{"type": "work_started"}', "events: expected a JSON list"),
    ]
    for extra, stdin, start in cases:
        run = siltfence(
            "duties", "--jurisdiction", "spencer-wi", "--events", "-", *extra, stdin=stdin
        )
        assert run.returncode == 2, (extra, run.stdout)
        assert run.stderr.startswith(f"siltfence: {start}"), run.stderr


def test_an_unknown_jurisdiction_exits_2():
    run = siltfence("duties", "--jurisdiction", "nowhere-wi", "--events", "-", stdin="[]")
    assert run.returncode == 2
    assert run.stderr.startswith("siltfence: jurisdiction: ")
