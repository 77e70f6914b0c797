"""docs/deploy.md on this machine, as far as it goes without nginx and a certificate: the
documented production environment, migrate, collectstatic, gunicorn with three sync worker
processes, and then, over a real socket, what the proxy and the load balancer in front see:
``/health`` over plain http, every other page sent to https, and login throttling per
client behind one proxy address (the proxy's ``X-Forwarded-For``)."""

from __future__ import annotations

import http.client
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest

# Runs on its own SQLite file or on no database: the PostgreSQL pass leaves it out.
pytestmark = pytest.mark.no_suite_database

HOST = "permits.example.org"
PROCESSES = 3


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    data = tmp_path_factory.mktemp("deploy")
    leave_out = ("DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE", "SILTFENCE_LOCAL_HTTP", "DEBUG")
    env = {k: v for k, v in os.environ.items() if k not in leave_out}
    env.update(
        {
            "SILTFENCE_ENV": "production",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": HOST,
            "SILTFENCE_DATA_DIR": str(data),
            "SILTFENCE_AUDIT_KEY": secrets.token_urlsafe(48),
            "SILTFENCE_SECOND_FACTOR_KEY": secrets.token_urlsafe(48),
            "SILTFENCE_TRUSTED_PROXIES": "1",
            "EMAIL_HOST": "smtp.example.org",
            "WEB_CONCURRENCY": str(PROCESSES),
            "SILTFENCE_WORKER_CLASS": "sync",  # the guide's server behind nginx (section 3)
        }
    )
    for args in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
        run = subprocess.run(
            [sys.executable, "-m", "siltfence.manage", *args],
            capture_output=True,
            text=True,
            timeout=300,
            env=env,
        )
        assert run.returncode == 0, run.stderr
    port = _free_port()
    log = data / "gunicorn.log"
    gunicorn = Path(sys.executable).with_name("gunicorn")
    with log.open("w") as out:
        process = subprocess.Popen(
            [
                str(gunicorn),
                "-c",
                "python:siltfence.config.gunicorn",
                "--bind",
                f"127.0.0.1:{port}",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if log.read_text().count("Booting worker") >= PROCESSES:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    pass
            assert process.poll() is None, log.read_text()
            time.sleep(0.5)
        else:
            pytest.fail("gunicorn did not start its workers:\n" + log.read_text())
        yield port, log
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def _request(
    port: int, method: str, path: str, headers: dict[str, str] | None = None, body: str = ""
) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request(method, path, body=body or None, headers={"Host": HOST, **(headers or {})})
    response = connection.getresponse()
    response.read_body = response.read()  # type: ignore[attr-defined]
    connection.close()
    return response


def test_gunicorn_runs_the_documented_number_of_worker_processes(server):
    _, log = server
    assert log.read_text().count("Booting worker") == PROCESSES
    assert "Using worker: sync" in log.read_text()


def test_the_load_balancer_gets_health_over_plain_http_and_everything_else_goes_to_https(
    server,
):
    port, _ = server
    health = _request(port, "GET", "/health")
    assert health.status == 200
    assert json.loads(health.read_body) == {  # type: ignore[attr-defined]
        "status": "ok",
        "database": "ok",
        "pages": "ok",
        "static": "ok",  # collectstatic ran: the manifest names every file the pages use
        "worker": "ok",
        "mail": "unreachable",  # smtp.example.org is no mail server; reported, not decisive
        "disk": "ok",
        "files": "ok",
    }
    home = _request(port, "GET", "/")
    assert home.status == 301
    assert home.getheader("Location") == f"https://{HOST}/"
    through_proxy = _request(port, "GET", "/", {"X-Forwarded-Proto": "https"})
    assert through_proxy.status == 200
    assert through_proxy.getheader("Strict-Transport-Security").startswith("max-age=31536000")


def _failed_login(port: int, client: str) -> int:
    proxy = {"X-Forwarded-Proto": "https", "X-Forwarded-For": client}
    form = _request(port, "GET", "/accounts/login/", proxy)
    cookie = re.search(r"csrftoken=([^;]+)", form.getheader("Set-Cookie") or "")
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', form.read_body)  # type: ignore[attr-defined]
    assert cookie and token
    body = urllib.parse.urlencode(
        {
            "csrfmiddlewaretoken": token.group(1).decode(),
            "username": "village-clerk",
            "password": "not-the-password",
        }
    )
    answer = _request(
        port,
        "POST",
        "/accounts/login/",
        {
            **proxy,
            "Cookie": f"csrftoken={cookie.group(1)}",
            "Content-Type": "application/x-www-form-urlencoded",
            "Referer": f"https://{HOST}/accounts/login/",
        },
        body,
    )
    return answer.status


def test_behind_the_proxy_five_wrong_passwords_lock_out_that_client_only(server):
    port, _ = server
    statuses = [_failed_login(port, "203.0.113.7") for _ in range(5)]
    assert statuses == [200, 200, 200, 200, 429]
    assert _failed_login(port, "198.51.100.9") == 200  # another client, same proxy
