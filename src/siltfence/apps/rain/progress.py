"""Imports with a progress bar (rich), for the command line and the management command."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from siltfence.apps.rain.services import ImportResult, rain_file_import
from siltfence.apps.rain.signals import rain_recorded_send


def import_with_progress(
    paths: Iterable[Path],
    *,
    station: str | None,
    units: str | None,
    batch_size: int,
    out: IO[str],
) -> list[ImportResult]:
    """Import each file in turn, with one bar for checking it and one for writing it."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    results = []
    console = Console(file=out)
    for path in paths:
        size = path.stat().st_size if path.exists() else 0
        with Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            DownloadColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
        ) as bars:
            check = bars.add_task(f"checking {path.name}", total=size or None)
            write = bars.add_task(f"importing {path.name}", total=size or None, start=False)

            def report(phase: str, done: int, check: Any = check, write: Any = write) -> None:
                if phase == "check":
                    bars.update(check, completed=done)
                else:
                    bars.start_task(write)
                    bars.update(write, completed=done)

            result = rain_file_import(
                path=path, station=station, units=units, batch_size=batch_size, on_progress=report
            )
        console.print(result.says(), soft_wrap=True)
        if result.first_changed is not None and result.last_changed is not None:
            result.applied = rain_recorded_send(
                stations=list(result.stations), first=result.first_changed, last=result.last_changed
            )
            console.print(f"On the permits: {result.applied}", soft_wrap=True)
        results.append(result)
    return results
