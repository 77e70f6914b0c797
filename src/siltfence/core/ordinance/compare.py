"""Two chapters side by side, topic by topic, each entry with its citation.

Everything is read from the data, so a third village's folder compares with no new code.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from siltfence.core.facts import FACTS
from siltfence.core.ordinance.model import Ordinance
from siltfence.core.quantities import format_quantity

Entry = tuple[str, str]  # (what the chapter says, citation)


@dataclass(frozen=True)
class Topic:
    name: str
    left: tuple[Entry, ...]
    right: tuple[Entry, ...]

    @property
    def same(self) -> bool:
        return [e[0] for e in self.left] == [e[0] for e in self.right]


_OPS = {
    "at_least": "{t} or more",
    "more_than": "more than {t}",
    "less_than": "less than {t}",
    "at_most": "{t} or less",
    "equals": "exactly {t}",
}


def describe_condition(cond: Any, ordinance: Ordinance, on: datetime.date) -> str:
    """A condition in words, without facts: 'disturbed area 4,000 sq ft or more'."""
    for op, joiner in (("all", " and "), ("any", " or ")):
        if op in cond:
            return joiner.join(describe_condition(c, ordinance, on) for c in cond[op])
    if "not" in cond:
        return "not " + describe_condition(cond["not"], ordinance, on)
    fact = cond["fact"]
    words = fact.replace("_", " ")
    (op,) = (k for k in cond if k != "fact")
    target = cond[op]
    if op == "given":
        return f"{words} {'given' if target else 'not given'}"
    if op == "is":
        return words if target else f"not {words}"
    if op in ("in", "not_in"):
        listed = ", ".join(str(t).replace("_", " ") for t in target)
        return f"{words} {'is' if op == 'in' else 'is not'} {listed}"
    if isinstance(target, int | float):
        unit = FACTS[fact].unit or ""
        shown = format_quantity(float(target), unit)
    else:
        parameter = ordinance.parameters[target]
        value = parameter.at(on).value
        shown = format_quantity(value, parameter.unit) if isinstance(value, float) else str(value)
    return f"{words} {_OPS[op].format(t=shown)}"


def _parameter_entry(ordinance: Ordinance, name: str, on: datetime.date) -> tuple[Entry, ...]:
    if name not in ordinance.parameters:
        return ()
    parameter = ordinance.parameters[name]
    value = parameter.at(on)
    if value.value is None:
        shown = f"not in the chapter ({value.not_in_text})"
    elif isinstance(value.value, float):
        shown = format_quantity(value.value, parameter.unit)
    else:
        shown = value.value
    return ((f"{parameter.description}: {shown}", value.citation),)


def compare(a: Ordinance, b: Ordinance, on_a: datetime.date, on_b: datetime.date) -> list[Topic]:
    # Each chapter's sentences as of its date: their numbers are its parameters then.
    a, b = a.on(on_a), b.on(on_b)

    def both(fn: Any) -> tuple[tuple[Entry, ...], tuple[Entry, ...]]:
        return tuple(fn(a, on_a)), tuple(fn(b, on_b))

    topics: list[Topic] = []

    def add(name: str, fn: Any) -> None:
        left, right = both(fn)
        if left or right:
            topics.append(Topic(name, left, right))

    add("Administering authority", lambda o, on: [(o.authority["title"], o.authority["citation"])])
    add(
        "Who applies",
        lambda o, on: [(o.words.get("applicant", ""), c) for c in o.applicant_citations[:1]],
    )
    add(
        "Territory",
        lambda o, on: [
            (f"{t['location']}: {'covered' if t['covered'] else 'not covered'}", t["citation"])
            for t in o.rules["territory"]
        ],
    )
    add(
        "Applicability triggers",
        lambda o, on: [
            (describe_condition(t["when"], o, on), t["citation"]) for t in o.rules["triggers"]
        ],
    )
    add(
        "Exemptions and exclusions",
        lambda o, on: [
            (describe_condition(t["when"], o, on), t["citation"]) for t in o.rules["exemptions"]
        ],
    )
    add(
        "Plan required",
        lambda o, on: [
            (
                f"{p['kind'].replace('_', ' ')}"
                + (f" when {describe_condition(p['when'], o, on)}" if "when" in p else ""),
                p["citation"],
            )
            for p in o.rules["plans"]
        ],
    )
    add(
        "Technical requirements",
        lambda o, on: [(r["says"], r["citation"]) for r in o.rules["requirements"]],
    )
    add("Review clocks", lambda o, on: [(c["says"], c["citation"]) for c in o.rules["clocks"]])
    names = _ordered_union(a.parameters, b.parameters)
    for name in names:
        add(_title(name), lambda o, on, name=name: _parameter_entry(o, name, on))
    add(
        "Permit conditions",
        lambda o, on: [(c["says"], c["citation"]) for c in o.rules["permit_conditions"]],
    )
    add(
        "Surety",
        lambda o, on: [(o.rules["permit"]["surety"], o.rules["permit"]["surety_citation"])],
    )
    add(
        "Plan amendments",
        lambda o, on: [(o.rules["permit"]["amendment"], o.rules["permit"]["amendment_citation"])],
    )
    add(
        "Stop-work order",
        lambda o, on: [
            (g["says"], g["citation"]) for g in o.rules["enforcement"]["stop_work_order"]["grounds"]
        ],
    )
    add(
        "Enforcement steps",
        lambda o, on: [(a_["says"], a_["citation"]) for a_ in o.rules["enforcement"]["actions"]],
    )
    add(
        "Retraction",
        lambda o, on: [
            (
                o.rules["enforcement"]["retraction"]["says"],
                o.rules["enforcement"]["retraction"]["citation"],
            )
        ],
    )
    add(
        "Forfeiture",
        lambda o, on: [
            (
                o.rules["enforcement"]["forfeiture"]["says"],
                o.rules["enforcement"]["forfeiture"]["citation"],
            )
        ],
    )
    add(
        "Injunction",
        lambda o, on: [
            (
                o.rules["enforcement"]["injunction"]["says"],
                o.rules["enforcement"]["injunction"]["citation"],
            )
        ],
    )
    add(
        "Appeals",
        lambda o, on: [
            (o.rules["appeals"]["says"], o.rules["appeals"]["citation"]),
            (
                "Who may appeal: "
                + ", ".join(w.replace("_", " ") for w in o.rules["appeals"]["who_may_appeal"]),
                o.rules["appeals"]["who_citation"],
            ),
        ],
    )
    add("Counting time", lambda o, on: [(o.time_counting["says"], o.time_counting["citation"])])
    return topics


def _ordered_union(a: Iterable[str], b: Iterable[str]) -> list[str]:
    seen: dict[str, None] = {}
    for name in (*a, *b):
        seen.setdefault(name, None)
    return list(seen)


def _title(name: str) -> str:
    return name.replace("_", " ").capitalize()
