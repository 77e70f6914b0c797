"""Determinations for many projects at once, from the same rule data as ``determine()``.

The conditions of ``rules.yaml`` (see ``siltfence.core.rules.conditions``) are compiled to
numpy operations over columns of facts, one column per fact, so a million projects are
judged in one pass per rule instead of a million calls. Only the yes/no parts of a
determination are computed here: territory, each trigger and exemption, whether the
chapter applies, the plan kind and which requirements attach. The sentences and notes are
``determine()``'s job; a differential test checks that both agree project by project.

A column of a quantity fact holds floats in the fact's default unit; ``given`` says which
rows stated it (a fact not given reads as 0, and the area disturbed at one time falls
back to the disturbed area, as ``Facts.value`` does). A choice column holds small integer
codes, the position of each value in the fact's list of choices, with -1 for not given, so
comparing a million of them is one integer comparison (``codes()`` makes them).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from siltfence.core.facts import FACTS
from siltfence.core.ordinance.model import Ordinance
from siltfence.core.quantities import convert_between

Bools = npt.NDArray[np.bool_]
Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Columns:
    """Facts of ``n`` projects as columns. Missing columns read as not given."""

    n: int
    values: Mapping[str, npt.NDArray[Any]]
    given: Mapping[str, Bools]

    def value(self, key: str) -> npt.NDArray[Any]:
        """The column as ``Facts.value`` reads one project: defaults where not given."""
        spec = FACTS[key]
        if key == "area_disturbed_at_one_time" and key in self.values:
            own: Floats = self.values[key]
            fallback = self.value("disturbed_area")
            return np.where(self.given[key], own, fallback)
        if key == "area_disturbed_at_one_time":
            return self.value("disturbed_area")
        if key in self.values:
            return self.values[key]
        if spec.kind == "quantity":
            return np.zeros(self.n)
        if spec.kind == "bool":
            return np.full(self.n, bool(spec.default))
        return np.full(self.n, code_of(key, spec.default), dtype=np.int8)

    def is_given(self, key: str) -> Bools:
        if key in self.given:
            return self.given[key]
        return np.zeros(self.n, dtype=bool)


def code_of(key: str, choice: Any) -> int:
    """The code of one choice of a choice fact; -1 for none."""
    choices = FACTS[key].choices
    return choices.index(choice) if choice in choices else -1


def codes(key: str, values: Any) -> npt.NDArray[np.int8]:
    """Choice values (text, or None / "" for not given) as codes."""
    out = np.full(len(values), -1, dtype=np.int8)
    for index, choice in enumerate(FACTS[key].choices):
        out[np.asarray(values == choice, dtype=bool)] = index
    return out


@dataclass(frozen=True)
class Judged:
    """The yes/no parts of ``n`` determinations."""

    covered: Bools
    triggers: Mapping[str, Bools]
    exemptions: Mapping[str, Bools]  # after any override by a trigger
    applies: Bools
    plan_kinds: tuple[str, ...]  # the chapter's plan kinds, in the order of its rules
    plan: npt.NDArray[np.int8]  # index into plan_kinds; -1 where the chapter does not apply
    requirements: Mapping[str, Bools]

    def plan_of(self, row: int) -> str | None:
        index = int(self.plan[row])
        return None if index < 0 else self.plan_kinds[index]


def judge(
    ordinance: Ordinance,
    columns: Columns,
    on: datetime.date,
    requirements: tuple[str, ...] | None = None,
    shared: dict[Any, npt.NDArray[Any]] | None = None,
) -> Judged:
    """Judge every project of ``columns`` under ``ordinance`` on ``on``; ``requirements``
    limits the requirements computed to those ids (None: all). ``shared``, a dict kept
    between calls on the same ``columns``, lets two versions of a chapter compute each
    test once: every condition, down to its last fact, is keyed by what it tests with its
    thresholds resolved to numbers, so only the tests an amendment changes, and the
    conditions built on them, are computed twice."""
    rules = ordinance.rules
    compiled = _Compiler(ordinance, columns, on, {} if shared is None else shared)
    territory = {
        "fact": "location",
        "in": [p["location"] for p in rules["territory"] if p["covered"]],
    }
    covered = compiled(territory)
    triggers = {rule["id"]: compiled(rule["when"]) for rule in rules["triggers"]}
    when_of = {rule["id"]: rule["when"] for rule in rules["triggers"]}
    # An exemption overridden by a trigger holds only where that trigger does not.
    exempt_when = {
        rule["id"]: {"all": [rule["when"], *({"not": when_of[n]} for n in rule["overridden_by"])]}
        if rule.get("overridden_by")
        else rule["when"]
        for rule in rules["exemptions"]
    }
    exemptions = {name: compiled(when) for name, when in exempt_when.items()}
    applies = compiled(
        {
            "all": [
                territory,
                {"any": list(when_of.values())},
                {"not": {"any": list(exempt_when.values())}},
            ]
        }
    )

    kinds = tuple(dict.fromkeys(rule["kind"] for rule in rules["plans"]))
    plan = np.full(columns.n, -1, dtype=np.int8)
    undecided = applies.copy()
    last = len(rules["plans"]) - 1
    for number, rule in enumerate(rules["plans"]):
        chosen = undecided & compiled(rule["when"]) if "when" in rule else undecided
        # The rows chosen by each rule are disjoint, so the index is added, not written
        # under a mask: a masked write of a million rows is some 50 times slower.
        place = kinds.index(rule["kind"]) + 1
        plan += chosen.view(np.int8) if place == 1 else chosen.view(np.int8) * np.int8(place)
        if number < last:  # after the last rule, what is left undecided is not read
            undecided &= ~chosen
    attached_to: dict[str, Bools] = {}
    for rule in rules["requirements"]:
        if requirements is not None and rule["id"] not in requirements:
            continue
        attached = applies & compiled(rule["when"]) if "when" in rule else applies
        earlier = attached_to.get(rule["id"])
        attached_to[rule["id"]] = attached if earlier is None else earlier | attached
    return Judged(covered, triggers, exemptions, applies, kinds, plan, attached_to)


class _Compiler:
    """Turns one condition into a boolean column. Each result is kept in ``shared`` under
    the condition's resolved form (``key``), read-only, so a second version of the chapter
    reuses every condition whose tests it did not change."""

    def __init__(
        self,
        ordinance: Ordinance,
        columns: Columns,
        on: datetime.date,
        shared: dict[Any, npt.NDArray[Any]],
    ) -> None:
        self.ordinance = ordinance
        self.columns = columns
        self.on = on
        self.shared = shared

    def value(self, key: str) -> npt.NDArray[Any]:
        cache_key = ("value", key)
        if cache_key not in self.shared:
            self.shared[cache_key] = self.columns.value(key)
        return self.shared[cache_key]

    def __call__(self, condition: Any) -> Bools:
        return self._cached(self.key(condition), condition)

    def key(self, condition: Any) -> Any:
        """What ``condition`` tests, as a hashable value, thresholds resolved on ``on``."""
        for combinator in ("all", "any"):
            if combinator in condition:
                return (combinator, *(self.key(part) for part in condition[combinator]))
        if "not" in condition:
            return ("not", self.key(condition["not"]))
        key = condition["fact"]
        (op,) = (k for k in condition if k != "fact")
        target = condition[op]
        if isinstance(target, str) and op not in ("is", "in", "not_in", "given"):
            target = self._threshold(target, FACTS[key].unit or "")
        return (key, op, tuple(target) if isinstance(target, list) else target)

    def _cached(self, key: Any, condition: Any) -> Bools:
        found = self.shared.get(key)
        if found is None:
            found = self._compute(key, condition)
            found.flags.writeable = False  # shared between versions: never changed in place
            self.shared[key] = found
        return found

    def _compute(self, key: Any, condition: Any) -> Bools:
        if key[0] in ("all", "any"):
            parts = condition[key[0]]
            if not parts:
                return np.full(self.columns.n, key[0] == "all", dtype=bool)
            combine = np.logical_and if key[0] == "all" else np.logical_or
            first = self._cached(key[1], parts[0])
            if len(parts) == 1:
                return first.copy()
            # The first two into a new column, the rest into it in place: no copy made.
            result = combine(first, self._cached(key[2], parts[1]))
            for part_key, part in zip(key[3:], parts[2:], strict=True):
                combine(result, self._cached(part_key, part), out=result)
            return result
        if key[0] == "not":
            return ~self._cached(key[1], condition["not"])
        return self._evaluate(*key)

    def _evaluate(self, key: str, op: str, target: Any) -> Bools:
        if op == "given":
            given = self.columns.is_given(key)
            return given.copy() if target else ~given  # a copy: the columns' own is not locked
        value = self.value(key)
        if op == "is":
            if value.dtype == bool and isinstance(target, bool):
                # The column itself, or its negation: a view, so that locking the result
                # (``_cached``) leaves the caller's column as it was.
                return value.view() if target else ~value
            return np.asarray(value == target, dtype=bool)
        if op in ("in", "not_in"):
            inside = self._among(key, value, sorted({code_of(key, choice) for choice in target}))
            return inside if op == "in" else ~inside
        threshold = self._threshold(target, FACTS[key].unit or "")
        compare = {
            "at_least": np.greater_equal,
            "more_than": np.greater,
            "less_than": np.less,
            "at_most": np.less_equal,
            "equals": np.equal,
        }[op]
        return np.asarray(compare(value, threshold), dtype=bool)

    def _among(self, key: str, value: npt.NDArray[Any], wanted: list[int]) -> Bools:
        """The rows whose code is one of ``wanted`` (sorted). Codes in a run (choices next
        to each other in the fact's list, as territory's covered places are) take one
        comparison, or two, instead of two for each code."""
        if not wanted:
            return np.zeros(self.columns.n, dtype=bool)
        low, high = wanted[0], wanted[-1]
        if wanted == list(range(low, high + 1)) and value.dtype == np.int8:
            found: Bools
            if high == len(FACTS[key].choices) - 1:
                found = np.greater_equal(value, low)  # the run ends at the last choice
            elif low == 0:
                # Read as unsigned, "not given" (-1) is 255, above every choice.
                found = np.less_equal(value.view(np.uint8), high)
            else:
                found = np.greater_equal(value, low) & np.less_equal(value, high)
            return found
        inside = np.zeros(self.columns.n, dtype=bool)
        for code in wanted:
            inside |= value == code
        return inside

    def _threshold(self, target: Any, unit: str) -> float:
        if isinstance(target, int | float):
            return float(target)
        parameter = self.ordinance.parameters[target]
        value = parameter.at(self.on).value
        if not isinstance(value, float):
            raise ValueError(f"parameter {target} has no numeric value on {self.on}")
        converted = convert_between(value, parameter.unit, unit)
        assert converted is not None  # the loader checked that the units fit
        return converted
