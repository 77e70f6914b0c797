from django.apps import AppConfig


class OutboxConfig(AppConfig):
    name = "siltfence.apps.outbox"
    label = "outbox"
    verbose_name = "Messages sent by email"
