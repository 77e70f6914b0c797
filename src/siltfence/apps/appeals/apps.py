from django.apps import AppConfig


class AppealsConfig(AppConfig):
    name = "siltfence.apps.appeals"
    label = "appeals"
    verbose_name = "Appeals and variances"
