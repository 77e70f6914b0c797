"""``/health`` renders a real page, checks the static files' manifest and asks the mail
server. A server whose pages fail (deployed without ``collectstatic``, say) answers 503, so
the load balancer takes it out; the mail server is reported, not decisive. The pages, the
static files and the mail server are checked at most once a minute in each process."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from unittest import mock

import pytest

from hanging import returns_within
from siltfence.apps.ops import health

pytestmark = pytest.mark.django_db

MANIFEST_STORAGES = [
    "whitenoise.storage.CompressedManifestStaticFilesStorage",
    "django.contrib.staticfiles.storage.ManifestStaticFilesStorage",
]


@pytest.fixture(autouse=True)
def _nothing_kept():
    health.clear_cache()
    yield
    health.clear_cache()


@pytest.fixture
def private_data(settings, tmp_path):
    """A data folder made as a new deployment makes it: its owner's alone."""
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    settings.DATA_DIR = data
    return data


def _manifest_storage(settings, backend: str, static_root) -> None:
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": backend},
    }
    settings.STATIC_ROOT = static_root


def _smtp(settings, port: int, **options: object) -> None:
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": port, "use_tls": False, **options},
        }
    }


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def mail_server() -> Iterator[tuple[int, list[bytes]]]:
    """A mail server on this computer that greets, and answers QUIT. Yields its port and
    what it was sent."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(10)
    heard: list[bytes] = []

    def serve() -> None:
        try:
            conversation, _ = listener.accept()
        except OSError:
            return
        with conversation:
            conversation.settimeout(5)
            conversation.sendall(b"220-mail.example.org ESMTP\r\n220 ready\r\n")
            try:
                heard.append(conversation.recv(100))
                conversation.sendall(b"221 bye\r\n")
            except OSError:
                pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield listener.getsockname()[1], heard
    listener.close()
    thread.join(5)


def test_with_the_real_settings_the_pages_render_and_it_answers_200(client, private_data):
    response = client.get("/health")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "pages": "ok",
        "static": "ok",
        "worker": "ok",
        "mail": "not configured",
        "disk": "ok",
        "files": "ok",
    }


@pytest.mark.parametrize("backend", MANIFEST_STORAGES, ids=lambda b: b.rsplit(".", 1)[1])
def test_static_files_never_collected_make_it_503_naming_them(client, settings, tmp_path, backend):
    _manifest_storage(settings, backend, tmp_path)  # an empty STATIC_ROOT: no collectstatic
    response = client.get("/health")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unhealthy"
    assert body["database"] == "ok"
    assert body["pages"] == (
        "failing: ValueError: Missing staticfiles manifest entry for "
        "'web/vendor/uswds-3.14.0/css/uswds.min.css'"
    )
    assert body["static"] == "no manifest: run collectstatic"
    # As it says: every page of such a server is a 500.
    with pytest.raises(ValueError, match="Missing staticfiles manifest entry"):
        client.get("/")


def _collect(static_root, paths: dict[str, str], *, on_disk: bool = True) -> None:
    """A manifest naming ``paths`` (name -> hashed name), and the hashed files."""
    (static_root / "staticfiles.json").write_text(
        json.dumps({"version": "1.1", "hash": "x", "paths": paths})
    )
    for hashed in paths.values() if on_disk else ():
        (static_root / hashed).parent.mkdir(parents=True, exist_ok=True)
        (static_root / hashed).write_text("/* collected */")


def _hashed(name: str) -> str:
    stem, extension = name.rsplit(".", 1)
    return f"{stem}.0123456789ab.{extension}"


def _every_static_file() -> dict[str, str]:
    """Every static file the home page links to, as collectstatic names them (read before
    a manifest storage is set)."""
    _, html = health._pages()
    names = health.linked_static(html)
    assert set(health._static_names()) < set(names)  # and the htmx script of base.html
    return {name: _hashed(name) for name in names}


def test_a_manifest_that_names_every_file_of_the_pages_answers_200(client, settings, tmp_path):
    _collect(tmp_path, _every_static_file())
    _manifest_storage(settings, MANIFEST_STORAGES[1], tmp_path)
    # The base template's files, and the home page's own.
    assert {"web/site.css", "duties/terms.css"} <= set(health._static_names())
    response = client.get("/health")
    assert response.json()["pages"] == "ok"
    assert response.json()["static"] == "ok"
    assert response.status_code == 200
    assert '"web/site.0123456789ab.css"' not in response.content.decode()  # nothing leaks


def test_a_manifest_without_a_file_of_the_base_template_makes_it_503(client, settings, tmp_path):
    paths = _every_static_file()
    del paths["web/site.css"]
    _collect(tmp_path, paths)
    _manifest_storage(settings, MANIFEST_STORAGES[1], tmp_path)
    response = client.get("/health")
    assert response.status_code == 503
    assert response.json()["static"] == "not collected: web/site.css; run collectstatic"
    assert response.json()["pages"] == (
        "failing: ValueError: Missing staticfiles manifest entry for 'web/site.css'"
    )


def test_a_manifest_whose_files_are_gone_makes_it_503(client, settings, tmp_path):
    _collect(tmp_path, _every_static_file(), on_disk=False)
    _manifest_storage(settings, MANIFEST_STORAGES[1], tmp_path)
    response = client.get("/health")
    assert response.status_code == 503
    assert response.json()["pages"] == "ok"  # the names are known, but the files are not there
    assert response.json()["static"] == (
        "missing from STATIC_ROOT: web/vendor/uswds-3.14.0/css/uswds.min.0123456789ab.css; "
        "run collectstatic"
    )


def test_files_collected_after_the_server_started_ask_for_a_restart(client, settings, tmp_path):
    every_file = _every_static_file()
    _manifest_storage(settings, MANIFEST_STORAGES[1], tmp_path)
    assert client.get("/health").json()["static"] == "no manifest: run collectstatic"
    _collect(tmp_path, every_file)  # collectstatic, with the server still running
    health.clear_cache()
    response = client.get("/health")
    assert response.status_code == 503
    assert response.json()["static"] == "collected after this server started: restart it"


def test_the_pages_are_rendered_at_most_once_a_minute(client, settings, tmp_path):
    now = [1000.0]
    with (
        mock.patch.object(health, "_clock", lambda: now[0]),
        mock.patch.object(health, "render_to_string", wraps=health.render_to_string) as render,
    ):
        assert client.get("/health").json()["pages"] == "ok"
        now[0] += 30
        assert client.get("/health").json()["pages"] == "ok"
        assert render.call_count == 1
        now[0] += 31
        client.get("/health")
        assert render.call_count == 2
        # A change of the static files' settings is checked at once, not a minute later.
        _manifest_storage(settings, MANIFEST_STORAGES[1], tmp_path)
        assert client.get("/health").status_code == 503
        assert render.call_count == 3
        # And clear_cache() forgets what was kept.
        health.clear_cache()
        client.get("/health")
        assert render.call_count == 4


def test_a_mail_server_on_a_closed_port_is_unreachable_and_not_decisive(client, settings):
    _smtp(settings, _closed_port())
    response = returns_within(client.get, "/health")
    assert response.json()["mail"] == "unreachable"
    assert response.status_code == 200 and response.json()["status"] == "ok"


def test_a_mail_server_that_never_greets_is_unreachable_once_its_time_is_up(
    client, settings, monkeypatch
):
    # The server's time to greet, shortened so that the test does not wait two seconds; the
    # page must come back (not hang on the silent socket) and say the mail is unreachable.
    monkeypatch.setattr(health, "MAIL_TIMEOUT", 0.3)
    with socket.create_server(("127.0.0.1", 0)) as silent:  # accepts, says nothing
        _smtp(settings, silent.getsockname()[1])
        response = returns_within(client.get, "/health")
    assert response.json()["mail"] == "unreachable"
    assert response.status_code == 200


def test_a_mail_server_that_greets_is_ok(client, settings, mail_server):
    port, heard = mail_server
    _smtp(settings, port)
    response = client.get("/health")
    assert response.json()["mail"] == "ok"
    assert response.status_code == 200
    time.sleep(0.2)
    assert heard == [b"QUIT\r\n"]


def test_the_mail_server_is_asked_at_most_once_a_minute(client, settings, mail_server):
    port, _ = mail_server
    _smtp(settings, port)
    assert client.get("/health").json()["mail"] == "ok"
    # The server above answers one conversation only: asked again, it would not greet.
    assert client.get("/health").json()["mail"] == "ok"
    health.clear_cache()
    assert client.get("/health").json()["mail"] == "unreachable"


def test_emails_printed_on_the_console_are_not_configured_and_fine(client, settings):
    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
    response = client.get("/health")
    assert response.json()["mail"] == "not configured"
    assert response.status_code == 200
