"""Recompute every application's stored decision clock (the day the review queue sorts
on): after the ordinance data changed (a review period, a clock's citation, the counting
rule), since no event on an application says so. The daily sweep does the same for the
villages whose data or code changed; events and office-calendar changes recompute the
clocks they move on their own (docs/decisions/0021-stored-queue-dates.md)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from siltfence.apps.permits.models import Village


class Command(BaseCommand):
    help = "Recompute the stored decision clock of every application (or of one village's)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--village",
            action="append",
            help="only this village's applications (its ordinance folder's name); may be repeated",
        )
        parser.add_argument(
            "--jobs",
            type=int,
            default=1,
            help="processes computing at once on PostgreSQL (one per CPU core is a good start)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        from siltfence.apps.permits.stored_clocks import decision_clocks_recompute

        jobs = options["jobs"]
        if not 1 <= jobs <= 64:
            raise CommandError("--jobs: give a number of processes from 1 to 64")
        villages = options["village"]
        if villages:
            known = set(Village.objects.values_list("pk", flat=True))
            for village in villages:
                if village not in known:
                    raise CommandError(
                        f"--village: no village {village[:60]!r}; known: {', '.join(sorted(known))}"
                    )
        started = time.perf_counter()
        count = decision_clocks_recompute(village_ids=villages, jobs=jobs)
        seconds = time.perf_counter() - started
        self.stdout.write(
            f"Recomputed the decision clocks of {count} application(s) in {seconds:.1f} s."
        )
