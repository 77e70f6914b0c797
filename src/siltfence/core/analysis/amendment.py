"""What would an amendment change? Two versions of one chapter over the same projects.

The two versions are the chapter in force on two dates, or the chapter with some of its
parameters set to proposed values (a board's draft: "raise the area trigger to 1 acre").
Each project is judged under both with ``judge()``; the report counts the projects whose
outcome changes (a permit needed, the plan required, basins or fences), names the
triggers and exemptions that changed for them, and estimates the inspection workload:
one permit is one site to inspect, and where the chapter sets the village's own
inspection rate (Spencer § 413-9) the village inspections a year are counted at it.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from siltfence.core.analysis.vector import Columns, Judged, judge
from siltfence.core.errors import SiltfenceError
from siltfence.core.ordinance.model import Ordinance, Parameter, ParameterValue
from siltfence.core.quantities import UNITS, UnitMismatch, to_unit

PROPOSED = "proposed"


@dataclass(frozen=True)
class Change:
    """How many projects move from ``before`` to ``after`` on one outcome."""

    outcome: str
    before: str
    after: str
    projects: int


@dataclass(frozen=True)
class Report:
    jurisdiction: str
    before: str  # how the first version is named: "in force on 2026-01-01"
    after: str
    projects: int
    permits_before: int
    permits_after: int
    changes: tuple[Change, ...]
    drivers: tuple[tuple[str, str, int], ...]  # (rule id, citation, projects it changed for)
    inspections_before: float | None  # village inspections a year at the chapter's rate
    inspections_after: float | None
    inspection_citation: str | None

    def drivers_by_rule(self) -> dict[str, int]:
        return {rule: count for rule, _citation, count in self.drivers}

    @property
    def changed(self) -> int:
        return sum(c.projects for c in self.changes if c.outcome == "permit needed")

    def to_json(self) -> dict[str, Any]:
        return {
            "jurisdiction": self.jurisdiction,
            "before": self.before,
            "after": self.after,
            "projects": self.projects,
            "permits": {"before": self.permits_before, "after": self.permits_after},
            "changes": [dataclasses.asdict(c) for c in self.changes],
            "drivers": [
                {"rule": rule, "citation": citation, "projects": count}
                for rule, citation, count in self.drivers
            ],
            "inspections": {
                "per_year_before": self.inspections_before,
                "per_year_after": self.inspections_after,
                "citation": self.inspection_citation,
            },
        }


def with_proposed(ordinance: Ordinance, on: datetime.date, values: Mapping[str, Any]) -> Ordinance:
    """The chapter with ``values`` (parameter name -> number or text with a unit) in force
    from ``on``: a draft amendment, never written to the ordinance files."""
    if not isinstance(values, Mapping) or not values:
        raise SiltfenceError("proposed: give parameter names and their proposed values")
    parameters = dict(ordinance.parameters)
    for name, raw in values.items():
        if name not in parameters:
            raise SiltfenceError(
                f"proposed.{name}: no such parameter; known: {', '.join(sorted(parameters))}",
                field=f"proposed.{name}",
            )
        parameter = parameters[name]
        if parameter.unit not in UNITS or parameter.unit == "USD":
            raise SiltfenceError(
                f"proposed.{name}: only thresholds and periods can be proposed",
                field=f"proposed.{name}",
            )
        try:
            value = to_unit(raw, parameter.unit)
        except UnitMismatch as exc:
            raise SiltfenceError(f"proposed.{name}: {exc}", field=f"proposed.{name}") from None
        current = parameter.at(on)
        draft = ParameterValue(on, value, current.citation, f"proposed: {raw}")
        kept = tuple(v for v in parameter.values if v.effective < on)
        parameters[name] = Parameter(name, parameter.description, parameter.unit, (*kept, draft))
    return dataclasses.replace(ordinance, parameters=parameters)


def compare(
    before: Ordinance,
    after: Ordinance,
    columns: Columns,
    *,
    before_on: datetime.date,
    after_on: datetime.date,
    before_name: str,
    after_name: str,
) -> Report:
    """Judge ``columns`` under both versions and count what changes."""
    needed = ("sediment-basins", "fences-or-bales")
    shared: dict[Any, Any] = {}
    a = judge(before, columns, before_on, needed, shared)
    b = judge(after, columns, after_on, needed, shared)
    kinds = ["none", *a.plan_kinds, *(k for k in b.plan_kinds if k not in a.plan_kinds)]
    plans_a, plans_b = _plans(a, kinds), _plans(b, kinds)
    controls_a, controls_b = _controls(a), _controls(b)
    changes: list[Change] = []
    changes += _moves("permit needed", YES_NO, a.applies.view(np.int8), b.applies.view(np.int8))
    changes += _moves("plan required", kinds, plans_a, plans_b)
    changes += _moves("basins or fences", CONTROLS, controls_a, controls_b)
    moved = (a.applies != b.applies) | (plans_a != plans_b) | (controls_a != controls_b)
    drivers: list[tuple[str, str, int]] = []
    for group in ("triggers", "exemptions"):
        for rule in before.rules[group]:
            ours = getattr(a, group)[rule["id"]]
            theirs = getattr(b, group).get(rule["id"], np.zeros_like(ours))
            if theirs is ours:
                continue  # the same column (``judge``'s shared tests): the rule moved no one
            count = int(np.count_nonzero(moved & (ours != theirs)))
            if count:
                drivers.append((rule["id"], rule["citation"], count))
    rate, citation = _inspection_rate(before)
    permits_before = int(np.count_nonzero(a.applies))
    permits_after = int(np.count_nonzero(b.applies))
    return Report(
        jurisdiction=before.id,
        before=before_name,
        after=after_name,
        projects=columns.n,
        permits_before=permits_before,
        permits_after=permits_after,
        changes=tuple(changes),
        drivers=tuple(sorted(drivers, key=lambda d: -d[2])),
        inspections_before=None if rate is None else permits_before * rate,
        inspections_after=None if rate is None else permits_after * rate,
        inspection_citation=citation,
    )


YES_NO = ["not needed", "needed"]
CONTROLS = ["neither", "fences or bales", "sedimentation basins"]


def _plans(judged: Judged, kinds: list[str]) -> Any:
    """Each project's plan as an index into ``kinds`` (0: none), whatever order the
    version lists its own plan kinds in."""
    places = [kinds.index(kind) for kind in judged.plan_kinds]
    if places == list(range(1, len(places) + 1)):
        return judged.plan + np.int8(1)  # the version's own order: -1 (no plan) becomes 0
    out = np.zeros(judged.plan.shape[0], dtype=np.int8)
    for index, kind in enumerate(judged.plan_kinds):  # a few kinds: sums beat a gather
        out += (judged.plan == index).view(np.int8) * np.int8(kinds.index(kind))
    return out  # -1 (no plan) matches no kind and stays 0


def _controls(judged: Judged) -> Any:
    """Each project's sediment controls as an index into ``CONTROLS``."""
    none = np.zeros(judged.applies.shape[0], dtype=bool)
    fences = judged.requirements.get("fences-or-bales", none).view(np.int8)
    basins = judged.requirements.get("sediment-basins", none).view(np.int8)
    return np.maximum(fences, basins * 2)  # basins where both attach


