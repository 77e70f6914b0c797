"""What a visitor sees when something goes wrong: plain pages that keep the site's
navigation and show nothing of the program's insides. Under /api/ the answer is JSON in
the API's error shape, ``{"detail": ..., "field": ...}``.

The 400 and 500 pages are rendered without the request (as Django's own are): no context
processor runs, so they make no database query and need no session. If even that fails
(a static file missing from the manifest, say), the 500 answer is a fixed page.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader

logger = logging.getLogger("siltfence.errors")

MB = 1024 * 1024
API_DETAIL = {
    400: "the request could not be read",
    403: "you may not do this",
    404: "there is nothing at this address; the API's documentation is at /api/docs",
    500: "something went wrong on the server; the request was not completed",
}
TOO_LARGE_API = (
    "request: the request is {size} bytes; the limit is {limit} bytes "
    "(a file may be at most {upload} MB)"
)
FIXED_500 = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Something went wrong · siltfence</title></head>
<body><header><a href="/">siltfence</a> · <a href="/">Do I need a permit?</a> ·
<a href="/ordinances/">Ordinances</a></header>
<main><h1>Something went wrong</h1>
<p>The page could not be shown because of a fault on the server. Nothing you typed was
lost on your side; please try again in a few minutes. If it keeps happening, tell the
village office.</p></main></body></html>
"""


def _is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith("/api/")


def _api(status: int, detail: str, field: str | None = None) -> JsonResponse:
    return JsonResponse({"detail": detail, "field": field}, status=status)


def _page(
    request: HttpRequest | None, template: str, status: int, **context: object
) -> HttpResponse:
    body = loader.render_to_string(template, context, request=request)
    return HttpResponse(body, status=status)


def request_limit() -> int:
    return int(settings.SILTFENCE_REQUEST_MAX_BYTES)


def _discard_body(request: HttpRequest, size: int | None, limit: int) -> None:
    """Read and drop what is left of a refused body.

    A browser sends the whole body before it reads the answer; if the server answered and
    closed with the body unread, the browser would show a reset connection instead of the
    413 (gunicorn drains only a few kilobytes itself). Not past four times the limit: a
    larger body is not worth the wait, and that connection is simply closed.
    """
    if size is not None and size > 4 * limit:
        return
    drained = 0
    try:
        while drained <= 4 * limit:
            chunk = request.read(64 * 1024)
            if not chunk:
                return
            drained += len(chunk)
    except OSError:
        return


def too_large(request: HttpRequest, size: int | None = None) -> HttpResponse:
    """413: the request body is larger than the server takes."""
    limit = request_limit()
    _discard_body(request, size, limit)
    upload_mb = int(settings.SILTFENCE_UPLOAD_MAX_BYTES) // MB
    if _is_api(request):
        shown = f"{size:,}" if size is not None else f"more than {limit:,}"
        return _api(
            413,
            TOO_LARGE_API.format(size=shown, limit=f"{limit:,}", upload=upload_mb),
            "(body)",
        )
    size_mb = f"{size / MB:,.1f} MB" if size is not None else None
    return _page(request, "413.html", 413, size=size_mb, upload_mb=upload_mb)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if isinstance(exception, RequestDataTooBig):
        length = request.META.get("CONTENT_LENGTH") or ""
        return too_large(request, int(length) if length.isdecimal() else None)
    if _is_api(request):
        return _api(400, API_DETAIL[400], "(body)")
    return _page(None, "400.html", 400)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return _api(403, API_DETAIL[403])
    return _page(request, "403.html", 403)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return _api(404, API_DETAIL[404], "path")
    return _page(request, "404.html", 404)


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        return _api(500, API_DETAIL[500])
    try:
        return _page(None, "500.html", 500)
    except Exception:
        logger.exception("the 500 page could not be rendered; the fixed page was sent instead")
        return HttpResponse(FIXED_500, status=500)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent without its security token, or with a stale one (the page was open
    for hours, or cookies are blocked)."""
    if _is_api(request):
        return _api(403, "the form's security token is missing or out of date; reload and retry")
    return _page(request, "403_csrf.html", 403)
