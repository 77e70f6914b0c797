"""``siltfence analyze``: what an ordinance amendment would change, over many projects.

No database: the projects come from a file (CSV, JSON Lines or Parquet, with the facts of
the public contract as columns), and the versions from the ordinance data.
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from siltfence.cli.inputs import date_option
from siltfence.core.errors import SiltfenceError

analyze_app = typer.Typer(
    help="What an amendment would change, over past or sample projects.", no_args_is_help=True
)


class Format(StrEnum):
    json = "json"
    text = "text"


@analyze_app.command("amendment")
def amendment(
    jurisdiction: Annotated[str, typer.Option(help="Jurisdiction id (siltfence ordinances list)")],
    projects: Annotated[str, typer.Option(help="CSV, JSON Lines or Parquet file of projects")],
    on: Annotated[str, typer.Option(help="Date YYYY-MM-DD of the version in force now")],
    against: Annotated[
        str | None, typer.Option(help="Compare with the version in force on this date")
    ] = None,
    proposed: Annotated[
        str | None,
        typer.Option(help="YAML or JSON file of proposed parameter values, e.g. area_trigger"),
    ] = None,
    format: Annotated[Format, typer.Option(help="json or text")] = Format.text,
) -> None:
    """Judge every project under two versions of the chapter and count what changes."""
    from siltfence.core.analysis import compare, read_projects, report_text, with_proposed
    from siltfence.core.ordinance.loader import load

    ordinance = load(jurisdiction)
    now = date_option(on, "on")
    if (against is None) == (proposed is None):
        raise SiltfenceError("give either --against DATE or --proposed FILE", field="proposed")
    if against is not None:
        other_on = date_option(against, "against")
        after, after_name = ordinance, f"in force on {other_on.isoformat()}"
    else:
        assert proposed is not None
        other_on = now
        after = with_proposed(ordinance, now, _read_proposal(proposed))
        after_name = f"as proposed in {Path(proposed).name}"
    try:
        columns = read_projects(Path(projects))
    except OSError as exc:
        raise SiltfenceError(f"projects: cannot read {projects} ({exc.strerror})") from None
    report = compare(
        ordinance,
        after,
        columns,
        before_on=now,
        after_on=other_on,
        before_name=f"in force on {now.isoformat()}",
        after_name=after_name,
    )
    if format is Format.json:
        sys.stdout.write(json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(report_text(report))


@analyze_app.command("sample")
def sample(
    count: Annotated[int, typer.Option(min=1, max=10_000_000, help="How many projects")],
    out: Annotated[str, typer.Option(help="File to write: .csv or .jsonl")],
    seed: Annotated[int, typer.Option(help="Random seed; the same seed, the same projects")] = 0,
) -> None:
    """Write synthetic projects (made up, not measured) for trying an amendment."""
    from siltfence.core.analysis import sample_projects
    from siltfence.core.analysis.sample import project_facts

    columns = sample_projects(count, seed)
    path = Path(out)
    if path.suffix not in (".csv", ".jsonl"):
        raise SiltfenceError("out: write a .csv or a .jsonl file", field="out")
    try:
        with open(path, "w", encoding="utf-8", newline="") as handle:
            if path.suffix == ".jsonl":
                for row in range(columns.n):
                    handle.write(json.dumps(project_facts(columns, row)) + "\n")
            else:
                import csv

                keys = list(columns.values)
                writer = csv.writer(handle)
                writer.writerow(keys)
                for row in range(columns.n):
                    facts = project_facts(columns, row)
                    writer.writerow([_cell(facts.get(key)) for key in keys])
    except OSError as exc:
        raise SiltfenceError(f"out: cannot write {out} ({exc.strerror})", field="out") from None
    sys.stdout.write(f"wrote {columns.n:,} projects to {out}\n")


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _read_proposal(path: str) -> dict[str, object]:
    from siltfence.core.ordinance.yamlfile import read_yaml

    data = read_yaml(Path(path), Path(path).name)
    if not isinstance(data, dict):
        raise SiltfenceError("proposed: expected parameter names and values", field="proposed")
    return data
