from django.apps import AppConfig


class RemindersConfig(AppConfig):
    name = "siltfence.apps.reminders"
    label = "reminders"
    verbose_name = "Reminders and calendar feeds"
