"""Recompute every active permit's stored duties: after the ordinance data or the office
calendar changed, since no event on a permit says so. The daily sweep recomputes only the
permits a rain or a due date touched."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from siltfence.apps.permits.models import Village


class Command(BaseCommand):
    help = "Recompute the stored duties of every active permit (or of one village's)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--village",
            action="append",
            help="only this village's permits (its ordinance folder's name); may be repeated",
        )
        parser.add_argument(
            "--jobs",
            type=int,
            default=1,
            help="processes computing at once on PostgreSQL (one per CPU core is a good start)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        from siltfence.apps.duties.services import duties_recompute_all

        jobs = options["jobs"]
        if not 1 <= jobs <= 64:
            raise CommandError("--jobs: give a number of processes from 1 to 64")
        villages = options["village"]
        if villages:
            known = set(Village.objects.values_list("pk", flat=True))
            for village in villages:
                if village not in known:
                    raise CommandError(
                        f"--village: no village {village!r}; known: {', '.join(sorted(known))}"
                    )
        started = time.perf_counter()
        count = duties_recompute_all(village_ids=villages, jobs=jobs)
        seconds = time.perf_counter() - started
        self.stdout.write(f"Recomputed the duties of {count} permit(s) in {seconds:.1f} s.")
