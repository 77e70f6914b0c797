"""The application fee from a village's fee schedule and the area the project disturbs.

Neither chapter states a fee: Spencer's § 413-8A requires "an application fee" and New
Glarus's § 135-9 leaves the schedule to the Village Administrator with the Village Board's
approval. The amounts are the village's own, entered by its staff: a base amount, and
where the schedule says so an amount per acre (or per 1,000 sq ft) of disturbed area
beyond what the base covers. Money is Decimal throughout, and the total is rounded to the
cent once, half up, as a clerk rounds. The sum comes back in words, so the applicant and
the clerk can check it: "$150.00 + $50.00 per acre × 2.3 acres = $265.00".

Plain Python: no database, no date.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from siltfence.core.quantities import ACRE_FT2

CENT = Decimal("0.01")
SQ_FT = {"acre": Decimal(ACRE_FT2), "1000_sq_ft": Decimal(1000)}


@dataclass(frozen=True)
class FeeComputed:
    amount: Decimal
    words: str


def money(value: Decimal) -> str:
    return f"${value:,.2f}"


def _number(value: Decimal, places: str = "0.0001") -> str:
    shown = value.quantize(Decimal(places), rounding=ROUND_HALF_UP).normalize()
    return format(shown, ",f")


def _area(sq_ft: Decimal, unit: str) -> str:
    """An area in the schedule's unit: acres, or square feet for a rate per 1,000 sq ft."""
    if unit == "acre":
        acres = sq_ft / SQ_FT["acre"]
        word = "acre" if acres <= 1 else "acres"
        return f"{_number(acres)} {word}"
    return f"{_number(sq_ft, '0.01')} sq ft"


def disturbed_sq_ft(facts: dict[str, Any]) -> Decimal | None:
    """The disturbed area of a determination's facts (square feet, as the contract has it),
    to the hundredth of a square foot: a number read as a float (2.3 acres is
    100187.99999999999) is the area meant."""
    value = facts.get("disturbed_area")
    if value is None or isinstance(value, bool):
        return None
    try:
        area = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None
    if not area.is_finite() or area < 0:
        return None
    return area.quantize(CENT, rounding=ROUND_HALF_UP)


def fee_compute(
    *,
    base: Decimal,
    per_area: Decimal | None,
    unit: str,
    included: Decimal,
    area_sq_ft: Decimal | None,
) -> FeeComputed:
    """The fee: ``base`` covers the first ``included`` units of area; each unit beyond
    them costs ``per_area`` (in proportion: 2.3 acres is 2.3 acres, not 3)."""
    if per_area is None or not unit:
        return FeeComputed(base, f"a flat fee of {money(base)}")
    per = f"{money(per_area)} per {'acre' if unit == 'acre' else '1,000 sq ft'}"
    if area_sq_ft is None:
        return FeeComputed(
            base.quantize(CENT, rounding=ROUND_HALF_UP),
            f"{money(base)}; no disturbed area was given, so nothing is added at {per} "
            f"= {money(base)}",
        )
    units = area_sq_ft / SQ_FT[unit]
    beyond = max(units - included, Decimal(0))
    total = (base + per_area * beyond).quantize(CENT, rounding=ROUND_HALF_UP)
    if included == 0:
        return FeeComputed(
            total, f"{money(base)} + {per} × {_area(area_sq_ft, unit)} = {money(total)}"
        )
    first = _area(included * SQ_FT[unit], unit)
    disturbed = _area(area_sq_ft, unit)
    if beyond == 0:
        return FeeComputed(
            total, f"{money(base)} for the first {first} ({disturbed} disturbed) = {money(total)}"
        )
    return FeeComputed(
        total,
        f"{money(base)} for the first {first} + {per} × {_area(beyond * SQ_FT[unit], unit)} "
        f"beyond it ({disturbed} disturbed) = {money(total)}",
    )


def schedule_fee(schedule: Any, facts: dict[str, Any]) -> FeeComputed | None:
    """The fee a schedule row (``permits.FeeSchedule``) sets for a project's facts; None
    with no schedule."""
    if schedule is None:
        return None
    return fee_compute(
        base=schedule.amount,
        per_area=schedule.per_area_amount,
        unit=schedule.area_unit,
        included=schedule.area_included or Decimal(0),
        area_sq_ft=disturbed_sq_ft(facts),
    )
