"""Evaluate the conditions of ``rules.yaml`` against a project's facts, and say why.

A condition is one of:

- ``{fact: F, is: true}`` for a true/false fact;
- ``{fact: F, in: [a, b]}`` or ``{fact: F, not_in: [a]}`` for a choice;
- ``{fact: F, at_least|more_than|less_than|at_most|equals: P}`` for a quantity, where
  ``P`` names a parameter (dated and cited in ``parameters.yaml``) or is a number in
  the fact's own unit;
- ``{fact: F, given: false}``: whether the user stated the fact at all;
- ``{all: [...]}``, ``{any: [...]}``, ``{not: ...}``.

Each evaluation returns whether it holds and a sentence in plain words, such as
"5,000 sq ft disturbed is 4,000 sq ft or more", so every finding explains itself.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from dataclasses import dataclass

from siltfence.core.facts import FACTS, Facts
from siltfence.core.ordinance.model import Ordinance
from siltfence.core.quantities import convert_between, format_quantity

TYPE_CHECKING = False  # typing is not imported at run time: see siltfence/core/__init__.py
if TYPE_CHECKING:
    from typing import Any

# op: (phrase when it holds, phrase when it does not)
_PHRASES = {
    "at_least": ("is {t} or more", "is less than {t}"),
    "more_than": ("is more than {t}", "is not more than {t}"),
    "less_than": ("is less than {t}", "is {t} or more"),
    "at_most": ("is {t} or less", "is more than {t}"),
    "equals": ("is exactly {t}", "is not {t}"),
}


@dataclass(frozen=True)
class Outcome:
    holds: bool
    says: str


def evaluate(condition: Any, facts: Facts, ordinance: Ordinance, on: datetime.date) -> Outcome:
    if "all" in condition:
        parts = [evaluate(c, facts, ordinance, on) for c in condition["all"]]
        holds = all(p.holds for p in parts)
        shown = parts if holds else [p for p in parts if not p.holds]
        return Outcome(holds, "; ".join(p.says for p in shown))
    if "any" in condition:
        parts = [evaluate(c, facts, ordinance, on) for c in condition["any"]]
        holds = any(p.holds for p in parts)
        shown = [p for p in parts if p.holds] if holds else parts
        return Outcome(holds, "; ".join(p.says for p in shown))
    if "not" in condition:
        inner = evaluate(condition["not"], facts, ordinance, on)
        return Outcome(not inner.holds, inner.says)
    return _evaluate_fact(condition, facts, ordinance, on)


def _evaluate_fact(
    condition: dict[str, Any], facts: Facts, ordinance: Ordinance, on: datetime.date
) -> Outcome:
    key = condition["fact"]
    spec = FACTS[key]
    value = facts.value(key)
    (op,) = (k for k in condition if k != "fact")
    target = condition[op]
    if op == "given":
        return Outcome(
            facts.is_given(key) == target,
            f"{key} {'is' if facts.is_given(key) else 'is not'} given",
        )
    if op == "is":
        holds = value == target
        return Outcome(holds, f"{key} is {'true' if value else 'false'}")
    if op in ("in", "not_in"):
        shown = value if value is not None else "not given"
        holds = (value in target) if op == "in" else (value not in target)
        return Outcome(holds, f"{key} is {shown}")
    assert spec.unit is not None
    threshold, threshold_text = _threshold(target, spec.unit, ordinance, on)
    holds = {
        "at_least": value >= threshold,
        "more_than": value > threshold,
        "less_than": value < threshold,
        "at_most": value <= threshold,
        "equals": value == threshold,
    }[op]
    amount = format_quantity(value, spec.unit)
    if not facts.is_given(key):
        if key == "area_disturbed_at_one_time" and facts.is_given("disturbed_area"):
            amount += " (all of the disturbed area, none given at one time)"
        else:
            amount += " (none given)"
    phrase = _PHRASES[op][0 if holds else 1].format(t=threshold_text)
    return Outcome(holds, f"{amount} {spec.label} {phrase}")


def _threshold(
    target: Any, fact_unit: str, ordinance: Ordinance, on: datetime.date
) -> tuple[float, str]:
    if isinstance(target, int | float):
        return float(target), format_quantity(float(target), fact_unit)
    parameter = ordinance.parameters[target]
    value = parameter.at(on).value
    if not isinstance(value, float):
        raise ValueError(f"parameter {target} has no numeric value on {on}")
    converted = convert_between(value, parameter.unit, fact_unit)
    assert converted is not None  # the loader checked that the units fit
    text = format_quantity(value, parameter.unit)
    if parameter.unit != fact_unit:
        text += f" ({format_quantity(converted, fact_unit)})"
    return converted, text


def facts_used(condition: Any) -> Iterator[str]:
    """Every fact a condition reads."""
    for op in ("all", "any"):
        if op in condition:
            for sub in condition[op]:
                yield from facts_used(sub)
            return
    if "not" in condition:
        yield from facts_used(condition["not"])
        return
    yield condition["fact"]
