"""Bring every active permit's stored duties up to date now: after the ordinance data, the
office calendar or the code changed, since no event on a permit says so. Only the permits
whose stored duties are out of date are computed, unless --all is given. The daily sweep
does the same each day."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from siltfence.apps.permits.models import Village


class Command(BaseCommand):
    help = (
        "Recompute the stored duties of the active permits (of one village's) that are out "
        "of date; --all recomputes every one."
    )

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
        parser.add_argument(
            "--all",
            action="store_true",
            help="recompute every active permit, even those whose duties are up to date",
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
        result = duties_recompute_all(village_ids=villages, jobs=jobs, everything=options["all"])
        seconds = time.perf_counter() - started
        self.stdout.write(
            f"Recomputed the duties of {result.recomputed} of {result.in_force} permit(s) in "
            f"force in {seconds:.1f} s"
            + (
                "."
                if options["all"] or result.recomputed == result.in_force
                else "; the others were up to date (same events, ordinance data, office "
                "calendar and code, and nothing fallen due)."
            )
        )
