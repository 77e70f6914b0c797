"""``siltfence rain``: rain records from files, with no database.

``siltfence rain storms`` reads a rain file in any supported layout (NOAA GHCN-Daily .dly or
CSV, the daily CSV in inches, a Climate Data Online export, a gauge CSV) and prints its
storms with whether each meets the jurisdiction's rain rule. Heavy imports happen inside
the command, so the rest of the CLI starts fast.
"""

from __future__ import annotations

import datetime
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import IO, Annotated, Any, BinaryIO, cast

import typer

from siltfence.core.errors import SiltfenceError

rain_app = typer.Typer(
    help="Rain records: storms from NOAA or gauge files, and imports.", no_args_is_help=True
)


class Format(StrEnum):
    json = "json"
    text = "text"


class Units(StrEnum):
    inch = "inch"
    mm = "mm"


@contextmanager
def opened(path: str) -> Iterator[BinaryIO]:
    """The rain file as bytes (``-`` is stdin); an unreadable file is bad input."""
    if path == "-":
        yield cast(BinaryIO, sys.stdin.buffer)
        return
    try:
        handle: IO[bytes] = Path(path).open("rb")  # noqa: SIM115 (closed below)
    except OSError as exc:
        raise SiltfenceError(f"rain: cannot read {path} ({exc.strerror})", field="rain") from None
    with handle:
        yield cast(BinaryIO, handle)


def load_source(
    path: str,
    zone: datetime.tzinfo,
    station: str | None,
    site: str | None,
    units: Units | None,
) -> tuple[Any, tuple[float, float] | None]:
    from siltfence.core.rain import open_rain, parse_point

    point = parse_point(site, "site") if site is not None else None
    with opened(path) as stream:
        source = open_rain(
            stream,
            zone=zone,
            station=station,
            site=point,
            units=units.value if units is not None else None,
            read_on=datetime.datetime.now(zone).date(),  # a day after tomorrow is refused
        )
    return source, point


@rain_app.command("storms")
def storms(
    file: Annotated[str, typer.Option(help="Rain file (any supported layout), or - for stdin")],
    jurisdiction: Annotated[str, typer.Option(help="Jurisdiction id (siltfence ordinances list)")],
    from_: Annotated[str, typer.Option("--from", help="First day YYYY-MM-DD")],
    to: Annotated[str, typer.Option(help="Last day YYYY-MM-DD")],
    station: Annotated[
        str | None, typer.Option(help="Station ID (for a file that names none, or of several)")
    ] = None,
    site: Annotated[
        str | None,
        typer.Option(help="The site as LAT,LON: shows the distance to the station"),
    ] = None,
    units: Annotated[
        Units | None,
        typer.Option(help="Units of a Climate Data Online export when the file cannot tell"),
    ] = None,
    format: Annotated[Format, typer.Option(help="json or text")] = Format.json,
) -> None:
    """Which rains meet the jurisdiction's rain rule (a storm of consecutive wet days is one
    rain), from a station's or a gauge's record."""
    import json
    from zoneinfo import ZoneInfo

    from siltfence.core.ordinance.loader import load
    from siltfence.core.rain import read_day, storms_report

    ordinance = load(jurisdiction)
    start = read_day(from_, "from")
    end = read_day(to, "to")
    zone = ZoneInfo(ordinance.time_zone)
    source, _ = load_source(file, zone, station, site, units)
    report = storms_report(source, ordinance, start, end, zone)
    if format is Format.json:
        sys.stdout.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(storms_text(report))


def station_line(station: dict[str, Any]) -> str:
    name = station.get("name") or "unnamed"
    where = f"{station['id'] or 'no ID'} {name}"
    if station.get("distance_km") is not None:
        where += f", {station['distance_km']:.1f} km from the site"
    return where


def storms_text(report: dict[str, Any]) -> str:
    threshold = report["threshold"]
    lines = [
        f"{report['jurisdiction']}: storms from {report['from']} to {report['to']}",
        f"Station: {station_line(report['station'])}",
        f"Rule: {threshold['inches']} inch ({threshold['mm']} mm) or more "
        f"({threshold['citation']})",
        "",
    ]
    if not report["storms"]:
        lines.append("No rain in these days.")
    for storm in report["storms"]:
        mark = "QUALIFIES" if storm["qualifies"] else "below"
        days = (
            storm["first_day"]
            if storm["first_day"] == storm["last_day"]
            else f"{storm['first_day']} to {storm['last_day']}"
        )
        lines.append(f"  {days:<26} {storm['inches']:>6.2f} in {storm['mm']:>6.1f} mm  {mark}")
    qualifying = sum(1 for s in report["storms"] if s["qualifies"])
    lines.append("")
    lines.append(f"{qualifying} of {len(report['storms'])} storm(s) meet the rule.")
    if report["notes"]:
        lines.append("")
        lines.append("Notes:")
        for note in report["notes"]:
            cites = f" ({', '.join(note['citations'])})" if note.get("citations") else ""
            lines.append(f"  - {note['says']}{cites}")
    return "\n".join(lines) + "\n"


