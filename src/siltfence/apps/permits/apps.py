from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save


class PermitsConfig(AppConfig):
    name = "siltfence.apps.permits"
    label = "permits"
    verbose_name = "Applications and permits"

    def ready(self) -> None:
        from siltfence.apps.permits import stored_clocks
        from siltfence.apps.permits.models import OfficeClosure, TimelineEvent

        # The stored decision clocks follow what moves them, in the same transaction.
        post_save.connect(
            stored_clocks.event_saved, sender=TimelineEvent, dispatch_uid="stored-clock-event"
        )
        post_save.connect(
            stored_clocks.closure_changed, sender=OfficeClosure, dispatch_uid="stored-clock-open"
        )
        post_delete.connect(
            stored_clocks.closure_changed, sender=OfficeClosure, dispatch_uid="stored-clock-shut"
        )
