from django.apps import AppConfig
from django.db.models.signals import post_save


class DutiesConfig(AppConfig):
    name = "siltfence.apps.duties"
    label = "duties"
    verbose_name = "Rain, the daily sweep and the permits' duties"

    def ready(self) -> None:
        from siltfence.apps.duties import rain_applied, services
        from siltfence.apps.permits.models import TimelineEvent
        from siltfence.apps.rain.signals import rain_recorded

        # A permit's stored duties follow every event written on it, after it commits.
        post_save.connect(
            services.event_saved, sender=TimelineEvent, dispatch_uid="stored-duties-event"
        )
        # Rain just recorded (an import, a day at a village's gauge) reaches the permits at
        # once: the rain record tells of it, it does not import duties (decision 49).
        rain_recorded.connect(
            rain_applied.rain_recorded_received, dispatch_uid="duties-rain-recorded"
        )
