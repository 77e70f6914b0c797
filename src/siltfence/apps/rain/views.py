"""The staff page that imports a rain file: upload, check, import, and the record so far;
and the page of an import the background worker does (a file too large to import while the
page waits)."""

from __future__ import annotations

import datetime
import tempfile
from pathlib import Path

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import village_ids
from siltfence.apps.rain.forms import RainImportForm
from siltfence.apps.rain.jobs import (
    REFRESH_SECONDS,
    goes_to_worker,
    rain_import_job_queue,
    rain_upload_import,
)
from siltfence.apps.rain.models import RainImportJob
from siltfence.apps.rain.selectors import (
    rain_import_job_for,
    rain_import_jobs_of,
    stations_with_days,
)
from siltfence.core.errors import SiltfenceError

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
                            job = rain_import_job_queue(**options, villages=villages)
                            return redirect("rain:job", job_id=job.pk)
                        result = rain_upload_import(**options)
                    except SiltfenceError as exc:
                        form.add_error(None, str(exc))
        if form.errors:
            status = 400
    return render(
        request,
        "rain/import.html",
        {
            "form": form,
            "result": result,
            "stations": stations_with_days(),
            "jobs": rain_import_jobs_of(request.user),
        },
        status=status,
    )


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
    if job.status == RainImportJob.Status.QUEUED and now - job.created_at > WAITING_TOO_LONG:
        stuck = "waiting"
    elif job.status in RainImportJob.RUNNING and now - job.updated_at > SILENT_TOO_LONG:
        stuck = "silent"
    return render(
        request,
        "rain/import_job.html",
        {
            "job": job,
            "refresh": None if job.ended else REFRESH_SECONDS,
            "stuck": stuck,
        },
    )
