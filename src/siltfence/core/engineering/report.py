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
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import shapely  # type: ignore[import-untyped]

from siltfence.core.engineering.dewatering import check_dewatering
from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.engineering.fence_coverage import (
    DEFAULT_TOLERANCE_FT,
    check_fence_coverage,
)
from siltfence.core.engineering.geometry import area_ft2
from siltfence.core.engineering.inlet_protection import check_inlet_protection
from siltfence.core.engineering.measure_selection import (
    SedimentMeasure,
    check_sediment_measure,
    required_sediment_measure,
)
from siltfence.core.engineering.plan import (
    KINDS,
    MEASURE_KINDS,
    ControlPlan,
    SiteFeature,
    parse_plan,
)
from siltfence.core.engineering.provisions import Provisions
from siltfence.core.engineering.result import CheckResult, Method, Outcome, Step, make_result
from siltfence.core.engineering.sediment_basin import (
    DEFAULT_RUNOFF_COEFFICIENT as BASIN_DEFAULT_C,
)
from siltfence.core.engineering.sediment_basin import check_sediment_basin
from siltfence.core.engineering.sheet_flow import (
    DEFAULT_RUNOFF_COEFFICIENT as SHEET_DEFAULT_C,
)
from siltfence.core.engineering.sheet_flow import DEFAULT_SURFACE, check_sheet_flow
from siltfence.core.engineering.stabilization import check_stabilization
from siltfence.core.engineering.standards import VALUE_SPECS, Standards, load_standards
from siltfence.core.engineering.stockpiles import check_stockpile
from siltfence.core.engineering.storms import DesignStorm, storms_of
from siltfence.core.engineering.tracking import check_tracking
from siltfence.core.engineering.units import ACRE_FT2, FT, fmt
from siltfence.core.errors import FactsError, OrdinanceFileError
from siltfence.core.ordinance.model import Ordinance
from siltfence.core.rules.determine import Determination

ORDER = (Outcome.FAIL, Outcome.NEEDS_ACTION, Outcome.PASS, Outcome.INFO)

# -- where each number comes from ---------------------------------------------------------


@dataclass(frozen=True)
class Sourced:
    """A value a check uses, with the citation of the text it came from."""

    name: str
    value: Any
    unit: str
    citation: str
    source: str  # "parameters.yaml" or the standard's title

    def step(self) -> Step:
        spec = VALUE_SPECS[self.name]
        if isinstance(self.value, tuple):
            text = "; ".join(
                f"{s.duration_h:g} h: {s.intensity_in_per_h:g} in/h, {s.total_in:g} in"
                for s in self.value
            )
            return Step.words(f"{self.name}: {spec.meaning}", f"from {self.citation}", text)
        if isinstance(self.value, bool):
            return Step.words(
                f"{self.name}: {spec.meaning}",
                f"from {self.citation}",
                "yes" if self.value else "no",
            )
        if isinstance(self.value, str):
            return Step.words(f"{self.name}: {spec.meaning}", f"from {self.citation}", self.value)
        return Step.of(
            f"{self.name}: {spec.meaning}", f"from {self.citation}", float(self.value), self.unit
        )


class Values:
    """The design values in force for a plan: the chapter's own first, then its standards."""

    def __init__(
        self, ordinance: Ordinance, on: datetime.date, standards: Standards | None
    ) -> None:
        self.ordinance = ordinance
        self.on = on
        self.standards = standards
        # rules.yaml ``design``: where the chapter states what the checks apply (may be absent).
        self.design: Mapping[str, Any] = ordinance.rules.get("design", {})

    def _stated(self, name: str) -> Sourced | None:
        """A rule the chapter states in its text: its storm table, or a rule in words."""
        spec = VALUE_SPECS[name]
        if name == "design_storms":
            table = self.ordinance.rules.get("design_storms")
            if table is None:
                return None
            return Sourced(name, storms_of(table), spec.unit, table["citation"], "chapter text")
        stated = self.design.get("stated", {}).get(name)
        if stated is None:
            return None
        return Sourced(name, stated["value"], spec.unit, stated["citation"], "chapter text")

    def get(self, name: str) -> Sourced | None:
        spec = VALUE_SPECS[name]
        stated = self._stated(name)
        if stated is not None:
            return stated
        if name in self.ordinance.parameters:
            found = self.ordinance.parameter(name, self.on)
            if found.value is not None:
                unit = self.ordinance.parameters[name].unit
                if spec.kind == "quantity" and unit != spec.unit:
                    raise EngineeringInputError(
                        f"{self.ordinance.id}/parameters.yaml: {name}",
                        f"unit {unit!r} where the design checks expect {spec.unit!r}",
                    )
                return Sourced(name, found.value, spec.unit, found.citation, "parameters.yaml")
        if self.standards is not None:
            entered = self.standards.value(name)
            if entered is not None:
                return Sourced(
                    name, entered.value, entered.unit, entered.citation, entered.standard.title
                )
        return None

    def missing(self, name: str) -> str:
        if self.standards is not None:
            return self.standards.missing_text(name)
        return (
            f"{self.ordinance.name} Ch. {self.ordinance.chapter} gives no {name} "
            f"({VALUE_SPECS[name].meaning}) and incorporates no standard that does"
        )

    def states(self, check: str) -> bool:
        """True where the chapter names the rule ``check`` applies (``design.checks``)."""
        return check in self.design.get("checks", {})

    @property
    def runoff_limited(self) -> bool:
        """True where the chapter's rules hold only for runoff leaving the site."""
        return "runoff_leaving_site" in self.design

    def provisions(self, check: str, used: list[Sourced]) -> Provisions:
        """What ``check`` cites: the chapter's rule, or the sources of the values it used."""
        chapter = chapter_provisions(self.ordinance)
        if chapter is not None and self.states(check):
            return chapter
        return dataclasses.replace(_provisions(self.ordinance), fallback=cited(used), chapter=False)


