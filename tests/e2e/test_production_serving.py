"""siltfence served as in production.

1. The README's "Running it for real", step by step: production settings, migrate,
   collectstatic, then pages fetched through the WSGI application a server runs.
2. `make run` itself: gunicorn with production settings over plain http on this computer,
   fetched over a real socket: pages, an unknown address, bad JSON, a 30 MB body, a login.
"""

from __future__ import annotations

import http.client
import http.cookiejar
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Runs on its own SQLite file or on no database: the PostgreSQL pass leaves it out.
pytestmark = pytest.mark.no_suite_database

REPO = Path(__file__).resolve().parents[2]
TESTS = REPO / "tests"
# What Django's debug pages and default answers show, and a visitor must never see.
INTERNALS = ("Traceback", "URLconf", "DEBUG = True", "siltfence.config", "RuntimeError")
NAVIGATION = ('href="/ordinances/"', 'href="/design-checks/"')
HOST = "permits.example.org"

# Calls the WSGI application as a server does, one request after another; prints JSON.
PROBE = """
import io, json, sys
from siltfence.config.wsgi import application
from django.conf import settings
if len(sys.argv) > 1:
    settings.ROOT_URLCONF = sys.argv[1]
answers = []
for ask in json.load(sys.stdin):
    body = ask.get("body", "").encode()
    environ = {
        "REQUEST_METHOD": ask["method"], "PATH_INFO": ask["path"], "QUERY_STRING": "",
        "SERVER_NAME": "HOSTNAME", "SERVER_PORT": "443", "HTTP_HOST": "HOSTNAME",
        "SERVER_PROTOCOL": "HTTP/1.1", "wsgi.url_scheme": "https",
        "wsgi.input": io.BytesIO(body), "CONTENT_LENGTH": str(len(body)),
        "CONTENT_TYPE": ask.get("type", ""), "wsgi.errors": sys.stderr,
        "wsgi.version": (1, 0), "wsgi.multithread": False, "wsgi.multiprocess": False,
        "wsgi.run_once": False,
    }
    seen = {}
    def start_response(status, headers, exc_info=None):
        seen["status"] = int(status.split()[0])
        seen["headers"] = {k.lower(): v for k, v in headers}
    result = application(environ, start_response)
    content = b"".join(result)
    getattr(result, "close", lambda: None)()
    answers.append({**seen, "body": content.decode("utf-8", "replace")})
json.dump(answers, sys.stdout)
""".replace("HOSTNAME", HOST)


def _production_env(data_dir: Path) -> dict[str, str]:
    # A deployment's environment: nothing of the test run's (a PostgreSQL DATABASE_URL,
    # the browser tests' async flag) leaks in.
    leave_out = ("DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE", "SILTFENCE_LOCAL_HTTP", "DEBUG")
    env = {k: v for k, v in os.environ.items() if k not in leave_out}
    return {
        **env,
        "SILTFENCE_ENV": "production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "SILTFENCE_SECOND_FACTOR_KEY": secrets.token_urlsafe(48),
        "SILTFENCE_AUDIT_KEY": secrets.token_urlsafe(48),
        "EMAIL_HOST": "smtp.example.org",  # named, never reached: no page here sends mail
        "ALLOWED_HOSTS": HOST,
        "SILTFENCE_DATA_DIR": str(data_dir),
        "PYTHONPATH": os.pathsep.join([str(TESTS), env.get("PYTHONPATH", "")]),
    }


def _manage(env: dict[str, str], *args: str) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "siltfence.manage", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert run.returncode == 0, run.stderr


