"""``siltfence audit verify`` as a monitor runs it: a real process on a real database file,
judged by its exit status. 0: the chain is intact; 1: it is broken; 2: bad input (the
database cannot be read), with one line on stderr (DESIGN.md's CLI convention)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

# Runs on its own SQLite file or on no database: the PostgreSQL pass leaves it out.
pytestmark = pytest.mark.no_suite_database

SILTFENCE = [sys.executable, "-c", "from siltfence.cli.determine import run; run()"]
RECORD_THREE_EVENTS = """
import django
django.setup()
from django.db import transaction
from siltfence.apps.audit.chain import event_record
for number in (1, 2, 3):
    with transaction.atomic():
        event_record(actor=None, entity="application", entity_id=number,
                     action="application_create", village="spencer-wi")
"""


def _env(data_dir: Path, **extra: str) -> dict[str, str]:
    # The command reads its database from the environment; a PostgreSQL DATABASE_URL of
    # the test run must not leak into it.
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SILTFENCE_ENV")}
    return {
        **env,
        "DJANGO_SETTINGS_MODULE": "siltfence.config.settings",
        "SILTFENCE_DATA_DIR": str(data_dir),
        **extra,
    }


def _run(args: list[str], data_dir: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, capture_output=True, text=True, timeout=120, env=_env(data_dir, **extra)
    )


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite database holding three audit events, made once for the module."""
    folder = tmp_path_factory.mktemp("audit-db")
    migrate = _run([sys.executable, "-m", "siltfence.manage", "migrate", "--noinput"], folder)
    assert migrate.returncode == 0, migrate.stderr
    record = _run([sys.executable, "-c", RECORD_THREE_EVENTS], folder)
    assert record.returncode == 0, record.stderr
    return folder


@pytest.fixture
def database(migrated: Path, tmp_path: Path) -> Path:
    """A private copy of the migrated database, so a test may break its chain."""
    folder = tmp_path / "data"
    folder.mkdir()
    for file in migrated.glob("siltfence.sqlite3*"):
        shutil.copy(file, folder / file.name)
    return folder


def test_an_intact_chain_exits_0_and_counts_its_events(database: Path):
    run = _run([*SILTFENCE, "audit", "verify"], database)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "audit chain intact: 3 events verified\n"


def test_an_edited_event_exits_1_and_names_the_event(database: Path):
    # What someone with the database file could do: drop the append-only trigger and
    # change the reason of the second event.
    with sqlite3.connect(database / "siltfence.sqlite3") as db:
        db.execute("DROP TRIGGER audit_event_no_update")
        db.execute("UPDATE audit_auditevent SET reason = 'approved by phone' WHERE seq = 2")
    run = _run([*SILTFENCE, "audit", "verify"], database)
    assert run.returncode == 1
    assert run.stdout.startswith("audit chain BROKEN at event #2:")
    assert "changed after it was written" in run.stdout
    assert "(1 events before it verified)" in run.stdout


def test_a_chain_head_ahead_of_the_events_exits_1(database: Path):
    # The last event deleted: the head still says three were written.
    with sqlite3.connect(database / "siltfence.sqlite3") as db:
        db.execute("INSERT INTO audit_purge_window (opened_at) VALUES (CURRENT_TIMESTAMP)")
        db.execute("DELETE FROM audit_auditevent WHERE seq = 3")
        db.execute("DELETE FROM audit_purge_window")
    run = _run([*SILTFENCE, "audit", "verify"], database)
    assert run.returncode == 1
    assert run.stdout.startswith("audit chain BROKEN at event #3:")


def test_a_database_without_the_audit_tables_exits_2_with_one_line(tmp_path: Path):
    run = _run([*SILTFENCE, "audit", "verify"], tmp_path)
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.count("\n") == 1
    assert run.stderr.startswith("siltfence: database: cannot read the audit record")
    assert "Traceback" not in run.stderr


def test_an_unusable_database_url_exits_2_naming_the_settings(tmp_path: Path):
    run = _run([*SILTFENCE, "audit", "verify"], tmp_path, DATABASE_URL="nosuchdb://host/db")
    assert run.returncode == 2
    assert run.stderr.startswith("siltfence: settings: ")
    assert "nosuchdb" in run.stderr
    assert "Traceback" not in run.stderr
