"""Decide whether a chapter applies to a project, and what it then requires.

The order follows the chapters themselves:

1. territory: is the site where the chapter reaches (§ 413-3, § 135-4B);
2. triggers: is any applicability criterion met (§ 413-7A, § 135-4A(1) and (3));
3. exemptions: does any exemption or exclusion hold (§ 413-3, § 413-4, § 135-4A(2),
   § 135-4C); an exemption is its own rule and may be set aside by a trigger that the
   data says overrides it (§ 135-4A(3), gap 8);
4. the plan required and its contents (§ 413-8B/C, § 135-8A);
5. the requirements that attach to the facts (§ 413-7B, § 135-5, § 135-6);
6. notes: every gap the facts touch, and what else the applicant should know.

Every finding carries its citation. Nothing here reads the clock: the evaluation date
is an argument.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from siltfence.core.facts import FACTS, Facts, parse_facts
from siltfence.core.ordinance.loader import load
from siltfence.core.ordinance.model import Ordinance
from siltfence.core.rules.conditions import evaluate, facts_used

TYPE_CHECKING = False  # typing is not imported at run time: see siltfence/core/__init__.py
if TYPE_CHECKING:
    from typing import Any


@dataclass(frozen=True)
class Finding:
    id: str
    holds: bool
    citation: str
    says: str
    kind: str  # territory, trigger or exemption


@dataclass(frozen=True)
class Note:
    id: str
    says: str
    citations: tuple[str, ...]
    gap: int | None = None


@dataclass(frozen=True)
class Plan:
    kind: str
    citation: str
    says: str
    # Each item as the data gives it: item and citation, and how a control plan shows it.
    contents: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class Requirement:
    id: str
    citation: str
    says: str
    because: str | None = None
    # "permit": attaches because the chapter applies; "every_site": binds every
    # construction site in the territory, permit or not (Spencer § 413-11B).
    scope: str = "permit"
    responsible: str | None = None


@dataclass(frozen=True)
class Determination:
    ordinance: Ordinance
    version: str
    evaluated_on: datetime.date
    facts: Facts
    applies: bool
    findings: tuple[Finding, ...]
    plan: Plan | None
    requirements: tuple[Requirement, ...]
    notes: tuple[Note, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """The public contract's Determination shape (DESIGN.md), plus additive fields."""
        o = self.ordinance
        return {
            "jurisdiction": o.id,
            "ordinance": {
                "title": f"{o.name} Ch. {o.chapter}, {o.title}",
                "version": self.version,
                "chapter": o.chapter,
            },
            "evaluated_on": self.evaluated_on.isoformat(),
            "applies": self.applies,
            "authority": o.authority_title,
            "facts": self.facts.as_json(),
            "findings": [
                {
                    "id": f.id,
                    "holds": f.holds,
                    "citation": f.citation,
                    "says": f.says,
                    "kind": f.kind,
                }
                for f in self.findings
            ],
            "plan": None
            if self.plan is None
            else {
                "kind": self.plan.kind,
                "citation": self.plan.citation,
                "says": self.plan.says,
                # The public contract: each item and its citation. How a control plan shows
                # an item (its checklist id, features, plan field) stays with the data.
                "contents": [
                    {"item": c["item"], "citation": c["citation"]} for c in self.plan.contents
                ],
            },
            "requirements": [
                {"id": r.id, "citation": r.citation, "says": r.says, "scope": r.scope}
                | ({"because": r.because} if r.because else {})
                | ({"responsible": r.responsible} if r.responsible else {})
                for r in self.requirements
            ],
            "notes": [
                {"id": n.id, "says": n.says, "citations": list(n.citations)}
                | ({"gap": n.gap} if n.gap is not None else {})
                for n in self.notes
            ],
        }


def determine(jurisdiction: str, facts: object, on: datetime.date) -> Determination:
    """Determine ``facts`` (raw JSON-like or ``Facts``) under ``jurisdiction`` on ``on``.

    Raises ``UnknownJurisdiction``, ``FactsError`` or ``NotInForce`` for bad input.
    """
    ordinance = load(jurisdiction)
    checked = facts if isinstance(facts, Facts) else parse_facts(facts)
    return determine_with(ordinance, checked, on)