def chapter_provisions(ordinance: Ordinance) -> Provisions | None:
    """The rules the chapter states for the design checks (``rules.yaml``, ``design``), or
    None when it states none (its numbers come from the standards it incorporates)."""
    design = ordinance.rules.get("design", {})
    if not design.get("checks"):
        return None
    storms = ordinance.rules.get("design_storms")
    return dataclasses.replace(
        _provisions(ordinance),
        checks=design["checks"],
        runoff_leaving_site=design.get("runoff_leaving_site"),
        design_storms=storms["citation"] if storms else None,
    )


def _provisions(ordinance: Ordinance) -> Provisions:
    """What every check of the village names: its authority, and how it counts days."""
    counting = ordinance.time_counting
    days = f"Days counted by {counting['citation']} (first day excluded, last included)"
    if counting["stands_in"]:
        instead = counting.get("stands_in_for", "the village's own rule")
        days += f", standing in for {instead}, which is not in hand"
    return Provisions(
        authority=ordinance.authority_title,
        design_criteria=ordinance.rules.get("design", {}).get("design_criteria"),
        day_counting=days + ".",
    )


def cited(used: list[Sourced]) -> str:
    """The citations of the values a check used, each once, in order."""
    return "; ".join(dict.fromkeys(s.citation for s in used))


# -- the report ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ChecklistItem:
    id: str
    item: str
    citation: str
    present: bool
    evidence: str
    fix: str | None


@dataclass(frozen=True)
class Checklist:
    kind: str | None
    citation: str | None
    says: str
    items: tuple[ChecklistItem, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "citation": self.citation,
            "says": self.says,
            "items": [dataclasses.asdict(i) for i in self.items],
        }


@dataclass(frozen=True)
class SiteAreas:
    disturbed_area_ft2: float
    area_disturbed_at_one_time_ft2: float
    at_one_time_on: datetime.date | None
    at_one_time_features: tuple[str, ...]
    result: CheckResult


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
        checks = design_checks(plan, values, areas, ordinance)
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


# -- geometry: what is measured, never retyped -------------------------------------------


