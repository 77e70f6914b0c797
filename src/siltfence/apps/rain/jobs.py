"""Rain files uploaded on the staff page: a small one is imported while the page waits, a
large one by the background worker, with a page that shows how far it has got.

Importing a 9 MB gauge file (400,000 readings) takes about a minute; a web process held
that long is one the village's other staff cannot use, and a proxy may give up on the
request first. So a file larger than ``INLINE_MAX_BYTES`` (a season of one station is far
less) is stored, given a ``RainImportJob`` and put on the worker's queue; the page it is
uploaded on sends the clerk to the job's page. The import itself is the same function
either way (``rain_file_import``): checked whole before anything is written, then written
in batches keyed on station and day, so a file the worker refuses leaves nothing behind,
and one it imports twice changes nothing the second time.

A file that holds several stations is not imported until the clerk has chosen which
(``rain_import_job_choose``): it is kept with its job, waiting ("choosing"), found so by the
page's own check (a small file) or by the worker's (a large one). The choice page may be
opened again once the file is imported, to import more of its stations; importing a
station again changes nothing.
"""

from __future__ import annotations

import datetime
import re
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.core.files import File
from django.db import transaction
from django.utils import timezone

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import village_ids
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.rain.models import RainImportJob
from siltfence.apps.rain.services import (
    NOT_IN_FILE,
    ZONE,
    ImportResult,
    StationsToChoose,
    file_sha256,
    rain_file_import,
    rain_file_recognise,
)
from siltfence.apps.rain.signals import rain_recorded_send
from siltfence.core.errors import SiltfenceError
from siltfence.core.rain.lines import GZIP_MAGIC
from siltfence.core.rain.record import MAX_STATIONS

# Files up to this size are imported while the page waits, in about a second or two on a
# small server (a 9 MB gauge file took 53 s); a season of one station is a few kilobytes.
INLINE_MAX_BYTES = 200 * 1024
# The page of a job that is still running is refreshed this often (seconds).
REFRESH_SECONDS = 2
# Progress is written to the job's row at most this often (seconds): often enough for a
# page refreshed every 2 s, seldom enough not to slow the import.
PROGRESS_EVERY = 1.0

REFUSED = "{reason}. Nothing of the file was written: correct the file and upload it again."
UNEXPECTED = (
    "The import stopped on an unexpected error. The days already written are kept whole, "
    "and uploading the same file again completes the import without doubling anything."
)
GONE = "The uploaded file is no longer on the server; upload it again."
NOT_STAFF = "user: only a village's staff may import rain"
NOT_VISIBLE = "job: no such import of yours or your village's"
NOT_CHOOSABLE = "stations: this file is {status}; its stations can be chosen once it is checked"
NONE_CHOSEN = "stations: choose at least one station to import"
FILE_GONE = "file: the uploaded file is no longer on the server; upload it again"

Phase = Callable[[str, int], None]


def read_size(path: Path) -> int:
    """How many bytes importing ``path`` reads: its size, or for a gzip file the size it
    expands to, as its last four bytes say (gzip's ISIZE, the size modulo 4 GiB)."""
    size = path.stat().st_size
    with path.open("rb") as handle:
        if handle.read(2) != GZIP_MAGIC or size < 18:
            return size
        handle.seek(-4, 2)
        return max(size, int.from_bytes(handle.read(4), "little"))


def goes_to_worker(path: Path) -> bool:
    return read_size(path) > INLINE_MAX_BYTES


def staff_villages(actor: Any) -> set[str]:
    """The villages ``actor`` is staff of; none is refused: only staff import rain."""
    villages = village_ids(actor, Role.STAFF)
    if not villages:
        raise ActionRefused(NOT_STAFF, field="user")
    return villages


def rain_upload_import(
    *,
    path: Path,
    name: str,
    station: str | None,
    units: str | None,
    actor: Any,
    read_on: datetime.date | None = None,
    on_progress: Phase | None = None,
    choose: bool = False,
) -> ImportResult:
    """Import an uploaded rain file, then write its new rain onto the permits at once (as
    ``siltfence rain import`` does). Raises ``SiltfenceError`` for a bad file, before
    anything is written; with ``choose``, ``StationsToChoose`` for a file of several
    stations, also before anything is written. Only a village's staff may import."""
    staff_villages(actor)
    result = rain_file_import(
        path=path,
        station=station,
        units=units,
        actor=actor,
        name=name,
        read_on=read_on,
        on_progress=on_progress,
        ask_when_several=choose,
    )
    return _applied(result, name)


