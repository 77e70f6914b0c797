"""``siltfence``: the command line.

Every command prints JSON or plain text. Bad input exits with status 2 and one line on
stderr that names the field; nothing else is printed. Heavy imports (the ordinance
loader, rich, Django) happen inside the commands that need them, so a determination
starts fast.
"""

from __future__ import annotations

import datetime
import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from click.exceptions import ClickException, UsageError

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


class Format(StrEnum):
    json = "json"
    text = "text"


class BadInput(Exception):
    pass


def _read_json(source: str, what: str) -> Any:
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as exc:
        raise BadInput(f"{what}: cannot read {source} ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise BadInput(f"{what}: {source} is not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInput(f"{what}: not valid JSON ({exc.msg} at line {exc.lineno})") from None


def _parse_date(text: str | None, field: str, jurisdiction: str) -> datetime.date:
    if text is None:
        from zoneinfo import ZoneInfo

        from siltfence.core.ordinance.loader import load

        # The shell decides what "today" is, in the village's own time zone; the core
        # only ever receives a date.
        zone = ZoneInfo(load(jurisdiction).time_zone)
        return datetime.datetime.now(zone).date()
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise BadInput(f"{field}: expected a date written YYYY-MM-DD, got {text!r}") from None


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


@app.command()
def determine(
    jurisdiction: Annotated[str, typer.Option(help="Jurisdiction id, e.g. spencer-wi")],
    facts: Annotated[str, typer.Option(help="JSON file of facts, or - for stdin")],
    on: Annotated[
        str | None, typer.Option(help="Evaluation date YYYY-MM-DD (default: today there)")
    ] = None,
    format: Annotated[Format, typer.Option(help="json or text")] = Format.json,
) -> None:
    """Does this project need an erosion control permit, which plan, and why."""
    from siltfence.core.ordinance.loader import load
    from siltfence.core.rules import determine as run_determination

    load(jurisdiction)  # an unknown jurisdiction is named before the facts are read
    raw = _read_json(facts, "facts")
    when = _parse_date(on, "on", jurisdiction)
    result = run_determination(jurisdiction, raw, when)
    if format is Format.json:
        _print_json(result.to_json())
    else:
        from siltfence.cli.text import determination_text

        sys.stdout.write(determination_text(result.to_json()))


@ordinances_app.command("list")
def ordinances_list(
    format: Annotated[Format, typer.Option(help="json or text")] = Format.text,
) -> None:
    """The jurisdictions whose chapters are encoded."""
    from siltfence.core.ordinance.loader import load_all
    from siltfence.core.ordinance.summary import jurisdiction_summary

    items = [jurisdiction_summary(o) for o in load_all()]
    if format is Format.json:
        _print_json(items)
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
            _print_json(ordinance_detail(ordinance)["sections"][ordinance.sections.index(found)])
        else:
            flag = " (number reconstructed)" if found.reconstructed else ""
            body = found.text if found.text is not None else f"[{found.note}]"
            sys.stdout.write(f"§ {found.number} {found.heading}{flag}\n\n{body}\n")
        return
    detail = ordinance_detail(ordinance)
    if format is Format.json:
        _print_json(detail)
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
    on_a = _parse_date(on, "on", left)
    on_b = _parse_date(on, "on", right)
    a.version_on(on_a)
    b.version_on(on_b)
    topics = compare(a, b, on_a, on_b)
    if format is Format.json:
        _print_json(
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


def run() -> None:
    """Console entry point: one clear line and exit 2 on bad input."""
    try:
        app(standalone_mode=False)
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
