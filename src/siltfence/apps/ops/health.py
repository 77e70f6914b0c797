"""``/health``: is this app server fit to take requests? For a load balancer or a monitor.

Seven checks, and nothing else about the server:

- ``"database"``: the database answers ``SELECT 1``;
- ``"pages"``: the home page's template renders, through the same template engine, static
  file names and links as every page (``"failing: <why>"`` when it raises);
- ``"static"``: with a manifest storage (production's), ``staticfiles.json`` exists, names
  every file the base template and the home page link to, and those files are in
  ``STATIC_ROOT``. Without a manifest storage there is nothing to check: ``"ok"``;
- ``"disk"``: the free space on the uploads' disk against ``SILTFENCE_HEALTH_MIN_FREE_MB``;
- ``"worker"``: the background worker keeps up with its queue;
- ``"mail"``: the SMTP server greets us within two seconds (``"not configured"`` when the
  emails are printed on the console or kept in memory, as in the demo and the tests);
- ``"files"``: the data files are private to their owner.

200 when the database answers, the pages render, the static files are collected and the
disk has room; 503 otherwise. No login; two queries, none for the pages.

The pages and the static files decide the answer, like the database. Deployed without
``collectstatic``, or with a template that no longer renders, the server answers every
page with a 500 while the database is fine; the load balancer must take it out of service.

The worker's state does not decide the answer. The worker is one process for the whole
deployment, not a part of this app server. A load balancer that took every server out of
service because the worker had stopped would turn a late reminder into an outage. A
monitor reads ``"worker": "behind"`` and calls someone.

The mail server does not decide it either, for the same reason: it is one server for the
whole deployment, outside this one, and without it only the emails wait (a password reset
link, a reminder); every page still works. Taking every app server out because the mail
server is down would stop the whole permit program for want of an email. A monitor reads
``"mail": "unreachable"`` and calls someone.

A monitor may ask every few seconds. The pages, the static files and the mail server are
checked at most once a minute in each process (``CHECK_SECONDS``), and the answer kept
till then; a change of the settings they read checks them again at once, and
``clear_cache()`` forgets every kept answer (the tests call it).
"""

from __future__ import annotations

import datetime
import json
import logging
import re
import shutil
import socket
import ssl
import threading
import time
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.db import DatabaseError, connection
from django.db.models import Q
from django.http import HttpRequest, JsonResponse
from django.template.backends.django import Template as DjangoTemplate
from django.template.loader import get_template, render_to_string
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

logger = logging.getLogger("siltfence.health")

CHECK_SECONDS = 60  # how long a page, static files or mail check is kept
MAIL_TIMEOUT = 2.0  # seconds the mail server has to greet us
PAGE = "web/permit_check.html"  # the home page: the first page anyone opens
STATIC_TEMPLATES = ("web/base.html", PAGE)  # every page extends base.html
_STATIC_TAG = re.compile(r"""\{%\s*static\s+(['"])(.+?)\1\s*%\}""")
_MESSAGE_LENGTH = 200

# The kept answers: a check's name -> (when it was made, what it was made from, answer).
_kept: dict[str, tuple[float, Hashable, Any]] = {}
_kept_lock = threading.Lock()
_clock = time.monotonic


def clear_cache() -> None:
    """Forget every kept answer: the next ``/health`` checks the pages, the static files
    and the mail server again."""
    with _kept_lock:
        _kept.clear()


def _kept_or_checked[T](name: str, made_from: Hashable, check: Callable[[], T]) -> T:
    now = _clock()
    with _kept_lock:
        kept = _kept.get(name)
    if kept is not None and kept[1] == made_from and now - kept[0] < CHECK_SECONDS:
        answer_kept: T = kept[2]
        return answer_kept
    answer = check()
    with _kept_lock:
        _kept[name] = (_clock(), made_from, answer)
    return answer


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    line = f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__
    return line if len(line) <= _MESSAGE_LENGTH else line[: _MESSAGE_LENGTH - 1] + "…"


def _static_settings() -> Hashable:
    staticfiles = settings.STORAGES.get("staticfiles", {})
    return (repr(staticfiles), str(settings.STATIC_ROOT), settings.STATIC_URL)


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return "unreachable"
    return "ok"


def _pages_and_static() -> dict[str, str]:
    """The home page rendered, and the static files it links to."""
    page, html = _pages()
    return {"pages": page, "static": _static(html)}


def _pages() -> tuple[str, str]:
    """ "ok" and the page when the home page's template renders; "failing: <why>" when it
    raises.

    Rendered without the request, as the error pages are: no session, no database query,
    but every ``{% static %}`` and ``{% url %}`` of the page and of the base template."""
    try:
        # The page is sent to no one: a stand-in for the form's token keeps the template
        # engine from warning that the token is missing.
        html = render_to_string(PAGE, {"csrf_token": "not-sent"})
    except Exception as exc:
        logger.error("/health: the home page does not render", exc_info=True)
        return f"failing: {_one_line(exc)}", ""
    return "ok", html