def site_areas(plan: ControlPlan) -> SiteAreas:
    """Disturbed area (union of the disturbed_area polygons) and the most disturbed at once.

    Phases overlap by date (start and end inclusive). The area open at one time peaks on the
    day some phase starts, so the union of the phases open on each start day is measured and
    the largest kept. Overlapping polygons are counted once.
    """
    phases = plan.of_kind("disturbed_area")
    steps: list[Step] = []
    if phases:
        union = shapely.union_all([p.geometry for p in phases])
        total = area_ft2(union)
        drawn = sum(area_ft2(p.geometry) for p in phases)
    else:
        total = drawn = 0.0
    steps.append(
        Step.of(
            f"disturbed_area polygons ({len(phases)}), each measured",
            "sum of polygon areas in EPSG:3071 (Wisconsin Transverse Mercator)",
            drawn,
            "ft**2",
        )
    )
    steps.append(
        Step.of(
            "disturbed area",
            "area of the union of the disturbed_area polygons (overlaps counted once)",
            total,
            "ft**2",
        )
    )
    best = 0.0
    best_day: datetime.date | None = None
    best_ids: tuple[str, ...] = ()
    for day in sorted({p.properties["start"] for p in phases}):
        open_ = [p for p in phases if p.properties["start"] <= day <= p.properties["end"]]
        measured = area_ft2(shapely.union_all([p.geometry for p in open_]))
        steps.append(
            Step.of(
                f"open on {day.isoformat()}: {', '.join(p.label for p in open_)}",
                "area of the union of the phases with start <= day <= end",
                measured,
                "ft**2",
            )
        )
        if measured > best:
            best, best_day, best_ids = measured, day, tuple(p.label for p in open_)
    steps.append(
        Step.of(
            "largest area disturbed at one time",
            "max over the start days of the area open that day",
            best,
            "ft**2",
        )
    )
    steps.append(Step.of("in acres", "sq ft / 43,560", best / ACRE_FT2, "acre"))
    result = make_result(
        id="site-areas",
        title="Areas measured from the site geometry",
        citation="the chapter",
        inputs={
            "disturbed_area polygons": str(len(phases)),
            "coordinate system": "GeoJSON WGS84 reprojected to EPSG:3071 (metres), given in ft",
        },
        method=Method(
            name="Polygon areas in Wisconsin Transverse Mercator",
            formula="disturbed area = area(union of disturbed_area); at one time = max over "
            "days d of area(union of phases with start <= d <= end)",
        ),
        steps=steps,
        result=Outcome.INFO,
        says=(
            f"The plan disturbs {fmt(total, 'ft**2')} ({fmt(total / ACRE_FT2, 'acre')}); at most "
            f"{fmt(best, 'ft**2')} ({fmt(best / ACRE_FT2, 'acre')}) at one time"
            + (f", from {best_day.isoformat()}" if best_day else "")
            + ". These are the facts the determination used."
        ),
        notes=[
            "WTM's scale error is under about 0.1% anywhere in Wisconsin.",
        ],
    )
    return SiteAreas(total, best, best_day, best_ids, result)


# -- the plan checklist -------------------------------------------------------------------


@dataclass(frozen=True)
class ChecklistRule:
    """How a control plan shows one item of the plan's contents (``rules.yaml``, ``plans``)."""

    id: str
    citation: str
    kinds: tuple[str, ...] = ()  # site features that show it
    plan_field: str | None = None  # "schedule", "maintenance", "description"


# In the data, ``features: [control_measure]`` stands for every kind of control measure.
ANY_MEASURE = "control_measure"


def checklist_rule(item: Mapping[str, Any], file: str = "", key: str = "") -> ChecklistRule:
    """The checklist rule of one plan-content item; ``file`` and ``key`` name it in errors."""
    citation = item["citation"]
    ident = item.get("id") or re.sub(r"[^a-z0-9]+", "_", citation.lower()).strip("_")
    kinds: list[str] = []
    for index, kind in enumerate(item.get("features", ())):
        if kind == ANY_MEASURE:
            kinds.extend(MEASURE_KINDS)
        elif kind in KINDS:
            kinds.append(kind)
        else:
            raise OrdinanceFileError(
                file,
                f"{key}.features[{index}]",
                f"{kind!r} is not a kind of site feature; expected {ANY_MEASURE} or one of "
                + ", ".join(KINDS),
            )
    return ChecklistRule(ident, citation, tuple(kinds), item.get("plan_field"))


def checklist_rules(ordinance: Ordinance) -> list[ChecklistRule]:
    """Every plan-content item of the chapter, as the checklist ticks it, in the data's order."""
    file = f"{ordinance.id}/rules.yaml"
    return [
        checklist_rule(item, file, f"plans[{index}].contents[{number}]")
        for index, plan in enumerate(ordinance.rules["plans"])
        for number, item in enumerate(plan["contents"])
    ]


def checklist_ids(ordinance: Ordinance) -> list[str]:
    """The ids a plan preparer may declare in ``plan.contents``: those the data names."""
    named = [
        item["id"] for plan in ordinance.rules["plans"] for item in plan["contents"] if "id" in item
    ]
    return list(dict.fromkeys(named))


