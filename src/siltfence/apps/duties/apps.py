from django.apps import AppConfig
from django.db.models.signals import post_save


class DutiesConfig(AppConfig):
    name = "siltfence.apps.duties"
    label = "duties"
    verbose_name = "Rain, the daily sweep and the permits' duties"

    def ready(self) -> None:
        from siltfence.apps.duties import services
        from siltfence.apps.permits.models import TimelineEvent

        # A permit's stored duties follow every event written on it, after it commits.
        post_save.connect(
            services.event_saved, sender=TimelineEvent, dispatch_uid="stored-duties-event"
        )
