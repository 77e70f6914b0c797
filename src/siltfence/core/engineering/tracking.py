"""Tracking: graveled access on nonresidential sites (Spencer § 413-7B(3)).

    "Each nonresidential site shall have graveled roads, access drives and parking areas of
    sufficient width and length to prevent sediment from being tracked onto public or
    private roadways."

"Sufficient width and length" has no number in the chapter. When the village names one
(for example from the design criteria it identifies under § 413-5), pass it as
``min_length`` and ``min_width``; with none given, only the presence of gravel is checked.
"""

from __future__ import annotations

from functools import partial

from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.engineering.provisions import UNSTATED, Provisions
from siltfence.core.engineering.result import CheckResult, Method, Outcome, Step, make_result
from siltfence.core.engineering.units import fmt, fmt_apart, to_float

CHECK = "tracking"
LAND_USES = ("residential", "commercial", "industrial", "institutional", "agricultural", "other")


def check_tracking(
    *,
    land_use: str,
    graveled_access: bool,
    access_length: object | None = None,
    access_width: object | None = None,
    min_length: object | None = None,
    min_width: object | None = None,
    provisions: Provisions = UNSTATED,
) -> CheckResult:
    """Nonresidential sites need graveled roads, access drives and parking (lengths in ft)."""
    cite = provisions.cite(CHECK)
    if land_use not in LAND_USES:
        raise EngineeringInputError(
            "land_use", f"expected one of {', '.join(LAND_USES)}, got {land_use!r}"
        )
    inputs = {"land_use": land_use, "graveled_access": "yes" if graveled_access else "no"}
    steps = [
        Step.words(
            "nonresidential",
            "land_use != residential",
            "no" if land_use == "residential" else "yes",
        )
    ]
    method = Method(name="Land use and access surface", formula="nonresidential -> graveled access")
    common = partial(
        make_result,
        id="tracking",
        title="Tracking",
        citation=cite,
        inputs=inputs,
        method=method,
    )
    notes = [
        "'Sufficient width and length' has no number in the chapter; the "
        f"{provisions.authority} sets it{provisions.criteria}."
    ]
    if land_use == "residential":
        return common(
            steps=steps,
            result=Outcome.INFO,
            says=f"A residential site is not held to the graveled-access rule ({cite}).",
        )
    if not graveled_access:
        return common(
            steps=steps,
            result=Outcome.FAIL,
            says=(
                f"A {land_use} site needs graveled roads, access drives and parking areas ({cite})."
            ),
            fix=(
                "Gravel the roads, access drives and parking areas, wide and long enough to keep "
                f"sediment off public and private roadways ({cite})."
            ),
            notes=notes,
        )
    short: list[str] = []
    for name, given, least in (
        ("length", access_length, min_length),
        ("width", access_width, min_width),
    ):
        if least is None:
            continue
        least_ft = to_float(least, "ft", field=f"min_{name}", positive=True)
        if given is None:
            raise EngineeringInputError(f"access_{name}", f"needed to compare with min_{name}")
        given_ft = to_float(given, "ft", field=f"access_{name}")
        inputs[f"access_{name}"] = fmt(given_ft, "ft")
        inputs[f"min_{name}"] = fmt(least_ft, "ft")
        steps.append(Step.of(f"graveled access {name}", "as given", given_ft, "ft"))
        if given_ft < least_ft:
            given_text, least_text = fmt_apart(given_ft, least_ft, "ft")
            short.append(f"its {name} of {given_text} is under {least_text}")
    if short:
        return common(
            steps=steps,
            result=Outcome.FAIL,
            says="The graveled access is too small: " + "; ".join(short) + f" ({cite}).",
            fix=f"Enlarge the graveled access to the village's sizes ({cite}).",
            notes=notes,
        )
    return common(
        steps=steps,
        result=Outcome.PASS,
        says=f"The {land_use} site has graveled access ({cite}).",
        notes=notes,
    )