def build_checklist(
    plan: ControlPlan, determination: Determination, ordinance: Ordinance
) -> Checklist:
    checklist_rules(ordinance)  # refuses a feature kind the plans do not have
    known = checklist_ids(ordinance)
    for index, item_id in enumerate(plan.contents):
        if item_id not in known:
            raise EngineeringInputError(
                f"plan.contents[{index}]",
                f"unknown plan-content item {item_id!r}; expected one of {', '.join(known)}",
            )
    if determination.plan is None:
        return Checklist(None, None, "No plan is required, so there is nothing to tick.", ())
    items: list[ChecklistItem] = []
    for content in determination.plan.contents:
        text, citation = content["item"], content["citation"]
        rule = checklist_rule(content)
        evidence: list[str] = []
        drawn = plan.of_kind(*rule.kinds) if rule.kinds else []
        if drawn:
            kinds = sorted({f.kind for f in drawn})
            evidence.append(f"{len(drawn)} feature(s) drawn: {', '.join(kinds)}")
        if rule.plan_field == "schedule" and plan.schedule:
            evidence.append(f"plan.schedule lists {len(plan.schedule)} activities")
        if rule.plan_field == "maintenance" and plan.maintenance:
            evidence.append("plan.maintenance states the maintenance provisions")
        if rule.plan_field == "description" and plan.description:
            evidence.append("plan.description describes the site")
        if rule.id in plan.contents:
            evidence.append(f"the preparer declares it (plan.contents: {rule.id})")
        present = bool(evidence)
        how = _how_to_show(rule)
        items.append(
            ChecklistItem(
                id=rule.id,
                item=text,
                citation=citation,
                present=present,
                evidence="; ".join(evidence) if present else "not found in the plan",
                fix=None if present else f"Add it to the plan ({citation}): {how}.",
            )
        )
    return Checklist(
        determination.plan.kind, determination.plan.citation, determination.plan.says, tuple(items)
    )


def _how_to_show(rule: ChecklistRule) -> str:
    ways = []
    if rule.kinds:
        ways.append(
            "draw "
            + " or ".join(rule.kinds[:3])
            + (" (or another measure)" if len(rule.kinds) > 3 else "")
            + " features in plan.site"
        )
    if rule.plan_field:
        ways.append(f"fill plan.{rule.plan_field}")
    ways.append(f"or include it and list {rule.id!r} in plan.contents")
    return ", ".join(ways)


# -- the design checks --------------------------------------------------------------------


@contextmanager
def _field_prefix(where: str) -> Iterator[None]:
    """A check's own field names become paths into the plan."""
    try:
        yield
    except EngineeringInputError as exc:
        if exc.field and exc.field.startswith("plan."):
            raise
        raise EngineeringInputError(f"{where}.{exc.field}", exc.reason) from None


def _needs_values(
    *,
    id: str,
    title: str,
    subject: str,
    names: list[str],
    values: Values,
    inputs: Mapping[str, str],
) -> CheckResult:
    missing = [values.missing(name) for name in names]
    incorporated = values.design.get("standards")
    citation = (
        "; ".join(
            dict.fromkeys(
                s.citation for s in (values.standards.standards if values.standards else ())
            )
        )
        or f"§ {values.ordinance.chapter}"
    )
    return make_result(
        id=id,
        title=title,
        citation=citation,
        inputs=inputs,
        method=Method("Needs values from the incorporated standards", "none: not computed"),
        steps=[Step.words(name, "value needed", "not entered") for name in names],
        result=Outcome.NEEDS_ACTION,
        says=f"{subject} cannot be checked: " + "; ".join(missing) + ".",
        fix=(
            f"The {values.ordinance.authority_title} enters "
            + ", ".join(names)
            + " from the standard (with the place in it) in "
            f"ordinances/{values.ordinance.id}/standards.yaml; until then the plan preparer "
            "shows the design against the standard the Village names"
            + (f" ({incorporated})." if incorporated else ".")
            if values.standards
            else "The chapter must state these values."
        ),
    )


def _with_sources(
    result: CheckResult, used: list[Sourced], values: Values, where: str, subject: str
) -> CheckResult:
    """Prepend the sources of the values, name the plan element, and cite standards."""
    steps = (
        Step.words("plan element", "from the plan", f"{subject} ({where})"),
        *(s.step() for s in used),
        *result.steps,
    )
    result = dataclasses.replace(result, steps=steps)
    if values.states(result.id):
        return result
    # The check cited the sources of its values (Values.provisions); say where they come from.
    sources = cited(used)
    incorporated = values.design.get("standards")
    whence = (
        f"the standards cited ({sources}), as {incorporated} incorporates them"
        if incorporated
        else f"the sources cited ({sources})"
    )
    note = (
        f"The physics is the same as for any village; every number it is held to comes from "
        f"{whence}."
    )
    return dataclasses.replace(result, citation=sources, notes=(*result.notes, note))


