"""The staff page that imports a rain file: upload, check, import, and the record so far."""

from __future__ import annotations

import tempfile
from pathlib import Path

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import village_ids
from siltfence.apps.duties.services import rain_apply
from siltfence.apps.rain.forms import RainImportForm
from siltfence.apps.rain.selectors import stations_with_days
from siltfence.apps.rain.services import rain_file_import
from siltfence.core.errors import SiltfenceError

TOO_LARGE = "file: the file is larger than {limit:,} bytes, the most an upload takes"


@login_required
@require_http_methods(["GET", "POST"])
def import_page(request: HttpRequest) -> HttpResponse:
    """Staff of any village may import rain: a station's record serves every village."""
    if not village_ids(request.user, Role.STAFF):
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
                # Stored under a name the server makes, read twice, then deleted.
                with tempfile.TemporaryDirectory() as folder:
                    path = Path(folder) / "rain-upload"
                    with path.open("wb") as out:
                        for chunk in upload.chunks():
                            out.write(chunk)
                    try:
                        result = rain_file_import(
                            path=path,
                            station=form.cleaned_data["station"] or None,
                            units=form.cleaned_data["units"] or None,
                            actor=request.user,
                            name=upload.name,
                        )
                        result.file = upload.name[:80]
                        if result.first_changed is not None and result.last_changed is not None:
                            result.applied = rain_apply(
                                stations=list(result.stations),
                                first=result.first_changed,
                                last=result.last_changed,
                            ).says()
                    except SiltfenceError as exc:
                        form.add_error(None, str(exc))
        if form.errors:
            status = 400
    return render(
        request,
        "rain/import.html",
        {"form": form, "result": result, "stations": stations_with_days()},
        status=status,
    )