def _probe(env: dict[str, str], asks: list[dict[str, str]], urlconf: str = "") -> list[Any]:
    run = subprocess.run(
        [sys.executable, "-c", PROBE, *([urlconf] if urlconf else [])],
        input=json.dumps(asks),
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    answers: list[Any] = json.loads(run.stdout)
    return answers


def _plain(page: str) -> None:
    for word in INTERNALS:
        assert word not in page, word
    for link in NAVIGATION:
        assert link in page, link


@pytest.fixture(scope="module")
def deployed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The README's steps, with a look at the home page before collectstatic too."""
    env = _production_env(tmp_path_factory.mktemp("deployed"))
    _manage(env, "migrate", "--noinput")
    (before,) = _probe(env, [{"method": "GET", "path": "/"}])
    _manage(env, "collectstatic", "--noinput")
    pages = _probe(
        env,
        [
            {"method": "GET", "path": "/"},
            {"method": "GET", "path": "/no-such-page/"},
            {"method": "GET", "path": "/api/v1/jurisdictions"},
        ],
    )
    (fault,) = _probe(env, [{"method": "GET", "path": "/fault/"}], urlconf="fault_urls")
    stylesheet = re.search(r'href="(/static/web/site\.[0-9a-f]{12}\.css)"', pages[0]["body"])
    assert stylesheet, "the home page links its stylesheet under a hashed name"
    (css,) = _probe(env, [{"method": "GET", "path": stylesheet.group(1)}])
    return {"before": before, "home": pages[0], "unknown": pages[1], "api": pages[2]} | {
        "fault": fault,
        "css": css,
    }


def test_before_collectstatic_a_page_fails_with_the_fixed_plain_page_not_a_traceback(deployed):
    before = deployed["before"]
    assert before["status"] == 500
    assert "<h1>Something went wrong</h1>" in before["body"]
    assert "manifest" not in before["body"] and "Traceback" not in before["body"]


def test_after_collectstatic_the_home_page_is_served_with_its_hashed_stylesheet(deployed):
    home = deployed["home"]
    assert home["status"] == 200
    _plain(home["body"])
    css = deployed["css"]
    assert css["status"] == 200
    assert css["headers"]["content-type"].startswith("text/css")
    # A hashed name never changes its contents: whitenoise lets browsers keep it for good.
    assert "immutable" in css["headers"]["cache-control"]


def test_an_unknown_address_is_the_plain_404_page_without_the_list_of_addresses(deployed):
    unknown = deployed["unknown"]
    assert unknown["status"] == 404
    assert "<h1>Page not found</h1>" in unknown["body"]
    assert "admin/" not in unknown["body"]
    _plain(unknown["body"])


def test_a_fault_is_the_plain_500_page_with_the_navigation_and_no_traceback(deployed):
    fault = deployed["fault"]
    assert fault["status"] == 500
    assert "<h1>Something went wrong</h1>" in fault["body"]
    assert "internal-detail" not in fault["body"]
    _plain(fault["body"])


def test_the_api_answers_in_production(deployed):
    api = deployed["api"]
    assert api["status"] == 200
    assert {j["id"] for j in json.loads(api["body"])} >= {"spencer-wi", "new-glarus-wi"}


def test_the_site_is_sent_over_https_only_in_production(deployed):
    assert "max-age=31536000" in deployed["home"]["headers"]["strict-transport-security"]


# --- `make run`: gunicorn on a real socket ------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _wait_for(port: int, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"make run ended early:\n{log.read_text()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.5)
    pytest.fail(f"make run did not listen on {port}:\n{log.read_text()}")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    make = shutil.which("make")
    assert make, "make is needed to run `make run`"
    data = tmp_path_factory.mktemp("make-run")
    log = data / "make-run.log"
    port = _free_port()
    leave_out = ("DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE", "SILTFENCE_ENV", "SECRET_KEY")
    leave_out += ("EMAIL_HOST", "SILTFENCE_EMAIL")  # make run's demo prints its emails
    env = {k: v for k, v in os.environ.items() if k not in leave_out}
    with log.open("wb") as out:
        server = subprocess.Popen(
            # -o: the virtualenv is in place; do not reinstall it.
            [make, "-o", ".venv/bin/.installed", "run", f"PORT={port}", f"DATA={data}"],
            cwd=REPO,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        _wait_for(port, server, log)
        yield {"port": port, "log": log, "data": data}
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=30)


def _get(port: int, path: str) -> tuple[int, dict[str, str], str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read().decode("utf-8", "replace")
    connection.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, body


def _post(port: int, path: str, body: bytes, content_type: str) -> tuple[int, dict[str, str], str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    connection.request("POST", path, body=body, headers={"Content-Type": content_type})
    response = connection.getresponse()
    text = response.read().decode("utf-8", "replace")
    connection.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, text


def test_make_run_prints_the_address_and_the_demo_logins(served):
    printed = served["log"].read_text()
    assert f"siltfence demo is ready: http://127.0.0.1:{served['port']}/" in printed
    assert "silt-fence-demo-2026" in printed
    for username in ("spencer-building-inspector", "newglarus-administrator", "contractor-jo"):
        assert username in printed
    assert "Starting gunicorn" in printed and "Using worker: gthread" in printed


def test_make_run_keeps_its_generated_secret_key_private_and_out_of_git(served):
    key = served["data"] / "secret-key"
    assert len(key.read_text().strip()) >= 50
    assert key.stat().st_mode & 0o077 == 0
    ignored = subprocess.run(["git", "check-ignore", "-q", "var/secret-key"], cwd=REPO)
    assert ignored.returncode == 0


def test_make_run_serves_the_home_page_through_gunicorn_with_debug_off(served):
    status, headers, page = _get(served["port"], "/")
    assert status == 200
    assert headers["server"] == "gunicorn"
    _plain(page)
    stylesheet = re.search(r'href="(/static/web/site\.[0-9a-f]{12}\.css)"', page)
    assert stylesheet, "collected static files under hashed names"
    status, headers, _ = _get(served["port"], stylesheet.group(1))
    assert status == 200 and headers["content-type"].startswith("text/css")


def test_make_run_s_maps_name_their_marker_images_as_collected_and_each_is_served(served):
    """Leaflet would look for its marker images beside the page (``/register/marker-icon.png``,
    a 404 and a broken image on every site), since the collected stylesheet's name has its
    hash in it: the register and the report form give the images' collected addresses."""
    for path in ("/register/", "/report-a-site/"):
        status, _, page = _get(served["port"], path)
        assert status == 200, path
        tag = re.search(r'<script src="[^"]*marker-icons\.[0-9a-f]{12}\.js"([^>]*)>', page)
        assert tag, f"{path} loads the marker images' script under its collected name"
        images = dict(re.findall(r'data-(icon|retina|shadow)="([^"]+)"', tag.group(1)))
        assert set(images) == {"icon", "retina", "shadow"}, path
        for url in images.values():
            assert re.fullmatch(
                r"/static/plans/vendor/leaflet-1\.9\.4/images/[\w-]+\.[0-9a-f]{12}\.png", url
            )
            status, headers, _ = _get(served["port"], url)
            assert status == 200 and headers["content-type"] == "image/png", url


def test_make_run_answers_an_unknown_address_with_the_plain_404_page(served):
    status, _, page = _get(served["port"], "/no-such-page/")
    assert status == 404
    assert "<h1>Page not found</h1>" in page
    _plain(page)


def test_make_run_answers_bad_json_with_a_400_naming_the_problem(served):
    status, headers, body = _post(
        served["port"],
        "/api/v1/determinations",
        b'{"jurisdiction": "spencer-wi",',
        "application/json",
    )
    assert status == 400
    assert headers["content-type"].startswith("application/json")
    assert json.loads(body)["detail"]
    for word in INTERNALS:
        assert word not in body


def test_make_run_answers_a_30_mb_body_with_413(served):
    body = b'{"jurisdiction": "spencer-wi", "facts": {"note": "' + b"x" * (30 * 1024**2) + b'"}}'
    status, _, text = _post(served["port"], "/api/v1/determinations", body, "application/json")
    assert status == 413
    assert "the limit is 26,214,400 bytes" in json.loads(text)["detail"]


def test_make_run_lets_a_demo_user_sign_in_over_plain_http(served):
    base = f"http://127.0.0.1:{served['port']}"
    jar = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    with browser.open(f"{base}/accounts/login/") as response:
        assert response.status == 200
    token = next(c.value for c in jar if c.name == "csrftoken")
    form = urllib.parse.urlencode(
        {
            "csrfmiddlewaretoken": token,
            "username": "contractor-jo",
            "password": "silt-fence-demo-2026",
        }
    ).encode()
    request = urllib.request.Request(
        f"{base}/accounts/login/", data=form, headers={"Referer": f"{base}/accounts/login/"}
    )
    with browser.open(request) as response:
        assert response.status == 200
        page = response.read().decode()
    # Signed in: the session cookie came back over http, and the pages know the user.
    session = next(c for c in jar if c.name == "sessionid")
    assert not session.secure
    assert "Sign out (contractor-jo)" in page


# --- plain http is for this computer only --------------------------------------------------


def test_plain_http_is_refused_for_a_host_name_other_than_this_computer(tmp_path: Path):
    env = {**_production_env(tmp_path), "SILTFENCE_LOCAL_HTTP": "true"}
    run = subprocess.run(
        [sys.executable, "-m", "siltfence.manage", "check"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert run.returncode != 0
    assert "SILTFENCE_LOCAL_HTTP=true serves plain http for this computer only" in run.stderr


def test_plain_http_is_refused_when_gunicorn_would_listen_beyond_this_computer(tmp_path: Path):
    env = {
        **_production_env(tmp_path),
        "SILTFENCE_LOCAL_HTTP": "true",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
    }
    assert "listen on 127.0.0.1, not 0.0.0.0:0" in _gunicorn_refuses(env, "0.0.0.0:0")


def _gunicorn_refuses(env: dict[str, str], bind: str) -> str:
    """What gunicorn said when it would not start with ``env``."""
    gunicorn = Path(sys.executable).parent / "gunicorn"
    run = subprocess.run(
        [str(gunicorn), "-c", "python:siltfence.config.gunicorn", "--bind", bind],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert run.returncode != 0
    return run.stdout + run.stderr


def test_gunicorn_refuses_a_worker_class_it_does_not_document(tmp_path: Path):
    env = {**_production_env(tmp_path), "SILTFENCE_WORKER_CLASS": "eventlet"}
    said = _gunicorn_refuses(env, "127.0.0.1:0")
    assert "SILTFENCE_WORKER_CLASS: expected one of gthread, sync, got 'eventlet'" in said
