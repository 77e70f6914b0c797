from django.apps import AppConfig


class RainConfig(AppConfig):
    name = "siltfence.apps.rain"
    label = "rain"
    verbose_name = "Rain records"