def determine_with(ordinance: Ordinance, facts: Facts, on: datetime.date) -> Determination:
    version, stand_in = ordinance.version_on(on)
    # The sentences as of ``on``: their numbers are the parameters in force that day.
    ordinance = ordinance.on(on)
    rules = ordinance.rules
    notes: list[Note] = []
    if stand_in:
        notes.append(Note("version-stands-in", stand_in, (_history_citation(ordinance),)))

    territory = _territory(ordinance, facts)
    covered = territory.holds

    triggers = [_finding(rule, "trigger", facts, ordinance, on) for rule in rules["triggers"]]
    held_triggers = {f.id for f in triggers if f.holds}
    exemptions = [
        _exemption(rule, held_triggers, facts, ordinance, on) for rule in rules["exemptions"]
    ]
    exempt = any(f.holds for f in exemptions)
    applies = covered and bool(held_triggers) and not exempt

    plan = _plan(ordinance, facts, on) if applies else None
    requirements = _requirements(ordinance, facts, on) if applies else []
    if covered and not exempt:
        requirements += _site_duties(ordinance)
    notes += _notes(ordinance, facts, on, applies)
    if covered and not exempt and not applies:
        notes += _site_duty_notes(ordinance)
    if covered and held_triggers:
        notes += _readings(ordinance, rules["exemptions"], exemptions)
    notes += _unused_facts(ordinance, facts)

    return Determination(
        ordinance=ordinance,
        version=version.effective.isoformat(),
        evaluated_on=on,
        facts=facts,
        applies=applies,
        findings=(territory, *triggers, *exemptions),
        plan=plan,
        requirements=tuple(requirements),
        notes=tuple(notes),
    )


def _territory(ordinance: Ordinance, facts: Facts) -> Finding:
    location = facts.value("location")
    for place in ordinance.rules["territory"]:
        if place["location"] == location:
            return Finding(
                "territory", place["covered"], place["citation"], place["says"], "territory"
            )
    raise AssertionError(f"territory of {ordinance.id} lacks {location}")  # the loader checks


def _finding(
    rule: dict[str, Any], kind: str, facts: Facts, ordinance: Ordinance, on: datetime.date
) -> Finding:
    outcome = evaluate(rule["when"], facts, ordinance, on)
    says = rule.get("holds" if outcome.holds else "fails") or outcome.says
    if "holds" in rule and not _is_flag_only(rule["when"]):
        says = f"{says} ({outcome.says})"
    return Finding(rule["id"], outcome.holds, rule["citation"], says, kind)


def _exemption(
    rule: dict[str, Any],
    held_triggers: set[str],
    facts: Facts,
    ordinance: Ordinance,
    on: datetime.date,
) -> Finding:
    finding = _finding(rule, "exemption", facts, ordinance, on)
    overriding = [t for t in rule.get("overridden_by", []) if t in held_triggers]
    if finding.holds and overriding:
        return Finding(
            finding.id,
            False,
            finding.citation,
            f"{finding.says}; but the site is brought under the chapter by {', '.join(overriding)} "
            "(see the note on this gap)",
            "exemption",
        )
    return finding


def _is_flag_only(condition: dict[str, Any]) -> bool:
    """True if a condition reads only true/false or choice facts (its own words suffice)."""
    return all(FACTS[f].kind != "quantity" for f in facts_used(condition))


def _plan(ordinance: Ordinance, facts: Facts, on: datetime.date) -> Plan | None:
    for rule in ordinance.rules["plans"]:
        if "when" not in rule or evaluate(rule["when"], facts, ordinance, on).holds:
            return Plan(rule["kind"], rule["citation"], rule["says"], tuple(rule["contents"]))
    return None


def _requirements(ordinance: Ordinance, facts: Facts, on: datetime.date) -> list[Requirement]:
    attached = []
    for rule in ordinance.rules["requirements"]:
        because = None
        if "when" in rule:
            outcome = evaluate(rule["when"], facts, ordinance, on)
            if not outcome.holds:
                continue
            because = outcome.says
        attached.append(Requirement(rule["id"], rule["citation"], rule["says"], because))
    return attached


