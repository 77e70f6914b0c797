"""``siltfence``: the command line.

Every command prints JSON or plain text. Bad input exits with status 2 and one line on
stderr that names the field; nothing else is printed. Heavy imports (the ordinance
loader, rich, Django) happen inside the commands that need them, so a determination
starts fast.
"""

from __future__ import annotations

import datetime
import sys
from enum import StrEnum
from typing import Annotated, Any

import typer
from click.exceptions import ClickException, UsageError

from siltfence.cli.analyze import analyze_app
from siltfence.cli.check import check as _check_command
from siltfence.cli.determine import determine_and_print
from siltfence.cli.inputs import date_or_today, print_json
from siltfence.cli.inputs import read_json_file as _read_json
from siltfence.cli.ops import backup as _backup_command
from siltfence.cli.ops import restore as _restore_command
from siltfence.cli.rain import Units as RainUnits
from siltfence.cli.rain import rain_app
from siltfence.core.errors import SiltfenceError

app = typer.Typer(
    help="Construction-site erosion control ordinances as code. Every answer cites its section.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
ordinances_app = typer.Typer(
    help="List, show and compare the encoded ordinances.", no_args_is_help=True
)
app.add_typer(ordinances_app, name="ordinances")
app.add_typer(rain_app, name="rain")
app.add_typer(analyze_app, name="analyze")


class Format(StrEnum):
    json = "json"
    text = "text"


class BadInput(Exception):
    pass


@app.command()
def determine(
    jurisdiction: Annotated[str, typer.Option(help="Jurisdiction id (siltfence ordinances list)")],
    facts: Annotated[str, typer.Option(help="JSON file of facts, or - for stdin")],
    on: Annotated[
        str | None, typer.Option(help="Evaluation date YYYY-MM-DD (default: today there)")
    ] = None,
    format: Annotated[Format, typer.Option(help="json or text")] = Format.json,
) -> None:
    """Does this project need an erosion control permit, which plan, and why."""
    determine_and_print(jurisdiction, facts, on, format.value)


@app.command()
def duties(
    jurisdiction: Annotated[str, typer.Option(help="Jurisdiction id (siltfence ordinances list)")],
    events: Annotated[str, typer.Option(help="JSON file of a permit's events, or - for stdin")],
    as_of: Annotated[
        str | None,
        typer.Option(
            help="Judge the duties at this ISO 8601 date or datetime (default: now there)"
        ),
    ] = None,
    office_closures: Annotated[
        str | None,
        typer.Option(
            help="Office closure days YYYY-MM-DD,... replacing the configured ones for business "
            'days; "" means weekends only'
        ),
    ] = None,
    rain: Annotated[
        str | None,
        typer.Option(help="A rain file (any supported layout): its rains join the events"),
    ] = None,
    station: Annotated[
        str | None, typer.Option(help="Station ID of the rain file's record to use")
    ] = None,
    site: Annotated[
        str | None, typer.Option(help="The site as LAT,LON: shows the distance to the station")
    ] = None,
    units: Annotated[
        RainUnits | None,
        typer.Option(help="Units of a Climate Data Online rain file when it cannot tell"),
    ] = None,
    format: Annotated[Format, typer.Option(help="json or text")] = Format.json,
) -> None:
    """A permit's duties, deadlines, allowed enforcement steps and forfeiture, from its events."""
    from zoneinfo import ZoneInfo

    from siltfence.core.ordinance.loader import load
    from siltfence.core.timeline import compute, parse_as_of, parse_office_closures

    ordinance = load(jurisdiction)  # an unknown jurisdiction is named before the events are read
    zone = ZoneInfo(ordinance.time_zone)
    raw = _read_json(events, "events")
    if isinstance(raw, dict) and set(raw) == {"events"}:
        raw = raw["events"]
    if not isinstance(raw, list):
        raise BadInput('events: expected a JSON list of events (or {"events": [...]})')
    # The shell decides what "now" is, in the village's own time zone; the core only ever
    # receives a time.
    when = datetime.datetime.now(zone) if as_of is None else parse_as_of(as_of, zone)
    closures = None
    if office_closures is not None:
        items = [part for part in office_closures.split(",") if part.strip()]
        closures = parse_office_closures(items)
    rain_used = None
    if rain is not None:
        from siltfence.cli.rain import file_rains

        raw, rain_used = file_rains(raw, rain, zone, when, station=station, site=site, units=units)
    timeline = compute(ordinance, raw, when, closures).to_json()
    if rain_used is not None:
        timeline["rain"] = rain_used
    if format is Format.json:
        print_json(timeline)
    else:
        sys.stdout.write(_duties_text(timeline))
        if rain_used is not None:
            from siltfence.cli.rain import rain_used_text

            sys.stdout.write(rain_used_text(rain_used))


def _duties_text(timeline: dict[str, Any]) -> str:
    lines = [f"{timeline['jurisdiction']}: duties as of {timeline['as_of']}"]
    permit = timeline["permit"]
    if permit is None:
        lines.append("Permit: none issued")
    else:
        lines.append(
            f"Permit: issued {permit['issued']}, expires {permit['expires']} "
            f"({permit['citation']})" + (f"; {permit['moved']}" if permit.get("moved") else "")
        )
    lines.append("")
    lines.append("Duties:" if timeline["duties"] else "Duties: none")
    for duty in timeline["duties"]:
        status = duty["status"] + (" (late)" if duty.get("late") else "")
        lines.append(
            f"  {duty['due']:<25} {status:<14} {duty['kind']} [{duty['party']}] "
            f"({duty['citation']})"
        )
        lines.append(f"      {duty['because']}")
        if duty.get("moved"):
            lines.append(f"      moved: {duty['moved']}")
        if duty.get("met_by"):
            lines.append(f"      met by {duty['met_by']['type']} {duty['met_by']['at']}")
    if timeline["allowed_actions"]:
        lines.append("")
        lines.append("Allowed enforcement steps:")
        for action in timeline["allowed_actions"]:
            lines.append(f"  from {action['from']}  {action['action']} ({action['citation']})")
    fine = timeline["forfeiture"]
    if fine is not None:
        lines.append("")
        amounts = (
            f"${fine['min']:,} to ${fine['max']:,}"
            if fine["min"] is not None and fine["max"] is not None
            else "amount not entered"
        )
        costs = {True: " plus costs", False: "", None: " (whether costs are added: not in hand)"}[
            fine["plus_costs"]
        ]
        lines.append(
            f"Forfeiture: {fine['days']} day(s), each a separate offense: {amounts}{costs} "
            f"({fine['citation']})"
        )
    if timeline["notes"]:
        lines.append("")
        lines.append("Notes:")
        for note in timeline["notes"]:
            cites = f" ({', '.join(note['citations'])})" if note["citations"] else ""
            lines.append(f"  - {note['says']}{cites}")
    return "\n".join(lines) + "\n"


@ordinances_app.command("list")
def ordinances_list(
    format: Annotated[Format, typer.Option(help="json or text")] = Format.text,
) -> None:
    """The jurisdictions whose chapters are encoded."""
    from siltfence.core.ordinance.loader import load_all
    from siltfence.core.ordinance.summary import jurisdiction_summary

    items = [jurisdiction_summary(o) for o in load_all()]
    if format is Format.json:
        print_json(items)
        return
    for item in items:
        sys.stdout.write(
            f"{item['id']:<16} {item['name']}, {item['county']}: Ch. {item['chapter']} "
            f"{item['title']} (adopted {item['adopted']}, version {item['versions'][-1]})\n"
        )


@ordinances_app.command("show")
def ordinances_show(
    jurisdiction: Annotated[str, typer.Argument(help="Jurisdiction id")],
    section: Annotated[
        str | None, typer.Option(help="Print one section's verbatim text, e.g. 413-7")
    ] = None,
    format: Annotated[Format, typer.Option(help="json or text")] = Format.text,
) -> None:
    """One chapter: its jurisdiction, section map and parameters (or one section's text)."""
    from siltfence.core.ordinance.loader import load
    from siltfence.core.ordinance.summary import ordinance_detail

    ordinance = load(jurisdiction)
    if section is not None:
        found = ordinance.section(section.removeprefix("§").strip())
        if found is None:
            raise BadInput(f"section: Ch. {ordinance.chapter} has no section {section!r}")
        if format is Format.json:
            print_json(ordinance_detail(ordinance)["sections"][ordinance.sections.index(found)])
        else:
            flag = " (number reconstructed)" if found.reconstructed else ""
            body = found.text if found.text is not None else f"[{found.note}]"
            sys.stdout.write(f"§ {found.number} {found.heading}{flag}\n\n{body}\n")
        return
    detail = ordinance_detail(ordinance)
    if format is Format.json:
        print_json(detail)
        return
    from siltfence.cli.text import ordinance_text

    sys.stdout.write(ordinance_text(detail))


@ordinances_app.command("diff")
def ordinances_diff(
    left: Annotated[str, typer.Argument(help="Jurisdiction id")],
    right: Annotated[str, typer.Argument(help="Jurisdiction id")],
    on: Annotated[
        str | None, typer.Option(help="Compare the versions in force on this date")
    ] = None,
    format: Annotated[Format, typer.Option(help="json or text")] = Format.text,
) -> None:
    """Two villages' rules side by side, topic by topic, with citations."""
    from siltfence.core.ordinance.compare import compare
    from siltfence.core.ordinance.loader import load

    a, b = load(left), load(right)
    on_a = date_or_today(on, "on", left)
    on_b = date_or_today(on, "on", right)
    a.version_on(on_a)
    b.version_on(on_b)
    topics = compare(a, b, on_a, on_b)
    if format is Format.json:
        print_json(
            {
                "left": a.id,
                "right": b.id,
                "topics": [
                    {
                        "topic": t.name,
                        "same": t.same,
                        a.id: [{"says": s, "citation": c} for s, c in t.left],
                        b.id: [{"says": s, "citation": c} for s, c in t.right],
                    }
                    for t in topics
                ],
            }
        )
        return
    from siltfence.cli.text import diff_table

    diff_table(a, b, topics)


app.command("check", help="Design checks of a control plan (JSON), failures first.")(_check_command)
app.command("backup")(_backup_command)
app.command("restore")(_restore_command)

audit_app = typer.Typer(help="The audit record of the permit database.", no_args_is_help=True)
app.add_typer(audit_app, name="audit")


@audit_app.command("verify")
def audit_verify(
    checkpoints: Annotated[
        str | None,
        typer.Option(
            help="A file of audit checkpoints to hold the chain against "
            "(default: SILTFENCE_AUDIT_CHECKPOINTS)"
        ),
    ] = None,
) -> None:
    """Walk the hash chain of the audit record and hold it against its checkpoints."""
    from pathlib import Path

    from siltfence.cli.ops import database_errors, django_setup

    django_setup()
    from siltfence.apps.audit.anchor import (
        AnchorError,
        checkpoints_path,
        checkpoints_read,
        verify_anchored,
    )

    path = Path(checkpoints) if checkpoints else checkpoints_path()
    if checkpoints and not path.is_file():
        raise BadInput(f"checkpoints: there is no file {path}")
    try:
        with database_errors():
            result, anchored = verify_anchored(path)
    except AnchorError as exc:
        raise BadInput(str(exc)) from None
    if result.ok:
        against = f", and {anchored} checkpoints match" if anchored else ""
        sys.stdout.write(f"audit chain intact: {result.checked} events verified{against}\n")
        if anchored:
            last = checkpoints_read(path)[-1]
            after = result.checked - last.count
            if after:
                # Held against nothing outside the database: a rewrite of these would verify.
                sys.stdout.write(
                    f"{after} events after the last checkpoint ({last.at}) are not anchored "
                    "yet: run `siltfence audit checkpoint`\n"
                )
        return
    sys.stdout.write(
        f"audit chain BROKEN at event #{result.broken_at}: {result.reason} "
        f"({result.checked} events before it verified)\n"
    )
    raise typer.Exit(1)


@audit_app.command("checkpoint")
def audit_checkpoint(
    email: Annotated[
        bool, typer.Option(help="Email the checkpoint to SILTFENCE_AUDIT_CLERK_EMAIL")
    ] = True,
) -> None:
    """Record the chain head (count, last hash, HMAC) outside the database, and email it."""
    from siltfence.cli.ops import database_errors, django_setup

    django_setup()
    from siltfence.apps.audit.anchor import (
        AnchorError,
        checkpoint_email,
        checkpoint_write,
        checkpoints_path,
    )

    try:
        with database_errors():
            checkpoint, result = checkpoint_write()
    except AnchorError as exc:
        raise BadInput(str(exc)) from None
    if not result.ok:
        sys.stdout.write(
            f"audit chain BROKEN at event #{result.broken_at}: {result.reason}; "
            "no checkpoint written\n"
        )
        raise typer.Exit(1)
    sys.stdout.write(
        f"audit checkpoint written: {checkpoint.count} events, last hash "
        f"{checkpoint.last_hash[:16]}..., in {checkpoints_path()}\n"
    )
    if email:
        import smtplib

        try:
            sent_to = checkpoint_email(checkpoint)
        except (OSError, smtplib.SMTPException) as exc:
            cause = str(exc).strip() or type(exc).__name__
            raise BadInput(
                f"email: the checkpoint is written, but it could not be emailed to the clerk "
                f"({cause}); check EMAIL_HOST and the related settings"
            ) from None
        if sent_to:
            sys.stdout.write(f"emailed to {', '.join(sent_to)}\n")


def run() -> None:
    """Console entry point: one clear line and exit 2 on bad input."""
    try:
        # Without standalone mode click returns a command's typer.Exit code instead of
        # exiting with it; pass it on, so `audit verify` on a broken chain exits 1.
        status = app(standalone_mode=False)
    except (SiltfenceError, BadInput) as exc:
        sys.stderr.write(f"siltfence: {exc}\n")
        sys.exit(2)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        sys.stderr.write("siltfence: aborted\n")
        sys.exit(1)
    except UsageError as exc:
        sys.stderr.write(f"siltfence: {exc.format_message()}\n")
        sys.exit(2)
    except ClickException as exc:
        sys.stderr.write(f"siltfence: {exc.format_message()}\n")
        sys.exit(exc.exit_code)
    if isinstance(status, int) and status != 0:
        sys.exit(status)
