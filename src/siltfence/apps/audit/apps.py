from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "siltfence.apps.audit"
    label = "audit"
    verbose_name = "Audit record"

    def ready(self) -> None:
        from siltfence.apps.audit import checks  # noqa: F401  (registers the deploy check)