def _site_duties(ordinance: Ordinance) -> list[Requirement]:
    """Duties that bind every construction site in the territory, permit or not."""
    return [
        Requirement(
            rule["id"],
            rule["citation"],
            rule["says"],
            scope="every_site",
            responsible=rule.get("responsible"),
        )
        for rule in ordinance.rules.get("site_duties", [])
    ]


def _site_duty_notes(ordinance: Ordinance) -> list[Note]:
    """When no permit is needed, say plainly that the site duties still bind."""
    return [
        Note(
            f"{rule['id']}-without-permit",
            f"No permit is needed under this chapter, but {rule['citation']} still binds "
            "everyone working at a construction site, with or without a permit (listed with "
            "the requirements)",
            (rule["citation"],),
        )
        for rule in ordinance.rules.get("site_duties", [])
    ]


def _readings(
    ordinance: Ordinance, rules: list[dict[str, Any]], exemptions: list[Finding]
) -> list[Note]:
    """The gap note of an exemption whose reading decides the answer: it holds while a
    trigger holds, so on the other reading the chapter would apply."""
    gaps = {gap["id"]: gap for gap in ordinance.rules["gaps"]}
    notes = []
    for rule, finding in zip(rules, exemptions, strict=True):
        if finding.holds and "reading" in rule:
            gap = gaps[rule["reading"]]
            notes.append(Note(gap["id"], gap["says"], tuple(gap["citations"]), gap["number"]))
    return notes


def _history_citation(ordinance: Ordinance) -> str:
    """The chapter's own history note, where the versions in hand are recorded."""
    return f"Ch. {ordinance.chapter}, history"


def _notes(ordinance: Ordinance, facts: Facts, on: datetime.date, applies: bool) -> list[Note]:
    notes = []
    for group in ("gaps", "notes"):
        for rule in ordinance.rules[group]:
            if rule.get("topic"):
                continue  # shown where that topic comes up: duties, inspections, enforcement
            if rule.get("when_applies") and not applies:
                continue
            if "when" in rule and not evaluate(rule["when"], facts, ordinance, on).holds:
                continue
            if "when" not in rule and not rule.get("when_applies"):
                continue
            notes.append(
                Note(rule["id"], rule["says"], tuple(rule["citations"]), rule.get("number"))
            )
    return notes


# The groups of rules.yaml whose ``when`` conditions read the project's facts.
_GROUPS_READING_FACTS = ("triggers", "exemptions", "plans", "requirements", "notes", "gaps")


def facts_read(ordinance: Ordinance) -> frozenset[str]:
    """Every fact a chapter's rules read: the facts of the ``when`` conditions of its
    triggers, exemptions, plans, requirements, notes and gaps, and ``location``, which its
    territory reads. A fact outside this set never changes the chapter's answer, so a form
    for this chapter asks only these."""
    read = {"location"}
    for group in _GROUPS_READING_FACTS:
        for rule in ordinance.rules.get(group, []):
            if "when" in rule:
                read.update(facts_used(rule["when"]))
    return frozenset(read)


def _unused_facts(ordinance: Ordinance, facts: Facts) -> list[Note]:
    """A fact this chapter never reads is said so, not silently dropped."""
    read = facts_read(ordinance)
    notes = []
    for key, value in facts.given.items():
        spec = FACTS[key]
        unchanged = value == (0.0 if spec.kind == "quantity" else spec.default)
        if key not in read and not unchanged:
            notes.append(
                Note(
                    f"fact-not-used-{key.replace('_', '-')}",
                    f"{ordinance.name} Ch. {ordinance.chapter} has no rule that turns on "
                    f"{key}; it does not change this answer",
                    (f"§ {ordinance.chapter}-{_applicability_section(ordinance)}",),
                )
            )
    return notes


def _applicability_section(ordinance: Ordinance) -> str:
    first: str = ordinance.rules["triggers"][0]["citation"]
    return first.split("-", 1)[1].split("A", 1)[0] + "A"
