"""What every design check returns: its inputs, method, steps, result and citation."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from siltfence.core.engineering.units import fmt


class Outcome(StrEnum):
    PASS = "pass"
    FAIL = "fail"
    NEEDS_ACTION = "needs-action"  # something must still be shown, chosen or decided
    INFO = "info"  # the rule does not apply, or the check only reports


@dataclass(frozen=True)
class Method:
    """A named method and its formula, written the way a reviewer would write it."""

    name: str
    formula: str


@dataclass(frozen=True)
class Step:
    """One intermediate value: what it is, how it was worked out, and the value with its unit."""

    label: str
    formula: str
    value: float | None
    unit: str
    text: str

    def __post_init__(self) -> None:
        if self.value is not None and not math.isfinite(self.value):
            raise ValueError(f"step {self.label!r} has a non-finite value {self.value!r}")

    @classmethod
    def of(cls, label: str, formula: str, value: float, unit: str = "1") -> Step:
        return cls(
            label=label, formula=formula, value=float(value), unit=unit, text=fmt(value, unit)
        )

    @classmethod
    def words(cls, label: str, formula: str, text: str) -> Step:
        """A step whose value is a finding in words, not a number."""
        return cls(label=label, formula=formula, value=None, unit="", text=text)


@dataclass(frozen=True)
class CheckResult:
    id: str
    title: str
    citation: str
    inputs: Mapping[str, str]
    method: Method
    steps: tuple[Step, ...]
    result: Outcome
    says: str
    fix: str | None = None
    notes: tuple[str, ...] = field(default=())

    @property
    def passed(self) -> bool:
        return self.result is Outcome.PASS

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types only: str, float, None, lists and dicts."""
        return {
            "id": self.id,
            "title": self.title,
            "citation": self.citation,
            "inputs": dict(self.inputs),
            "method": {"name": self.method.name, "formula": self.method.formula},
            "steps": [
                {
                    "label": step.label,
                    "formula": step.formula,
                    "value": step.value,
                    "unit": step.unit,
                    "text": step.text,
                }
                for step in self.steps
            ],
            "result": self.result.value,
            "says": self.says,
            "fix": self.fix,
            "notes": list(self.notes),
        }


def frozen_inputs(pairs: Mapping[str, str]) -> Mapping[str, str]:
    return MappingProxyType(dict(pairs))


def make_result(
    *,
    id: str,
    title: str,
    citation: str,
    inputs: Mapping[str, str],
    method: Method,
    steps: Iterable[Step],
    result: Outcome,
    says: str,
    fix: str | None = None,
    notes: Iterable[str] = (),
) -> CheckResult:
    return CheckResult(
        id=id,
        title=title,
        citation=citation,
        inputs=frozen_inputs(inputs),
        method=method,
        steps=tuple(steps),
        result=result,
        says=says,
        fix=fix,
        notes=tuple(notes),
    )
