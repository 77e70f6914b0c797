"""``manage.py rain_import PATH...``: import rain files (the same as ``siltfence rain import``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from siltfence.core.errors import SiltfenceError


class Command(BaseCommand):
    help = (
        "Import rain files (NOAA GHCN-Daily .dly or CSV, Climate Data Online, the daily CSV in "
        "inches, a gauge CSV). Importing a file twice changes nothing; an import killed part "
        "way is completed by running it again."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("paths", nargs="+", help="rain files")
        parser.add_argument("--station", help="the station ID (a file that names none)")
        parser.add_argument("--units", choices=["inch", "mm"], help="a CDO export's units")
        parser.add_argument("--batch-size", type=int, default=1000, help="days a transaction")

    def handle(self, *args: Any, **options: Any) -> None:
        from siltfence.apps.rain.progress import import_with_progress

        if options["batch_size"] < 1:
            raise CommandError("--batch-size: expected 1 or more")
        try:
            import_with_progress(
                [Path(p) for p in options["paths"]],
                station=options["station"],
                units=options["units"],
                batch_size=options["batch_size"],
                # The stream itself, not Django's wrapper (``self.stdout``), which ends every
                # write with a newline and so broke the bars' redrawing on a terminal.
                out=options.get("stdout") or sys.stdout,
            )
        except SiltfenceError as exc:
            raise CommandError(str(exc)) from None
