"""Registering: the page never says whether a username or an address is taken; the email
does, to the address's owner alone. An account exists only once its address's owner opened
the link and chose a password."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from siltfence.apps.enforcement.models import ComplaintSlot
from siltfence.apps.outbox.models import Message
from siltfence.apps.outbox.services import outbox_send
from siltfence.apps.web.account_views import REGISTRATIONS_PER_HOUR

pytestmark = pytest.mark.django_db
PASSWORD = "gravel-bed-tracking-pad-77"


def _form(**changes: str) -> dict[str, str]:
    return {
        "username": "new-applicant",
        "first_name": "Jo",
        "last_name": "Becker",
        "email": "jo@example.org",
        **changes,
    }


def _register(client: Client, form: dict[str, str], next_: str = "") -> Any:
    url = reverse("web:register") + (f"?next={next_}" if next_ else "")
    return client.post(url, form)


def _sent_to(address: str) -> Any:
    outbox_send()
    (message,) = [m for m in mail.outbox if m.to == [address]]
    return message


def _link(message: Any) -> str:
    return re.search(r"http://testserver(/accounts/register/finish/\S+/)", message.body).group(1)


def test_an_account_is_made_only_once_the_link_is_opened_and_a_password_chosen(people):
    client = Client()
    answer = _register(client, _form())
    assert answer.status_code == 302 and answer["Location"] == reverse("web:register-sent")
    users = get_user_model().objects
    assert not users.filter(username="new-applicant").exists()
    link = _link(_sent_to("jo@example.org"))
    # The link's body is kept from staff and emptied once sent.
    assert "register/finish" not in Message.objects.get(kind="registration").body
    page = client.get(link)
    assert page.status_code == 200 and "new-applicant" in page.content.decode()
    assert not users.filter(username="new-applicant").exists()  # a GET makes nothing
    done = client.post(link, {"password1": PASSWORD, "password2": PASSWORD})
    assert done.status_code == 302 and done["Location"] == reverse("web:portal")
    person = users.get(username="new-applicant")
    assert (person.email, person.first_name, person.last_name) == (
        "jo@example.org",
        "Jo",
        "Becker",
    )
    assert person.check_password(PASSWORD)
    # Used once: the username exists now.
    again = client.post(link, {"password1": PASSWORD, "password2": PASSWORD})
    assert again.status_code == 400 and "This link no longer works" in again.content.decode()


def test_the_page_answers_the_same_for_a_taken_username_and_a_taken_address(people):
    answers = [
        _register(Client(), _form(username="brand-new", email="fresh@example.org")),
        # applicant-a exists, with applicant-a@example.org
        _register(Client(), _form(username="applicant-a", email="other@example.org")),
        _register(Client(), _form(username="someone", email="APPLICANT-A@example.org")),
    ]
    assert {(a.status_code, a["Location"]) for a in answers} == {
        (302, reverse("web:register-sent"))
    }
    taken = _sent_to("other@example.org")
    assert 'the username "applicant-a", which is already taken' in taken.body
    assert "register/finish" not in taken.body
    holder = _sent_to("APPLICANT-A@example.org")
    assert 'An account with it already exists: "applicant-a"' in holder.body
    assert "register/finish" not in holder.body
    assert get_user_model().objects.filter(username__in=["someone", "brand-new"]).count() == 0


def test_a_link_whose_username_was_taken_meanwhile_makes_no_second_account(people):
    client = Client()
    _register(client, _form())
    link = _link(_sent_to("jo@example.org"))
    get_user_model().objects.create_user(username="New-Applicant", email="x@example.org")
    answer = client.post(link, {"password1": PASSWORD, "password2": PASSWORD})
    assert answer.status_code == 400
    assert get_user_model().objects.filter(username__iexact="new-applicant").count() == 1


@pytest.mark.parametrize(
    "token",
    ["nonsense", "a" * 3000, "eyJ1c2VybmFtZSI6ImV2aWwifQ:1abc:forged"],
)
def test_a_forged_or_mangled_link_is_refused(people, token):
    answer = Client().get(reverse("web:register-confirm", args=[token]))
    assert answer.status_code == 400
    assert "Register again" in answer.content.decode()


def test_a_link_older_than_a_day_is_refused(people, settings):
    client = Client()
    _register(client, _form())
    link = _link(_sent_to("jo@example.org"))
    settings.PASSWORD_RESET_TIMEOUT = -1  # every link is now older than allowed
    assert client.get(link).status_code == 400


def test_the_password_is_checked_by_the_site_s_rules(people):
    client = Client()
    _register(client, _form())
    link = _link(_sent_to("jo@example.org"))
    for bad in [("short", "short"), (PASSWORD, PASSWORD + "x"), ("becker-jo", "becker-jo")]:
        answer = client.post(link, {"password1": bad[0], "password2": bad[1]})
        assert answer.status_code == 200
    assert not get_user_model().objects.filter(username="new-applicant").exists()


@pytest.mark.parametrize(
    ("asked", "lands"),
    [
        ("/portal/apply/", "/portal/apply/"),
        ("https://evil.example/", "/portal/"),
        ("//evil", "/portal/"),
    ],
)
def test_registering_goes_on_to_a_page_of_this_site_only(people, asked, lands):
    client = Client()
    _register(client, _form(), next_=asked)
    link = _link(_sent_to("jo@example.org"))
    answer = client.post(link, {"password1": PASSWORD, "password2": PASSWORD})
    assert answer.status_code == 302 and answer["Location"] == lands


def test_one_address_may_register_five_times_an_hour_and_not_six(people):
    client = Client()
    for n in range(REGISTRATIONS_PER_HOUR):
        answer = _register(client, _form(username=f"p{n}", email=f"p{n}@example.org"))
        assert answer.status_code == 302
    refused = _register(client, _form(username="p9", email="p9@example.org"))
    assert refused.status_code == 200
    assert "At most 5 registrations an hour" in refused.content.decode()
    assert Message.objects.filter(kind="registration").count() == REGISTRATIONS_PER_HOUR
    assert ComplaintSlot.objects.filter(client__startswith="register:").count() == 5


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("username", "has space"),
        ("username", "x" * 151),
        ("email", "not-an-address"),
        ("email", "a@" + "b" * 260 + ".org"),
        ("first_name", ""),
        ("last_name", "y" * 151),
    ],
)
def test_a_bad_field_is_named_and_nothing_is_sent(people, field, value):
    answer = _register(Client(), _form(**{field: value}))
    assert answer.status_code == 200
    assert Message.objects.count() == 0


@settings(
    max_examples=40,
    deadline=2000,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    username=st.text(max_size=160),
    email=st.text(max_size=80) | st.emails(),
    first=st.text(max_size=160),
)
def test_any_registration_is_answered_without_a_server_error(people, username, email, first):
    ComplaintSlot.objects.all().delete()
    Message.objects.all().delete()
    answer = _register(Client(), _form(username=username, email=email, first_name=first))
    assert answer.status_code in (200, 302)
    if answer.status_code == 302:
        # Accepted: exactly one email went to the address typed, and no account yet.
        (message,) = Message.objects.all()
        assert message.to_address == email.strip()
        assert not get_user_model().objects.filter(email=email.strip()).exists() or (
            "already exists" in message.body
        )
    else:
        assert Message.objects.count() == 0
