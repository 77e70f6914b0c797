"""The services themselves refuse the wrong person, whatever page or command calls them.

A document is added to an application, and a change of the approved plan is asked for
(§ 413-8E(3)(c), § 135-8B and 7E(3)), by the applicant or by the village's own staff. No one
else: not a signed-in person with no part in the application, and not an official of the
other village, whose staff role gives no rights over this village's records. The services
are called directly, as a view, the API or a command would call them, with an otherwise
valid request, so the refusal can only be about the person. A refusal writes nothing: no
row, no stored file, no audit event.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import factories
import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone
from factories import NEW_GLARUS, SPENCER

from siltfence.apps.audit.models import AuditEvent
from siltfence.apps.documents.storage import LOCK, staging_root
from siltfence.apps.permits import services
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import Document, DocumentKind, PlanAmendment

pytestmark = pytest.mark.django_db


def _wrong_people(people: factories.People) -> dict[str, Any]:
    return {
        "a signed-in person with no part in the application": people.applicant_b,
        "the other village's staff": people.staff[NEW_GLARUS],
        "the other village's inspector": people.inspector[NEW_GLARUS],
        "nobody signed in": AnonymousUser(),
    }


def _stored_files() -> list[Path]:
    """Every file kept for the records: in MEDIA_ROOT, or staged beside it until its row
    commits (documents/storage.py; the test's transaction never commits)."""
    media = Path(settings.MEDIA_ROOT)
    found: list[Path] = []
    for root in (media, staging_root()):
        if root.exists():
            found += [p for p in root.rglob("*") if p.is_file() and p.name != LOCK]
    return sorted(found)


def _written() -> tuple[int, int, int, list[Path]]:
    return (
        Document.objects.count(),
        PlanAmendment.objects.count(),
        AuditEvent.objects.count(),
        _stored_files(),
    )


def _upload(application: Any) -> Callable[[Any], Any]:
    return lambda user: services.document_upload(
        application=application,
        user=user,
        kind=DocumentKind.SITE_MAP,
        name="site-map.pdf",
        content=factories.plan_pdf("site map of 100 N Park St"),
        claimed_type="application/pdf",
    )


def _amendment(permit: Any) -> Callable[[Any], Any]:
    return lambda user: services.plan_amendment_request(
        permit=permit,
        user=user,
        trigger=factories.AMENDMENT_TRIGGER[SPENCER],
        description="Move the stockpile to the west side.",
        on=timezone.localdate(),
    )


def _assert_refused_and_nothing_written(call: Callable[[Any], Any], who: dict[str, Any]) -> None:
    for label, user in who.items():
        before = _written()
        with pytest.raises(ActionRefused) as refused:
            call(user)
        assert refused.value.field == "application", label
        assert "your own applications" in str(refused.value), label
        assert _written() == before, f"{label}: a refused call wrote something"


@pytest.mark.parametrize("state", ["draft", "under_review", "approved"])
def test_document_upload_refuses_anyone_but_the_applicant_and_the_village_staff(
    people: factories.People, spencer: factories.Spencer, state: str
) -> None:
    application = spencer.application(state)
    upload = _upload(application)
    _assert_refused_and_nothing_written(upload, _wrong_people(people))
    assert not application.documents.filter(kind=DocumentKind.SITE_MAP).exists()
    # The same request from the applicant, and from Spencer's staff, is taken.
    for user in (people.applicant_a, people.staff[SPENCER]):
        documents, _, events, files = _written()
        document = upload(user)
        assert document.uploaded_by == user
        assert Document.objects.count() == documents + 1
        assert AuditEvent.objects.count() == events + 1
        assert len(_stored_files()) == len(files) + 1


def test_plan_amendment_request_refuses_anyone_but_the_permittee_and_the_village_staff(
    people: factories.People, spencer: factories.Spencer
) -> None:
    permit = spencer.permit
    ask = _amendment(permit)
    _assert_refused_and_nothing_written(ask, _wrong_people(people))
    assert not PlanAmendment.objects.filter(permit=permit).exists()
    for user in (people.applicant_a, people.staff[SPENCER]):
        _, amendments, events, _ = _written()
        amendment = ask(user)
        assert amendment.requested_by == user
        assert PlanAmendment.objects.count() == amendments + 1
        assert AuditEvent.objects.count() == events + 1
