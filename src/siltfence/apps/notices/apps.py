from django.apps import AppConfig


class NoticesConfig(AppConfig):
    """Who is told of what (decision 35): each event written to the audit record is looked
    up in one table of notices, and each person it concerns gets an email through the
    outbox. This app sits above every app whose events it tells of; the outbox below it
    only records and sends."""

    name = "siltfence.apps.notices"
    label = "notices"
    verbose_name = "Notices by email"

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from siltfence.apps.audit.models import AuditEvent
        from siltfence.apps.notices.services import on_audit_event

        post_save.connect(on_audit_event, sender=AuditEvent, dispatch_uid="notices")