def _gather(values: Values, names: list[str]) -> tuple[list[Sourced], list[str]]:
    found: list[Sourced] = []
    missing: list[str] = []
    for name in names:
        value = values.get(name)
        if value is None:
            missing.append(name)
        else:
            found.append(value)
    return found, missing


def _run(
    *,
    values: Values,
    names: list[str],
    id: str,
    title: str,
    where: str,
    subject: str,
    run: Callable[[dict[str, Any], Provisions], CheckResult],
) -> CheckResult:
    used, missing = _gather(values, names)
    if missing:
        return _needs_values(
            id=id, title=title, subject=subject, names=missing, values=values, inputs={}
        )
    with _field_prefix(where):
        result = run({s.name: s.value for s in used}, values.provisions(id, used))
    return _with_sources(result, used, values, where, subject)


def design_checks(
    plan: ControlPlan, values: Values, areas: SiteAreas, ordinance: Ordinance
) -> list[CheckResult]:
    checks: list[CheckResult] = []
    # Where the chapter limits its rules to runoff leaving the site, the plan says whether it
    # does; elsewhere every rule holds.
    leaves = plan.runoff_leaves_site if values.runoff_limited else True
    storms_key = "design_storms"

    if plan.dewatering is not None:
        d = plan.dewatering
        checks.append(
            _run(
                values=values,
                names=["dewatering_particle_size"],
                id="dewatering",
                title="Site dewatering",
                where=d.field,
                subject="Dewatering",
                run=lambda v, cite: check_dewatering(
                    highest_pumping_rate=d.highest_pumping_rate,
                    device_area=d.device_area,
                    device_diameter=d.device_diameter,
                    particle_size=v["dewatering_particle_size"],
                    shown_free_of_particles=d.shown_free_of_particles,
                    provisions=cite,
                    **({"water_temperature": d.water_temperature} if d.water_temperature else {}),
                ),
            )
        )

    # Basins or fences, from the area disturbed at one time the geometry gave.
    measure = values.get("basin_area_at_one_time")
    basins = plan.of_kind("sediment_basin")
    if measure is None:
        checks.append(
            _needs_values(
                id="sediment-measure",
                title="Sediment control: basins or fences",
                subject="Which sediment control the site needs",
                names=["basin_area_at_one_time"],
                values=values,
                inputs={
                    "area_disturbed_at_one_time": fmt(areas.area_disturbed_at_one_time_ft2, "ft**2")
                },
            )
        )
        need_basins = False
    else:
        checks.append(
            _run(
                values=values,
                names=["basin_area_at_one_time"],
                id="sediment-measure",
                title="Sediment control: basins or fences",
                where="plan.site",
                subject="Sediment control for the area disturbed at one time",
                run=lambda v, cite: check_sediment_measure(
                    area_disturbed_at_one_time=areas.area_disturbed_at_one_time_ft2,
                    channel_originates_in_disturbed_area=plan.channel_originates_on_site,
                    basin_area_at_one_time=v["basin_area_at_one_time"],
                    runoff_leaves_site=leaves,
                    provisions=cite,
                ),
            )
        )
        choice = required_sediment_measure(
            area_disturbed_at_one_time=areas.area_disturbed_at_one_time_ft2,
            channel_originates_in_disturbed_area=plan.channel_originates_on_site,
            basin_area_at_one_time=measure.value,
        )
        need_basins = leaves and choice.measure is SedimentMeasure.SEDIMENTATION_BASINS
        if need_basins and not basins:
            checks.append(
                make_result(
                    id="sediment-basins-drawn",
                    title="Sedimentation basins drawn",
                    citation=measure.citation,
                    inputs={"sediment_basin features": "0"},
                    method=Method(
                        "Presence", "at least one sediment_basin when basins are required"
                    ),
                    steps=[Step.words("basins required because", measure.citation, choice.reason)],
                    result=Outcome.FAIL,
                    says=f"Sedimentation basins are required because {choice.reason}, and the "
                    f"plan draws none ({measure.citation}).",
                    fix=f"Draw one or more sedimentation basins (sediment_basin polygons with "
                    f"depth and drainage) meeting {measure.citation}.",
                )
            )

    for basin in basins:
        checks.append(_basin(plan, basin, values, storms_key, need_basins))

    perimeter = values.get("perimeter_fences")
    edges = plan.of_kind("downslope_edge", "sideslope_edge")
    if leaves and not need_basins and (perimeter is None or perimeter.value):
        checks.append(_fences(plan, edges, values))

    for entry in plan.sheet_flow:
        checks.append(_sheet(plan, entry, values, storms_key, leaves))

    roads = plan.of_kind("road", "drainage_channel")
    inlets, protected = _inlets(plan)
    for pile in plan.of_kind("stockpile"):
        checks.append(_stockpile(pile, roads, inlets, protected, values, leaves))

    for area in plan.inactive_areas:
        until = area.inactive_until or values.on
        subject = f"Inactive ground {area.area or ''}".rstrip()
        checks.append(
            _run(
                values=values,
                names=["inactive_stabilization_days", "seeding_cutoff"],
                id="stabilization",
                title="Stabilization of inactive ground",
                where=area.field,
                subject=subject,
                run=lambda v, cite, area=area, until=until: check_stabilization(  # type: ignore[misc]
                    inactive_from=area.inactive_from,
                    inactive_until=until,
                    method=area.method,
                    stabilize_on=area.stabilize_on,
                    inactive_days=int(v["inactive_stabilization_days"]),
                    seeding_cutoff=v["seeding_cutoff"],
                    runoff_leaves_site=leaves,
                    provisions=cite,
                ),
            )
        )

    checks.append(_tracking(plan, values))
    checks.append(
        _run(
            values=values,
            names=["inlet_protection_required"],
            id="inlet-protection",
            title="Storm drain inlet protection",
            where="plan.site",
            subject="Storm drain inlets",
            run=lambda v, cite: (
                check_inlet_protection(inlets=inlets, protected=protected, provisions=cite)
                if v["inlet_protection_required"]
                else _not_required("inlet-protection", "Storm drain inlet protection")
            ),
        )
    )
    return checks


