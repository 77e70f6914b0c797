from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "siltfence.apps.audit"
    label = "audit"
    verbose_name = "Audit record"
