"""The staff page that imports a rain file: upload, check, import, and the record so far;
the page where the clerk chooses which of a file's stations to import; and the page of an
import kept with its file (a file of several stations, or one too large to import while the
page waits)."""

from __future__ import annotations

import datetime
import tempfile
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import village_ids
from siltfence.apps.rain.forms import RainImportForm, StationChoiceForm
from siltfence.apps.rain.gauges import place_words, village_gauges
from siltfence.apps.rain.jobs import (
    INLINE_MAX_BYTES,
    REFRESH_SECONDS,
    goes_to_worker,
    rain_import_job_choose,
    rain_import_job_keep,
    rain_import_job_queue,
    rain_upload_import,
    read_size,
)
from siltfence.apps.rain.models import RainImportJob
from siltfence.apps.rain.selectors import (
    permits_served,
    rain_import_job_for,
    rain_import_jobs_of,
    stations_with_days,
)
from siltfence.apps.rain.services import StationsToChoose
from siltfence.core.errors import SiltfenceError
from siltfence.presentation.wording import plain

TOO_LARGE = "file: the file is larger than {limit:,} bytes, the most an upload takes"
# A job no worker has taken after this long, or with no news from its worker for this
# long, gets a note on its page: the worker may not be running.
WAITING_TOO_LONG = datetime.timedelta(minutes=2)
SILENT_TOO_LONG = datetime.timedelta(minutes=10)


@login_required
@require_http_methods(["GET", "POST"])
def import_page(request: HttpRequest) -> HttpResponse:
    """Staff of any village may import rain: a station's record serves every village."""
    villages = village_ids(request.user, Role.STAFF)
    if not villages:
        raise PermissionDenied
    form = RainImportForm(request.POST or None, request.FILES or None)
    result = None
    status = 200
    if request.method == "POST":
        if form.is_valid():
            upload = form.cleaned_data["file"]
            limit = settings.SILTFENCE_UPLOAD_MAX_BYTES
            if upload.size > limit:
                form.add_error("file", TOO_LARGE.format(limit=limit))
            else:
                # Stored under a name the server makes; deleted once imported or queued.
                with tempfile.TemporaryDirectory() as folder:
                    path = Path(folder) / "rain-upload"
                    with path.open("wb") as out:
                        for chunk in upload.chunks():
                            out.write(chunk)
                    options = {
                        "path": path,
                        "name": upload.name,
                        "station": form.cleaned_data["station"] or None,
                        "units": form.cleaned_data["units"] or None,
                        "actor": request.user,
                    }
                    try:
                        if goes_to_worker(path):
                            job = rain_import_job_queue(**options, villages=villages, choose=True)
                            return redirect("rain:job", job_id=job.pk)
                        result = rain_upload_import(**options, choose=True)
                    except StationsToChoose as several:
                        job = rain_import_job_keep(
                            **options, villages=villages, found=several.found
                        )
                        return redirect("rain:choose", job_id=job.pk)
                    except SiltfenceError as exc:
                        # A bad file is the file's error; a bad station ID or unit, theirs.
                        field = exc.field if exc.field in ("station", "units") else "file"
                        form.add_error(field, str(exc))
        if form.errors:
            status = 400
    return render(
        request,
        "rain/import.html",
        {
            "form": form,
            "result": result,
            "served": permits_served(result.stations, villages) if result else None,
            "stations": stations_with_days(),
            "jobs": rain_import_jobs_of(request.user),
            "gauges": village_gauges(villages),
            "inline_kb": INLINE_MAX_BYTES // 1024,
        },
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def choose_page(request: HttpRequest, job_id: int) -> HttpResponse:
    """The stations a kept file holds, to choose which to import (all ticked at first, or
    those chosen last time). Only staff who may see the job; anyone else is told there is
    no such page."""
    job = rain_import_job_for(request.user, job_id)
    if job is None:
        raise Http404
    villages = village_ids(request.user, Role.STAFF)
    if not villages:
        raise PermissionDenied
    found = job.found
    initial = job.chosen or job.imported or [s["id"] for s in found]
    data = request.POST if request.method == "POST" else None
    form = StationChoiceForm(data, found=found, initial={"stations": initial})
    kept = bool(job.file) and Path(job.file.path).is_file()
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                job = rain_import_job_choose(
                    job_id=job.pk, actor=request.user, stations=form.cleaned_data["stations"]
                )
                return redirect("rain:job", job_id=job.pk)
            except SiltfenceError as exc:
                field = exc.field if exc.field in form.fields else None
                form.add_error(field, plain(exc))
        status = 400
    chosen = set(form["stations"].value() or [])
    return render(
        request,
        "rain/choose.html",
        {
            "job": job,
            "form": form,
            "found": [_shown(s, ticked=s["id"] in chosen) for s in found],
            "kept": kept,
            "open": job.status in RainImportJob.CHOOSABLE and kept and bool(found),
            "at_once": kept and read_size(Path(job.file.path)) <= INLINE_MAX_BYTES,
        },
        status=status,
    )


def _shown(station: dict[str, Any], *, ticked: bool) -> dict[str, Any]:
    """A station of a file as the choice page shows it: days as dates, its place in words."""
    first, last = station.get("first"), station.get("last")
    where = place_words(station.get("latitude"), station.get("longitude"))
    place = f"Stands at {where}" if where else "Where it stands is not known"
    return {
        **station,
        "ticked": ticked,
        "first_day": datetime.date.fromisoformat(first) if first else None,
        "last_day": datetime.date.fromisoformat(last) if last else None,
        "place": place,
    }


@login_required
@require_GET
def job_page(request: HttpRequest, job_id: int) -> HttpResponse:
    """How far a background import has got, then what it changed or why it was refused.
    Anyone else than the uploader and the staff of the uploader's villages is told there is
    no such page."""
    job = rain_import_job_for(request.user, job_id)
    if job is None:
        raise Http404
    now = timezone.now()
    stuck = None
    # Waiting since it was uploaded, or since its stations were chosen.
    since = job.updated_at if job.chosen else job.created_at
    if job.status == RainImportJob.Status.QUEUED and now - since > WAITING_TOO_LONG:
        stuck = "waiting"
    elif job.status in RainImportJob.RUNNING and now - job.updated_at > SILENT_TOO_LONG:
        stuck = "silent"
    villages = village_ids(request.user, Role.STAFF)
    done = job.status == RainImportJob.Status.DONE
    return render(
        request,
        "rain/import_job.html",
        {
            "job": job,
            "refresh": REFRESH_SECONDS if job.status in RainImportJob.RUNNING else None,
            "stuck": stuck,
            "since": since,
            "served": permits_served(job.imported, villages) if done else None,
            "staff": bool(villages),
        },
    )
