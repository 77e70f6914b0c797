"""The year-end report to the village board: a village's staff see it for any calendar year,
with charts, the same figures as a table, the MS4 part, and a CSV of every figure."""

from __future__ import annotations

import csv
import io
import re
from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import village_ids
from siltfence.apps.enforcement.register import bar_chart
from siltfence.apps.yearreport.selectors import (
    FIRST_YEAR,
    LAST_YEAR,
    NOT_RECORDED,
    YearReport,
    village_names,
    year_report,
)
from siltfence.core.ordinance.sentences import day_words
from siltfence.presentation.tables import BOM, not_a_formula
from siltfence.presentation.today import village_today

NOT_STAFF = "The year-end report is for the village's staff."
YEAR_DIGITS = re.compile(r"[0-9]{4}")
FORMATS = ("", "csv")
CSV_HEADER = ["Section", "Figure", "Value", "How counted"]


def _shown(value: str) -> str:
    """What was typed, short, as a message quotes it."""
    return repr(value if len(value) <= 20 else value[:20] + "...")


def _refusal(field: str, says: str) -> str:
    return f"{field}: {says}"


@login_required
@require_GET
def year_report_view(request: HttpRequest) -> HttpResponse:
    staff_of = village_ids(request.user, Role.STAFF)
    if not staff_of:
        raise PermissionDenied(NOT_STAFF)
    known = village_names()
    mine = [(pk, name) for pk, name in known.items() if pk in staff_of]
    if not mine:
        raise PermissionDenied(NOT_STAFF)
    village = str(request.GET.get("village", "")).strip() or mine[0][0]
    year_text = str(request.GET.get("year", "")).strip()
    wanted = str(request.GET.get("format", "")).strip()
    error = ""
    if village not in known:
        error = _refusal(
            "village",
            f"no village {_shown(village)} is known; choose one of: "
            + ", ".join(name for _, name in mine),
        )
        village = mine[0][0]
    elif village not in staff_of:
        raise PermissionDenied(NOT_STAFF)
    year = village_today(village).year
    if not error and year_text:
        if YEAR_DIGITS.fullmatch(year_text) and FIRST_YEAR <= int(year_text) <= LAST_YEAR:
            year = int(year_text)
        else:
            error = _refusal(
                "year",
                f"give the year as four digits from {FIRST_YEAR} to {LAST_YEAR}, like {year}; "
                f"{_shown(year_text)} is not one",
            )
    if not error and wanted not in FORMATS:
        error = _refusal("format", f"only csv can be downloaded; {_shown(wanted)} is not known")
    context: dict[str, Any] = {
        "villages": mine,
        "village": village,
        "year": year,
        "first_year": FIRST_YEAR,
        "last_year": LAST_YEAR,
        "not_recorded": NOT_RECORDED,
    }
    if error:
        return render(
            request, "yearreport/year_report.html", {**context, "error": error}, status=400
        )
    report = year_report(village, year)
    if wanted == "csv":
        return _csv(report)
    return render(request, "yearreport/year_report.html", {**context, **_page(report)})


def _page(report: YearReport) -> dict[str, Any]:
    labels = [m["short"] for m in report.months]
    charts = {
        "applications": bar_chart(
            f"Applications received by month, {report.year}",
            labels,
            [("Applications received", [m["applications"] for m in report.months], "#005ea2")],
        ),
        "permits": bar_chart(
            f"Permits issued by month, {report.year}",
            labels,
            [("Permits issued", [m["permits"] for m in report.months], "#00a91c")],
        ),
        "inspections": bar_chart(
            f"Inspections made by month, {report.year}",
            labels,
            [
                ("By the village", [m["village_inspections"] for m in report.months], "#e5a000"),
                (
                    "By permittees",
                    [m["permittee_inspections"] for m in report.months],
                    "#00a398",
                ),
            ],
        ),
    }

    def link(year: int, **more: str) -> str:
        return "?" + urlencode({"village": report.village_id, "year": year, **more})

    return {
        "report": report,
        # Every text inside the SVG was escaped by bar_chart.
        "charts": {key: mark_safe(svg) for key, svg in charts.items()},
        "csv_link": link(report.year, format="csv"),
        "previous_link": link(report.year - 1) if report.year > FIRST_YEAR else "",
        "next_link": link(report.year + 1) if report.year < LAST_YEAR else "",
        "counted_to": day_words(report.counted_to),
    }


def _csv(report: YearReport) -> HttpResponse:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    for figure in report.figures():
        writer.writerow(
            [not_a_formula(figure.section), not_a_formula(figure.name), figure.value, figure.how]
        )
    response = HttpResponse(BOM + out.getvalue(), content_type="text/csv; charset=utf-8")
    name = f"year-report-{report.village_id}-{report.year}.csv"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
