"""With debug off (as in production), a failing page is a plain page that keeps the site's
navigation and shows nothing of the program's insides; under /api/ it is JSON."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client, RequestFactory
from django.utils.functional import SimpleLazyObject

from fault_urls import SECRET_DETAIL
from siltfence.apps.web import error_views

pytestmark = pytest.mark.django_db

# What Django's debug pages and default answers show, and none of ours may.
INTERNALS = ("Traceback", "URLconf", "DEBUG = True", "siltfence.config", "RuntimeError")
NAVIGATION = ('href="/ordinances/"', 'href="/design-checks/"')


@pytest.fixture
def faults(settings: Any) -> None:
    settings.DEBUG = False
    settings.ROOT_URLCONF = "fault_urls"


@pytest.fixture
def visitor(faults: None) -> Client:
    return Client(raise_request_exception=False)


def _plain(page: str) -> None:
    for word in (*INTERNALS, SECRET_DETAIL):
        assert word not in page, word
    for link in NAVIGATION:
        assert link in page, link


def test_an_unknown_address_is_a_plain_404_page_without_the_list_of_addresses(visitor: Client):
    response = visitor.get("/no-such-page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "<h1>Page not found</h1>" in page
    assert "admin/" not in page and "api/" not in page.split("<main", 1)[1].split("</main>")[0]
    _plain(page)


def test_an_unknown_api_address_is_json_naming_the_documentation(visitor: Client):
    response = visitor.get("/api/v1/no-such-thing")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    body = json.loads(response.content)
    assert "/api/docs" in body["detail"]


def test_a_fault_in_a_page_is_a_plain_500_page_with_the_navigation(visitor: Client):
    response = visitor.get("/fault/")
    assert response.status_code == 500
    page = response.content.decode()
    assert "<h1>Something went wrong</h1>" in page
    _plain(page)


def test_a_fault_in_the_api_is_json_without_the_fault(visitor: Client):
    response = visitor.get("/api/fault/")
    assert response.status_code == 500
    body = json.loads(response.content)
    assert set(body) == {"detail", "field"}
    assert SECRET_DETAIL not in response.content.decode()


def test_a_refused_page_is_a_plain_403_page(visitor: Client):
    response = visitor.get("/forbidden/")
    assert response.status_code == 403
    page = response.content.decode()
    assert "<h1>You cannot open this page</h1>" in page
    _plain(page)


def test_a_request_django_finds_suspicious_is_a_plain_400_page(visitor: Client):
    response = visitor.get("/suspicious/")
    assert response.status_code == 400
    page = response.content.decode()
    assert "<h1>The request could not be understood</h1>" in page
    _plain(page)


def test_a_form_sent_without_its_security_token_asks_to_send_it_again(faults: None):
    browser = Client(enforce_csrf_checks=True)
    response = browser.post("/accounts/login/", {"username": "x", "password": "y"})
    assert response.status_code == 403
    page = response.content.decode()
    assert "<h1>Please send the form again</h1>" in page
    assert "CSRF" not in page
    _plain(page)


def test_the_500_page_makes_no_database_query_even_for_a_signed_in_visitor(
    faults: None, django_assert_num_queries: Any
):
    def user_from_the_database() -> Any:
        raise AssertionError("the 500 page looked up the visitor")

    request = RequestFactory().get("/fault/")
    request.user = SimpleLazyObject(user_from_the_database)
    with django_assert_num_queries(0):
        response = error_views.server_error(request)
    assert response.status_code == 500
    _plain(response.content.decode())


def test_when_even_the_500_page_fails_a_fixed_page_is_sent_and_logged(
    faults: None, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
):
    def broken(*args: Any, **kwargs: Any) -> str:
        raise ValueError("Missing staticfiles manifest entry for 'web/site.css'")

    monkeypatch.setattr(error_views.loader, "render_to_string", broken)
    request = RequestFactory().get("/fault/")
    request.user = AnonymousUser()
    with caplog.at_level(logging.ERROR, logger="siltfence.errors"):
        response = error_views.server_error(request)
    assert response.status_code == 500
    page = response.content.decode()
    assert "<h1>Something went wrong</h1>" in page
    assert "manifest" not in page and "Traceback" not in page
    assert [r.name for r in caplog.records] == ["siltfence.errors"]
