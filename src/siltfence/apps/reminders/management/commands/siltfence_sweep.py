"""The daily trigger: put the day's sweep on the worker's queue (or run it here with --now).

A cron line or a systemd timer runs this once a day; see the README."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from siltfence.core.dates import DateRefused, read_date


class Command(BaseCommand):
    help = "Sweep the day's rain onto permits, recompute their duties and send reminders."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--day", help="the day to sweep, YYYY-MM-DD (default: today)")
        parser.add_argument(
            "--now", action="store_true", help="run here and now instead of on the worker"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        day = timezone.localdate()
        if options["day"]:
            try:
                day = read_date(options["day"])
            except DateRefused as exc:
                raise CommandError(f"--day: {exc}") from None
        if options["now"]:
            from siltfence.apps.reminders.sweep import daily_sweep

            run = daily_sweep(day=day)
            self.stdout.write(
                f"Swept {day.isoformat()}: {run.rain_events} rain event(s) written, "
                f"{run.permits_recomputed} permit(s) recomputed, "
                f"{run.reminders_sent} reminder(s) sent."
            )
            return
        from siltfence.apps.reminders.tasks import daily_sweep_task

        result = daily_sweep_task.enqueue(day=day.isoformat())
        self.stdout.write(f"The sweep of {day.isoformat()} is queued for the worker ({result.id}).")
