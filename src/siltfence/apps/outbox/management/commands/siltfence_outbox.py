"""Send the emails that are due now, here rather than on the worker, and say what is left.

The worker sends them by itself; this is for a server without a worker running, and for
checking from cron that nothing is stuck (exit 1 when any email could not be sent)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from siltfence.apps.outbox.models import Message, MessageStatus
from siltfence.apps.outbox.services import outbox_send


class Command(BaseCommand):
    help = "Send the emails waiting in the outbox; exit 1 if any could not be sent."

    def handle(self, *args: Any, **options: Any) -> None:
        run = outbox_send()
        failed = Message.objects.filter(status=MessageStatus.FAILED).count()
        self.stdout.write(
            f"{run.sent} email(s) sent, {run.failed} refused by the mail server this time, "
            f"{run.waiting} waiting, {failed} not sent after every try."
        )
        if failed:
            raise CommandError(
                f"{failed} email(s) could not be sent: staff see them under Emails sent, "
                "with the mail server's answer, and can send them again."
            )
