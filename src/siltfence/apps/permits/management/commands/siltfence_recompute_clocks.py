"""Recompute every application's stored decision clock from its events (after a change to
the ordinance data: a review period, a clock's citation, the counting rule).

The clocks follow each event and office-calendar change on their own; this is for what
changes outside the database. See docs/decisions/0021-stored-queue-dates.md."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Recompute the stored review clocks (the queue's decision dates) from the events."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--village",
            action="append",
            default=[],
            help="only this village's applications, by id (siltfence ordinances list); repeatable",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        from siltfence.apps.permits.models import Village
        from siltfence.apps.permits.stored_clocks import decision_clocks_recompute

        villages: list[str] = options["village"]
        known = set(Village.objects.values_list("pk", flat=True))
        for village in villages:
            if village not in known:
                choices = ", ".join(sorted(known)) or "none yet: run migrate and the demo"
                raise CommandError(f"--village: no village {village[:60]!r}; one of {choices}")
        count = decision_clocks_recompute(village_ids=villages or None)
        where = ", ".join(villages) if villages else "every village"
        self.stdout.write(f"Recomputed the decision clocks of {count} application(s) in {where}.")
