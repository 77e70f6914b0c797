"""Where uploaded and generated files are kept: a file is in MEDIA_ROOT only once the row
that names it is committed.

A file field's ``save`` writes the file at once, before the transaction of its row
commits. With Django's plain file storage, a transaction rolled back, or a process killed
before it commits (the demo loader, a worker, a web process), left the file in MEDIA_ROOT
with no row naming it.

This storage writes a file saved inside a transaction to the process's own staging
folder, ``<MEDIA_ROOT>-staging/<process>/<name>``, and moves it to ``MEDIA_ROOT/<name>``
in ``transaction.on_commit``, once its row is committed (one rename: the two folders are
side by side). Until the move, the storage reads the file from the staging folder, so it
is there for whoever can see the row. A file saved outside any transaction is written
to MEDIA_ROOT directly, as before.

Each process holds a lock (``flock``) on its staging folder while it runs. A folder whose
lock is free belongs to a process that has ended, killed or not: ``staged_files_recover``
moves each of its files that a committed row names into MEDIA_ROOT (the process ended
between the commit and the move) and deletes the others (their transaction never
committed), then removes the folder. It runs when a process first stages a file, when the
demo loader starts, and before a backup. See docs/decisions/0022.
"""

from __future__ import annotations

import errno
import fcntl
import logging
import os
import shutil
import threading
import time
import uuid
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import IO, Any

from django.conf import settings
from django.core.files.storage import FileSystemStorage
from django.db import transaction
from django.utils._os import safe_join

log = logging.getLogger("siltfence.documents")

LOCK = ".lock"
MAKING = ".new"
# A folder still being made (``<token>.new``) is left alone for this long: its maker may
# not hold its lock yet.
MAKING_GRACE_SECONDS = 60


def staging_root() -> Path:
    """The staging folders' parent, beside MEDIA_ROOT (``var/media`` -> ``var/media-staging``)."""
    media = Path(settings.MEDIA_ROOT)
    return media.with_name(media.name + "-staging")


@dataclass
class _Folder:
    root: Path
    path: Path
    pid: int
    lock: IO[str]


_own: _Folder | None = None
_guard = threading.Lock()


def _own_folder() -> Path:
    """This process's staging folder under the current staging root, made (and locked)
    on first use; the folders of ended processes are recovered first."""
    global _own
    root = staging_root()
    with _guard:
        if _own is not None and _own.pid == os.getpid() and _own.root == root:
            return _own.path
        if _own is not None:
            # Another root (settings changed), or a copy inherited by a forked child:
            # let that folder go (for a child, the parent keeps its own lock).
            _own.lock.close()
            _own = None
        root.mkdir(parents=True, exist_ok=True)
        staged_files_recover(root)
        token = f"{os.getpid()}-{uuid.uuid4().hex[:12]}"
        making = root / (token + MAKING)
        making.mkdir()
        lock = (making / LOCK).open("w")
        fcntl.flock(lock, fcntl.LOCK_EX)
        path = root / token
        os.rename(making, path)
        _own = _Folder(root=root, path=path, pid=os.getpid(), lock=lock)
        return path


def _move(staged: Path, final: Path) -> None:
    final.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.replace(staged, final)
    except OSError as exc:
        if exc.errno != errno.EXDEV:
            raise
        # Another file system: copy beside the target, then rename it into place.
        partial_copy = final.with_name(f".{final.name}.{uuid.uuid4().hex[:8]}.part")
        shutil.copyfile(staged, partial_copy)
        os.replace(partial_copy, final)
        staged.unlink()


def _publish(staged: Path, final: Path) -> None:
    """After the commit: move the staged file into MEDIA_ROOT."""
    if staged.exists():
        _move(staged, final)


def _file_fields() -> list[tuple[Any, str]]:
    from django.apps import apps
    from django.db.models import FileField

    return [
        (model, field.name)
        for model in apps.get_models()
        for field in model._meta.concrete_fields
        if isinstance(field, FileField)
    ]


def file_is_named(name: str) -> bool:
    """Whether a committed row names the stored file ``name``."""
    return any(
        model._default_manager.filter(**{field: name}).exists() for model, field in _file_fields()
    )


def _try_lock(folder: Path) -> IO[str] | None:
    """The folder's lock if its process has ended (the lock is free), else None. A folder
    with no lock file (its process was killed while making it) is locked afresh."""
    try:
        lock = (folder / LOCK).open("a")
    except FileNotFoundError:  # the folder is gone: recovered meanwhile
        return None
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        return None
    return lock


def staged_files_recover(root: Path | None = None) -> dict[str, int]:
    """Finish or undo the staged files of processes that have ended.

    A staged file a committed row names is moved into MEDIA_ROOT; any other is deleted.
    The folders of running processes are left alone. Returns how many files were moved
    ("published") and deleted ("deleted")."""
    root = root or staging_root()
    done = {"published": 0, "deleted": 0}
    if not root.is_dir():
        return done
    media = Path(settings.MEDIA_ROOT)
    for folder in sorted(root.iterdir()):
        if not folder.is_dir() or (_own is not None and folder == _own.path):
            continue
        young = time.time() - folder.stat().st_mtime < MAKING_GRACE_SECONDS
        if folder.name.endswith(MAKING) and young:
            continue
        lock = _try_lock(folder)
        if lock is None:
            continue  # its process is running (or another process recovers it)
        try:
            for staged in sorted(p for p in folder.rglob("*") if p.is_file()):
                name = staged.relative_to(folder).as_posix()
                if name == LOCK:
                    continue
                if file_is_named(name):
                    _move(staged, Path(safe_join(str(media), name)))
                    done["published"] += 1
                    log.warning("stored file %s moved into place after its process ended", name)
                else:
                    staged.unlink()
                    done["deleted"] += 1
            shutil.rmtree(folder, ignore_errors=True)
        finally:
            lock.close()
    return done


def _staged_path(name: str) -> str | None:
    """Where a staged, not yet moved file ``name`` is: this process's folder first."""
    root = staging_root()
    folders = []
    if _own is not None and _own.root == root and _own.pid == os.getpid():
        folders.append(_own.path)
    if root.is_dir():
        folders += [f for f in sorted(root.iterdir()) if f.is_dir() and f not in folders]
    for folder in folders:
        candidate = safe_join(str(folder), name)
        if os.path.lexists(candidate):
            return candidate
    return None


class StagedFileSystemStorage(FileSystemStorage):
    """The file system storage, with writes inside a transaction moved into place on commit."""

    # ``_save``, the method a storage implements (Django's docs), is missing from the stubs.
    def _save(self, name: str, content: Any) -> str:
        if not transaction.get_connection().in_atomic_block:
            return str(super()._save(name, content))  # type: ignore[misc]
        staging = FileSystemStorage(
            location=_own_folder(),
            file_permissions_mode=self.file_permissions_mode,
            directory_permissions_mode=self.directory_permissions_mode,
        )
        name = str(staging._save(name, content))  # type: ignore[attr-defined]
        staged = Path(staging.path(name))
        final = Path(super().path(name))
        transaction.on_commit(partial(_publish, staged, final), robust=True)
        return name

    def path(self, name: str) -> str:
        final = str(super().path(name))
        if os.path.lexists(final):
            return final
        return _staged_path(name) or final
