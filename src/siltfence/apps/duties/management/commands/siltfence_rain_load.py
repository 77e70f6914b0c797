"""Load a station's daily rain from a file (NOAA GHCN-Daily, Climate Data Online, or a
gauge's CSV) into the rain record the daily sweep reads. Loading a file twice changes
nothing the second time."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from siltfence.apps.permits.errors import ActionRefused


class Command(BaseCommand):
    help = "Load a station's daily rain from a file into the rain record."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--file", required=True, help="the rain file")
        parser.add_argument("--station", help="the station ID, when the file names none")

    def handle(self, *args: Any, **options: Any) -> None:
        from siltfence.apps.duties.services import rain_file_import

        try:
            with open(options["file"], "rb") as stream:
                result = rain_file_import(stream=stream, station_id=options["station"])
        except OSError as exc:
            raise CommandError(f"--file: cannot read it ({exc.strerror})") from None
        except ActionRefused as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(
            f"Station {result['station']}: {result['days']} day(s) read, {result['added']} "
            f"added, {result['changed']} corrected."
        )
