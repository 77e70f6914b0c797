"""``/health``: is this app server fit to take requests? For a load balancer or a monitor.

Four checks, and nothing else about the server: the database answers ``SELECT 1``; the
background worker keeps up with its queue; the free space on the uploads' disk against
``SILTFENCE_HEALTH_MIN_FREE_MB``; and whether the data files are private to their owner.
200 when the database answers and the disk has room, 503 otherwise. No login; two queries.

The worker's state does not decide the answer. The worker is one process for the whole
deployment, not a part of this app server. A load balancer that took every server out of
service because the worker had stopped would turn a late reminder into an outage. A
monitor reads ``"worker": "behind"`` and calls someone.
"""

from __future__ import annotations

import datetime
import shutil
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError, connection
from django.db.models import Q
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
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


def _files_private() -> str:
    """ "ok" when the data folder, the SQLite database and the uploads folder are not
    readable by other users of the machine; "readable by others" names the first that is.
    Reported, not decisive (a monitor calls someone): the files are still served."""
    data = Path(settings.DATA_DIR)
    database = Path(str(settings.DATABASES["default"].get("NAME", "")))
    for path in (data, data / "media", database if database.is_absolute() else None):
        if path is None or not path.exists():
            continue
        try:
            mode = path.stat().st_mode
        except OSError:
            continue
        if mode & 0o007:
            return f"readable by others: {path.name}"
    return "ok"


def _worker() -> str:
    """ "ok" when no task that is ready to run has waited longer than
    ``SILTFENCE_HEALTH_WORKER_LAG_MINUTES``; "behind" when one has (no worker is taking
    tasks from the queue, or it is stuck); "unreachable" when the queue cannot be read.

    django-tasks-db's worker records no heartbeat of its own. The age of the oldest task
    it has not taken is the sign that matters: the worker exists to take them. A task
    waits from when it was queued, or from the time it was set to run after."""
    from django_tasks_db.models import DBTaskResult, get_date_max

    cutoff = timezone.now() - datetime.timedelta(
        minutes=settings.SILTFENCE_HEALTH_WORKER_LAG_MINUTES
    )
    try:
        late = (
            DBTaskResult.objects.ready()
            .filter(Q(run_after=get_date_max(), enqueued_at__lt=cutoff) | Q(run_after__lt=cutoff))
            .exists()
        )
    except DatabaseError:
        return "unreachable"
    return "behind" if late else "ok"


@never_cache
@require_safe
def health(request: HttpRequest) -> JsonResponse:
    checks = {
        "database": _database(),
        "worker": _worker(),
        "disk": _disk(),
        "files": _files_private(),
    }
    healthy = checks["database"] == "ok" and checks["disk"] == "ok"
    return JsonResponse(
        {"status": "ok" if healthy else "unhealthy", **checks}, status=200 if healthy else 503
    )
