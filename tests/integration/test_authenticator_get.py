"""Showing the enrolment page stores nothing: the new key waits in the session (sealed)
until its first right code, and only then is the authenticator stored."""

from __future__ import annotations

import base64
import re
from typing import Any

import factories
import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django_otp.plugins.otp_totp.models import TOTPDevice

from signing_in import code_for_key, code_now
from siltfence.apps.accounts import second_factor as sf
from siltfence.apps.web import sign_in_views

pytestmark = pytest.mark.django_db

PASSWORD = "not-used-in-tests-7x!"  # factories.make_user's
LOGIN = "/accounts/login/"
CODE = "/accounts/login/code/"
ENROL = "/accounts/login/authenticator/"


@pytest.fixture(autouse=True)
def _force_login_passes_the_code_step() -> None:
    """Sign-in itself is under test here: ``force_login`` makes a password-only session."""


def shown_key(response: Any) -> str:
    return re.search(r'data-testid="enrol-key">([A-Z2-7 ]+)<', response.content.decode()).group(1)


def enrolling(user: Any) -> Client:
    client = Client()
    response = client.post(LOGIN, {"username": user.username, "password": PASSWORD})
    assert response["Location"] == ENROL
    return client


def test_showing_the_enrolment_page_twice_stores_no_authenticator(people: Any) -> None:
    staff = people.staff[factories.SPENCER]
    client = enrolling(staff)
    before = TOTPDevice.objects.count()
    first = client.get(ENROL)
    second = client.get(ENROL)
    assert first.status_code == second.status_code == 200
    assert TOTPDevice.objects.count() == before
    assert not TOTPDevice.objects.filter(user=staff).exists()
    assert shown_key(first) == shown_key(second)  # the phone may already hold it


def test_an_applicant_looking_at_the_page_twice_stores_nothing(people: Any) -> None:
    applicant = people.applicant_a
    client = Client()
    client.post(LOGIN, {"username": applicant.username, "password": PASSWORD})
    before = TOTPDevice.objects.count()
    assert client.get(ENROL).status_code == 200
    assert client.get(ENROL).status_code == 200
    assert TOTPDevice.objects.count() == before
    assert sf.authenticator_of(applicant) is None


def test_enrolment_still_works_end_to_end(people: Any) -> None:
    staff = people.staff[factories.SPENCER]
    client = enrolling(staff)
    key = shown_key(client.get(ENROL))
    assert not TOTPDevice.objects.filter(user=staff).exists()
    done = client.post(ENROL, {"code": code_for_key(key)})
    assert "Your backup codes" in done.content.decode()
    (device,) = TOTPDevice.objects.filter(user=staff)
    assert device.confirmed and sf.key_text(device) == key
    assert sign_in_views.ENROLMENT not in client.session
    assert client.get("/staff/").status_code == 200
    # The code that confirmed the app is used up; the app's next one signs in later.
    later = Client()
    later.post(LOGIN, {"username": staff.username, "password": PASSWORD})
    assert later.post(CODE, {"code": code_now(device)})["Location"] == "/home/"


def test_the_key_waiting_in_the_session_is_sealed(people: Any) -> None:
    staff = people.staff[factories.SPENCER]
    client = enrolling(staff)
    key = shown_key(client.get(ENROL)).replace(" ", "")
    seed = base64.b32decode(key + "=" * (-len(key) % 8))
    stored = Session.objects.get(session_key=client.session.session_key).session_data
    kept = client.session[sign_in_views.ENROLMENT]["key"]
    for text in (stored, kept):
        assert key not in text.upper() and seed.hex() not in text.lower()
    assert kept.startswith("gAAAAA")


def test_a_code_for_a_key_the_session_no_longer_holds_is_refused_and_stores_nothing(
    people: Any,
) -> None:
    staff = people.staff[factories.SPENCER]
    client = enrolling(staff)
    key = shown_key(client.get(ENROL))
    session = client.session
    del session[sign_in_views.ENROLMENT]
    session.save()
    response = client.post(ENROL, {"code": code_for_key(key)})
    assert response.status_code == 200
    assert sf.ENROL_EXPIRED in response.content.decode().replace("&#x27;", "'")
    assert not TOTPDevice.objects.filter(user=staff).exists()
    assert shown_key(response) != key  # a new key to scan
