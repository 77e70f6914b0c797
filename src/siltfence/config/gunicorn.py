"""Gunicorn's settings for siltfence, for `make run` and for a server:

    gunicorn -c python:siltfence.config.gunicorn --bind 127.0.0.1:8000

Sized for a small machine (one or two cores, a village office's server): two worker
processes of four threads each. A thread waits on a slow upload or the database without
holding up the others. Set WEB_CONCURRENCY (processes) and SILTFENCE_THREADS to change it.

With SILTFENCE_LOCAL_HTTP=true (plain http, `make run`), it refuses to listen anywhere but
this computer.
"""

from __future__ import annotations

import os
from typing import Any

wsgi_app = "siltfence.config.wsgi:application"
bind = ["127.0.0.1:8000"]
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("SILTFENCE_THREADS", "4"))
worker_class = "gthread"
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
