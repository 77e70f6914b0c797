"""What signing in costs a request, and what must still end at once (decision 45).

A signed-in page that needs nothing else reads nothing from the database: the session, the
person's row, whether the session's device still passed the code step and whether the
person needs a code at all come from the cache every worker shares (files in the data
folder), and a page that changes nothing in the session writes nothing. Signing out, a
device turned off or replaced, a password changed, an account made inactive and a new
village role are still seen by the very next request on any other worker.

"Another worker" here is another thread: its own database connection and its own cache
objects, reading the same cache folder, as a second gunicorn process does. Those tests
commit (``transaction=True``), since the other connection must see what the first wrote.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import factories
import pytest
from django.conf import settings
from django.core.cache import caches
from django.db import connection, connections
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import clear_url_caches
from django_otp import DEVICE_ID_SESSION_KEY

from signing_in import authenticator_for, code_for_key, code_now, pass_code_step
from siltfence.apps.accounts import second_factor as sf
from siltfence.apps.accounts.models import Membership, Role

TRIVIAL = "/bench/trivial"
QUEUE = "/staff/"
ACCOUNT = "/accounts/"
LOGIN = "/accounts/login/"
CODE = "/accounts/login/code/"
ENROL = "/accounts/login/authenticator/"

# A signed-in GET of the trivial page, once the person's first page was served: no query.
WARM_QUERIES = 0
# The first page of a session whose entries the shared cache does not have (a new session
# is put there when it is saved, so this is after the cache lost them, or a new worker
# server): the session (1), the person's row (1), then for an official who passed the code
# step the session's device (1); for an applicant their village roles (1) and whether any
# membership is open at all (1), since only a person with none is known to need no code.
COLD_QUERIES = {"staff": 3, "applicant": 4}


@pytest.fixture
def trivial_page(settings: Any) -> Iterator[None]:
    """The benchmark's trivial page (SILTFENCE_BENCH=1): nothing of its own to do."""
    from siltfence.config import urls

    settings.SILTFENCE_BENCH = True
    importlib.reload(urls)
    clear_url_caches()
    yield
    settings.SILTFENCE_BENCH = False
    importlib.reload(urls)
    clear_url_caches()


def session_cache() -> Any:
    return caches[settings.SESSION_CACHE_ALIAS]


def same_session(client: Client) -> Client:
    """A second browser tab, or a request the load balancer sends to another worker: the
    same session cookie."""
    other = Client()
    name = settings.SESSION_COOKIE_NAME
    other.cookies[name] = client.cookies[name].value
    return other


class Worker:
    """Requests served on a thread of their own: another database connection and other
    cache objects, over the same cache folder."""

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1)

    def __call__(self, call: Callable[[], Any]) -> Any:
        def served() -> Any:
            try:
                return call()
            finally:
                connections.close_all()

        return self._pool.submit(served).result(timeout=60)

    def get(self, client: Client, path: str) -> tuple[int, str, bool, bool]:
        """(status, where it redirects, signed in, passed the code step)."""

        def get() -> tuple[int, str, bool, bool]:
            response = client.get(path)
            user = response.wsgi_request.user
            verified = bool(getattr(user, "is_verified", lambda: False)())
            return (
                response.status_code,
                response.get("Location", ""),
                user.is_authenticated,
                verified,
            )

        return self(get)

    def close(self) -> None:
        self._pool.shutdown()


@pytest.fixture
def worker() -> Iterator[Worker]:
    other = Worker()
    yield other
    other.close()


# --- what one signed-in page reads ----------------------------------------------------------------


