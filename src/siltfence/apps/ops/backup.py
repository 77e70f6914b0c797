"""One archive holding the database and the uploads, and its restore into an empty database.

The archive is a tar.gz of:

- ``manifest.json``: the format and its version, the database vendor, when it was made
  (UTC), and every other file with its size and sha256;
- ``database.sqlite3`` (SQLite's online backup API, a consistent copy while the app runs)
  or ``database.pgdump`` (``pg_dump`` in its custom format);
- ``media/...``: the uploads (MEDIA_ROOT) as they are stored.

A restore checks the whole archive against its manifest before it touches anything, and
restores only into an empty database and an empty uploads folder. Nothing is ever
half-restored: SQLite is restored into a file beside the target, which then replaces it
in one rename; PostgreSQL is restored by ``pg_restore --single-transaction``, which leaves
the database empty if any statement fails; the uploads are unpacked beside their folder
and moved into place in one rename.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import tarfile
import tempfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connections

from siltfence.core.errors import SiltfenceError

FORMAT = "siltfence-backup"
VERSION = 1
MANIFEST = "manifest.json"
DATABASE_FILE = {"sqlite": "database.sqlite3", "postgresql": "database.pgdump"}
_CHUNK = 1024 * 1024


class BackupError(SiltfenceError):
    """A backup or restore that cannot be done; the message says why, in one line."""


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _entry(root: Path, path: Path) -> dict[str, Any]:
    return {
        "path": path.relative_to(root).as_posix(),
        "size": path.stat().st_size,
        "sha256": _sha256(path),
    }


def _vendor() -> tuple[str, dict[str, Any]]:
    connection = connections["default"]
    if connection.vendor not in DATABASE_FILE:
        raise BackupError(
            f"database: siltfence backs up SQLite and PostgreSQL, not {connection.vendor}"
        )
    return connection.vendor, connection.settings_dict


def _pg_env(database: dict[str, Any]) -> dict[str, str]:
    env = dict(os.environ)
    for variable, key in (
        ("PGHOST", "HOST"),
        ("PGPORT", "PORT"),
        ("PGUSER", "USER"),
        ("PGPASSWORD", "PASSWORD"),
    ):
        if database.get(key):
            env[variable] = str(database[key])
    return env


def _run_pg(tool: str, args: list[str], database: dict[str, Any]) -> None:
    if shutil.which(tool) is None:
        raise BackupError(
            f"{tool} is not installed; install PostgreSQL's client programs "
            "(Debian: apt-get install postgresql-client)"
        )
    run = subprocess.run(
        [tool, *args], capture_output=True, text=True, env=_pg_env(database), check=False
    )
    if run.returncode != 0:
        lines = [line for line in run.stderr.splitlines() if line.strip()]
        raise BackupError(f"{tool} failed: {lines[0] if lines else f'exit {run.returncode}'}")


def _sqlite_path(database: dict[str, Any]) -> Path:
    return Path(str(database["NAME"]))


def _dump_database(vendor: str, database: dict[str, Any], out: Path) -> None:
    if vendor == "sqlite":
        source_path = _sqlite_path(database)
        if not source_path.is_file():
            raise BackupError(f"database: there is no SQLite database at {source_path}")
        source = sqlite3.connect(source_path)
        target = sqlite3.connect(out)
        try:
            with target:
                source.backup(target)
        finally:
            target.close()
            source.close()
        return
    _run_pg(
        "pg_dump",
        ["--format=custom", "--no-owner", "--no-privileges", "--file", str(out), database["NAME"]],
        database,
    )


def backup_create(target: Path) -> dict[str, Any]:
    """Write the archive to ``target`` (replacing it in one rename); return its manifest."""
    target = target.resolve()
    if not target.parent.is_dir():
        raise BackupError(f"{target}: the folder {target.parent} does not exist")
    if target.is_dir():
        raise BackupError(f"{target}: is a folder; give the archive's file name")
    vendor, database = _vendor()
    media_root = Path(settings.MEDIA_ROOT)
    from siltfence.apps.documents.storage import staged_files_recover

    # The files of committed records that a process ended before moving into MEDIA_ROOT
    # are moved there first, so the archive holds them (decision 22).
    staged_files_recover()
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".siltfence-backup-") as tmp:
        staging = Path(tmp) / "content"
        staging.mkdir()
        database_file = staging / DATABASE_FILE[vendor]
        _dump_database(vendor, database, database_file)
        files = [_entry(staging, database_file)]
        if media_root.is_dir():
            for source in sorted(p for p in media_root.rglob("*") if p.is_file()):
                if source.is_symlink():
                    continue
                copy = staging / "media" / source.relative_to(media_root)
                copy.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, copy)
                files.append(_entry(staging, copy))
        manifest = {
            "format": FORMAT,
            "version": VERSION,
            "vendor": vendor,
            "created": datetime.datetime.now(datetime.UTC).replace(microsecond=0).isoformat(),
            "files": files,
        }
        (staging / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
        partial = Path(tmp) / "archive.tar.gz"
        with tarfile.open(partial, "w:gz") as tar:
            tar.add(staging / MANIFEST, arcname=MANIFEST, recursive=False)
            for item in files:
                tar.add(staging / item["path"], arcname=item["path"], recursive=False)
        with partial.open("rb") as handle:
            os.fsync(handle.fileno())
        os.chmod(partial, 0o600)  # the archive holds the whole database
        os.replace(partial, target)
    return manifest


# --- restore -------------------------------------------------------------------------------


def _damaged(archive: Path, why: str) -> BackupError:
    return BackupError(f"{archive}: not a usable siltfence backup ({why}); nothing was restored")


def _unpack(archive: Path, into: Path) -> dict[str, Any]:
    """Unpack and check every file against the manifest; return the manifest."""
    try:
        with tarfile.open(archive, "r:gz") as tar:
            members = tar.getmembers()
            for member in members:
                if not member.isfile():
                    raise _damaged(archive, f"{member.name!r} is not a plain file")
            tar.extractall(into, filter="data")
    except (tarfile.TarError, EOFError, zlib.error, OSError) as exc:
        if isinstance(exc, FileNotFoundError):
            raise BackupError(f"{archive}: no such file") from None
        cause = str(exc).strip() or type(exc).__name__
        raise _damaged(archive, f"damaged or not a tar.gz archive: {cause}") from None
    try:
        manifest = json.loads((into / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise _damaged(archive, "it has no manifest.json") from None
    except (ValueError, UnicodeDecodeError):
        raise _damaged(archive, "its manifest.json is not JSON") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise _damaged(archive, "its manifest is not a siltfence backup's")
    if manifest.get("version") != VERSION:
        raise _damaged(
            archive,
            f"format version {manifest.get('version')!r}; this siltfence reads version {VERSION}",
        )
    files = manifest.get("files")
    if manifest.get("vendor") not in DATABASE_FILE or not isinstance(files, list):
        raise _damaged(archive, "its manifest has no database vendor or no file list")
    listed = set()
    for item in files:
        try:
            path, size, digest = str(item["path"]), int(item["size"]), str(item["sha256"])
        except (KeyError, TypeError, ValueError):
            raise _damaged(
                archive, "its manifest lists a file without path, size and sha256"
            ) from None
        stored = into / path
        if not stored.is_file():
            raise _damaged(archive, f"{path} is listed in the manifest but missing")
        if stored.stat().st_size != size or _sha256(stored) != digest:
            raise _damaged(archive, f"{path} does not match its sha256 in the manifest")
        listed.add(path)
    if DATABASE_FILE[manifest["vendor"]] not in listed:
        raise _damaged(archive, "it holds no database")
    extra = {m.name for m in members} - listed - {MANIFEST}
    if extra:
        raise _damaged(archive, f"{sorted(extra)[0]} is not listed in the manifest")
    return manifest


def _sqlite_is_empty(path: Path) -> bool:
    if not path.exists() or path.stat().st_size == 0:
        return True
    tables: int
    connection = sqlite3.connect(path)
    try:
        (tables,) = connection.execute(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'"
        ).fetchone()
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"database: {path} is not a SQLite database ({exc})") from None
    finally:
        connection.close()
    return tables == 0


def _postgres_is_empty() -> bool:
    connection = connections["default"]
    tables: int
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT COUNT(*) FROM pg_catalog.pg_tables "
            "WHERE schemaname NOT IN ('pg_catalog', 'information_schema')"
        )
        (tables,) = cursor.fetchone()
    connection.close()
    return tables == 0


@contextlib.contextmanager
def _staging(beside: Path) -> Iterator[Path]:
    beside.parent.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(dir=beside.parent, prefix=".siltfence-restore-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def backup_restore(archive: Path) -> dict[str, Any]:
    """Restore ``archive`` into the configured, empty database and uploads folder."""
    archive = archive.resolve()
    if not archive.is_file():
        raise BackupError(f"{archive}: no such file")
    vendor, database = _vendor()
    media_root = Path(settings.MEDIA_ROOT).resolve()
    with _staging(media_root) as staging:
        manifest = _unpack(archive, staging)
        if manifest["vendor"] != vendor:
            raise BackupError(
                f"{archive}: holds a {manifest['vendor']} database, but the configured database "
                f"(DATABASE_URL) is {vendor}; nothing was restored"
            )
        if media_root.exists() and (not media_root.is_dir() or any(media_root.iterdir())):
            raise BackupError(
                f"uploads: {media_root} is not empty; restore into an empty uploads folder"
            )
        dump = staging / DATABASE_FILE[vendor]
        if vendor == "sqlite":
            _restore_sqlite(dump, _sqlite_path(database))
        else:
            if not _postgres_is_empty():
                raise BackupError(
                    f"database: {database['NAME']} is not empty; restore into an empty database"
                )
            _run_pg(
                "pg_restore",
                [
                    "--single-transaction",
                    "--exit-on-error",
                    "--no-owner",
                    "--no-privileges",
                    "--dbname",
                    database["NAME"],
                    str(dump),
                ],
                database,
            )
        uploads = staging / "media"
        if media_root.is_dir():
            media_root.rmdir()  # empty, checked above
        if uploads.is_dir():
            os.replace(uploads, media_root)
        else:
            media_root.mkdir(parents=True)
    return manifest


def _restore_sqlite(dump: Path, target: Path) -> None:
    connections["default"].close()
    if not _sqlite_is_empty(target):
        raise BackupError(f"database: {target} is not empty; restore into an empty database")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".restoring")
    shutil.copyfile(dump, partial)
    check = sqlite3.connect(partial)
    try:
        (result,) = check.execute("PRAGMA integrity_check").fetchone()
    except sqlite3.DatabaseError as exc:
        result = str(exc)
    finally:
        check.close()
    if result != "ok":
        partial.unlink(missing_ok=True)
        raise BackupError(
            f"database: the backed-up SQLite file fails its integrity check ({result})"
        )
    with partial.open("rb") as handle:
        os.fsync(handle.fileno())
    # An empty target's own write-ahead log must not be replayed over the restored file.
    for suffix in ("-wal", "-shm"):
        target.with_name(target.name + suffix).unlink(missing_ok=True)
    os.replace(partial, target)
