"""Gunicorn's settings for siltfence, for `make run` and for a server:

    gunicorn -c python:siltfence.config.gunicorn --bind 127.0.0.1:8000

Sized for a small machine (one or two cores, a village office's server): two worker
processes of four threads each. A thread waits on a slow upload or the database without
holding up the others. Set WEB_CONCURRENCY (processes) and SILTFENCE_THREADS to change it.

Behind nginx, which reads each request whole before passing it on, SILTFENCE_WORKER_CLASS=sync
serves one request at a time per process instead: a process takes a request only when it is
free, so no request waits behind others in a busy process, and under load the slowest
answers take about 60% of the time (docs/deploy.md, section 3). Never without such a proxy: a
client sending slowly would hold a whole process.

With SILTFENCE_LOCAL_HTTP=true (plain http, `make run`), it refuses to listen anywhere but
this computer.
"""

from __future__ import annotations

import os
from typing import Any

wsgi_app = "siltfence.config.wsgi:application"
bind = ["127.0.0.1:8000"]
WORKER_CLASSES = ("gthread", "sync")

workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = os.environ.get("SILTFENCE_WORKER_CLASS", "gthread")
if worker_class not in WORKER_CLASSES:
    raise SystemExit(
        f"siltfence: SILTFENCE_WORKER_CLASS: expected one of {', '.join(WORKER_CLASSES)}, "
        f"got {worker_class[:40]!r}"
    )


def threads_for(worker_class: str) -> int:
    """Threads a process: ``SILTFENCE_THREADS`` for gthread, one for sync (gunicorn turns a
    sync worker with more than one thread into a gthread one)."""
    return int(os.environ.get("SILTFENCE_THREADS", "4")) if worker_class == "gthread" else 1


threads = threads_for(worker_class)
# A request may take up to two minutes (nginx's proxy_read_timeout in docs/deploy.md), such
# as a large rain file imported on its page; a sync process busy longer is restarted.
timeout = 120
accesslog = "-"
control_socket_disable = True  # no run-time control socket in the home folder
# A proxy in front (nginx, Caddy) on the same machine may say the request came over https.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")

LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def on_starting(server: Any) -> None:
    if os.environ.get("SILTFENCE_LOCAL_HTTP") != "true":
        return
    for address in server.cfg.bind:
        host = address.rsplit(":", 1)[0].strip("[]") if ":" in address else address
        if host not in LOOPBACK:
            raise SystemExit(
                f"siltfence: SILTFENCE_LOCAL_HTTP=true serves plain http for this computer "
                f"only; listen on 127.0.0.1, not {address}"
            )
