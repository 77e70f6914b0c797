"""Login throttling per username and client address, behind the reverse proxy production
assumes. Every request then comes from the proxy's address; the client's is the one the
trusted proxy appended to X-Forwarded-For. Five wrong passwords lock that username from
that client for an hour, and only from that client. With no trusted proxy the header is
the client's own writing and is ignored."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory

from siltfence.apps.accounts.client_ip import client_ip

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
PASSWORD = "right-horse-battery-2026"
PROXY = "10.0.0.2"  # the reverse proxy in front of every app server


@pytest.fixture
def clerk():
    return get_user_model().objects.create_user("village-clerk", password=PASSWORD)


def login(password: str, *, remote: str, forwarded: str | None = None) -> int:
    headers = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        headers["HTTP_X_FORWARDED_FOR"] = forwarded
    response = Client(**headers).post(LOGIN, {"username": "village-clerk", "password": password})
    return response.status_code


def test_behind_one_proxy_five_wrong_passwords_lock_out_that_client_and_not_another(
    settings, clerk
):
    settings.SILTFENCE_TRUSTED_PROXIES = 1
    for _ in range(4):
        assert login("wrong", remote=PROXY, forwarded="203.0.113.7") == 200
    assert login("wrong", remote=PROXY, forwarded="203.0.113.7") == 429  # the fifth locks
    # The client who guessed is locked out, even with the right password...
    assert login(PASSWORD, remote=PROXY, forwarded="203.0.113.7") == 429
    # ...while the clerk at another address, through the same proxy, signs in.
    assert login(PASSWORD, remote=PROXY, forwarded="198.51.100.9") == 302


def test_a_client_cannot_escape_the_lockout_by_writing_its_own_forwarded_for(settings, clerk):
    settings.SILTFENCE_TRUSTED_PROXIES = 1
    # The proxy appends the address it saw; what the client wrote stays on the left.
    for number in range(4):
        assert login("wrong", remote=PROXY, forwarded=f"192.0.2.{number}, 203.0.113.7") == 200
    assert login("wrong", remote=PROXY, forwarded="192.0.2.4, 203.0.113.7") == 429
    assert login(PASSWORD, remote=PROXY, forwarded="192.0.2.99, 203.0.113.7") == 429


def test_with_no_trusted_proxy_a_spoofed_forwarded_for_is_ignored(settings, clerk):
    settings.SILTFENCE_TRUSTED_PROXIES = 0
    for number in range(4):
        assert login("wrong", remote="203.0.113.7", forwarded=f"192.0.2.{number}") == 200
    assert login("wrong", remote="203.0.113.7", forwarded="192.0.2.4") == 429
    assert login(PASSWORD, remote="203.0.113.7", forwarded="198.51.100.9") == 429
    assert login(PASSWORD, remote="198.51.100.9") == 302


@pytest.mark.parametrize(
    ("proxies", "remote", "forwarded", "client"),
    [
        (0, "10.0.0.2", "203.0.113.7", "10.0.0.2"),
        (1, "10.0.0.2", "203.0.113.7", "203.0.113.7"),
        (1, "10.0.0.2", "6.6.6.6, 203.0.113.7", "203.0.113.7"),
        (2, "10.0.0.3", "6.6.6.6, 203.0.113.7, 10.0.0.2", "203.0.113.7"),
        (1, "10.0.0.2", "[2001:db8::7]:51000", "2001:db8::7"),
        (1, "10.0.0.2", "203.0.113.7:51000", "203.0.113.7"),
        # Fewer hops than trusted proxies, or a hop that is not an address: the connection's.
        (2, "10.0.0.2", "203.0.113.7", "10.0.0.2"),
        (1, "10.0.0.2", "", "10.0.0.2"),
        (1, "10.0.0.2", "unknown", "10.0.0.2"),
    ],
)
def test_the_client_is_the_address_the_outermost_trusted_proxy_saw(
    settings, proxies, remote, forwarded, client
):
    settings.SILTFENCE_TRUSTED_PROXIES = proxies
    request = RequestFactory().get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)
    assert client_ip(request) == client
