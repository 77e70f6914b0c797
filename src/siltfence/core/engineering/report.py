"""One design-check report per control plan (DESIGN.md capability 3).

``review_plan(plan_json, on=...)`` is pure: it reads the plan (``plan.parse_plan``), measures
the site geometry (disturbed area, and the largest area disturbed at one time), asks the
determination engine what the chapter requires with those computed facts, ticks the plan
checklist the determination returns, and runs every design check the plan's contents call
for. The evaluation date is the plan's ``on`` or the ``on`` argument, never the clock.

Every number a check compares against has a source, shown as a step of the check:

- A chapter that states its own numbers (Spencer Ch. 413): they come from ``parameters.yaml``
  in force on the evaluation date, each with its section, the chapter's design-storm table
  and the rules it states in words (``design_storms`` and ``design.stated`` in
  ``rules.yaml``); each check cites the rule ``design.checks`` names for it.
- A chapter that states none (New Glarus Ch. 135): its numbers come from the technical
  standards it incorporates by reference, entered by the Village in ``standards.yaml``, and
  each check cites the standards its values came from. A check that needs a value nobody has
  entered reports ``needs-action`` ("the Village has not entered ... from ..."), never a
  number from elsewhere.

No village's section, name or id is written here: all of it is read from the village's data.
"""

from __future__ import annotations

import dataclasses
import datetime
from dataclasses import dataclass
from typing import Any

from siltfence.core.engineering.areas import SiteAreas, site_areas
from siltfence.core.engineering.checklist import Checklist, build_checklist
from siltfence.core.engineering.checks import design_checks
from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.engineering.plan import parse_plan
from siltfence.core.engineering.result import CheckResult, Method, Outcome, Step, make_result
from siltfence.core.engineering.standards import Standards, load_standards
from siltfence.core.engineering.values import Values
from siltfence.core.errors import FactsError
from siltfence.core.quantities import ACRE_FT2
from siltfence.core.rules.determine import Determination

__all__ = ["PlanReport", "SiteAreas", "review_plan", "site_areas"]

ORDER = (Outcome.FAIL, Outcome.NEEDS_ACTION, Outcome.PASS, Outcome.INFO)


@dataclass(frozen=True)
class PlanReport:
    jurisdiction: str
    evaluated_on: datetime.date
    determination: Determination
    areas: SiteAreas
    checklist: Checklist
    checks: tuple[CheckResult, ...]  # failures first
    standards: tuple[dict[str, Any], ...]
    notes: tuple[str, ...]

    @property
    def summary(self) -> dict[str, int]:
        counts = {outcome.value: 0 for outcome in ORDER}
        for check in self.checks:
            counts[check.result.value] += 1
        counts["checklist_present"] = sum(1 for i in self.checklist.items if i.present)
        counts["checklist_missing"] = sum(1 for i in self.checklist.items if not i.present)
        return counts

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON: the determination in its public-contract shape, then the review."""
        d = self.determination.to_json()
        return {
            "jurisdiction": self.jurisdiction,
            "ordinance": d["ordinance"],
            "authority": d["authority"],
            "evaluated_on": self.evaluated_on.isoformat(),
            "applies": d["applies"],
            "summary": self.summary,
            "site": {
                "disturbed_area_ft2": self.areas.disturbed_area_ft2,
                "disturbed_area_acres": self.areas.disturbed_area_ft2 / ACRE_FT2,
                "area_disturbed_at_one_time_ft2": self.areas.area_disturbed_at_one_time_ft2,
                "area_disturbed_at_one_time_acres": self.areas.area_disturbed_at_one_time_ft2
                / ACRE_FT2,
                "at_one_time_on": self.areas.at_one_time_on.isoformat()
                if self.areas.at_one_time_on
                else None,
                "at_one_time_features": list(self.areas.at_one_time_features),
                "measured": self.areas.result.to_dict(),
            },
            "checklist": self.checklist.to_dict(),
            "checks": [c.to_dict() for c in self.checks],
            "standards": list(self.standards),
            "determination": d,
            "notes": list(self.notes),
        }


def review_plan(
    plan_json: object,
    *,
    on: datetime.date | None = None,
    standards: Standards | None = None,
) -> PlanReport:
    """Review a control plan (parsed JSON). ``on`` is used when the plan gives no ``on``.

    ``standards`` replaces the jurisdiction's ``standards.yaml`` (for a village trying out
    values before it enters them). Raises ``SiltfenceError`` subclasses naming the field.
    """
    from siltfence.core.ordinance.loader import load
    from siltfence.core.rules import determine

    plan = parse_plan(plan_json)
    when = plan.on or on
    if when is None:
        raise EngineeringInputError("plan.on", "give the date the plan is judged on (YYYY-MM-DD)")
    ordinance = load(plan.jurisdiction)
    if standards is None:
        standards = load_standards(ordinance.folder)
    areas = site_areas(plan)
    facts = {
        **plan.facts,
        "disturbed_area": areas.disturbed_area_ft2,
        "area_disturbed_at_one_time": areas.area_disturbed_at_one_time_ft2,
        "land_use": plan.land_use,
        "runoff_leaves_site": plan.runoff_leaves_site,
        "channel_originates_on_site": plan.channel_originates_on_site,
    }
    try:
        determination = determine(plan.jurisdiction, facts, when)
    except FactsError as exc:
        raise EngineeringInputError(f"plan.facts.{exc.key}", exc.reason) from None
    cite = next(
        (f.citation for f in determination.findings if f.id == "area-trigger"), "the chapter"
    )
    areas = dataclasses.replace(areas, result=dataclasses.replace(areas.result, citation=cite))
    checklist = build_checklist(plan, determination, ordinance)
    values = Values(ordinance, when, standards)
    notes: list[str] = []
    if determination.applies:
        checks = design_checks(plan, values, areas)
    else:
        checks = [
            make_result(
                id="chapter-applies",
                title="Does the chapter apply",
                citation=cite,
                inputs={},
                method=Method("Determination", "triggers and exemptions of the chapter"),
                steps=[
                    Step.words(f.id, f.citation, "holds" if f.holds else "does not hold")
                    for f in determination.findings
                ],
                result=Outcome.INFO,
                says=f"{ordinance.name} Ch. {ordinance.chapter} does not apply to this plan's "
                "facts, so no design check is required (see the determination's findings).",
            )
        ]
    checks.sort(key=lambda c: ORDER.index(c.result))
    return PlanReport(
        jurisdiction=ordinance.id,
        evaluated_on=when,
        determination=determination,
        areas=areas,
        checklist=checklist,
        checks=tuple(checks),
        standards=_standards_summary(standards),
        notes=tuple(notes),
    )


def _standards_summary(standards: Standards | None) -> tuple[dict[str, Any], ...]:
    if standards is None:
        return ()
    return tuple(
        {
            "id": s.id,
            "title": s.title,
            "citation": s.citation,
            "note": s.note,
            "values": {
                name: {"reference": v.reference, "citation": v.citation}
                for name, v in s.values.items()
            },
        }
        for s in standards.standards
    )
