"""Documents are served only as attachments, to people who may see the application.

A document whose record is in the database but whose file is not on the server (a
database restored without the uploads folder) answers a plain "file missing" page that
says whom to ask, and is logged as an error for whoever runs the server.
"""

from __future__ import annotations

import logging

from django.contrib.auth.decorators import login_required
from django.http import FileResponse, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from siltfence.apps.permits.models import Document
from siltfence.apps.permits.selectors import documents_visible_to
from siltfence.apps.permits.uploads import download_name
from siltfence.core.ordinance.loader import load

logger = logging.getLogger("siltfence.documents")


@login_required
@require_GET
def download(request: HttpRequest, pk: int) -> HttpResponseBase:
    document = get_object_or_404(documents_visible_to(user=request.user), pk=pk)
    try:
        handle = document.file.open("rb")
    except FileNotFoundError:
        return _file_missing(request, document)
    response = FileResponse(
        handle,
        as_attachment=True,
        filename=download_name(document.original_name, document.content_type),
        content_type=document.content_type,
    )
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    return response


def _file_missing(request: HttpRequest, document: Document) -> HttpResponse:
    application = document.application
    logger.error(
        "document %s of application %s: its file %s is missing from the uploads folder "
        "(sha256 %s); restore the uploads folder from the backup taken with the database",
        document.pk,
        application.number,
        document.file.name,
        document.sha256,
    )
    ordinance = load(application.village_id)
    context = {
        "document": document,
        "application": application,
        "authority": ordinance.authority_title,
        "village": ordinance.name,
    }
    return render(request, "web/document_missing.html", context, status=404)
