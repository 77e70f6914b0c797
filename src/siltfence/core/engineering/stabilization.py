"""Stabilizing inactive ground, and the September 15 seeding cutoff.

Spencer § 413-7B(5)(c)[1]:

    "All disturbed ground left inactive for seven or more days shall be stabilized by
    seeding or sodding (only available prior to September 15) or by mulching or covering,
    or other equivalent control measure."

Days are counted with the first day excluded and the last included (for Spencer, the
state's rule for statutes, standing in for its Ch. 1; the village's data says which rule
counts its days), so ground that goes inactive on May 1 has been inactive seven days on
May 8. "Prior to September 15" excludes
September 15 itself. Dates are inputs; nothing here reads the clock.
"""

from __future__ import annotations

import datetime
from enum import StrEnum
from functools import partial

from siltfence.core.dates import DateRefused, read_date
from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.engineering.provisions import UNSTATED, Provisions
from siltfence.core.engineering.result import CheckResult, Method, Outcome, Step, make_result
from siltfence.core.engineering.units import fmt

CHECK = "stabilization"


class StabilizationMethod(StrEnum):
    SEEDING = "seeding"
    SODDING = "sodding"
    MULCHING = "mulching"
    COVERING = "covering"
    OTHER_EQUIVALENT = "other_equivalent"


SEASONAL = {StabilizationMethod.SEEDING, StabilizationMethod.SODDING}


def seeding_available(on: datetime.date, *, cutoff: tuple[int, int]) -> bool:
    """Seeding or sodding is available on ``on`` only before the ``cutoff`` day of that year.

    ``cutoff`` is the (month, day) the village's data gives (``seeding_cutoff``).
    """
    month, day = cutoff
    return on < datetime.date(on.year, month, day)


def _date(value: object, field: str) -> datetime.date:
    if isinstance(value, datetime.datetime):
        raise EngineeringInputError(
            field, f"expected a date without a time, got {value.isoformat()}"
        )
    if isinstance(value, datetime.date):
        return value
    try:
        return read_date(value)
    except DateRefused as exc:
        raise EngineeringInputError(field, str(exc)) from None


def _cutoff(value: object) -> tuple[int, int]:
    """(month, day), or the ordinance data's "MM-DD" text."""
    if isinstance(value, str):
        try:
            month_text, day_text = value.split("-")
            parsed = (int(month_text), int(day_text))
        except ValueError:
            raise EngineeringInputError(
                "seeding_cutoff", f"expected MM-DD, got {value!r}"
            ) from None
    elif isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, int) for v in value):
        parsed = (value[0], value[1])
    else:
        raise EngineeringInputError(
            "seeding_cutoff", f"expected MM-DD or (month, day), got {value!r}"
        )
    try:
        datetime.date(2000, *parsed)  # a leap year, so 02-29 is accepted
    except ValueError:
        raise EngineeringInputError(
            "seeding_cutoff", f"no such day of the year: {value!r}"
        ) from None
    return parsed


