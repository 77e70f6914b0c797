"""The MS4 part of the report: what a municipal storm sewer system's annual report asks
under construction site pollutant control, each answer taken from the figures above it, or
marked as not recorded in siltfence.
"""

from __future__ import annotations

from typing import Any

from siltfence.apps.yearreport.enforcement_figures import _Complaints
from siltfence.apps.yearreport.permit_figures import _Inspections, _Permits
from siltfence.apps.yearreport.report import (
    MS4,
    NOT_RECORDED,
    Figure,
    YearReport,
    count,
    times,
)
from siltfence.core.ordinance.sentences import day_words


def _ms4(
    report: YearReport,
    ordinance: Any,
    permits: _Permits,
    inspections: _Inspections,
    complaints: _Complaints,
    actions_total: int,
    by_kind: list[tuple[str, int]],
) -> list[Figure]:
    """What an MS4's annual report asks under construction site pollutant control, each
    with where siltfence holds it, or that it does not."""
    year = report.year
    taken = "; ".join(f"{name} {n}" for name, n in by_kind if n) or "none"
    responded = complaints.found + complaints.dismissed

    def row(key: str, name: str, value: str, how: str) -> Figure:
        return Figure(f"ms4-{key}", MS4, name, value, how)

    return [
        row(
            "ordinance",
            "Construction site erosion control ordinance in force",
            f"Chapter {ordinance.chapter}, {ordinance.title}",
            f"the village's chapter as siltfence holds it, adopted {day_words(ordinance.adopted)}",
        ),
        row(
            "ordinance-changes",
            "Changes to the ordinance during the year",
            NOT_RECORDED,
            "siltfence holds the chapter's words, not the board's actions amending it",
        ),
        row(
            "plans",
            "Erosion control plans received for review",
            count(permits.received),
            "Permits: applications received (each is filed with its control plan)",
        ),
        row(
            "sites-permitted",
            "Construction sites permitted",
            count(permits.issued),
            "Permits: permits issued (one permit per site)",
        ),
        row(
            "one-acre",
            "Permitted sites disturbing one acre or more",
            count(permits.one_acre),
            f"permits issued in {year} whose application gave a disturbed area of one acre or "
            f"more ({times(permits.issued - permits.with_area, 'permit', 'permits')} gave no "
            "area); such sites also need the state's construction site permit, and whether "
            "each has it is not recorded in siltfence",
        ),
        row(
            "sites-active",
            "Permitted construction sites active at the end of the year",
            count(permits.in_force),
            f"Permits: permits in force on {permits.in_force_day}",
        ),
        row(
            "sites-inspected",
            "Construction sites inspected",
            count(inspections.sites),
            "Inspections: sites inspected by the village",
        ),
        row(
            "inspections",
            "Construction site inspections made",
            count(inspections.made),
            "Inspections: inspections made by the village (the permittees' own "
            f"{times(inspections.permittee, 'inspection is', 'inspections are')} not in it)",
        ),
        row(
            "enforcement",
            "Enforcement actions taken, by type",
            count(actions_total),
            f"Enforcement actions, by type: {taken}",
        ),
        row(
            "complaints",
            "Complaints received from the public",
            count(complaints.received),
            "Complaints and violations: complaints received from the public",
        ),
        row(
            "complaints-responded",
            "Complaints responded to",
            count(responded),
            f"complaints received in {year} that staff reviewed: {complaints.found} found a "
            f"violation, {complaints.dismissed} dismissed ({complaints.waiting} still waiting)",
        ),
        row(
            "training",
            "Staff training on construction site erosion control",
            NOT_RECORDED,
            "siltfence keeps no record of training",
        ),
        row(
            "form-fields",
            "The state's annual report form: its question and field numbers",
            NOT_RECORDED,
            "siltfence does not hold the form; copy each figure above to the question it answers",
        ),
    ]