def _not_required(id: str, title: str) -> CheckResult:
    return make_result(
        id=id,
        title=title,
        citation="",
        inputs={},
        method=Method("Not required", "the standard does not require it"),
        steps=[],
        result=Outcome.INFO,
        says="The standard in force does not require it.",
    )


def _basin(
    plan: ControlPlan, basin: SiteFeature, values: Values, storms_key: str, required: bool
) -> CheckResult:
    surface = area_ft2(basin.geometry)
    drawn = [f for f in plan.of_kind("basin_drainage") if f.properties["basin"] == basin.id]
    if drawn:
        drainage = area_ft2(shapely.union_all([f.geometry for f in drawn]))
        drainage_from = f"area of the basin_drainage polygon(s) for {basin.label} (EPSG:3071)"
    else:
        drainage = basin.properties["drainage_area"]
        drainage_from = f"{basin.field}.properties.drainage_area, as given"
    c = basin.properties["runoff_coefficient"]
    c_from = (
        "as given"
        if c is not None
        else (
            "default for bare graded soil (rational-method tables give 0.3-0.6; "
            "docs/decisions/0003-engineering-methods.md, decision 6)"
        )
    )
    coefficient = c if c is not None else BASIN_DEFAULT_C

    def run(v: dict[str, Any], cite: Provisions) -> CheckResult:
        storms: tuple[DesignStorm, ...] = v[storms_key]
        result = check_sediment_basin(
            drainage_area=drainage,
            basin_surface_area=surface,
            basin_depth=basin.properties["depth"],
            runoff_coefficient=coefficient,
            storms=storms,
            particle_size=v["basin_particle_size"],
            surface_percent=v["basin_surface_fraction"],
            min_depth=v["basin_depth"],
            provisions=cite,
        )
        extra = (
            Step.of(
                "basin surface area",
                "area of the sediment_basin polygon (EPSG:3071)",
                surface,
                "ft**2",
            ),
            Step.of("drainage area", drainage_from, drainage, "ft**2"),
            Step.of("runoff coefficient C", c_from, coefficient),
        )
        notes = result.notes
        if not required:
            notes += ("Basins are not required for this site; the drawn basin is checked anyway.",)
        return dataclasses.replace(result, steps=(*extra, *result.steps), notes=notes)

    return _run(
        values=values,
        names=["basin_surface_fraction", "basin_depth", "basin_particle_size", storms_key],
        id="sediment-basin",
        title="Sedimentation basin",
        where=basin.field,
        subject=f"Basin {basin.label}",
        run=run,
    )