def check_stabilization(
    *,
    inactive_from: object,
    inactive_until: object,
    inactive_days: int,
    seeding_cutoff: object,
    method: StabilizationMethod | str | None = None,
    stabilize_on: object | None = None,
    runoff_leaves_site: bool = True,
    provisions: Provisions = UNSTATED,
) -> CheckResult:
    """Check that ground left inactive is stabilized, by a method available on the day.

    ``inactive_from``: the day the ground was left inactive. ``inactive_until``: the day work
    resumes, or the evaluation date for ground still inactive. ``method``: how it is or will
    be stabilized (None: not at all). ``stabilize_on``: the day of stabilization; when not
    given, the day the inactive period reaches ``inactive_days`` is used. ``inactive_days``
    and ``seeding_cutoff`` ("MM-DD" or (month, day)) come from the village's data.
    """
    cite = provisions.cite(CHECK)
    start = _date(inactive_from, "inactive_from")
    end = _date(inactive_until, "inactive_until")
    if end < start:
        raise EngineeringInputError(
            "inactive_until", f"{end.isoformat()} is before inactive_from {start.isoformat()}"
        )
    if isinstance(inactive_days, bool) or not isinstance(inactive_days, int) or inactive_days < 1:
        raise EngineeringInputError(
            "inactive_days", f"expected a whole number of days, got {inactive_days!r}"
        )
    cutoff = _cutoff(seeding_cutoff)
    chosen: StabilizationMethod | None
    if method is None:
        chosen = None
    else:
        try:
            chosen = StabilizationMethod(method)
        except ValueError:
            raise EngineeringInputError(
                "method",
                f"expected one of {', '.join(m.value for m in StabilizationMethod)}, "
                f"got {method!r}",
            ) from None
    due = start + datetime.timedelta(days=inactive_days)
    on = due if stabilize_on is None else _date(stabilize_on, "stabilize_on")
    days = (end - start).days
    cutoff_day = datetime.date(2000, *cutoff)
    cutoff_text = f"{cutoff_day:%B} {cutoff_day.day}"

    inputs = {
        "inactive_from": start.isoformat(),
        "inactive_until": end.isoformat(),
        "method": chosen.value if chosen else "none",
        "stabilize_on": on.isoformat() + ("" if stabilize_on is not None else " (assumed: day 7)"),
        "inactive_days": fmt(inactive_days, "day"),
        "seeding_cutoff": cutoff_text,
    }
    steps = [
        Step.of(
            "days inactive", "inactive_until - inactive_from (first day excluded)", days, "day"
        ),
        Step.words(
            "day the inactive period reaches the limit",
            f"inactive_from + {inactive_days} days",
            due.isoformat(),
        ),
    ]
    method_text = Method(
        name="Inactivity period and seeding season",
        formula=f"stabilize if days inactive >= {inactive_days}; seeding or sodding only on a "
        f"day before {cutoff_text}",
    )
    common = partial(
        make_result,
        id="stabilization",
        title="Stabilization of inactive ground",
        citation=cite,
        inputs=inputs,
        method=method_text,
    )
    notes = [
        provisions.day_counting
        or "Days counted with the first day excluded and the last included.",
        "The chapter does not say by which day the ground must be stabilized; the day the inactive "
        "period reaches seven days is used when no day is given.",
    ]
    if not runoff_leaves_site:
        return common(
            steps=steps,
            result=Outcome.INFO,
            says=f"Runoff does not leave the site, so {provisions.scope(CHECK)} does not apply.",
        )
    if days < inactive_days:
        return common(
            steps=steps,
            result=Outcome.INFO,
            says=(
                f"Ground inactive {fmt(days, 'day')} is under {fmt(inactive_days, 'day')}, so it "
                f"need not yet be stabilized ({cite})."
            ),
            notes=notes,
        )
    if chosen is None:
        return common(
            steps=steps,
            result=Outcome.FAIL,
            says=(
                f"Ground left inactive {fmt(days, 'day')} must be stabilized, and no "
                f"stabilization is given ({cite})."
            ),
            fix=_fix(on, cutoff, cite),
            notes=notes,
        )
    if chosen in SEASONAL:
        available = seeding_available(on, cutoff=cutoff)
        steps.append(
            Step.words(
                f"{chosen.value} available on {on.isoformat()}",
                f"{on.isoformat()} < {on.year}-{cutoff[0]:02d}-{cutoff[1]:02d}",
                "yes" if available else "no",
            )
        )
        if not available:
            return common(
                steps=steps,
                result=Outcome.FAIL,
                says=(
                    f"{chosen.value.capitalize()} on {on.isoformat()} is not available: it is only "
                    f"available prior to {cutoff_text} ({cite})."
                ),
                fix=f"Stabilize by mulching, covering or another equivalent measure ({cite}).",
                notes=notes,
            )
    return common(
        steps=steps,
        result=Outcome.PASS,
        says=(
            f"Ground inactive {fmt(days, 'day')} is stabilized by "
            f"{chosen.value.replace('_', ' ')} on {on.isoformat()} ({cite})."
        ),
        notes=notes,
    )


def _fix(on: datetime.date, cutoff: tuple[int, int], cite: str) -> str:
    if seeding_available(on, cutoff=cutoff):
        return (
            "Stabilize it by seeding, sodding, mulching, covering or an equivalent measure "
            f"({cite})."
        )
    return (
        "Stabilize it by mulching, covering or an equivalent measure; seeding and sodding are "
        f"no longer available ({cite})."
    )