def file_rains(
    events: list[Any],
    path: str,
    zone: datetime.tzinfo,
    as_of: datetime.datetime,
    *,
    station: str | None,
    site: str | None,
    units: Units | None = None,
) -> tuple[list[Any], dict[str, Any]]:
    """``siltfence duties --rain``: the events with the file's rains, and what was added."""
    from siltfence.core.rain import with_file_rains

    source, _ = load_source(path, zone, station, site, units)
    return with_file_rains(events, source, zone, as_of)


def rain_used_text(used: dict[str, Any]) -> str:
    lines = [
        "",
        f"Rain: {used['rain_days_added']} wet day(s) from {used['file']['description']}, "
        f"station {station_line(used['station'])}, {used['from']} to {used['to']}",
    ]
    lines.extend(f"  - {note['says']}" for note in used["notes"])
    return "\n".join(lines) + "\n"


@rain_app.command("outlook")
def outlook(
    file: Annotated[str, typer.Option(help="A station's rain history (any supported layout)")],
    jurisdiction: Annotated[str, typer.Option(help="Jurisdiction id (siltfence ordinances list)")],
    from_: Annotated[str, typer.Option("--from", help="First planned day YYYY-MM-DD")],
    to: Annotated[str, typer.Option(help="Last planned day YYYY-MM-DD")],
    station: Annotated[
        str | None, typer.Option(help="Station ID (for a file that names none, or of several)")
    ] = None,
    years: Annotated[str, typer.Option(help="Years of history, FIRST-LAST")] = "1991-2020",
    units: Annotated[
        Units | None,
        typer.Option(help="Units of a Climate Data Online export when the file cannot tell"),
    ] = None,
    format: Annotated[Format, typer.Option(help="json or text")] = Format.json,
) -> None:
    """How many rains of the rule's size (and so inspections after rain) to expect over the
    planned days, from the station's history: the median and the 10th and 90th percentiles
    over the years."""
    import json
    from zoneinfo import ZoneInfo

    from siltfence.core.ordinance.loader import load
    from siltfence.core.rain import read_day
    from siltfence.core.rain.outlook import season_outlook

    ordinance = load(jurisdiction)
    start = read_day(from_, "from")
    end = read_day(to, "to")
    span = _years(years)
    zone = ZoneInfo(ordinance.time_zone)
    source, _ = load_source(file, zone, station, None, units)
    report = season_outlook(
        source.record.days,
        ordinance,
        start,
        end,
        zone,
        years=span,
        missing=source.record.missing,
    )
    report["station"] = source.station
    if format is Format.json:
        sys.stdout.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(outlook_text(report))


def _years(text: str) -> range:
    first, _, last = text.partition("-")
    if not (first.isdecimal() and last.isdecimal() and len(first) == 4 and len(last) == 4):
        raise SiltfenceError(
            f"years: expected FIRST-LAST like 1991-2020, got {text[:20]!r}", field="years"
        )
    if int(last) < int(first):
        raise SiltfenceError(
            f"years: the last year {last} is before the first {first}", field="years"
        )
    return range(int(first), int(last) + 1)


def outlook_text(report: dict[str, Any]) -> str:
    rains = report["qualifying_rains"]
    years = report["years"]
    lines = [
        f"{report['jurisdiction']}: planned {report['planned']['from']} to "
        f"{report['planned']['to']}",
        f"Station: {station_line(report['station'])}",
        f"History: {years['from']} to {years['to']} ({years['used']} "
        f"year{'s' if years['used'] != 1 else ''})",
        f"Rule: {report['rule']['says']} ({report['rule']['citation']})",
        "",
        f"Rains that meet the rule: median {rains['median']:g}, 10th percentile "
        f"{rains['p10']:g}, 90th percentile {rains['p90']:g} (fewest {rains['min']}, most "
        f"{rains['max']})",
        f"Inspections after rain to expect: the same, {rains['median']:g} "
        f"(between {rains['p10']:g} and {rains['p90']:g} in eight years of ten)",
        f"Weekly inspections: at least {report['weekly_inspections']}",
    ]
    if report["years_left_out"]:
        left = ", ".join(str(y["year"]) for y in report["years_left_out"])
        lines.append(f"Left out for missing days: {left}")
    for note in report["notes"]:
        lines.append(f"  - {note['says']} ({', '.join(note['citations'])})")
    return "\n".join(lines) + "\n"


@rain_app.command("import")
def import_(
    paths: Annotated[list[Path], typer.Argument(help="Rain files (any supported layout)")],
    station: Annotated[
        str | None, typer.Option(help="Station ID, for a file that names none")
    ] = None,
    units: Annotated[
        Units | None,
        typer.Option(help="Units of a Climate Data Online export when the file cannot tell"),
    ] = None,
    batch_size: Annotated[int, typer.Option(min=1, help="Days written a transaction")] = 1000,
) -> None:
    """Import rain files into the database, with a progress bar. Importing a file twice
    changes nothing; an import killed part way is completed by running it again."""
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "siltfence.config.settings")
    import django

    django.setup()
    from siltfence.apps.rain.progress import import_with_progress

    import_with_progress(
        paths,
        station=station,
        units=units.value if units is not None else None,
        batch_size=batch_size,
        out=sys.stdout,
    )
