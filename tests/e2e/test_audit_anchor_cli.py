"""The audit chain anchored outside the database: ``siltfence audit checkpoint`` signs the
chain head with a key the database does not hold, and ``siltfence audit verify`` holds the
chain against every checkpoint. Someone with the database file who rewrites history and
recomputes every later hash, or removes the last events and rolls the chain head back,
leaves a chain consistent with itself: only the checkpoint tells."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

# Runs on its own SQLite file or on no database: the PostgreSQL pass leaves it out.
pytestmark = pytest.mark.no_suite_database

SILTFENCE = [sys.executable, "-c", "from siltfence.cli.main import run; run()"]
KEY = secrets.token_urlsafe(48)
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
# The attacker knows the algorithm and holds the database file, not the key. They drop the
# append-only trigger, change event #2, and write every later hash and the head again.
REWRITE_HISTORY = """
import django
django.setup()
from django.db import connection
from siltfence.apps.audit.chain import GENESIS, _digest, _hashed_fields
from siltfence.apps.audit.models import AuditEvent, ChainHead
with connection.cursor() as cursor:
    cursor.execute("DROP TRIGGER audit_event_no_update")
    cursor.execute("UPDATE audit_auditevent SET hash = 'x' || hash")  # free the unique hashes
previous = GENESIS
for event in AuditEvent.objects.order_by("seq"):
    if event.seq == 2:
        event.reason = "approved by phone"
    event.prev_hash = previous
    event.hash = _digest(previous, _hashed_fields(event))
    event.save()
    previous = event.hash
ChainHead.objects.filter(id=1).update(hash=previous)
"""
# The attacker removes the last event and rolls the head back to the one before it.
DROP_TAIL = """
import django
django.setup()
from django.db import connection
from siltfence.apps.audit.models import AuditEvent, ChainHead
with connection.cursor() as cursor:
    cursor.execute("INSERT INTO audit_purge_window (opened_at) VALUES (CURRENT_TIMESTAMP)")
    cursor.execute("DELETE FROM audit_auditevent WHERE seq = 3")
    cursor.execute("DELETE FROM audit_purge_window")
