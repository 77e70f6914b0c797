"""The village board's question, for staff: what would this amendment change?

Staff pick proposed values for the chapter's thresholds and run them over the village's
own past applications, or over a file of projects they upload (CSV, JSON Lines or
Parquet; at most ``MAX_UPLOAD`` bytes). The answer is the table of ``siltfence analyze
amendment`` with a bar chart drawn on the server as SVG.
"""

from __future__ import annotations

import datetime
import tempfile
from pathlib import Path
from typing import Any

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from siltfence.apps.permits.models import Village
from siltfence.apps.permits.selectors import application_facts_of_village
from siltfence.apps.web.staff_views import staff_only
from siltfence.core.analysis import (
    Report,
    columns_from_records,
    compare,
    read_projects,
    with_proposed,
)
from siltfence.core.errors import SiltfenceError
from siltfence.core.ordinance.loader import load
from siltfence.core.ordinance.model import Ordinance
from siltfence.core.quantities import UNITS, format_quantity

MAX_UPLOAD = 20 * 1024 * 1024
MAX_VALUE_LENGTH = 40


def _named_in(condition: Any) -> set[str]:
    """The parameters a condition compares a fact with."""
    if isinstance(condition, dict):
        for group in ("all", "any"):
            if group in condition:
                return set().union(*(_named_in(c) for c in condition[group]))
        if "not" in condition:
            return _named_in(condition["not"])
        return {v for k, v in condition.items() if k != "fact" and isinstance(v, str)}
    return set()


def _thresholds(ordinance: Ordinance, on: datetime.date) -> list[dict[str, Any]]:
    """The thresholds that decide an answer (the parameters the triggers, exemptions,
    plans and requirements compare facts with), with their values today."""
    used: set[str] = set()
    for group in ("triggers", "exemptions", "plans", "requirements"):
        for rule in ordinance.rules[group]:
            used |= _named_in(rule.get("when", {}))
    rows = []
    for name, parameter in ordinance.parameters.items():
        if name not in used or parameter.unit not in UNITS or parameter.unit == "USD":
            continue
        current = parameter.at(on)
        if not isinstance(current.value, float):
            continue
        rows.append(
            {
                "name": name,
                "description": parameter.description,
                "citation": current.citation,
                "current": format_quantity(current.value, parameter.unit),
            }
        )
    return rows


def _past_projects(village: Village) -> Any:
    """The facts of every application the village has received, as columns."""
    facts = application_facts_of_village(village=village)
    return columns_from_records([f for f in facts if isinstance(f, dict)])


@login_required
@require_http_methods(["GET", "POST"])
def amendment(request: Any, village: str) -> Any:
    place = get_object_or_404(Village, pk=village)
    staff_only(request, place)
    ordinance = load(place.id)
    today = timezone.localdate()
    thresholds = _thresholds(ordinance, today)
    context: dict[str, Any] = {
        "village": place,
        "ordinance": ordinance,
        "thresholds": thresholds,
        "proposed": {},
        "source": "past",
    }
    if request.method == "POST":
        proposed = {
            row["name"]: str(request.POST.get(row["name"], "")).strip()[:MAX_VALUE_LENGTH]
            for row in thresholds
        }
        proposed = {name: value for name, value in proposed.items() if value}
        context["proposed"] = proposed
        context["source"] = request.POST.get("source", "past")
        try:
            report = _run(ordinance, place, proposed, request, today)
        except SiltfenceError as exc:
            context["error"] = str(exc)
            return render(request, "web/analysis_amendment.html", context, status=400)
        context.update(_shown(report))
    return render(request, "web/analysis_amendment.html", context)


def _run(
    ordinance: Ordinance, place: Village, proposed: dict[str, str], request: Any, on: datetime.date
) -> Report:
    if not proposed:
        raise SiltfenceError("proposed: give at least one proposed value", field="proposed")
    draft = with_proposed(ordinance, on, proposed)
    if request.POST.get("source") == "file":
        upload = request.FILES.get("projects")
        if upload is None:
            raise SiltfenceError("projects: choose a file of projects", field="projects")
        if upload.size > MAX_UPLOAD:
            raise SiltfenceError(
                f"projects: the file is larger than {MAX_UPLOAD // (1024 * 1024)} MB",
                field="projects",
            )
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "projects"
            with open(path, "wb") as handle:
                for chunk in upload.chunks():
                    handle.write(chunk)
            try:
                columns = read_projects(path)
            except UnicodeDecodeError:
                raise SiltfenceError(
                    "projects: the file is not CSV, JSON Lines or Parquet", field="projects"
                ) from None
        what = f"the {columns.n:,} projects of {upload.name[:80]}"
    else:
        columns = _past_projects(place)
        what = f"the village's {columns.n:,} applications"
    return compare(
        ordinance,
        draft,
        columns,
        before_on=on,
        after_on=on,
        before_name=f"the chapter in force on {on:%B %-d, %Y}",
        after_name=f"the draft, over {what}",
    )


def _shown(report: Report) -> dict[str, Any]:
    """The report with its numbers written for people, and the bars of the SVG chart
    (permits needed now and under the draft)."""
    biggest = max(report.permits_before, report.permits_after, 1)
    bars = [
        {"label": label, "shown": f"{value:,}", "width": round(300 * value / biggest), "y": y}
        for label, value, y in (
            ("Now", report.permits_before, 10),
            ("Draft", report.permits_after, 50),
        )
    ]
    numbers = {
        "projects": f"{report.projects:,}",
        "permits_before": f"{report.permits_before:,}",
        "permits_after": f"{report.permits_after:,}",
        "inspections_before": f"{report.inspections_before or 0:,.0f}",
        "inspections_after": f"{report.inspections_after or 0:,.0f}",
    }
    return {
        "report": report,
        "numbers": numbers,
        "chart": {"bars": bars},
        "changes": [
            {"outcome": c.outcome, "before": c.before, "after": c.after, "shown": f"{c.projects:,}"}
            for c in report.changes
        ],
        "drivers": [
            {"rule": rule.replace("-", " "), "citation": citation, "shown": f"{count:,}"}
            for rule, citation, count in report.drivers
        ],
    }