def _static_names() -> list[str]:
    """The static files the base template and the home page name in a ``{% static %}``."""
    names: list[str] = []
    for template in STATIC_TEMPLATES:
        found = get_template(template)
        assert isinstance(found, DjangoTemplate)  # the one engine: Django's templates
        source = found.template.source
        names += [m.group(2) for m in _STATIC_TAG.finditer(source) if m.group(2) not in names]
    return names


def linked_static(html: str) -> list[str]:
    """The static files a rendered page links to (``src`` and ``href`` under
    ``STATIC_URL``), as their names in ``STATIC_ROOT``, in the page's order."""
    prefix = re.escape(str(settings.STATIC_URL))
    names: list[str] = []
    for match in re.finditer(rf'(?:src|href)="{prefix}([^"?#]+)', html):
        if match.group(1) not in names:
            names.append(match.group(1))
    return names


def _static(html: str) -> str:
    """With a manifest storage: "ok" when ``staticfiles.json`` names every file the base
    template and the home page name, the files the rendered page links to are in
    ``STATIC_ROOT``, and this process has read the manifest; else what is wrong, naming
    the first file. "ok" without a manifest storage: the files are served under their own
    names, with nothing to collect first."""
    storage = staticfiles_storage
    if not isinstance(storage, ManifestFilesMixin):
        return "ok"
    try:
        text = storage.read_manifest()
        if text is None:
            return "no manifest: run collectstatic"
        paths = json.loads(text).get("paths", {})
        names = _static_names()
        missing = [name for name in names if name not in paths]
        if missing:
            more = f" and {len(missing) - 1} more" if len(missing) > 1 else ""
            return f"not collected: {missing[0]}{more}; run collectstatic"
        absent = [name for name in linked_static(html) if not storage.exists(name)]
        if absent:
            return f"missing from STATIC_ROOT: {absent[0]}; run collectstatic"
        if any(storage.hash_key(name) not in storage.hashed_files for name in names):
            # Each process reads the manifest once, when it starts.
            return "collected after this server started: restart it"
    except Exception as exc:
        logger.error("/health: the static files' manifest cannot be read", exc_info=True)
        return f"unreadable manifest: {_one_line(exc)}"
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


def _mail_settings() -> Hashable:
    return repr(getattr(settings, "MAILERS", None))


def _mail() -> str:
    """ "ok" when the SMTP server the emails go through greets us within ``MAIL_TIMEOUT``
    seconds; "unreachable" when it does not (refused, silent, or not a mail server);
    "not configured" when the emails do not go through SMTP (console, memory)."""
    from django.core.mail import mailers
    from django.core.mail.backends.smtp import EmailBackend

    try:
        backend = mailers.default
    except Exception as exc:
        logger.error("/health: the mail settings are not usable", exc_info=True)
        return f"misconfigured: {_one_line(exc)}"
    if not isinstance(backend, EmailBackend):
        return "not configured"
    host, port = str(backend.host), int(backend.port)
    context = backend.ssl_context if backend.use_ssl else None
    greeted: list[bool] = []
    # In a thread, so that even a name lookup that hangs (which no socket timeout bounds)
    # holds this request for MAIL_TIMEOUT at most; the thread ends on its own.
    probe = threading.Thread(
        target=lambda: greeted.append(_greets(host, port, context)), daemon=True
    )
    probe.start()
    probe.join(MAIL_TIMEOUT)
    return "ok" if greeted == [True] else "unreachable"


def _greets(host: str, port: int, context: ssl.SSLContext | None) -> bool:
    """Whether an SMTP server at ``host:port`` answers with its 220 greeting; then QUIT."""
    deadline = time.monotonic() + MAIL_TIMEOUT
    try:
        sock = socket.create_connection((host, port), timeout=MAIL_TIMEOUT)
    except (OSError, ValueError):
        return False
    try:
        if context is not None:
            sock = context.wrap_socket(sock, server_hostname=host)
        reply = sock.makefile("rb")
        for _ in range(20):  # a greeting may run over several "220-" lines
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            sock.settimeout(left)
            line = reply.readline(1024)
            if line[:4] == b"220 " or line.rstrip(b"\r\n") == b"220":
                sock.sendall(b"QUIT\r\n")
                return True
            if line[:4] != b"220-":
                return False
    except (OSError, ValueError):
        return False
    finally:
        sock.close()
    return False


@never_cache
@require_safe
def health(request: HttpRequest) -> JsonResponse:
    pages = _kept_or_checked("pages", _static_settings(), _pages_and_static)
    checks = {
        "database": _database(),
        "pages": pages["pages"],
        "static": pages["static"],
        "worker": _worker(),
        "mail": _kept_or_checked("mail", _mail_settings(), _mail),
        "disk": _disk(),
        "files": _files_private(),
    }
    healthy = all(checks[name] == "ok" for name in ("database", "pages", "static", "disk"))
    return JsonResponse(
        {"status": "ok" if healthy else "unhealthy", **checks}, status=200 if healthy else 503
    )
