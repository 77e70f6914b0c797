"""Rows a whole test module reads, made once per test process instead of once per test.

A module takes them with ``from shared_rows import _uploads_in_tmp, module_media,
module_people, people``: its tests then get the module's ``people``, in their savepoints.

The access matrices ask the same question of one world (both villages, every role, a
permit, a case) a thousand times. ``kept_for_the_module`` opens a transaction around the
module: the rows made in it are seen by every test of the module, each test runs inside
its own savepoint of that transaction (pytest-django's ``db``) and is rolled back to it,
and the module's rows are rolled back when the module ends, so no other module sees them.

Only what the tests treat as read-only belongs here: a row a test changes is changed
inside its savepoint and back when the test ends, but a Python object holding it is not,
so the shared objects are used for their keys and their relations, never for values a
test may have changed.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import factories
import pytest
from django.db import transaction
from django.test import override_settings


@contextmanager
def kept_for_the_module(django_db_blocker: Any) -> Iterator[None]:
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        # As Django's own test case marks its outer blocks, so that the code under test
        # behaves inside this one as it does inside a test's.
        outer._from_testcase = True  # type: ignore[attr-defined]
        outer.__enter__()
        try:
            yield
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


@pytest.fixture(scope="module")
def module_media(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One uploads folder for the module, so that a file the shared rows stored is found
    by every test (the integration tests' own ``_uploads_in_tmp`` gives one per test)."""
    return tmp_path_factory.mktemp("media")


@pytest.fixture(scope="module")
def module_people(
    django_db_setup: None, django_db_blocker: Any, module_media: Path
) -> Iterator[factories.People]:
    """Both villages and every role, made once for the module (``kept_for_the_module``)."""
    with override_settings(MEDIA_ROOT=module_media), kept_for_the_module(django_db_blocker):
        factories.villages()
        yield factories.People.create()


@pytest.fixture
def people(module_people: factories.People, db: None) -> factories.People:
    """The module's people, in place of the integration tests' own (one set per test)."""
    return module_people


@pytest.fixture(autouse=True)
def _uploads_in_tmp(settings: Any, module_media: Path) -> None:
    """The module's uploads folder, in place of the integration tests' own (one per test)."""
    settings.MEDIA_ROOT = module_media
