"""One account's password guessed at from many addresses: from the 10th failure on, each
try for that username waits 2, 4, 8 ... seconds (at most five minutes), right password or
not; the per-address lockout stays as it was (accounts.guessing)."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import SESSION_KEY, get_user_model
from django.test import Client

from siltfence.apps.accounts import guessing
from siltfence.apps.accounts.models import SignInFailures

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
USERNAME = "village-clerk"
PASSWORD = "right-horse-battery-2026"
PROXY = "10.0.0.2"  # the reverse proxy in front; each guess comes from another client
LIMIT = 10


@pytest.fixture(autouse=True)
def _behind_one_proxy(settings: Any) -> None:
    settings.SILTFENCE_TRUSTED_PROXIES = 1
    settings.SILTFENCE_ACCOUNT_GUESS_LIMIT = LIMIT
    settings.SILTFENCE_ACCOUNT_GUESS_WINDOW_SECONDS = 3600
    settings.SILTFENCE_ACCOUNT_GUESS_MAX_WAIT_SECONDS = 300


@pytest.fixture
def clerk() -> Any:
    return get_user_model().objects.create_user(USERNAME, password=PASSWORD)


def client_at(address: str) -> Client:
    return Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=address)


def address(n: int) -> str:
    return f"203.0.113.{n}"


def sign_in(password: str, *, at: str, client: Client | None = None) -> Any:
    client = client or client_at(at)
    return client.post(LOGIN, {"username": USERNAME, "password": password})


def signed_in(response: Any) -> bool:
    return response.status_code == 302 and SESSION_KEY in response.wsgi_request.session


def refusal(response: Any) -> str:
    page = response.content.decode().replace("&#x27;", "'")
    found = re.search(r'<p class="usa-alert__text">(.*?)</p>', page, re.S)
    return found.group(1).strip() if found else ""


def guesses(count: int, *, first: int = 1) -> None:
    """``count`` wrong passwords, each from its own address (never five from one)."""
    for n in range(first, first + count):
        assert sign_in("wrong", at=address(n)).status_code == 200


def wait_over() -> None:
    """Move the last failure back past the wait it set off."""
    row = SignInFailures.objects.get(username=USERNAME)
    back = datetime.timedelta(seconds=guessing.delay_seconds(row.failures) + 1)
    SignInFailures.objects.filter(pk=row.pk).update(last_failure_at=row.last_failure_at - back)


def test_nine_failures_from_nine_addresses_set_off_no_wait_and_the_tenth_does(
    clerk: Any,
) -> None:
    guesses(LIMIT - 1)
    assert guessing.wait_seconds(USERNAME) == 0
    # The tenth try is still checked (a wrong password is told so), and counted...
    tenth = sign_in("wrong", at=address(50))
    assert tenth.status_code == 200 and "correct username and password" in refusal(tenth)
    assert 0 < guessing.wait_seconds(USERNAME) <= 2
    # ...and from then on a try waits, from any address.
    response = sign_in("another-guess", at=address(51))
    assert response.status_code == 429
    assert re.fullmatch(
        r"Too many attempts to sign in to this account\. Wait [12] seconds?, then try again\.",
        refusal(response),
    )
    # The refused try checked nothing, so it counts nowhere: not for the account, not for
    # its address.
    assert SignInFailures.objects.get(username=USERNAME).failures == LIMIT
    assert not AccessAttempt.objects.filter(ip_address=address(51)).exists()


def test_the_wait_doubles_with_each_failure_after_the_limit_up_to_five_minutes(
    clerk: Any,
) -> None:
    assert [guessing.delay_seconds(n) for n in range(LIMIT - 1, LIMIT + 10)] == [
        0,
        *[2, 4, 8, 16, 32, 64, 128, 256],
        300,
        300,
    ]
    guesses(LIMIT)
    waits = []
    for n in range(3):
        wait_over()
        guesses(1, first=60 + n)
        waits.append(guessing.wait_seconds(USERNAME))
    assert [w > 0 for w in waits] == [True, True, True]
    assert waits[0] <= 4 < waits[1] <= 8 < waits[2] <= 16
    SignInFailures.objects.filter(username=USERNAME).update(failures=40)
    assert refusal(sign_in(PASSWORD, at=address(70))) == (
        "Too many attempts to sign in to this account. Wait 5 minutes, then try again."
    )


def test_a_right_password_during_the_wait_is_refused_as_a_wrong_one_and_works_after(
    clerk: Any,
) -> None:
    guesses(LIMIT)
    right = sign_in(PASSWORD, at=address(80))
    wrong = sign_in("still-wrong", at=address(81))
    # The same answer either way: the refusal tells nothing about the password.
    assert (right.status_code, refusal(right)) == (wrong.status_code, refusal(wrong))
    assert right.status_code == 429 and not signed_in(right)
    wait_over()
    assert signed_in(sign_in(PASSWORD, at=address(80)))
    # A sign-in clears the count.
    assert not SignInFailures.objects.filter(username=USERNAME).exists()


def test_the_count_runs_out_after_an_hour_without_failures(clerk: Any) -> None:
    guesses(LIMIT)
    SignInFailures.objects.filter(username=USERNAME).update(
        last_failure_at=SignInFailures.objects.get().last_failure_at
        - datetime.timedelta(hours=1, seconds=1)
    )
    assert guessing.wait_seconds(USERNAME) == 0
    guesses(1, first=90)
    assert SignInFailures.objects.get(username=USERNAME).failures == 1
    assert guessing.wait_seconds(USERNAME) == 0


def test_the_lockout_of_one_address_stays_beside_the_wait_of_the_account(clerk: Any) -> None:
    for _ in range(4):
        assert sign_in("wrong", at=address(7)).status_code == 200
    assert sign_in("wrong", at=address(7)).status_code == 429  # django-axes, for an hour
    assert guessing.wait_seconds(USERNAME) == 0  # five failures: no wait for the account yet
    guesses(LIMIT - 5, first=20)
    assert sign_in(PASSWORD, at=address(30)).status_code == 429  # the account's wait
    wait_over()
    assert sign_in(PASSWORD, at=address(7)).status_code == 429  # that address: still locked
    assert signed_in(sign_in(PASSWORD, at=address(8)))


def test_the_owners_own_browser_does_not_wait_while_the_account_is_guessed_at(
    clerk: Any,
) -> None:
    owner = client_at(address(200))
    assert signed_in(sign_in(PASSWORD, at=address(200), client=owner))
    owner.post("/accounts/logout/")
    guesses(LIMIT)
    assert guessing.wait_seconds(USERNAME) > 0
    assert sign_in(PASSWORD, at=address(201)).status_code == 429  # a browser never used
    assert signed_in(sign_in(PASSWORD, at=address(200), client=owner))


def test_the_wait_holds_on_the_admins_own_login_page_too(clerk: Any) -> None:
    clerk.is_staff = True
    clerk.save()
    guesses(LIMIT)
    client = client_at(address(120))
    client.post("/admin/login/", {"username": USERNAME, "password": PASSWORD})
    assert SESSION_KEY not in client.session
    assert SignInFailures.objects.get(username=USERNAME).failures == LIMIT


def test_usernames_nobody_has_are_counted_the_same_so_the_answer_tells_nothing(db: Any) -> None:
    for n in range(LIMIT):
        client_at(address(n)).post(LOGIN, {"username": "nobody-here", "password": "x"})
    response = client_at(address(40)).post(LOGIN, {"username": "nobody-here", "password": "x"})
    assert response.status_code == 429
    assert refusal(response).startswith("Too many attempts to sign in to this account.")


def test_the_system_check_says_so_when_the_backend_is_not_listed(settings: Any) -> None:
    from siltfence.apps.accounts.checks import account_guessing_check

    assert account_guessing_check() == []
    settings.AUTHENTICATION_BACKENDS = [
        b for b in settings.AUTHENTICATION_BACKENDS if not b.endswith("AccountGuessingBackend")
    ]
    assert [error.id for error in account_guessing_check()] == ["siltfence.E002"]
