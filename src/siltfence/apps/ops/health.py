"""``/health``: is this app server fit to take requests? For a load balancer or a monitor.

Three checks, and nothing else about the server: the database answers ``SELECT 1``; the
background worker's last heartbeat (``"unknown"`` while the worker keeps none); and the
free space on the uploads' disk against ``SILTFENCE_HEALTH_MIN_FREE_MB``. 200 when the
database answers and the disk has room, 503 otherwise. No login; one query.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return "unreachable"
    return "ok"


def _disk() -> str:
    folder = Path(settings.MEDIA_ROOT)
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent  # the uploads folder is made on the first upload
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return "unreadable"
    return "ok" if free >= settings.SILTFENCE_HEALTH_MIN_FREE_MB * 1024 * 1024 else "low"


def _worker() -> str:
    # The task worker (django-tasks-db) records no heartbeat of its own yet.
    return "unknown"


@never_cache
@require_safe
def health(request: HttpRequest) -> JsonResponse:
    checks = {"database": _database(), "worker": _worker(), "disk": _disk()}
    healthy = checks["database"] == "ok" and checks["disk"] == "ok"
    return JsonResponse(
        {"status": "ok" if healthy else "unhealthy", **checks}, status=200 if healthy else 503
    )