def _moves(outcome: str, labels: list[str], before: Any, after: Any) -> list[Change]:
    """Projects moving from one label to another: each pair of labels (before, after)
    coded as ``before * k + after`` and counted with ``count_nonzero``, which for a few
    labels is many times faster than a ``bincount`` (that widens every code first)."""
    k = len(labels)
    assert k <= 11  # before * k + after stays within int8
    codes = before * k + after
    found = []
    for i in range(k):
        for j in range(k):
            count = int(np.count_nonzero(codes == i * k + j)) if i != j else 0
            if count:
                found.append(Change(outcome, labels[i], labels[j], count))
    return sorted(found, key=lambda change: -change.projects)


def _inspection_rate(ordinance: Ordinance) -> tuple[float | None, str | None]:
    """Village inspections a year for one permit in force all year, at the chapter's own
    rate (Spencer § 413-9: once a month March to October, twice November to February,
    so 8 + 2 = 10); None where the chapter sets none."""
    schedule = ordinance.rules.get("municipal_inspections")
    if not schedule:
        return None, None
    total = 0.0
    for season in schedule["seasons"]:
        if season["per"] == "month":
            start = int(season["from"].split("-")[0])
            end = int(season["to"].split("-")[0])
            months = (end - start) % 12 + 1
            total += season["at_least"] * months
        else:
            total += season["at_least"]
    return total, str(schedule["citation"])


def report_text(report: Report) -> str:
    """The report as a table with bar charts, for the terminal."""
    width = 30
    lines = [
        f"{report.jurisdiction}: {report.before} -> {report.after}",
        f"{report.projects:,} projects; permits needed: {report.permits_before:,} -> "
        f"{report.permits_after:,} ({report.permits_after - report.permits_before:+,})",
        "",
    ]
    if not report.changes:
        lines.append("No project changes outcome.")
    biggest = max((c.projects for c in report.changes), default=1)
    for change in report.changes:
        bar = "#" * max(1, round(width * change.projects / biggest))
        lines.append(
            f"  {change.outcome:<17} {_words(change.before):>22} -> {_words(change.after):<22} "
            f"{change.projects:>9,}  {bar}"
        )
    if report.drivers:
        lines += ["", "What drives the changes:"]
        for rule, citation, count in report.drivers:
            lines.append(f"  {rule:<40} {citation:<16} {count:>9,} projects")
    if report.inspections_before is not None:
        lines += [
            "",
            f"Village inspections a year at the rate of {report.inspection_citation}, for "
            f"permits in force all year: {report.inspections_before:,.0f} -> "
            f"{report.inspections_after:,.0f}",
        ]
    return "\n".join(lines) + "\n"


def _words(name: str) -> str:
    return name.replace("_", " ")
