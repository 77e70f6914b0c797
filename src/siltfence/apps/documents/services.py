"""Generate the permit and the disapproval letter and keep them with the record."""

from __future__ import annotations

import hashlib
import uuid
from typing import Any

from django.core.files.base import ContentFile
from django.db import transaction

from siltfence.apps.audit.chain import event_record
from siltfence.apps.documents.pdf import lines_to_pdf
from siltfence.apps.documents.text import disapproval_lines, permit_lines
from siltfence.apps.permits.models import Document, DocumentKind
from siltfence.core.ordinance.loader import load


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
    ordinance = load(permit.village_id)
    lines = permit_lines(ordinance=ordinance, permit=permit, application=permit.application)
    content = lines_to_pdf(lines, title=f"Permit {permit.number}")
    return _store(
        application=permit.application,
        kind=DocumentKind.PERMIT,
        name=f"permit-{permit.number}.pdf",
        content=content,
        citation=ordinance.rules["permit"]["citation"],
    )


def disapproval_document_store(*, application: Any) -> Document:
    ordinance = load(application.village_id)
    lines = disapproval_lines(ordinance=ordinance, application=application)
    content = lines_to_pdf(lines, title=f"Disapproval {application.number}")
    return _store(
        application=application,
        kind=DocumentKind.DISAPPROVAL_LETTER,
        name=f"disapproval-{application.number}.pdf",
        content=content,
        citation=ordinance.rules["appeals"]["citation"],
    )
