"""Dollars and areas as a clerk types them, read strictly, and a fee schedule's terms."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import FeeAreaUnit

# The largest amount of money one entry may hold: a fee, a payment or a corrected cost.
MAX_MONEY = Decimal("1000000.00")

# Why an amount, an area or a fee schedule's terms were refused (``payments.errors`` names
# them too, for the payments and corrections that read money the same way).
AMOUNT = (
    "{field}: give an amount in dollars with the digits 0-9 and at most two decimals "
    "(like 150 or 1,250.00), more than $0.00 and at most $1,000,000.00"
)
AMOUNT_OR_NOTHING = (
    "{field}: give an amount in dollars with the digits 0-9 and at most two decimals "
    "(like 150 or 1,250.00), from $0.00 to $1,000,000.00"
)
AREA_INCLUDED = (
    "area_included: give the area the base amount covers as a number with the digits 0-9, "
    "from 0 to 1,000,000"
)
AREA_INCLUDED_WITHOUT_AMOUNT = (
    "area_included: the area the base amount covers goes with an amount per area; give that "
    "amount and its unit, or leave this empty"
)
AREA_UNIT = "area_unit: an amount per area needs its unit: per acre or per 1,000 sq ft"
AREA_UNIT_WITHOUT_AMOUNT = (
    "per_area_amount: give the amount per {unit}, or leave the unit empty for no amount by area"
)

# Dollars as a clerk types them: digits 0-9 only (never other scripts' digits, never an
# exponent), thousands marked with commas or not at all, at most two decimals.
_MONEY = re.compile(r"\$?(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]{1,2})?")


def money_read(value: Any, field: str = "amount", *, nothing_allowed: bool = False) -> Decimal:
    """A dollar amount: more than $0 (or $0 itself, for a correction to nothing) and at most
    $1,000,000, in whole cents."""
    message = (AMOUNT_OR_NOTHING if nothing_allowed else AMOUNT).format(field=field)
    if isinstance(value, bool) or value is None or isinstance(value, float):
        raise ActionRefused(message, field=field)
    if isinstance(value, Decimal | int):
        if isinstance(value, Decimal) and not value.is_finite():
            raise ActionRefused(message, field=field)
        text = format(value, "f")
    else:
        text = str(value).strip()
    if len(text) > 20 or not _MONEY.fullmatch(text):
        raise ActionRefused(message, field=field)
    try:
        amount = Decimal(text.removeprefix("$").replace(",", ""))
    except InvalidOperation:  # pragma: no cover - the pattern admits only numbers
        raise ActionRefused(message, field=field) from None
    if amount > MAX_MONEY or amount < 0 or (amount == 0 and not nothing_allowed):
        raise ActionRefused(message, field=field)
    return amount.quantize(Decimal("0.01"))


_AREA = re.compile(r"(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]{1,4})?")
MAX_AREA = Decimal(1_000_000)


def area_read(value: Any) -> Decimal:
    """The area a fee schedule's base amount covers, in the schedule's unit (0 when empty)."""
    if value is None or value == "":
        return Decimal(0)
    if isinstance(value, bool | float):
        raise ActionRefused(AREA_INCLUDED, field="area_included")
    text = format(value, "f") if isinstance(value, Decimal | int) else str(value).strip()
    if len(text) > 20 or not _AREA.fullmatch(text):
        raise ActionRefused(AREA_INCLUDED, field="area_included")
    area = Decimal(text.replace(",", ""))
    if area > MAX_AREA:
        raise ActionRefused(AREA_INCLUDED, field="area_included")
    return area


def fee_terms_read(
    *,
    amount: Any,
    per_area_amount: Any,
    area_unit: Any,
    area_included: Decimal,
    reinspection_fee: Any,
) -> dict[str, Any]:
    """A fee schedule's amounts as the village set them: the base (may be $0), an amount
    per unit of disturbed area with its unit (or neither), and a re-inspection fee (or
    none). Each is refused, naming its field, unless it is dollars and cents from $0 to
    $1,000,000."""

    def optional(value: Any, field: str) -> Decimal | None:
        if value is None or value == "":
            return None
        return money_read(value, field, nothing_allowed=True)

    base = money_read(amount, "amount", nothing_allowed=True)
    per_area = optional(per_area_amount, "per_area_amount")
    unit = str(area_unit or "")
    if unit and unit not in FeeAreaUnit.values:
        raise ActionRefused(AREA_UNIT, field="area_unit")
    if per_area is not None and not unit:
        raise ActionRefused(AREA_UNIT, field="area_unit")
    if unit and per_area is None:
        raise ActionRefused(
            AREA_UNIT_WITHOUT_AMOUNT.format(unit=FeeAreaUnit(unit).label),
            field="per_area_amount",
        )
    if per_area is None and area_included:
        raise ActionRefused(AREA_INCLUDED_WITHOUT_AMOUNT, field="area_included")
    return {
        "amount": base,
        "per_area_amount": per_area,
        "area_unit": unit,
        "area_included": area_included,
        "reinspection_fee": optional(reinspection_fee, "reinspection_fee"),
    }