def _applied(result: ImportResult, name: str) -> ImportResult:
    """The import's result, named as uploaded, with what its new rain changed on the
    permits (written onto them now, not at the next morning's sweep)."""
    result.file = name[:80]
    if result.first_changed is not None and result.last_changed is not None:
        result.applied = rain_recorded_send(
            stations=list(result.stations), first=result.first_changed, last=result.last_changed
        )
    return result


def rain_import_job_queue(
    *,
    path: Path,
    name: str,
    station: str | None,
    units: str | None,
    actor: Any,
    villages: set[str],
    choose: bool = False,
) -> RainImportJob:
    """Store an uploaded rain file and put its import on the worker's queue. With
    ``choose``, a file the worker finds several stations in waits for the uploader's
    choice (``rain_import_job_choose``) instead of importing them all.

    What can be told at once is checked first, so a clerk hears of it on the upload page
    and nothing is stored: the station ID, and whether the file is a rain file siltfence
    reads (its first line), naming a station or given one."""
    villages = villages & staff_villages(actor)
    station = rain_file_recognise(path=path, station=station, units=units)
    with transaction.atomic():
        job = _job_stored(
            path=path,
            name=name,
            station=station,
            units=units,
            actor=actor,
            villages=villages,
            choose=choose,
        )
        # After the commit, so the worker finds the row and its file moved into place.
        transaction.on_commit(lambda: _enqueue(job.pk))
    return job


def rain_import_job_keep(
    *,
    path: Path,
    name: str,
    station: str | None,
    units: str | None,
    actor: Any,
    villages: set[str],
    found: list[dict[str, Any]],
) -> RainImportJob:
    """Keep a checked file of several stations (``found``, as ``StationsToChoose`` gave
    them) with a job waiting for the uploader to choose which to import."""
    villages = villages & staff_villages(actor)
    with transaction.atomic():
        return _job_stored(
            path=path,
            name=name,
            station=station,
            units=units,
            actor=actor,
            villages=villages,
            choose=True,
            status=RainImportJob.Status.CHOOSING,
            found=found[:MAX_STATIONS],
        )


def _job_stored(
    *,
    path: Path,
    name: str,
    station: str | None,
    units: str | None,
    actor: Any,
    villages: set[str],
    choose: bool,
    status: str = RainImportJob.Status.QUEUED,
    found: list[dict[str, Any]] | None = None,
) -> RainImportJob:
    """A job's row and its file, stored under a name the server makes. Call inside a
    transaction: the file reaches the uploads folder only when the row commits."""
    now = timezone.now()
    job = RainImportJob(
        user=actor,
        villages=sorted(villages),
        name=_shown_name(name),
        sha256=file_sha256(path),
        station=station or "",
        units=units or "",
        status=status,
        choose=choose,
        found=found or [],
        bytes_total=path.stat().st_size,
        created_at=now,
        updated_at=now,
    )
    with path.open("rb") as handle:
        # A name the server makes: the uploader's name is shown, never used on disk.
        job.file.save(f"{uuid.uuid4().hex}.rain", File(handle), save=False)
    job.save()
    return job


def rain_import_job_choose(*, job_id: int, actor: Any, stations: list[str]) -> RainImportJob:
    """The uploader (or a colleague on the village's staff) chooses which of a kept
    file's stations to import. A small file is imported at once, a large one goes to the
    worker; either way the job's page follows it. A file already imported may be chosen
    from again, to import more of its stations (those imported before change nothing).

    Refused (``ActionRefused``, nothing written): anyone but the village's staff who may
    see the job (``NOT_VISIBLE`` for a job they may not see), a job still being checked or
    imported, no station chosen, a station the file does not hold, a file no longer kept.
    """
    from siltfence.apps.rain.selectors import rain_import_job_for

    staff_villages(actor)
    job = rain_import_job_for(actor, job_id)
    if job is None:
        raise ActionRefused(NOT_VISIBLE, field="job")
    if job.status not in RainImportJob.CHOOSABLE:
        raise ActionRefused(NOT_CHOOSABLE.format(status=job.get_status_display()), field="stations")
    wanted = [str(s)[:40] for s in stations][: MAX_STATIONS + 1]
    if not wanted:
        raise ActionRefused(NONE_CHOSEN, field="stations")
    known = [station["id"] for station in job.found]
    for station in wanted:
        if station not in known:
            raise ActionRefused(NOT_IN_FILE.format(station=station), field="stations")
    path = Path(job.file.path)
    if not path.is_file():
        raise ActionRefused(FILE_GONE, field="file")
    chosen = [station for station in known if station in wanted]  # the file's order
    with transaction.atomic():
        taken = RainImportJob.objects.filter(pk=job.pk, status__in=RainImportJob.CHOOSABLE).update(
            status=RainImportJob.Status.QUEUED,
            chosen=chosen,
            bytes_done=0,
            summary="",
            applied="",
            error="",
            imported=[],
            updated_at=timezone.now(),
            finished_at=None,
        )
        if not taken:  # chosen by someone else in the meantime
            job.refresh_from_db()
            raise ActionRefused(
                NOT_CHOOSABLE.format(status=job.get_status_display()), field="stations"
            )
        if goes_to_worker(path):
            transaction.on_commit(lambda: _enqueue(job.pk))
    if not goes_to_worker(path):
        rain_import_job_run(job_id=job.pk)
    job.refresh_from_db()
    return job


