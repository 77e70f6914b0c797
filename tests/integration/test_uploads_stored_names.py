"""Uploads are stored under server-made names whose extension comes from the contents, and
a document whose file is gone from the server answers a plain "file missing" page."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import factories
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import Document
from siltfence.apps.permits.uploads import checked_upload

pytestmark = pytest.mark.django_db

# A file that is both a PDF (it starts with the PDF signature, as the type check reads it)
# and a web page with a script (as a browser that opened it as HTML would read it).
POLYGLOT = (
    b"%PDF-1.4\n"
    b"<html><body><script>document.title = 'owned'</script></body></html>\n"
    b"1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
)


def _upload(client: Client, application: Any, name: str, content: bytes, claimed: str) -> Any:
    upload = SimpleUploadedFile(name, content, content_type=claimed)
    return client.post(
        reverse("web:portal-upload", args=[application.pk]),
        {"kind": "site_map", "file": upload},
        follow=True,
    )


@pytest.fixture
def applicant(people: factories.People) -> Client:
    client = Client()
    client.force_login(people.applicant_a)
    return client


def test_a_pdf_html_polyglot_named_evil_html_is_stored_as_a_pdf_under_a_server_made_name(
    applicant: Client, spencer: factories.Spencer
):
    application = spencer.application("draft")
    before = set(application.documents.values_list("pk", flat=True))
    _upload(applicant, application, "evil.html", POLYGLOT, "application/pdf")
    stored = application.documents.exclude(pk__in=before).get()
    stored_name = Path(stored.file.name).name
    # A server-made name (32 hex digits) with the extension of what the contents are.
    assert re.fullmatch(r"[0-9a-f]{32}\.pdf", stored_name), stored_name
    assert "evil" not in stored.file.name and ".html" not in stored.file.name
    assert stored.content_type == "application/pdf"
    assert Path(stored.file.path).read_bytes() == POLYGLOT


def test_the_polyglot_is_served_as_a_pdf_attachment_named_pdf_in_a_sandbox(
    applicant: Client, spencer: factories.Spencer
):
    application = spencer.application("draft")
    before = set(application.documents.values_list("pk", flat=True))
    _upload(applicant, application, "evil.html", POLYGLOT, "application/pdf")
    stored = application.documents.exclude(pk__in=before).get()
    response = applicant.get(reverse("web:document", args=[stored.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'attachment; filename="evil.pdf"'
    assert response["X-Content-Type-Options"] == "nosniff"
    assert "sandbox" in response["Content-Security-Policy"]
    assert b"".join(response.streaming_content) == POLYGLOT


def test_the_polyglot_claimed_as_a_web_page_is_refused_naming_the_file(
    applicant: Client, spencer: factories.Spencer
):
    with pytest.raises(ActionRefused) as refused:
        checked_upload(name="evil.html", content=POLYGLOT, claimed_type="text/html", kind="plan")
    assert refused.value.field == "file"
    assert str(refused.value).startswith("file: evil.html is text/html;")
    # Through the portal nothing is stored.
    application = spencer.application("draft")
    count = application.documents.count()
    _upload(applicant, application, "evil.html", POLYGLOT, "text/html")
    assert application.documents.count() == count


def test_an_upload_whose_name_fits_its_contents_keeps_its_name_on_download(
    applicant: Client, spencer: factories.Spencer
):
    application = spencer.application("draft")
    before = set(application.documents.values_list("pk", flat=True))
    pdf = factories.plan_pdf("1 Main St")
    _upload(applicant, application, "Site Map.PDF", pdf, "application/pdf")
    stored = application.documents.exclude(pk__in=before).get()
    assert Path(stored.file.name).suffix == ".pdf"
    response = applicant.get(reverse("web:document", args=[stored.pk]))
    assert response["Content-Disposition"] == 'attachment; filename="Site Map.PDF"'


# --- a database restored without its uploads ----------------------------------------------


def test_a_document_whose_file_is_gone_answers_404_with_a_plain_explanation_and_whom_to_ask(
    applicant: Client, spencer: factories.Spencer, caplog: pytest.LogCaptureFixture
):
    application = spencer.application("draft")
    document = factories.plan_document(application)
    Path(document.file.path).unlink()  # what a database-only restore leaves behind
    with caplog.at_level(logging.ERROR, logger="siltfence.documents"):
        response = applicant.get(reverse("web:document", args=[document.pk]))
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert "This file is missing" in page
    assert "plan.pdf" in page
    assert application.number in page
    # Spencer's ordinance is administered by its Building Inspector (jurisdiction.yaml).
    assert "Village of Spencer's Building Inspector" in page
    # The page keeps the site's navigation and shows no internals.
    assert reverse("web:ordinance-list") in page
    assert document.file.name not in page
    assert "Traceback" not in page and "FileNotFoundError" not in page
    # Whoever runs the server learns which file to restore.
    logged = [r for r in caplog.records if r.name == "siltfence.documents"]
    assert len(logged) == 1 and logged[0].levelno == logging.ERROR
    assert document.file.name in logged[0].getMessage()
    assert application.number in logged[0].getMessage()


def test_a_new_glarus_document_whose_file_is_gone_names_the_village_administrator(
    people: factories.People,
):
    application = factories.make_application(
        applicant=people.applicant_b, village=factories.NEW_GLARUS, state="draft"
    )
    document = factories.plan_document(application)
    Path(document.file.path).unlink()
    client = Client()
    client.force_login(people.staff[factories.NEW_GLARUS])
    response = client.get(reverse("web:document", args=[document.pk]))
    assert response.status_code == 404
    assert "Village of New Glarus's Village Administrator" in response.content.decode()


def test_someone_else_s_missing_document_is_still_a_plain_not_found(
    people: factories.People, spencer: factories.Spencer
):
    document = factories.plan_document(spencer.application("draft"))
    Path(document.file.path).unlink()
    other = Client()
    other.force_login(people.applicant_b)
    response = other.get(reverse("web:document", args=[document.pk]))
    assert response.status_code == 404
    # Applicant B learns nothing about applicant A's document.
    assert document.original_name.encode() not in response.content
    assert spencer.application("draft").number.encode() not in response.content
    assert Document.objects.filter(pk=document.pk).exists()
