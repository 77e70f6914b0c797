"""A page for benchmarks only: the cost of a request through the whole stack (gunicorn,
the middleware, the URL resolver, a JSON response) with no work of its own, against which
the real pages are measured. Routed only with ``SILTFENCE_BENCH=1`` (``config.urls``)."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET


@require_GET
def trivial(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"ok": True, "page": "trivial"})