def _enqueue(job_id: int) -> None:
    from siltfence.apps.rain.tasks import rain_import_task

    rain_import_task.enqueue(job_id)


def rain_import_job_run(*, job_id: int) -> str:
    """Import a queued job's file (the worker's task). A job that is not waiting (done,
    refused, or taken by another run) is left alone: running the task twice imports once.
    Returns the job's status."""
    now = timezone.now()
    taken = RainImportJob.objects.filter(pk=job_id, status=RainImportJob.Status.QUEUED).update(
        status=RainImportJob.Status.CHECKING, bytes_done=0, updated_at=now
    )
    if not taken:
        found = RainImportJob.objects.filter(pk=job_id).values_list("status", flat=True).first()
        return str(found or "missing")
    job = RainImportJob.objects.select_related("user").get(pk=job_id)
    path = Path(job.file.path)
    if not path.is_file():
        return _end(job, RainImportJob.Status.FAILED, error=GONE)
    try:
        try:
            result = rain_file_import(
                path=path,
                station=job.station or None,
                units=job.units or None,
                actor=job.user,
                name=job.name,
                read_on=job.created_at.astimezone(ZONE).date(),
                on_progress=_progress(job),
                only=job.chosen or None,
                ask_when_several=job.choose and not job.chosen,
            )
        except StationsToChoose as several:  # checked whole, nothing written
            RainImportJob.objects.filter(pk=job.pk).update(
                status=RainImportJob.Status.CHOOSING,
                found=several.found[:MAX_STATIONS],
                bytes_done=0,
                updated_at=timezone.now(),
            )
            return RainImportJob.Status.CHOOSING
        except SiltfenceError as exc:  # found by the check, before anything was written
            reason = _one_line(str(exc))[:400].rstrip(".")
            return _end(job, RainImportJob.Status.FAILED, error=REFUSED.format(reason=reason))
        _applied(result, job.name)
    except Exception:
        _end(job, RainImportJob.Status.FAILED, error=UNEXPECTED)
        raise  # the worker keeps the details for whoever runs the server
    RainImportJob.objects.filter(pk=job.pk).update(
        imported=sorted(result.stations),
        # The file's stations, kept so that more of them may be chosen later; a run of
        # chosen stations read only those, so the list from the first check stays.
        **({} if job.chosen and job.found else {"found": result.found[:MAX_STATIONS]}),
    )
    return _end(job, RainImportJob.Status.DONE, summary=result.says(), applied=result.applied)


def _progress(job: RainImportJob) -> Phase:
    """The import's progress callback: the step and the bytes read, onto the job's row."""
    last: dict[str, Any] = {"phase": "check", "at": 0.0}

    def report(phase: str, done: int) -> None:
        moment = time.monotonic()
        if phase == last["phase"] and moment - last["at"] < PROGRESS_EVERY:
            return
        last.update(phase=phase, at=moment)
        status = (
            RainImportJob.Status.CHECKING if phase == "check" else RainImportJob.Status.IMPORTING
        )
        RainImportJob.objects.filter(pk=job.pk, status__in=RainImportJob.RUNNING).update(
            status=status, bytes_done=min(done, job.bytes_total), updated_at=timezone.now()
        )

    return report


def _end(job: RainImportJob, status: str, **outcome: str) -> str:
    now = timezone.now()
    if "error" in outcome:
        outcome["error"] = _one_line(outcome["error"])
    RainImportJob.objects.filter(pk=job.pk).update(
        status=status,
        bytes_done=job.bytes_total if status == RainImportJob.Status.DONE else 0,
        updated_at=now,
        finished_at=now,
        **outcome,
    )
    return status


def _one_line(text: str) -> str:
    flat = re.sub(r"\s+", " ", text).strip() or UNEXPECTED
    return flat if len(flat) <= 500 else flat[:497] + "..."


def _shown_name(name: str) -> str:
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    cleaned = "".join(ch for ch in base if ch.isprintable())
    return cleaned[:120] or "rain file"