def _queries_of(client: Client) -> tuple[int, list[str], Any]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(TRIVIAL)
    return len(queries.captured_queries), [q["sql"] for q in queries.captured_queries], response


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["applicant", "staff"])
def test_a_signed_in_trivial_page_reads_and_writes_nothing_in_the_database(
    people: Any, trivial_page: None, who: str
) -> None:
    person = people.applicant_a if who == "applicant" else people.staff[factories.SPENCER]
    client = Client()
    client.force_login(person)  # staff: the code step passed too (tests/conftest.py)
    first = client.get(TRIVIAL)
    assert first.status_code == 200
    assert first.wsgi_request.user.is_authenticated
    assert first.wsgi_request.user.is_verified() is (who == "staff")

    count, sql, response = _queries_of(client)
    assert count <= WARM_QUERIES, sql
    assert response.status_code == 200
    assert response.wsgi_request.user == person
    assert response.wsgi_request.user.is_verified() is (who == "staff")
    # Nothing in the session changed, so it is neither saved nor sent again.
    assert settings.SESSION_COOKIE_NAME not in response.cookies

    # The shared cache lost everything: the database is read once more, then not again.
    session_cache().clear()
    count, sql, response = _queries_of(client)
    assert count <= COLD_QUERIES[who], sql
    assert not any(q.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")) for q in sql)
    assert response.wsgi_request.user == person
    assert response.wsgi_request.user.is_verified() is (who == "staff")
    assert _queries_of(client)[0] <= WARM_QUERIES


@pytest.mark.django_db
def test_the_sessions_cache_is_one_every_worker_reads(settings: Any) -> None:
    """Files in a folder (the data folder's unless SILTFENCE_SESSION_CACHE_DIR says), not a
    process's own memory, which another worker would never see."""
    assert settings.SESSION_ENGINE == "siltfence.apps.accounts.sessions"
    assert settings.SESSION_SAVE_EVERY_REQUEST is False
    kept = settings.CACHES[settings.SESSION_CACHE_ALIAS]
    assert kept["BACKEND"] == "siltfence.apps.accounts.cache.JSONFileCache"


# --- what must end at once, on every worker -------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("who", ["applicant", "staff"])
def test_signing_out_on_one_worker_ends_the_session_on_another_at_once(
    people: Any, worker: Worker, who: str
) -> None:
    person = people.applicant_a if who == "applicant" else people.staff[factories.SPENCER]
    page = ACCOUNT if who == "applicant" else QUEUE
    here = Client()
    here.force_login(person)
    there = same_session(here)
    assert worker.get(there, page)[:3] == (200, "", True)
    assert here.get(page).status_code == 200

    assert here.post("/accounts/logout/").status_code == 302

    status, where, signed_in, _ = worker.get(there, page)
    assert (status, signed_in) == (302, False)
    assert where.startswith(LOGIN)
    # And so it stays, however often it is asked, on either worker.
    assert not worker.get(there, page)[2]
    assert here.get(page)["Location"].startswith(LOGIN)


@pytest.mark.django_db(transaction=True)
def test_turning_codes_off_ends_the_verified_state_of_the_same_session_elsewhere_at_once(
    people: Any, worker: Worker, trivial_page: None
) -> None:
    applicant = people.applicant_a
    here = Client()
    here.force_login(applicant)
    device = pass_code_step(here, applicant)
    there = same_session(here)
    assert worker.get(there, TRIVIAL)[2:] == (True, True)
    assert worker.get(there, TRIVIAL)[2:] == (True, True)  # now from the shared cache

    off = here.post("/accounts/turn-off-codes", {"code": code_now(device)})
    assert off.status_code == 302
    assert sf.authenticator_of(applicant) is None

    # Still signed in (an applicant needs no code), no longer having passed the code step.
    assert worker.get(there, TRIVIAL)[2:] == (True, False)
    assert here.get(TRIVIAL).wsgi_request.user.is_verified() is False


@pytest.mark.django_db(transaction=True)
def test_a_new_phone_ends_the_old_phones_sessions_at_once(
    people: Any, worker: Worker, trivial_page: None
) -> None:
    staff = people.staff[factories.SPENCER]
    old_phone = authenticator_for(staff)
    here = Client()
    here.force_login(staff)
    there = same_session(here)
    # Another session of the same person, signed in with the old phone (another browser).
    elsewhere = Client()
    elsewhere.force_login(staff)
    assert elsewhere.session[DEVICE_ID_SESSION_KEY] == old_phone.persistent_id
    assert worker.get(there, QUEUE)[0] == 200
    assert worker.get(elsewhere, QUEUE)[0] == 200

    backup = sf.backup_codes_issue(user=staff)[0]
    moving = here.post("/accounts/new-phone", {"code": backup})
    assert moving["Location"] == f"{ENROL}?next=%2Faccounts%2F"
    page = here.get(ENROL).content.decode()
    key = re.search(r'data-testid="enrol-key">([A-Z2-7 ]+)<', page).group(1)
    assert "Your backup codes" in here.post(ENROL, {"code": code_for_key(key)}).content.decode()
    assert sf.authenticator_of(staff) != old_phone

    # The session that moved the phone goes on, under a new key, with the new phone.
    assert here.get(QUEUE).status_code == 200
    # Its old key, held by another tab or worker, is signed out.
    assert worker.get(there, QUEUE)[2] is False
    # The old phone's session is sent back to the code step on its next request.
    status, where, signed_in, verified = worker.get(elsewhere, QUEUE)
    assert (status, signed_in, verified) == (302, True, False)
    assert where.startswith(CODE)
    assert DEVICE_ID_SESSION_KEY not in worker(lambda: dict(elsewhere.session.items()))


@pytest.mark.django_db(transaction=True)
def test_a_changed_password_or_an_inactive_account_ends_sessions_elsewhere_at_once(
    people: Any, worker: Worker
) -> None:
    applicant, board = people.applicant_a, people.board[factories.SPENCER]
    first, second = Client(), Client()
    first.force_login(applicant)
    second.force_login(board)
    assert worker.get(first, ACCOUNT)[2] is True
    assert worker.get(second, ACCOUNT)[2] is True

    applicant.set_password("a-new-password-8y?")
    applicant.save()
    board.is_active = False
    board.save()

    status, where, signed_in, _ = worker.get(first, ACCOUNT)
    assert (status, signed_in) == (302, False) and where.startswith(LOGIN)
    assert worker.get(second, ACCOUNT)[2] is False


@pytest.mark.django_db(transaction=True)
def test_a_staff_session_without_the_code_step_reaches_only_the_sign_in_steps(
    people: Any, worker: Worker, trivial_page: None
) -> None:
    staff = people.staff[factories.SPENCER]
    client = Client()
    client.force_login(staff)
    session = client.session
    del session[DEVICE_ID_SESSION_KEY]  # a session made without the code step
    session.save()
    for _ in range(2):  # the second time with whatever the first put in the cache
        for page in (QUEUE, ACCOUNT, "/home/", TRIVIAL):
            status, where, signed_in, verified = worker.get(client, page)
            assert (status, signed_in, verified) == (302, True, False), page
            assert where.startswith(CODE), page
        assert worker.get(client, CODE)[0] == 200
    # A device id the person does not own passes nothing either.
    other = authenticator_for(people.staff[factories.NEW_GLARUS])
    session = client.session
    session[DEVICE_ID_SESSION_KEY] = other.persistent_id
    session.save()
    assert worker.get(client, QUEUE)[1].startswith(CODE)


@pytest.mark.django_db(transaction=True)
def test_an_applicant_given_a_village_role_is_asked_for_the_code_at_once(
    people: Any, worker: Worker, trivial_page: None
) -> None:
    applicant = people.applicant_a
    client = Client()
    client.force_login(applicant)
    assert worker.get(client, ACCOUNT)[0] == 200
    assert worker.get(client, ACCOUNT)[0] == 200  # "needs no code", now from the cache

    Membership.objects.create(user=applicant, village_id=factories.SPENCER, role=Role.INSPECTOR)

    status, where, _, _ = worker.get(client, ACCOUNT)
    assert status == 302 and where.startswith(ENROL)


@pytest.mark.django_db
def test_an_entry_of_the_shared_cache_is_json_and_a_pickle_there_runs_nothing(
    people: Any, trivial_page: None, tmp_path: Any
) -> None:
    """Whoever could write the cache's folder could run code as the server if its entries
    were pickles (Django's own file cache); here a file that is not a JSON entry is no entry
    (decision 37): the session is read from the database again."""
    import json
    import pickle

    client = Client()
    client.force_login(people.applicant_a)
    assert client.get(TRIVIAL).wsgi_request.user.is_authenticated
    kept = session_cache()
    key = f"django.contrib.sessions.cached_db{client.cookies[settings.SESSION_COOKIE_NAME].value}"
    path = Path(kept._key_to_file(key))
    entry = json.loads(path.read_bytes())
    assert entry["value"]["_auth_user_id"] == str(people.applicant_a.pk)

    pwned = tmp_path / "pwned"

    class Hostile:
        def __reduce__(self) -> tuple[Any, ...]:
            return (open, (str(pwned), "w"))

    path.write_bytes(pickle.dumps(0) + pickle.dumps(Hostile()))
    response = client.get(TRIVIAL)
    assert response.wsgi_request.user == people.applicant_a  # from the database
    assert not pwned.exists()
