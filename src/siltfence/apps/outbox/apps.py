from django.apps import AppConfig


class OutboxConfig(AppConfig):
    name = "siltfence.apps.outbox"
    label = "outbox"
    verbose_name = "Messages sent by email"

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from siltfence.apps.audit.models import AuditEvent
        from siltfence.apps.outbox.notices import on_audit_event

        post_save.connect(on_audit_event, sender=AuditEvent, dispatch_uid="outbox-notices")