def _fences(plan: ControlPlan, edges: list[SiteFeature], values: Values) -> CheckResult:
    fences = plan.of_kind("silt_fence", "straw_bale")

    def run(v: dict[str, Any], cite: Provisions) -> CheckResult:
        rule = cite.cite("fence-coverage")
        if not edges:
            return make_result(
                id="fence-coverage",
                title="Fences or bales along sideslope and downslope sides",
                citation=rule,
                inputs={"fences": str(len(fences)), "edges": "0"},
                method=Method("Edge coverage", "needs the marked edges"),
                steps=[],
                result=Outcome.NEEDS_ACTION,
                says="The plan marks no downslope or sideslope side, so fence coverage cannot "
                f"be checked ({rule}).",
                fix="Draw the downslope and sideslope sides of the site as downslope_edge and "
                "sideslope_edge lines, and the silt fence or straw bale lines along them "
                f"({rule}).",
            )
        result = check_fence_coverage(
            edges=[e.geometry for e in edges],
            fences=[f.geometry for f in fences],
            provisions=cite,
        )
        tolerance = Step.of(
            "drawing tolerance",
            "a fence within this distance of an edge covers it (fence_coverage module; plans "
            "at 1 in = 100 ft)",
            DEFAULT_TOLERANCE_FT,
            "ft",
        )
        return dataclasses.replace(result, steps=(tolerance, *result.steps))

    return _run(
        values=values,
        names=["perimeter_fences"],
        id="fence-coverage",
        title="Fences or bales along sideslope and downslope sides",
        where="plan.site",
        subject="Downslope and sideslope sides",
        run=run,
    )


def _sheet(
    plan: ControlPlan, entry: Any, values: Values, storms_key: str, leaves: bool
) -> CheckResult:
    def run(v: dict[str, Any], cite: Provisions) -> CheckResult:
        result = check_sheet_flow(
            adjacent_area=entry.adjacent_area,
            flow_length=entry.flow_length,
            slope=entry.slope,
            surface=entry.surface or DEFAULT_SURFACE,
            manning_n_value=entry.manning_n,
            runoff_coefficient=entry.runoff_coefficient
            if entry.runoff_coefficient is not None
            else SHEET_DEFAULT_C,
            storms=v[storms_key],
            adjacent_area_limit=v["sheet_flow_adjacent_area"],
            velocity_limit=v["sheet_flow_velocity"],
            runoff_leaves_site=leaves,
            provisions=cite,
        )
        if entry.runoff_coefficient is None and result.steps:
            note = (
                "Runoff coefficient C = 1 (all rain runs off) unless given: the velocity is not "
                "understated (docs/decisions/0003-engineering-methods.md, decision 6)."
            )
            result = dataclasses.replace(result, notes=(*result.notes, note))
        if entry.diverted_by and result.result in (Outcome.FAIL, Outcome.NEEDS_ACTION):
            diversion = plan.by_id("diversion", entry.diverted_by)
            length = (diversion.geometry.length / FT) if diversion is not None else 0.0
            result = dataclasses.replace(
                result,
                result=Outcome.PASS,
                says=f"The sheet flow is diverted around the disturbed area by diversion "
                f"{entry.diverted_by} ({fmt(length, 'ft')} drawn), as {result.citation} "
                f"requires when the velocity is not shown under the limit. Without it: "
                f"{result.says}",
                fix=None,
                notes=(
                    *result.notes,
                    "Not checked: that the diversion's conveyance does not erode it or the "
                    "receiving channel.",
                ),
            )
        return result

    label = entry.id or entry.field.rsplit(".", 1)[-1]
    return _run(
        values=values,
        names=["sheet_flow_adjacent_area", "sheet_flow_velocity", storms_key],
        id="sheet-flow",
        title="Sheet flow from adjacent areas",
        where=entry.field,
        subject=f"Sheet flow {label}",
        run=run,
    )


def _inlets(plan: ControlPlan) -> tuple[list[str], list[str]]:
    inlets = [f.id for f in plan.of_kind("storm_inlet") if f.id]
    guarded = {f.properties["inlet"] for f in plan.of_kind("inlet_protection")}
    protected = [
        f.id
        for f in plan.of_kind("storm_inlet")
        if f.id and (f.properties["protected"] or f.id in guarded)
    ]
    return inlets, protected


