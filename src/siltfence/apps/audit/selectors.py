"""Reading the audit record: the entries about one application, permit or case, oldest
first, as its page lists them."""

from __future__ import annotations

from django.db.models import QuerySet

from siltfence.apps.audit.models import AuditEvent


def events_about(entity: str, pk: int) -> QuerySet[AuditEvent]:
    return AuditEvent.objects.filter(entity=entity, entity_id=pk).order_by("seq")
