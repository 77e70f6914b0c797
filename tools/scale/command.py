"""``python -m tools.scale``: build a county at scale in the database ``DATABASE_URL``
names (see ``tools.scale``), with a progress bar on stderr and a summary on stdout. Bad
input ends with exit status 2 and one line on stderr, as the ``siltfence`` command's does.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from siltfence.core.errors import SiltfenceError

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)


class BadInput(SiltfenceError):
    """An option out of range, or a rain file that is not there."""


SCALE_HELP = """Build a county at scale: municipalities, permits in every state with their
timelines, and years of daily rain, set-based (COPY on PostgreSQL).

Each municipality is a copy of an encoded village under its own name, with its own office
calendar. A village's id is the name of its ordinance folder, so each copy gets a folder
of its own in an ordinance root written for the county (--ordinances, default
DATA_DIR/county-ordinances): its jurisdiction.yaml names it, and its other files link to
the chapter it copies. Serve the county with SILTFENCE_ORDINANCES set to that root.

Idempotent: each municipality is written in one transaction, and one that already has
applications is left alone, so a second run with the same seed adds nothing and a run
cut short goes on where it stopped. The rain is resampled from a real daily record when
--rain-file names one (any layout `siltfence rain` reads), else drawn from Wisconsin's
monthly normals."""


@app.command(help=SCALE_HELP)
def scale(
    permits: Annotated[int, typer.Option(help="Applications in all, in every state")] = 100_000,
    municipalities: Annotated[int, typer.Option(help="Municipalities of the county")] = 50,
    years: Annotated[int, typer.Option(help="Years of records and of daily rain")] = 20,
    stations: Annotated[int, typer.Option(help="Rain stations with daily amounts")] = 30,
    seed: Annotated[int, typer.Option(help="The same seed makes the same county")] = 1,
    rain_file: Annotated[
        Path | None, typer.Option(help="A real daily rain record to resample (any layout)")
    ] = None,
    rain_station: Annotated[
        str | None, typer.Option(help="The station of --rain-file to use, if it holds several")
    ] = None,
    ordinances: Annotated[
        Path | None,
        typer.Option(help="The county's ordinance root (default: DATA_DIR/county-ordinances)"),
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option(help="Processes writing municipalities (default: one per core; SQLite: 1)"),
    ] = None,
) -> None:
    from siltfence.cli.ops import database_errors, django_setup

    for name, value, least in (
        ("permits", permits, 1),
        ("municipalities", municipalities, 1),
        ("years", years, 1),
        ("stations", stations, 1),
        ("jobs", jobs or 1, 1),
    ):
        if value < least:
            raise BadInput(f"{name}: expected a whole number of at least {least}, got {value}")
    if rain_file is not None and not rain_file.is_file():
        raise BadInput(f"rain-file: there is no file {rain_file}")
    django_setup()
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from tools.scale import ScaleOptions, scale_generate

    options = ScaleOptions(
        permits=permits,
        municipalities=municipalities,
        years=years,
        stations=stations,
        seed=seed,
        rain_file=rain_file,
        rain_station=rain_station,
        ordinances=ordinances,
        jobs=jobs,
    )
    console = Console(file=sys.stderr)
    with Progress(
        TextColumn("{task.description:<14}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
    ) as bar:
        tasks: dict[str, int] = {}

        def progress(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(stage, total=total)
            bar.update(tasks[stage], completed=done, total=total)

        try:
            with database_errors("the database"):
                report = scale_generate(options, progress)
        except ValueError as exc:
            raise BadInput(str(exc)) from None
    counts = report.counts
    lines = [
        f"county written in {report.seconds} s: {len(report.written)} municipalities written, "
        f"{len(report.skipped)} already there",
        f"  applications {counts.applications:,}, permits {counts.permits:,}, timeline events "
        f"{counts.events:,}, site log entries {counts.site_log_entries:,}, inspections "
        f"{counts.inspections:,}, enforcement cases {counts.enforcement_cases:,}, audit events "
        f"{counts.audit_events:,}, people {counts.users:,}",
        f"  rain: {report.stations} stations, {report.rain_days_written:,} station-days written "
        f"({report.rain_source})",
        f"serve it with SILTFENCE_ORDINANCES={report.ordinances}",
    ]
    if report.in_database != permits:
        lines.append(
            f"note: the database holds {report.in_database:,} applications of this county, not "
            f"the {permits:,} asked for: a municipality written by an earlier run is left as "
            "it is. For a county of another size, use an empty database."
        )
    sys.stdout.write("\n".join(lines) + "\n")


def run() -> None:
    """The tool's entry point: one clear line and exit 2 on bad input."""
    from click.exceptions import Abort, ClickException

    try:
        app(standalone_mode=False)
    except SiltfenceError as exc:
        sys.stderr.write(f"tools.scale: {exc}\n")
        sys.exit(2)
    except Abort:
        sys.stderr.write("tools.scale: aborted\n")
        sys.exit(1)
    except ClickException as exc:
        sys.stderr.write(f"tools.scale: {exc.format_message()}\n")
        sys.exit(exc.exit_code)
