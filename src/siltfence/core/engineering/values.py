"""The design values in force for a plan, each with the text it came from.

A check compares a plan against numbers and rules, and every one of them has a source:

- the chapter's own text: its design-storm table and the rules it states in words
  (``design_storms`` and ``design.stated`` in ``rules.yaml``);
- the chapter's numbers in ``parameters.yaml``, in force on the evaluation date;
- the technical standards it incorporates, as the Village entered them in ``standards.yaml``.

The first found wins, in that order. ``Provisions`` say what a check cites: the rule the
chapter names for it (``design.checks``), or else the sources of the values it used.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.engineering.provisions import Provisions
from siltfence.core.engineering.result import Step
from siltfence.core.engineering.standards import VALUE_SPECS, Standards
from siltfence.core.engineering.storms import storms_of
from siltfence.core.ordinance.model import Ordinance


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
        return dataclasses.replace(
            village_provisions(self.ordinance), fallback=cited(used), chapter=False
        )


def chapter_provisions(ordinance: Ordinance) -> Provisions | None:
    """The rules the chapter states for the design checks (``rules.yaml``, ``design``), or
    None when it states none (its numbers come from the standards it incorporates)."""
    design = ordinance.rules.get("design", {})
    if not design.get("checks"):
        return None
    storms = ordinance.rules.get("design_storms")
    return dataclasses.replace(
        village_provisions(ordinance),
        checks=design["checks"],
        runoff_leaving_site=design.get("runoff_leaving_site"),
        design_storms=storms["citation"] if storms else None,
    )


def village_provisions(ordinance: Ordinance) -> Provisions:
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
