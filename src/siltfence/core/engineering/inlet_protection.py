"""Storm drain inlet protection (Spencer § 413-7B(4)).

"All storm drain inlets shall be protected with a straw bale, filter fabric, or
equivalent barrier meeting accepted design criteria, standards and specifications."
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.engineering.provisions import UNSTATED, Provisions
from siltfence.core.engineering.result import CheckResult, Method, Outcome, Step, make_result

CHECK = "inlet-protection"


def _ids(values: Iterable[str], field: str) -> list[str]:
    if isinstance(values, str):
        raise EngineeringInputError(field, "expected a list of inlet ids, got a single string")
    result: list[str] = []
    for index, value in enumerate(values):
        if not isinstance(value, str) or not value.strip():
            raise EngineeringInputError(f"{field}[{index}]", f"expected an inlet id, got {value!r}")
        result.append(value.strip())
    return result


def check_inlet_protection(
    *, inlets: Iterable[str], protected: Iterable[str], provisions: Provisions = UNSTATED
) -> CheckResult:
    """Every storm drain inlet on or serving the site is protected."""
    cite = provisions.cite(CHECK)
    all_inlets = _ids(inlets, "inlets")
    guarded = set(_ids(protected, "protected"))
    duplicates = sorted({i for i in all_inlets if all_inlets.count(i) > 1})
    if duplicates:
        raise EngineeringInputError("inlets", f"inlet ids are repeated: {', '.join(duplicates)}")
    unprotected = [i for i in all_inlets if i not in guarded]
    unknown = sorted(guarded - set(all_inlets))
    inputs = {
        "inlets": ", ".join(all_inlets) or "none",
        "protected": ", ".join(sorted(guarded)) or "none",
    }
    steps = [
        Step.of("storm drain inlets", "count", len(all_inlets)),
        Step.of("protected", "count", len(all_inlets) - len(unprotected)),
        Step.words("unprotected", "inlets not protected", ", ".join(unprotected) or "none"),
    ]
    notes = []
    if unknown:
        notes.append(
            f"Protection is listed for inlets not in the inlet list: {', '.join(unknown)}."
        )
    method = Method(name="Every inlet protected", formula="unprotected = inlets - protected")
    common = partial(
        make_result,
        id="inlet-protection",
        title="Storm drain inlet protection",
        citation=cite,
        inputs=inputs,
        method=method,
        steps=steps,
        notes=notes,
    )
    if not all_inlets:
        return common(
            result=Outcome.INFO,
            says=f"No storm drain inlets are listed, so none needs protection ({cite}).",
        )
    if unprotected:
        return common(
            result=Outcome.FAIL,
            says=f"{len(unprotected)} of {len(all_inlets)} storm drain inlets are unprotected: "
            f"{', '.join(unprotected)} ({cite}).",
            fix=(
                f"Protect {', '.join(unprotected)} with a straw bale, filter fabric or equivalent "
                f"barrier ({cite})."
            ),
        )
    return common(
        result=Outcome.PASS,
        says=f"All {len(all_inlets)} storm drain inlets are protected ({cite}).",
    )
