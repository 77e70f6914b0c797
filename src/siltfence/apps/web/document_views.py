"""Documents are served only as attachments, to people who may see the application."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import FileResponse, HttpRequest
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from siltfence.apps.permits.models import Document
from siltfence.apps.permits.selectors import applications_visible_to


@login_required
@require_GET
def download(request: HttpRequest, pk: int) -> FileResponse:
    document = get_object_or_404(
        Document.objects.filter(application__in=applications_visible_to(request.user)), pk=pk
    )
    response = FileResponse(
        document.file.open("rb"),
        as_attachment=True,
        filename=document.original_name,
        content_type=document.content_type,
    )
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    return response
