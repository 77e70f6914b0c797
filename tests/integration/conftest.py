"""Fixtures for the integration tests: both villages, every role, applicant A's objects.

The audit table is append-only in the database itself (audit migration 0002). Tests that
commit (``django_db(transaction=True)``) are reset by pytest-django with a flush, which
the triggers refuse unless a purge window is open. ``purge_window`` opens the window at
teardown, before the flush, and the ``pytest_runtest_teardown`` hook below closes it
again once the flush is done, so every other test runs with the triggers armed.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import factories
import pytest
from django.conf import settings as django_settings
from django.db import connection
from factories import close_purge_window, open_purge_window

_WINDOW_OPENED = pytest.StashKey[Any]()


def _sqlite_test_database_on_disk() -> None:
    """Run SQLite tests on a file, as the app runs (WAL, IMMEDIATE transactions).

    Django's default SQLite test database is in memory with a shared cache, where a
    second writer fails at once with "database table is locked" instead of waiting for
    the first one's IMMEDIATE transaction; that would test the test set-up, not the app.
    """
    database = django_settings.DATABASES["default"]
    if database["ENGINE"].endswith("sqlite3"):
        test = database.setdefault("TEST", {})
        if not test.get("NAME"):
            folder = Path(tempfile.gettempdir())
            test["NAME"] = str(folder / f"siltfence-test-{os.getpid()}.sqlite3")


_sqlite_test_database_on_disk()

# What lets a test reach the database: pytest-django refuses it to any test without one of
# these (or the django_db mark).
_DATABASE_FIXTURES = frozenset(
    {
        "db",
        "transactional_db",
        "django_db_blocker",
        "django_db_reset_sequences",
        "django_db_serialized_rollback",
        "live_server",
    }
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """An integration test that cannot reach the database runs the same on any: it is
    marked ``no_suite_database``, so ``make test-postgres`` leaves it to ``make test`` (as it
    leaves the unit tests)."""
    here = Path(__file__).parent
    for item in items:
        if here not in Path(str(item.fspath)).parents:
            continue
        names = set(getattr(item, "fixturenames", ()))
        if item.get_closest_marker("django_db") is None and not names & _DATABASE_FIXTURES:
            item.add_marker(pytest.mark.no_suite_database)


@pytest.fixture(autouse=True)
def _uploads_in_tmp(settings: Any, tmp_path: Any) -> None:
    """Uploaded and generated PDFs go to a throw-away folder, not ./var/media."""
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def expect_postgres_when_asked() -> None:
    """With DATABASE_URL set to PostgreSQL the suite must really run on PostgreSQL."""
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        assert connection.vendor == "postgresql", (
            "DATABASE_URL names PostgreSQL but the tests run on " + connection.vendor
        )


@pytest.fixture
def purge_window(
    request: pytest.FixtureRequest, transactional_db: None, django_db_blocker: Any
) -> Iterator[None]:
    """For tests that commit: let pytest-django's flush through the audit triggers.

    This fixture depends on ``transactional_db``, so it is torn down before it: the window
    is opened (and committed) before the flush, and closed again after it by the hook.
    """
    close_purge_window()
    request.node.stash[_WINDOW_OPENED] = django_db_blocker
    yield
    open_purge_window()


@pytest.fixture(autouse=True)
def _purge_window_for_transactional_tests(request: pytest.FixtureRequest) -> None:
    """Every test here that commits gets the purge window at teardown."""
    marker = request.node.get_closest_marker("django_db")
    transactional = bool(marker and marker.kwargs.get("transaction")) or (
        "transactional_db" in request.fixturenames
    )
    if transactional:
        request.getfixturevalue("purge_window")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    try:
        return (yield)
    finally:
        blocker = item.stash.get(_WINDOW_OPENED, None)
        # After the session's last test the test database is already gone and the
        # connection points at the real one again: leave that alone.
        if blocker is not None and nextitem is not None:
            with blocker.unblock():
                close_purge_window()


@pytest.fixture
def armed_triggers(db: None) -> None:
    """The append-only triggers with no purge window open (whatever ran before)."""
    close_purge_window()


@pytest.fixture
def villages(db: None) -> dict[str, Any]:
    return factories.villages()


@pytest.fixture
def people(villages: dict[str, Any]) -> factories.People:
    return factories.People.create()


@pytest.fixture
def spencer(people: factories.People) -> factories.Spencer:
    """Applicant A's applications, permit, amendment and documents in Spencer."""
    return factories.Spencer(people)


@pytest.fixture
def rained_on(people: factories.People) -> Any:
    """A Spencer permit with 150 mm (5.9 in) of rain on Wednesday 2026-07-08 at Marshfield:
    the inspection after rain is due Thursday 2026-07-09 (the next day, gap 3)."""
    import datetime

    from sitework import local, permit_issued, station_with_record

    from siltfence.apps.duties.rain_events import rain_sweep
    from siltfence.apps.duties.stations import stations_sync
    from siltfence.apps.rain.days import rain_days_record

    stations_sync()
    permit = permit_issued(
        applicant=people.applicant_a,
        staff=people.staff["spencer-wi"],
        village="spencer-wi",
        filed=local(2026, 7, 1, 9),
    )
    station_with_record(site=permit.application.site)
    rain_days_record(station_id="USC00475120", days={datetime.date(2026, 7, 8): 150}, source="t")
    rain_sweep(day=datetime.date(2026, 7, 8))
    # The notices of the filing and the approval (test_notices.py) are not these tests' own.
    from siltfence.apps.outbox.models import Message

    Message.objects.all().delete()
    return permit
