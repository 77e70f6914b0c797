from django.apps import AppConfig


class PermitsConfig(AppConfig):
    name = "siltfence.apps.permits"
    label = "permits"
    verbose_name = "Applications and permits"

    def ready(self) -> None:
        import siltfence.apps.accounts.rules  # noqa: F401  (registers the permission predicates)