def _stockpile(
    pile: SiteFeature,
    roads: list[SiteFeature],
    inlets: list[str],
    protected: list[str],
    values: Values,
    leaves: bool,
) -> CheckResult:
    given = pile.properties["downslope_drainage_length"]
    nearest: tuple[float, SiteFeature] | None = None
    for road in roads:
        distance = float(pile.geometry.distance(road.geometry)) / FT
        if nearest is None or distance < nearest[0]:
            nearest = (distance, road)

    def run(v: dict[str, Any], cite: Provisions) -> CheckResult:
        geometry_kwargs: dict[str, Any] = {}
        if given is not None:
            geometry_kwargs["downslope_drainage_length"] = given
        elif roads:
            geometry_kwargs["pile"] = pile.geometry
            geometry_kwargs["roads_and_channels"] = [r.geometry for r in roads]
        result = check_stockpile(
            volume=pile.properties["volume"],
            days_in_place=pile.properties["days"],
            in_street=pile.properties["in_street"],
            stabilized=pile.properties["stabilized"],
            barrier_around=pile.properties["barrier_around"],
            inlets_protected=not inlets or set(inlets) <= set(protected),
            stockpile_volume=v["stockpile_volume"],
            stockpile_setback=v["stockpile_setback"],
            stockpile_days=v["stockpile_days"],
            runoff_leaves_site=leaves,
            provisions=cite,
            **geometry_kwargs,
        )
        extra: list[Step] = []
        if nearest is not None:
            extra.append(
                Step.of(
                    f"nearest roadway or channel: {nearest[1].kind} {nearest[1].label}",
                    "least distance pile to feature in EPSG:3071 (straight line)",
                    nearest[0],
                    "ft",
                )
            )
        elif given is None:
            extra.append(
                Step.words(
                    "nearest roadway or channel",
                    "road and drainage_channel features",
                    "none drawn",
                )
            )
        return dataclasses.replace(result, steps=(*extra, *result.steps))

    return _run(
        values=values,
        names=["stockpile_volume", "stockpile_setback", "stockpile_days"],
        id="stockpile",
        title="Soil storage pile",
        where=pile.field,
        subject=f"Stockpile {pile.label}",
        run=run,
    )


def _pad_size(pads: list[SiteFeature]) -> tuple[float, float] | None:
    """Length and width, ft, of the largest pad: sides of its minimum rotated rectangle."""
    if not pads:
        return None
    pad = max(pads, key=lambda p: p.geometry.area)
    rectangle = shapely.minimum_rotated_rectangle(pad.geometry)
    xs, ys = rectangle.exterior.coords.xy
    sides = sorted(
        ((xs[i + 1] - xs[i]) ** 2 + (ys[i + 1] - ys[i]) ** 2) ** 0.5 / FT for i in range(2)
    )
    return sides[1], sides[0]


def _tracking(plan: ControlPlan, values: Values) -> CheckResult:
    pads = plan.of_kind("tracking_pad")
    size = _pad_size(pads)
    size_steps: list[Step] = []
    if size is not None:
        size_steps = [
            Step.of(
                "tracking pad length", "long side of the minimum rotated rectangle", size[0], "ft"
            ),
            Step.of(
                "tracking pad width", "short side of the minimum rotated rectangle", size[1], "ft"
            ),
        ]
    if values.states("tracking"):
        with _field_prefix("plan"):
            result = check_tracking(
                land_use=plan.land_use,
                graveled_access=bool(pads),
                provisions=values.provisions("tracking", []),
            )
        return dataclasses.replace(result, steps=(*result.steps, *size_steps))

    def run(v: dict[str, Any], cite: Provisions) -> CheckResult:
        required = bool(v["tracking_pad_required"])
        if not required:
            return _not_required("tracking", "Tracking pad")
        mins = {k: values.get(k) for k in ("tracking_pad_length", "tracking_pad_width")}
        steps = list(size_steps)
        short: list[str] = []
        for (name, least), got in zip(mins.items(), size or (0.0, 0.0), strict=True):
            if least is not None:
                steps.insert(0, least.step())
                if got < float(least.value):
                    short.append(
                        f"its {name.rsplit('_', 1)[-1]} of {fmt(got, 'ft')} is under "
                        f"{fmt(float(least.value), 'ft')}"
                    )
        if not pads:
            outcome, says = Outcome.FAIL, "The standard requires a tracking pad and none is drawn."
        elif short:
            outcome, says = Outcome.FAIL, "The tracking pad is too small: " + "; ".join(short) + "."
        else:
            outcome, says = Outcome.PASS, "A tracking pad is drawn at the site access."
        return make_result(
            id="tracking",
            title="Tracking pad",
            citation=cite.cite("tracking"),
            inputs={"tracking_pad features": str(len(pads))},
            method=Method("Presence and size", "pad drawn; length and width >= the standard's"),
            steps=steps,
            result=outcome,
            says=says,
            fix=None if outcome is Outcome.PASS else "Draw a tracking pad meeting the standard.",
        )

    return _run(
        values=values,
        names=["tracking_pad_required"],
        id="tracking",
        title="Tracking pad",
        where="plan.site",
        subject="Tracking",
        run=run,
    )
