from django.apps import AppConfig


class DutiesConfig(AppConfig):
    name = "siltfence.apps.duties"
    label = "duties"
    verbose_name = "Rain, the daily sweep and the permits' duties"
