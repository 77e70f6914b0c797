"""``siltfence backup`` and ``siltfence restore`` as a village's server runs them: real
processes on a real database and uploads folder.

The round trip runs on the database the suite runs on: SQLite by default, and with
DATABASE_URL naming PostgreSQL (``make test-postgres``), on two PostgreSQL databases this
test creates and drops, through pg_dump and pg_restore. The damaged-archive tests run on
SQLite files, whatever the suite's database: they are about the archive, not the vendor.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import secrets
import shutil
import sqlite3
import subprocess
import sys
import tarfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

SILTFENCE = [sys.executable, "-c", "from siltfence.cli.determine import run; run()"]
MANAGE = [sys.executable, "-m", "siltfence.manage"]
# The demo loader is a tool of the repository (tools/), found from its root.
REPO = Path(__file__).resolve().parents[2]
DEMO_LOAD = [sys.executable, "-m", "tools.demo_load"]
SUITE_DATABASE_URL = os.environ.get("DATABASE_URL", "")
ON_POSTGRES = SUITE_DATABASE_URL.startswith("postgres")
AUDIT_KEY = secrets.token_urlsafe(48)


def _env(data_dir: Path, database_url: str = "", **extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "SILTFENCE_ENV") and not k.startswith("SILTFENCE_AUDIT_")
    }
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "siltfence.config.settings",
            "SILTFENCE_DATA_DIR": str(data_dir),
            "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p),
            **extra,
        }
    )
    if database_url:
        env["DATABASE_URL"] = database_url
    return env


def _run(
    args: list[str], data_dir: Path, database_url: str = "", **extra: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args,
        capture_output=True,
        text=True,
        timeout=600,
        env=_env(data_dir, database_url, **extra),
    )


def _dump(data_dir: Path, database_url: str = "") -> list[dict]:
    """Every row of every app, in one order."""
    run = _run([*MANAGE, "dumpdata", "--indent", "0"], data_dir, database_url)
    assert run.returncode == 0, run.stderr
    rows = json.loads(run.stdout)
    return sorted(rows, key=lambda row: (row["model"], json.dumps(row["pk"])))


def _files(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in folder.rglob("*")
        if p.is_file()
    }


# --- PostgreSQL databases of the test's own --------------------------------------------------


def _postgres_url(name: str) -> str:
    parts = urlsplit(SUITE_DATABASE_URL)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


def _postgres_admin(statement: str) -> None:
    import psycopg

    with psycopg.connect(SUITE_DATABASE_URL, autocommit=True) as connection:
        connection.execute(statement)


@pytest.fixture(scope="module")
def postgres_databases() -> Iterator[tuple[str, str]]:
    """A source and an empty target database, made here and dropped afterwards."""
    names = (f"siltfence_backup_src_{os.getpid()}", f"siltfence_backup_dst_{os.getpid()}")
    for name in names:
        _postgres_admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        _postgres_admin(f"CREATE DATABASE {name}")
    yield _postgres_url(names[0]), _postgres_url(names[1])
    for name in names:
        _postgres_admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


# --- the demo village, backed up once -------------------------------------------------------


def _load_demo(data_dir: Path, database_url: str = "") -> None:
    for command in ([*MANAGE, "migrate", "--noinput"], DEMO_LOAD):
        run = _run(command, data_dir, database_url)
        assert run.returncode == 0, run.stderr


@pytest.fixture(scope="module")
def sqlite_archive(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The demo on SQLite (with its uploaded plans) and its backup: (data folder, archive)."""
    source = tmp_path_factory.mktemp("sqlite-source")
    _load_demo(source)
    assert _files(source / "media"), "the demo stores uploaded plans"
    archive = tmp_path_factory.mktemp("archives") / "siltfence.tar.gz"
    run = _run([*SILTFENCE, "backup", str(archive)], source)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"backup written: {archive} (sqlite database, ")
    return source, archive


