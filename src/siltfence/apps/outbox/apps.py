import logging

from django.apps import AppConfig

# Said at every start of a production process whose emails are printed, not sent
# (SILTFENCE_EMAIL=console, as `make run`'s demo sets it): on purpose, but never silent.
CONSOLE_EMAIL_WARNING = (
    "siltfence: SILTFENCE_EMAIL=console: emails (password resets, reminders, audit "
    "checkpoints) are printed on the console, not sent; for a real server set EMAIL_HOST "
    "and unset SILTFENCE_EMAIL"
)


class OutboxConfig(AppConfig):
    name = "siltfence.apps.outbox"
    label = "outbox"
    verbose_name = "Messages sent by email"

    def ready(self) -> None:
        from django.conf import settings

        if getattr(settings, "PRODUCTION", False) and settings.SILTFENCE_EMAIL == "console":
            logging.getLogger("siltfence.outbox").warning(CONSOLE_EMAIL_WARNING)
