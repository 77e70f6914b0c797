"""Design-check report pages: paste or upload a control plan, read its report, keep a PDF.

Views stay thin: they read the plan's JSON from the form (a textarea or an uploaded
.json/.geojson file), ask the core for the report, and render it. A plan that cannot be read
or checked comes back on the form with the one sentence that names the field.
"""

from __future__ import annotations

import datetime
import json
from typing import Any
from zoneinfo import ZoneInfo

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse
from django.views.decorators.http import require_http_methods, require_POST

from siltfence.core.engineering.report import review_plan
from siltfence.core.errors import SiltfenceError
from siltfence.core.ordinance.loader import load, load_all, ordinances_root
from siltfence.presentation.plan_reports import (
    MAX_PLAN_BYTES,
    TOO_LARGE,
    linked_report,
    parse_plan_json,
)

PLAN_SUFFIXES = (".json", ".geojson")
NOT_JSON_FILE = "plan: upload a .json or .geojson file"
NOT_TEXT = "plan: the file is not UTF-8 text"
NO_PLAN = "plan: paste the plan's JSON or upload a .json or .geojson file"


def plan_text(request: HttpRequest) -> str:
    """The plan's JSON text from the upload (preferred) or the textarea."""
    upload = request.FILES.get("plan_file")
    if upload is not None:
        name = (upload.name or "").lower()
        if not name.endswith(PLAN_SUFFIXES):
            raise SiltfenceError(NOT_JSON_FILE, field="plan")
        if upload.size is None or upload.size > MAX_PLAN_BYTES:
            raise SiltfenceError(TOO_LARGE, field="plan")
        data: bytes = upload.read(MAX_PLAN_BYTES + 1)
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise SiltfenceError(NOT_TEXT, field="plan") from None
    text = request.POST.get("plan", "")
    if len(text.encode("utf-8")) > MAX_PLAN_BYTES:
        raise SiltfenceError(TOO_LARGE, field="plan")
    if not text.strip():
        raise SiltfenceError(NO_PLAN, field="plan")
    return text


def example_plans() -> dict[str, dict[str, Any]]:
    """The worked plans of the ordinances' case files (``cases/design/*.json``), by
    ``village/name``: real examples a visitor can load into the form and check."""
    examples: dict[str, dict[str, Any]] = {}
    for ordinance in load_all():
        folder = ordinances_root() / ordinance.id / "cases" / "design"
        for path in sorted(folder.glob("*.json")):
            try:
                description = json.loads(path.read_text(encoding="utf-8")).get("description", "")
            except (OSError, ValueError, AttributeError):
                continue
            examples[f"{ordinance.id}/{path.stem}"] = {
                "key": f"{ordinance.id}/{path.stem}",
                "village": ordinance.name,
                "description": str(description).split(";")[0].rstrip("."),
                "path": path,
            }
    return examples


def report_for(plan: dict[str, Any]) -> dict[str, Any]:
    on = None
    if "on" not in plan and isinstance(plan.get("jurisdiction"), str):
        zone = ZoneInfo(load(plan["jurisdiction"]).time_zone)
        on = datetime.datetime.now(zone).date()
    return review_plan(plan, on=on).to_dict()


def _pdf_url() -> str | None:
    try:
        return reverse("web:design-check-pdf")
    except NoReverseMatch:
        return None


@require_http_methods(["GET", "POST"])
def design_check_report(request: HttpRequest) -> HttpResponse:
    """GET: the form. POST: the report for the plan sent, or the form with the error."""
    examples = example_plans()
    context: dict[str, Any] = {"pdf_url": _pdf_url(), "plan_text": "", "examples": examples}
    if request.method == "GET":
        chosen = examples.get(request.GET.get("example", ""))
        if chosen is not None:
            context["plan_text"] = chosen["path"].read_text(encoding="utf-8")
            context["example"] = chosen
        return render(request, "web/design_check_report.html", context)
    try:
        text = plan_text(request)
        context["plan_text"] = text
        report = report_for(parse_plan_json(text))
    except SiltfenceError as exc:
        context.update(error=str(exc), error_field=exc.field)
        return render(request, "web/design_check_report.html", context, status=400)
    context["report"] = linked_report(report)
    return render(request, "web/design_check_report.html", context)


@require_POST
def design_check_pdf(request: HttpRequest) -> HttpResponse:
    """The same report as a PDF for the file, downloaded, never shown inline."""
    from siltfence.presentation.design_pdf import report_pdf

    try:
        text = plan_text(request)
        report = report_for(parse_plan_json(text))
    except SiltfenceError as exc:
        context = {"pdf_url": _pdf_url(), "plan_text": "", "error": str(exc)}
        return render(request, "web/design_check_report.html", context, status=400)
    name = f"design-check-{report['jurisdiction']}-{report['evaluated_on']}.pdf"
    response = HttpResponse(report_pdf(report), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response
