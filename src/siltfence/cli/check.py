"""``siltfence check``: the design-check report of a control plan, as JSON or text.

Registered in ``main.py`` as ``siltfence check --plan FILE|- [--on DATE] [--format json|text]``.
Bad input raises a ``SiltfenceError`` naming the field (``plan.site.features[2]...``); the
entry point prints it as one line and exits 2.
"""

from __future__ import annotations

import datetime
import json
import sys
import textwrap
from enum import StrEnum
from typing import Annotated, Any

import typer

from siltfence.cli.inputs import date_option, read_json_file


class CheckFormat(StrEnum):
    json = "json"
    text = "text"


def read_plan(source: str) -> Any:
    """The plan's JSON from a file, or from stdin for ``-``, read within bounds."""
    return read_json_file(source, "plan")


def evaluation_date(raw: Any, on: str | None) -> datetime.date | None:
    """``--on`` if given; else None when the plan has its own ``on``; else today there."""
    if on is not None:
        return date_option(on, "on")
    if isinstance(raw, dict) and "on" in raw:
        return None
    jurisdiction = raw.get("jurisdiction") if isinstance(raw, dict) else None
    if not isinstance(jurisdiction, str):
        return None  # the plan's own check names the missing jurisdiction
    from zoneinfo import ZoneInfo

    from siltfence.core.ordinance.loader import load

    # The shell decides what "today" is, in the village's own time zone; the core only ever
    # receives a date.
    return datetime.datetime.now(ZoneInfo(load(jurisdiction).time_zone)).date()


def check(
    plan: Annotated[str, typer.Option(help="Control plan JSON file (docs/plan-format.md), or -")],
    on: Annotated[
        str | None,
        typer.Option(help="Evaluation date YYYY-MM-DD when the plan gives none (default: today)"),
    ] = None,
    format: Annotated[CheckFormat, typer.Option(help="json or text")] = CheckFormat.json,
) -> None:
    """Design checks of a control plan: failures first, each number with its formula and section."""
    from siltfence.core.engineering.report import review_plan

    raw = read_plan(plan)
    report = review_plan(raw, on=evaluation_date(raw, on)).to_dict()
    if format is CheckFormat.json:
        sys.stdout.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(report_text(report))


MARKS = {"fail": "FAIL", "needs-action": "ACTION", "pass": "PASS", "info": "INFO"}


def report_text(report: dict[str, Any]) -> str:
    """A report for a terminal: summary, failures first, then the measured site and checklist."""
    out: list[str] = []
    wrap = textwrap.TextWrapper(width=100, break_on_hyphens=False, break_long_words=False)

    def line(text: str, indent: str = "") -> None:
        wrap.initial_indent = indent
        wrap.subsequent_indent = indent + "  "
        # A citation is never split across lines: "§ 413-7B(1)" stays whole.
        kept = text.replace("§ ", "§\u00a0")
        out.extend(part.replace("§\u00a0", "§ ") for part in wrap.wrap(kept) or [""])

    o = report["ordinance"]
    s = report["summary"]
    line(
        f"Design-check report: {o['title']} (version {o['version']}), judged on "
        f"{report['evaluated_on']}"
    )
    checklist = report["checklist"]
    if checklist["kind"]:
        line(f"Plan required: {checklist['kind'].replace('_', ' ')} ({checklist['citation']})")
    elif not report["applies"]:
        line("The chapter does not apply to this plan's facts.")
    line(
        f"Summary: {s['fail']} fail, {s['needs-action']} needs action, {s['pass']} pass, "
        f"{s['info']} info; checklist {s['checklist_present']} of "
        f"{s['checklist_present'] + s['checklist_missing']} items present"
    )
    out.append("")
    for check in report["checks"]:
        _check(check, line, out)
    site = report["site"]["measured"]
    line("SITE  " + site["title"] + f"  {site['citation']}")
    line(site["says"], "  ")
    line(f"Method: {site['method']['name']}: {site['method']['formula']}", "  ")
    for step in site["steps"]:
        line(f"{step['label']}: {step['formula']} = {step['text']}", "    ")
    out.append("")
    if checklist["items"]:
        line(f"CHECKLIST  {checklist['says']} ({checklist['citation']})")
        for item in checklist["items"]:
            mark = "[x]" if item["present"] else "[ ]"
            line(f"{mark} {item['item']} ({item['citation']}): {item['evidence']}", "  ")
            if item["fix"]:
                line(f"Fix: {item['fix']}", "      ")
        out.append("")
    return "\n".join(out) + "\n"


def _check(check: dict[str, Any], line: Any, out: list[str]) -> None:
    line(f"{MARKS[check['result']]:<6} {check['title']}  {check['citation']}")
    line(check["says"], "  ")
    if check["fix"]:
        line(f"Fix: {check['fix']}", "  ")
    line(f"Method: {check['method']['name']}: {check['method']['formula']}", "  ")
    if check["inputs"]:
        line("Inputs: " + "; ".join(f"{k} = {v}" for k, v in check["inputs"].items()), "  ")
    if check["steps"]:
        line("Steps (label: formula = value):", "  ")
    for step in check["steps"]:
        line(f"{step['label']}: {step['formula']} = {step['text']}", "    ")
    for note in check["notes"]:
        line(f"Note: {note}", "  ")
    out.append("")
