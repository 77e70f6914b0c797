"""Running one design check: gather its values, ask for the missing ones, cite the sources.

``run_check`` takes the names of the values a check needs. If any is missing, the check is
``needs-action`` and says who enters what, where; nothing is computed. Otherwise the check
runs with the values and the ``Provisions`` it cites, its field names become paths into the
plan, and its first steps name the plan element and the source of every value.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.engineering.provisions import Provisions
from siltfence.core.engineering.result import CheckResult, Method, Outcome, Step, make_result
from siltfence.core.engineering.values import Sourced, Values, cited


@contextmanager
def field_prefix(where: str) -> Iterator[None]:
    """A check's own field names become paths into the plan."""
    try:
        yield
    except EngineeringInputError as exc:
        if exc.field and exc.field.startswith("plan."):
            raise
        raise EngineeringInputError(f"{where}.{exc.field}", exc.reason) from None


def needs_values(
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


def with_sources(
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


def run_check(
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
        return needs_values(
            id=id, title=title, subject=subject, names=missing, values=values, inputs={}
        )
    with field_prefix(where):
        result = run({s.name: s.value for s in used}, values.provisions(id, used))
    return with_sources(result, used, values, where, subject)


def not_required(id: str, title: str) -> CheckResult:
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
