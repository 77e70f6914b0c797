"""Generate the permit and the letters of its record (disapproval, approval subject to a
surety, extension, closeout, surety release) and keep them with the record."""

from __future__ import annotations

import hashlib
import uuid
from typing import Any

from django.core.files.base import ContentFile
from django.db import transaction

from siltfence.apps.audit.chain import event_record
from siltfence.apps.documents.pdf import lines_to_pdf
from siltfence.apps.documents.text import (
    closeout_lines,
    disapproval_lines,
    extension_lines,
    permit_lines,
    surety_release_lines,
    surety_required_lines,
)
from siltfence.apps.permits.models import Document, DocumentKind
from siltfence.presentation.today import ordinance_on


def _store(*, application: Any, kind: str, name: str, content: bytes, citation: str) -> Document:
    with transaction.atomic():
        document = Document(
            application=application,
            kind=kind,
            original_name=name,
            content_type="application/pdf",
            size=len(content),
            sha256=hashlib.sha256(content).hexdigest(),
            uploaded_by=None,
        )
        document.file.save(f"{uuid.uuid4().hex}.pdf", ContentFile(content), save=False)
        document.save()
        event_record(
            actor=None,
            entity="application",
            entity_id=application.pk,
            action=f"{kind}_generate",
            village=application.village_id,
            citation=citation,
            after={"document": document.pk, "sha256": document.sha256},
        )
    return document


def permit_document_store(*, permit: Any) -> Document:
    ordinance = ordinance_on(permit.village_id, permit.issued_on)
    lines = permit_lines(ordinance=ordinance, permit=permit, application=permit.application)
    content = lines_to_pdf(lines, title=f"Permit {permit.number}")
    earlier = list(
        Document.objects.filter(
            application=permit.application, kind=DocumentKind.PERMIT, superseded_by=None
        )
    )
    document = _store(
        application=permit.application,
        kind=DocumentKind.PERMIT,
        name=f"permit-{permit.number}-{permit.expires_on:%Y-%m-%d}.pdf",
        content=content,
        citation=ordinance.rules["permit"]["citation"],
    )
    # The earlier permit document is kept, marked as replaced by this one.
    Document.objects.filter(pk__in=[d.pk for d in earlier]).update(superseded_by=document)
    return document


def surety_required_document_store(*, application: Any) -> Document:
    ordinance = ordinance_on(application.village_id, application.decided_at)
    lines = surety_required_lines(ordinance=ordinance, application=application)
    return _store(
        application=application,
        kind=DocumentKind.SURETY_REQUIRED_LETTER,
        name=f"approval-subject-to-surety-{application.number}.pdf",
        content=lines_to_pdf(lines, title=f"Approval {application.number}"),
        citation=ordinance.rules["permit"]["surety_citation"],
    )


def extension_letter_store(*, extension: Any) -> Document:
    permit = extension.permit
    ordinance = ordinance_on(permit.village_id, extension.granted_on)
    lines = extension_lines(ordinance=ordinance, extension=extension)
    return _store(
        application=permit.application,
        kind=DocumentKind.EXTENSION_LETTER,
        name=f"extension-{permit.number}-{extension.granted_on:%Y-%m-%d}.pdf",
        content=lines_to_pdf(lines, title=f"Extension {permit.number}"),
        citation=ordinance.rules["permit"]["citation"],
    )


def closeout_letter_store(*, permit: Any) -> Document:
    ordinance = ordinance_on(permit.village_id, permit.closed_on)
    lines = closeout_lines(ordinance=ordinance, permit=permit)
    return _store(
        application=permit.application,
        kind=DocumentKind.CLOSEOUT_LETTER,
        name=f"closeout-{permit.number}.pdf",
        content=lines_to_pdf(lines, title=f"Closeout {permit.number}"),
        citation=ordinance.rules["permit"]["final_stabilization"]["citation"],
    )


def surety_release_document_store(*, movement: Any) -> Document:
    permit = movement.surety.permit
    ordinance = ordinance_on(permit.village_id, movement.on)
    lines = surety_release_lines(ordinance=ordinance, movement=movement)
    return _store(
        application=permit.application,
        kind=DocumentKind.SURETY_RELEASE_LETTER,
        name=f"surety-release-{permit.number}-{movement.pk}.pdf",
        content=lines_to_pdf(lines, title=f"Surety release {permit.number}"),
        citation=ordinance.rules["permit"]["surety_citation"],
    )


def disapproval_document_store(*, application: Any) -> Document:
    ordinance = ordinance_on(application.village_id, application.decided_at)
    lines = disapproval_lines(ordinance=ordinance, application=application)
    content = lines_to_pdf(lines, title=f"Disapproval {application.number}")
    return _store(
        application=application,
        kind=DocumentKind.DISAPPROVAL_LETTER,
        name=f"disapproval-{application.number}.pdf",
        content=content,
        citation=ordinance.rules["appeals"]["citation"],
    )
