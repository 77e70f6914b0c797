"""The plan-content checklist: each item the chapter requires of the plan, ticked from the plan.

The determination says which plan the chapter requires and what it must contain
(``rules.yaml``, ``plans``). Each item there may say how a control plan shows it: an ``id``
the plan preparer may declare in ``plan.contents``, the kinds of site feature whose drawing
shows it (``features``; ``control_measure`` stands for any kind of control measure), and a
part of the plan that shows it (``plan_field``: schedule, maintenance or description).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.engineering.plan import KINDS, MEASURE_KINDS, ControlPlan
from siltfence.core.errors import OrdinanceFileError
from siltfence.core.ordinance.model import Ordinance
from siltfence.core.rules.determine import Determination


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