def test_a_backup_restored_into_an_empty_database_holds_every_row_and_upload_and_its_audit_chain_verifies(  # noqa: E501
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
):
    if ON_POSTGRES:
        source_url, target_url = request.getfixturevalue("postgres_databases")
        source = tmp_path_factory.mktemp("pg-source")
        _load_demo(source, source_url)
        archive = tmp_path_factory.mktemp("pg-archive") / "siltfence.tar.gz"
        run = _run([*SILTFENCE, "backup", str(archive)], source, source_url)
        assert run.returncode == 0, run.stderr
        assert "(postgresql database, " in run.stdout
        vendor = "postgresql"
    else:
        source, archive = request.getfixturevalue("sqlite_archive")
        source_url = target_url = ""
        vendor = "sqlite"
    with tarfile.open(archive) as tar:
        manifest = json.load(tar.extractfile("manifest.json"))  # type: ignore[arg-type]
    assert manifest["format"] == "siltfence-backup"
    assert manifest["version"] == 1
    assert manifest["vendor"] == vendor
    assert manifest["created"].endswith("+00:00")
    assert {item["path"] for item in manifest["files"]} == {
        "database.pgdump" if ON_POSTGRES else "database.sqlite3",
        *(f"media/{path}" for path in _files(source / "media")),
    }

    # The village's checkpoint of the record, made before the backup, outside both.
    checkpoints = tmp_path_factory.mktemp("checkpoints") / "audit-checkpoints.jsonl"
    anchor = {"SILTFENCE_AUDIT_KEY": AUDIT_KEY, "SILTFENCE_AUDIT_CHECKPOINTS": str(checkpoints)}
    run = _run([*SILTFENCE, "audit", "checkpoint"], source, source_url, **anchor)
    assert run.returncode == 0, run.stderr

    target = tmp_path_factory.mktemp("restored")
    run = _run([*SILTFENCE, "restore", str(archive)], target, target_url)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"restored {archive}: {vendor} database and ")

    assert _dump(target, target_url) == _dump(source, source_url)
    assert _files(target / "media") == _files(source / "media")
    verify = _run([*SILTFENCE, "audit", "verify"], target, target_url, **anchor)
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert verify.stdout.startswith("audit chain intact: ")
    assert verify.stdout.endswith(", and 1 checkpoints match\n")

    # A second restore over the restored database is refused, and changes nothing.
    again = _run([*SILTFENCE, "restore", str(archive)], target, target_url)
    assert again.returncode == 2
    assert "is not empty; restore into an empty" in again.stderr
    assert again.stderr.count("\n") == 1


# --- damaged and mismatched archives (SQLite) -----------------------------------------------


def _rebuild(archive: Path, out: Path, change) -> Path:  # type: ignore[no-untyped-def]
    """A copy of the archive whose members pass through ``change(name, data) -> data``."""
    with tarfile.open(archive) as tar, tarfile.open(out, "w:gz") as new:
        for member in tar.getmembers():
            data = change(member.name, tar.extractfile(member).read())  # type: ignore[union-attr]
            if data is None:
                continue
            info = tarfile.TarInfo(member.name)
            info.size = len(data)
            new.addfile(info, io.BytesIO(data))
    return out


def _restore_refused(archive: Path, tmp_path: Path) -> str:
    target = tmp_path / "target"
    target.mkdir()
    run = _run([*SILTFENCE, "restore", str(archive)], target)
    assert run.returncode == 2, run.stdout
    assert run.stdout == ""
    assert run.stderr.count("\n") == 1
    assert "Traceback" not in run.stderr
    # Nothing half-restored: no database, no uploads, nothing left beside them.
    database = target / "siltfence.sqlite3"
    if database.exists():
        with sqlite3.connect(database) as db:
            assert db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone() == (0,)
    assert not (target / "media").exists() or not any((target / "media").iterdir())
    assert not list(target.glob(".siltfence-restore-*"))
    assert not list(target.glob("*.restoring"))
    return run.stderr


