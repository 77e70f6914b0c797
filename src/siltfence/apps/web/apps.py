from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "siltfence.apps.web"
    label = "web"
    verbose_name = "siltfence web pages"
