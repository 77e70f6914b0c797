"""A request body over the limit is 413 Request Entity Too Large with a plain message (JSON
under /api/), never a 500 and never Django's 400: on the API, a web form and an upload.

The limits: a file may be 20 MB (SILTFENCE_UPLOAD_MAX_BYTES, 20 × 1,048,576 bytes), and a
whole request 25 MB (26,214,400 bytes), room for the largest file and its form.
"""

from __future__ import annotations

import json
from typing import Any

import factories
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

MB = 1024 * 1024
THIRTY_MB = 30 * MB


@pytest.fixture
def visitor(settings: Any) -> Client:
    settings.DEBUG = False
    return Client(raise_request_exception=False)


def test_a_30_mb_api_request_is_413_json_naming_the_limits(visitor: Client):
    body = b'{"jurisdiction": "spencer-wi", "facts": {"note": "' + b"x" * THIRTY_MB + b'"}}'
    response = visitor.post("/api/v1/determinations", data=body, content_type="application/json")
    assert response.status_code == 413
    assert response["Content-Type"] == "application/json"
    answer = json.loads(response.content)
    assert answer["field"] == "(body)"
    assert f"{len(body):,} bytes" in answer["detail"]
    assert "the limit is 26,214,400 bytes" in answer["detail"]
    assert "at most 20 MB" in answer["detail"]


def test_a_30_mb_web_form_is_a_plain_413_page_with_the_navigation(visitor: Client):
    response = visitor.post(
        "/design-checks/",
        data=b"plan=" + b"x" * THIRTY_MB,
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 413
    page = response.content.decode()
    assert "<h1>What you sent is too large</h1>" in page
    assert "It was 30.0 MB; a file may be at most 20 MB." in page
    assert 'href="/ordinances/"' in page
    assert "Traceback" not in page and "DATA_UPLOAD_MAX_MEMORY_SIZE" not in page


def test_a_30_mb_upload_is_413_and_stores_nothing(visitor: Client, people, spencer):
    application = spencer.application("draft")
    visitor.force_login(people.applicant_a)
    count = application.documents.count()
    # A real PDF header, then padding: the size alone is what is refused.
    content = factories.plan_pdf("1 Main St") + b"\n%" + b"x" * THIRTY_MB
    response = visitor.post(
        reverse("web:portal-upload", args=[application.pk]),
        {"kind": "site_map", "file": SimpleUploadedFile("plan.pdf", content, "application/pdf")},
    )
    assert response.status_code == 413
    assert "a file may be at most 20 MB" in response.content.decode()
    assert application.documents.count() == count


def test_a_body_over_django_s_own_limit_is_413_even_when_the_request_limit_is_higher(
    visitor: Client, settings: Any
):
    # A village that takes 50 MB plan files: the whole-request limit grows with it, and
    # a 30 MB JSON body is then stopped by Django's limit on form data in memory (25 MB),
    # which raises RequestDataTooBig; that too is a 413, not a 400 or a 500.
    settings.SILTFENCE_UPLOAD_MAX_BYTES = 50 * MB
    settings.SILTFENCE_REQUEST_MAX_BYTES = 51 * MB
    body = b'{"jurisdiction": "spencer-wi", "facts": {"note": "' + b"x" * THIRTY_MB + b'"}}'
    response = visitor.post("/api/v1/determinations", data=body, content_type="application/json")
    assert response.status_code == 413
    assert "at most 50 MB" in json.loads(response.content)["detail"]


def test_a_request_just_under_the_limit_is_read_by_the_api_not_refused_for_its_size(
    visitor: Client,
):
    # 25 MB of JSON minus a little: under the whole-request limit and Django's, so the
    # API reads it and answers about the document itself, with its own 400.
    filler = b"x" * (25 * MB - 200)
    body = b'{"jurisdiction": "spencer-wi", "facts": {"note": "' + filler + b'"}}'
    assert len(body) <= 25 * MB
    response = visitor.post("/api/v1/determinations", data=body, content_type="application/json")
    assert response.status_code == 400
    answer = json.loads(response.content)
    assert answer["detail"] and "26,214,400" not in answer["detail"]