def test_a_truncated_archive_is_refused_with_one_line_and_nothing_restored(
    sqlite_archive: tuple[Path, Path], tmp_path: Path
):
    _, archive = sqlite_archive
    cut = tmp_path / "cut.tar.gz"
    cut.write_bytes(archive.read_bytes()[: archive.stat().st_size // 2])
    error = _restore_refused(cut, tmp_path)
    assert error.startswith(f"siltfence: {cut}: not a usable siltfence backup (damaged")
    assert error.rstrip().endswith("nothing was restored")


def test_an_archive_member_that_would_land_outside_the_restore_is_refused(
    sqlite_archive: tuple[Path, Path], tmp_path: Path
):
    _, archive = sqlite_archive
    escape = tmp_path / "escape.tar.gz"
    with tarfile.open(archive) as tar, tarfile.open(escape, "w:gz") as new:
        for member in tar.getmembers():
            new.addfile(member, tar.extractfile(member))
        info = tarfile.TarInfo("../../planted.txt")
        info.size = 7
        new.addfile(info, io.BytesIO(b"planted"))
    error = _restore_refused(escape, tmp_path)
    assert "not a usable siltfence backup" in error
    assert not list(tmp_path.rglob("planted.txt"))
    assert not (tmp_path.parent / "planted.txt").exists()


def test_a_file_that_is_not_an_archive_is_refused(tmp_path: Path):
    text = tmp_path / "notes.tar.gz"
    text.write_text("not an archive\n")
    error = _restore_refused(text, tmp_path)
    assert "not a usable siltfence backup (damaged or not a tar.gz archive" in error


def test_an_upload_changed_inside_the_archive_fails_its_sha256(
    sqlite_archive: tuple[Path, Path], tmp_path: Path
):
    _, archive = sqlite_archive
    changed = _rebuild(
        archive,
        tmp_path / "changed.tar.gz",
        lambda name, data: data + b"x" if name.startswith("media/") else data,
    )
    error = _restore_refused(changed, tmp_path)
    assert "does not match its sha256 in the manifest" in error


def test_an_archive_without_a_manifest_is_refused(
    sqlite_archive: tuple[Path, Path], tmp_path: Path
):
    _, archive = sqlite_archive
    bare = _rebuild(
        archive,
        tmp_path / "bare.tar.gz",
        lambda name, data: None if name == "manifest.json" else data,
    )
    assert "it has no manifest.json" in _restore_refused(bare, tmp_path)


def _with_manifest(archive: Path, out: Path, edit, rename=None) -> Path:  # type: ignore[no-untyped-def]
    """Rewrite the manifest (and maybe rename the database), keeping the hashes true."""
    with tarfile.open(archive) as tar:
        manifest = json.load(tar.extractfile("manifest.json"))  # type: ignore[arg-type]
        contents = {
            m.name: tar.extractfile(m).read()  # type: ignore[union-attr]
            for m in tar.getmembers()
            if m.name != "manifest.json"
        }
    if rename:
        contents = {rename.get(name, name): data for name, data in contents.items()}
        for item in manifest["files"]:
            item["path"] = rename.get(item["path"], item["path"])
    edit(manifest, contents)
    for item in manifest["files"]:
        data = contents[item["path"]]
        item["size"], item["sha256"] = len(data), hashlib.sha256(data).hexdigest()
    with tarfile.open(out, "w:gz") as new:
        for name, data in [("manifest.json", json.dumps(manifest).encode()), *contents.items()]:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            new.addfile(info, io.BytesIO(data))
    return out


def test_a_backup_of_another_database_vendor_is_refused(
    sqlite_archive: tuple[Path, Path], tmp_path: Path
):
    _, archive = sqlite_archive

    def to_postgres(manifest, contents):  # type: ignore[no-untyped-def]
        manifest["vendor"] = "postgresql"

    other = _with_manifest(
        archive,
        tmp_path / "other.tar.gz",
        to_postgres,
        rename={"database.sqlite3": "database.pgdump"},
    )
    error = _restore_refused(other, tmp_path)
    assert "holds a postgresql database, but the configured database (DATABASE_URL) is sqlite" in (
        error
    )


def test_a_later_format_version_is_refused(sqlite_archive: tuple[Path, Path], tmp_path: Path):
    _, archive = sqlite_archive

    def later(manifest, contents):  # type: ignore[no-untyped-def]
        manifest["version"] = 2

    error = _restore_refused(_with_manifest(archive, tmp_path / "v2.tar.gz", later), tmp_path)
    assert "format version 2; this siltfence reads version 1" in error


def test_a_damaged_database_inside_a_consistent_archive_leaves_the_target_empty_and_the_good_archive_then_restores(  # noqa: E501
    sqlite_archive: tuple[Path, Path], tmp_path: Path
):
    source, archive = sqlite_archive

    def garble(manifest, contents):  # type: ignore[no-untyped-def]
        data = bytearray(contents["database.sqlite3"])
        data[4096:8192] = b"\xff" * 4096  # a page of the database overwritten
        contents["database.sqlite3"] = bytes(data)

    error = _restore_refused(_with_manifest(archive, tmp_path / "garbled.tar.gz", garble), tmp_path)
    assert error.startswith("siltfence: database: ")
    # Run again with the good archive: the failed attempt left nothing in the way.
    target = tmp_path / "target"
    run = _run([*SILTFENCE, "restore", str(archive)], target)
    assert run.returncode == 0, run.stderr
    assert _files(target / "media") == _files(source / "media")


def test_a_restore_into_a_database_that_holds_data_is_refused(
    sqlite_archive: tuple[Path, Path], tmp_path: Path
):
    source, archive = sqlite_archive
    target = tmp_path / "target"
    target.mkdir()
    shutil.copy(source / "siltfence.sqlite3", target / "siltfence.sqlite3")
    before = hashlib.sha256((target / "siltfence.sqlite3").read_bytes()).hexdigest()
    run = _run([*SILTFENCE, "restore", str(archive)], target)
    assert run.returncode == 2
    assert run.stderr == (
        f"siltfence: database: {target / 'siltfence.sqlite3'} is not empty; "
        "restore into an empty database\n"
    )
    assert hashlib.sha256((target / "siltfence.sqlite3").read_bytes()).hexdigest() == before
    assert not (target / "media").exists()


def test_a_backup_to_a_folder_that_does_not_exist_exits_2(
    sqlite_archive: tuple[Path, Path], tmp_path: Path
):
    source, _ = sqlite_archive
    run = _run([*SILTFENCE, "backup", str(tmp_path / "nowhere" / "b.tar.gz")], source)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1
    assert "does not exist" in run.stderr