second = AuditEvent.objects.get(seq=2)
ChainHead.objects.filter(id=1).update(seq=2, hash=second.hash)
"""


def _env(data_dir: Path, **extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "SILTFENCE_ENV", "SILTFENCE_AUDIT_KEY")
        and not k.startswith("SILTFENCE_AUDIT_")
    }
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


def siltfence(data_dir: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    return _run([*SILTFENCE, *args], data_dir, **{"SILTFENCE_AUDIT_KEY": KEY, **extra})


def attack(data_dir: Path, script: str) -> None:
    run = _run([sys.executable, "-c", script], data_dir)
    assert run.returncode == 0, run.stderr


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("anchor-db")
    migrate = _run([sys.executable, "-m", "siltfence.manage", "migrate", "--noinput"], folder)
    assert migrate.returncode == 0, migrate.stderr
    record = _run([sys.executable, "-c", RECORD_THREE_EVENTS], folder)
    assert record.returncode == 0, record.stderr
    return folder


@pytest.fixture
def database(migrated: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    for file in migrated.glob("siltfence.sqlite3*"):
        shutil.copy(file, folder / file.name)
    return folder


@pytest.fixture
def checkpointed(database: Path) -> Path:
    run = siltfence(database, "audit", "checkpoint")
    assert run.returncode == 0, run.stderr
    return database


def test_a_checkpoint_records_the_head_signed_and_verify_holds_the_chain_against_it(
    checkpointed: Path,
):
    lines = (checkpointed / "audit-checkpoints.jsonl").read_text().splitlines()
    assert len(lines) == 1
    checkpoint = json.loads(lines[0])
    assert checkpoint["count"] == 3
    assert len(checkpoint["last_hash"]) == 64
    assert len(checkpoint["hmac"]) == 64
    run = siltfence(checkpointed, "audit", "verify")
    assert run.returncode == 0, run.stderr
    assert run.stdout == "audit chain intact: 3 events verified, and 1 checkpoints match\n"


def test_a_history_rewritten_with_every_later_hash_recomputed_is_reported_broken(
    checkpointed: Path,
):
    attack(checkpointed, REWRITE_HISTORY)
    # The chain alone no longer tells: it is consistent with itself.
    alone = siltfence(
        checkpointed, "audit", "verify", SILTFENCE_AUDIT_CHECKPOINTS=str(checkpointed / "none")
    )
    assert alone.returncode == 0, alone.stderr
    run = siltfence(checkpointed, "audit", "verify")
    assert run.returncode == 1
    assert run.stdout.startswith("audit chain BROKEN at event #3: ")
    assert "does not match the checkpoint" in run.stdout
    assert "rewritten" in run.stdout


def test_a_removed_tail_with_the_head_rolled_back_is_reported_broken(checkpointed: Path):
    attack(checkpointed, DROP_TAIL)
    alone = siltfence(
        checkpointed, "audit", "verify", SILTFENCE_AUDIT_CHECKPOINTS=str(checkpointed / "none")
    )
    assert alone.returncode == 0, alone.stderr
    assert alone.stdout == "audit chain intact: 2 events verified\n"
    run = siltfence(checkpointed, "audit", "verify")
    assert run.returncode == 1
    assert run.stdout.startswith("audit chain BROKEN at event #3: the chain ends at #2 ")
    assert "events were removed" in run.stdout


def test_a_checkpoint_forged_after_a_rewrite_without_the_key_is_reported_broken(
    checkpointed: Path,
):
    attack(checkpointed, REWRITE_HISTORY)
    # The attacker signs a checkpoint of the rewritten chain with a key of their own.
    forged = siltfence(checkpointed, "audit", "checkpoint", SILTFENCE_AUDIT_KEY=KEY[::-1])
    assert forged.returncode == 1  # under another key the real checkpoint fails its HMAC
    book = checkpointed / "audit-checkpoints.jsonl"
    book.write_text("")  # so they remove the real one first
    forged = siltfence(checkpointed, "audit", "checkpoint", SILTFENCE_AUDIT_KEY=KEY[::-1])
    assert forged.returncode == 0, forged.stderr
    run = siltfence(checkpointed, "audit", "verify")
    assert run.returncode == 1
    assert "checkpoint 1" in run.stdout
    assert "fails its HMAC" in run.stdout


def test_the_emailed_copy_still_catches_a_rewrite_when_the_checkpoint_file_is_gone(
    database: Path, tmp_path: Path
):
    run = siltfence(
        database, "audit", "checkpoint", SILTFENCE_AUDIT_CLERK_EMAIL="clerk@example.org"
    )
    assert run.returncode == 0, run.stderr
    assert "To: clerk@example.org" in run.stdout  # the console email backend of the demo
    assert run.stdout.rstrip().endswith("emailed to clerk@example.org")
    book = database / "audit-checkpoints.jsonl"
    kept = tmp_path / "from-the-clerk.jsonl"
    kept.write_text(book.read_text())
    book.unlink()
    attack(database, REWRITE_HISTORY)
    run = siltfence(database, "audit", "verify", "--checkpoints", str(kept))
    assert run.returncode == 1
    assert "does not match the checkpoint" in run.stdout


def test_a_broken_chain_gets_no_new_checkpoint(checkpointed: Path):
    attack(checkpointed, DROP_TAIL)
    before = (checkpointed / "audit-checkpoints.jsonl").read_text()
    run = siltfence(checkpointed, "audit", "checkpoint")
    assert run.returncode == 1
    assert run.stdout.startswith("audit chain BROKEN at event #3:")
    assert run.stdout.rstrip().endswith("no checkpoint written")
    assert (checkpointed / "audit-checkpoints.jsonl").read_text() == before


def test_a_checkpoint_without_a_key_exits_2_with_one_line(database: Path):
    run = siltfence(database, "audit", "checkpoint", SILTFENCE_AUDIT_KEY="")
    assert run.returncode == 2
    assert run.stderr == (
        "siltfence: SILTFENCE_AUDIT_KEY is not set: the audit checkpoints are signed with a "
        "key kept outside the database\n"
    )
    assert not (database / "audit-checkpoints.jsonl").exists()


def test_a_short_key_is_refused(database: Path):
    run = siltfence(database, "audit", "checkpoint", SILTFENCE_AUDIT_KEY="short")
    assert run.returncode == 2
    assert "too short" in run.stderr


def test_verify_with_checkpoints_but_no_key_exits_2_rather_than_say_intact(checkpointed: Path):
    run = siltfence(checkpointed, "audit", "verify", SILTFENCE_AUDIT_KEY="")
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.startswith("siltfence: SILTFENCE_AUDIT_KEY is not set")


def test_a_garbled_checkpoint_file_exits_2_naming_the_line(checkpointed: Path):
    book = checkpointed / "audit-checkpoints.jsonl"
    book.write_text(book.read_text() + "not json\n")
    run = siltfence(checkpointed, "audit", "verify")
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1
    assert "line 2 is not an audit checkpoint" in run.stderr


def _last_at(data_dir: Path) -> str:
    import json

    lines = (data_dir / "audit-checkpoints.jsonl").read_text().splitlines()
    return str(json.loads(lines[-1])["at"])


@pytest.mark.parametrize(
    "line", ["[" * 10_000 + "]" * 10_000, '{"at": ' * 5_000 + "1" + "}" * 5_000, "9" * 5_000]
)
def test_a_hostile_checkpoint_file_exits_2_with_one_line_not_a_traceback(
    checkpointed: Path, line: str
):
    other = checkpointed / "saved-from-email.jsonl"
    other.write_text(line + "\n")
    run = siltfence(checkpointed, "audit", "verify", "--checkpoints", str(other))
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert "line 1 is not an audit checkpoint" in run.stderr


def test_events_written_after_a_checkpoint_still_verify_and_a_later_checkpoint_adds_to_the_file(
    checkpointed: Path,
):
    record = _run([sys.executable, "-c", RECORD_THREE_EVENTS], checkpointed)
    assert record.returncode == 0, record.stderr
    run = siltfence(checkpointed, "audit", "verify")
    assert run.returncode == 0, run.stdout
    assert run.stdout == (
        "audit chain intact: 6 events verified, and 1 checkpoints match\n"
        f"3 events after the last checkpoint ({_last_at(checkpointed)}) are not anchored yet: "
        "run `siltfence audit checkpoint`\n"
    )
    again = siltfence(checkpointed, "audit", "checkpoint")
    assert again.returncode == 0, again.stderr
    run = siltfence(checkpointed, "audit", "verify")
    assert run.stdout == "audit chain intact: 6 events verified, and 2 checkpoints match\n"


def test_a_mail_server_that_cannot_be_reached_is_one_line_after_the_checkpoint_is_written(
    database: Path,
):
    run = siltfence(
        database,
        "audit",
        "checkpoint",
        SILTFENCE_AUDIT_CLERK_EMAIL="clerk@example.org",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT="9",  # nothing listens there
    )
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1
    assert run.stderr.startswith("siltfence: email: the checkpoint is written, but it could not")
    assert "Traceback" not in run.stderr
    assert len((database / "audit-checkpoints.jsonl").read_text().splitlines()) == 1


def test_a_checkpoints_file_named_on_the_command_line_must_exist(checkpointed: Path):
    run = siltfence(checkpointed, "audit", "verify", "--checkpoints", str(checkpointed / "typo"))
    assert run.returncode == 2
    assert run.stderr == f"siltfence: checkpoints: there is no file {checkpointed / 'typo'}\n"
