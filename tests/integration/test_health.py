"""``/health`` for a load balancer: 200 when the database answers, the pages render, the
static files are collected and the uploads' disk has room, 503 otherwise; no login; its
checks and nothing more; at most two queries. The worker is "behind" when a task ready to
run has waited longer than SILTFENCE_HEALTH_WORKER_LAG_MINUTES (10 by default), which a
monitor reads and a load balancer does not act on. The pages, the static files and the
mail server: test_health_page.py."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import OperationalError, connection

from siltfence.apps.ops import health

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _nothing_kept():
    """The pages and the mail server are checked anew in each test."""
    health.clear_cache()


@pytest.fixture
def private_data(settings, tmp_path):
    """A data folder made as a new deployment makes it: its owner's alone."""
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    settings.DATA_DIR = data
    return data


def test_a_healthy_server_answers_200_with_its_checks_and_nothing_else(client, private_data):
    response = client.get("/health")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
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
    assert "no-store" in response["Cache-Control"]


def test_the_health_check_needs_no_login_and_costs_at_most_two_queries(
    client, django_assert_max_num_queries
):
    with django_assert_max_num_queries(2):
        response = client.get("/health")
    assert response.status_code == 200
    assert "sessionid" not in response.cookies


def test_a_database_that_does_not_answer_makes_it_503(client):
    with mock.patch.object(connection, "cursor", side_effect=OperationalError("gone")):
        response = client.get("/health")
    assert response.status_code == 503
    assert response.json()["status"] == "unhealthy"
    assert response.json()["database"] == "unreachable"
    assert "gone" not in response.content.decode()


def test_too_little_free_space_for_uploads_makes_it_503(client, settings, private_data):
    settings.SILTFENCE_HEALTH_MIN_FREE_MB = 10**12  # more than any disk holds
    response = client.get("/health")
    assert response.status_code == 503
    assert response.json() == {
        "status": "unhealthy",
        "database": "ok",
        "pages": "ok",
        "static": "ok",
        "worker": "ok",
        "mail": "not configured",
        "disk": "low",
        "files": "ok",
    }


def test_a_load_balancer_asking_over_plain_http_is_not_redirected_to_https(client, settings):
    settings.SECURE_SSL_REDIRECT = True  # as in production
    assert client.get("/health").status_code == 200
    assert client.get("/").status_code == 301  # every other page still goes to https


def test_only_reading_methods_are_allowed(client):
    assert client.post("/health").status_code == 405
    assert client.head("/health").status_code == 200


def _task(*, waited_minutes: float, run_after_minutes_ago: float | None = None, status="READY"):
    """A task on the worker's queue, queued ``waited_minutes`` ago (or set to run after a
    time ``run_after_minutes_ago``, negative for the future)."""
    import datetime

    from django.utils import timezone
    from django_tasks_db.models import DBTaskResult, get_date_max

    now = timezone.now()
    run_after = (
        get_date_max()
        if run_after_minutes_ago is None
        else now - datetime.timedelta(minutes=run_after_minutes_ago)
    )
    task = DBTaskResult.objects.create(
        args_kwargs={"args": [], "kwargs": {}},
        task_path="siltfence.apps.reminders.tasks.daily_sweep_task",
        backend_name="default",
        run_after=run_after,
        status=status,
    )
    DBTaskResult.objects.filter(pk=task.pk).update(
        enqueued_at=now - datetime.timedelta(minutes=waited_minutes)
    )


@pytest.mark.parametrize(
    ("task", "worker"),
    [
        ({"waited_minutes": 9}, "ok"),
        ({"waited_minutes": 11}, "behind"),
        # Set to run later: it waits from then, not from when it was queued.
        ({"waited_minutes": 60, "run_after_minutes_ago": -30}, "ok"),
        ({"waited_minutes": 60, "run_after_minutes_ago": 9}, "ok"),
        ({"waited_minutes": 60, "run_after_minutes_ago": 11}, "behind"),
        # Taken by the worker, or done: nothing waits.
        ({"waited_minutes": 60, "status": "RUNNING"}, "ok"),
        ({"waited_minutes": 60, "status": "SUCCESSFUL"}, "ok"),
    ],
)
def test_the_worker_is_behind_when_a_task_ready_to_run_has_waited_over_ten_minutes(
    client, task, worker
):
    _task(**task)
    response = client.get("/health")
    assert response.json()["worker"] == worker
    # A worker behind is for a monitor: the app server still takes requests.
    assert response.status_code == 200 and response.json()["status"] == "ok"


def test_the_lag_the_worker_is_allowed_is_a_setting(client, settings):
    _task(waited_minutes=11)
    settings.SILTFENCE_HEALTH_WORKER_LAG_MINUTES = 15
    assert client.get("/health").json()["worker"] == "ok"


def test_data_files_readable_by_other_users_are_reported_not_fatal(client, settings, tmp_path):
    data = tmp_path / "data"
    (data / "media").mkdir(parents=True)
    data.chmod(0o700)
    (data / "media").chmod(0o755)  # as a folder made before the files were kept private
    settings.DATA_DIR = data
    response = client.get("/health")
    assert response.status_code == 200
    assert response.json()["files"] == "readable by others: media"
    (data / "media").chmod(0o700)
    assert client.get("/health").json()["files"] == "ok"


def test_an_upload_and_a_backup_are_created_private(tmp_path):
    import os
    import subprocess
    import sys

    # A fresh process, as the server and the command line are: its files are its own.
    code = (
        "import os, django; os.environ.setdefault('DJANGO_SETTINGS_MODULE', "
        "'siltfence.config.settings'); django.setup(); "
        "from django.conf import settings; "
        "from django.core.files.storage import default_storage; "
        "from django.core.files.base import ContentFile; "
        "name = default_storage.save('documents/x.pdf', ContentFile(b'%PDF-1.4')); "
        "print(oct(os.stat(default_storage.path(name)).st_mode & 0o777)); "
        "print(oct(os.stat(os.path.dirname(default_storage.path(name))).st_mode & 0o777))"
    )
    env = {**os.environ, "SILTFENCE_DATA_DIR": str(tmp_path / "var")}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0o600", "0o700"]
