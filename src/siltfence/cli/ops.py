"""``siltfence backup`` and ``siltfence restore``, and the Django set-up the server commands share.

Bad input (an unusable setting, a database that cannot be read, a damaged archive) ends
with exit status 2 and one line on stderr.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from siltfence.core.errors import SiltfenceError


def django_setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "siltfence.config.settings")
    import django
    from django.core.exceptions import ImproperlyConfigured

    try:
        django.setup()
    except (ImproperlyConfigured, ValueError) as exc:
        raise SiltfenceError(f"settings: {exc}") from None


@contextmanager
def database_errors(what: str = "the audit record") -> Iterator[None]:
    from django.db import DatabaseError

    try:
        yield
    except DatabaseError as exc:
        cause = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise SiltfenceError(
            f"database: cannot read {what} ({cause}); "
            "check DATABASE_URL and that the database is migrated"
        ) from None


def backup(
    path: Annotated[
        str, typer.Argument(help="The archive to write, e.g. siltfence-2026-06-01.tar.gz")
    ],
) -> None:
    """Back up the database and the uploads into one archive (tar.gz with a manifest)."""
    django_setup()
    from siltfence.apps.ops.backup import backup_create

    with database_errors("the database"):
        manifest = backup_create(Path(path))
    uploads = sum(1 for item in manifest["files"] if item["path"].startswith("media/"))
    sys.stdout.write(
        f"backup written: {Path(path).resolve()} ({manifest['vendor']} database, "
        f"{uploads} uploads, made {manifest['created']})\n"
    )


def restore(
    path: Annotated[str, typer.Argument(help="An archive written by `siltfence backup`")],
) -> None:
    """Restore an archive into an empty database and an empty uploads folder."""
    django_setup()
    from siltfence.apps.ops.backup import backup_restore

    with database_errors("the database"):
        manifest = backup_restore(Path(path))
    uploads = sum(1 for item in manifest["files"] if item["path"].startswith("media/"))
    sys.stdout.write(
        f"restored {Path(path).resolve()}: {manifest['vendor']} database and {uploads} uploads "
        f"as of {manifest['created']}; check it with `siltfence audit verify`\n"
    )
