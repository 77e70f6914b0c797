"""Refuse a request whose body is too large before any of it is read."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from siltfence.apps.web.error_views import request_limit, too_large


class RequestSizeLimitMiddleware:
    """413 for a request that announces a body over ``SILTFENCE_REQUEST_MAX_BYTES``.

    Django limits the form fields it reads into memory (``DATA_UPLOAD_MAX_MEMORY_SIZE``),
    but not the files of a multipart upload; this bounds the whole body, uploads included,
    on the length the client announces. A body sent without a length is still bounded by
    Django's own limit, which answers 413 through ``error_views.bad_request``.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        length = request.META.get("CONTENT_LENGTH") or ""
        if length.isdecimal() and int(length) > request_limit():
            return too_large(request, int(length))
        return self.get_response(request)
