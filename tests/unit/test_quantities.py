"""The exact table of common units agrees with pint, and pint takes the rest."""

from __future__ import annotations

import pint
import pytest

from siltfence.core.quantities import COMMON_UNITS, UNITS, UnitMismatch, to_unit

REGISTRY = pint.UnitRegistry()

# How pint spells each unit of the table; "cu yd" and friends are read by pint as
# copper times yards, which is one reason the table exists.
PINT_SPELLING = {
    "sq ft": "ft**2", "sqft": "ft**2", "square feet": "ft**2", "square foot": "ft**2",
    "sf": "ft**2", "ac": "acre", "acres": "acre", "sq m": "m**2", "square meters": "m**2",
    "square metres": "m**2", "sq yd": "yd**2", "square yards": "yd**2", "hectare": "ha",
    "hectares": "ha", "cu yd": "yd**3", "cubic yards": "yd**3", "cubic yard": "yd**3",
    "cy": "yd**3",
    "cu m": "m**3", "cubic meters": "m**3", "cubic metres": "m**3", "cu ft": "ft**3",
    "cubic feet": "ft**3", "cubic foot": "ft**3", "meters": "m", "metres": "m", "metre": "m",
    "yards": "yd", "miles": "mi", "inches": "in",
}  # fmt: skip


@pytest.mark.parametrize(
    "unit, spelled",
    [(unit, spelled) for unit, table in COMMON_UNITS.items() for spelled in table],
)
def test_every_unit_of_the_exact_table_agrees_with_pint(unit, spelled):
    pint_unit = UNITS[unit][0]
    expected = REGISTRY.Quantity(2.5, PINT_SPELLING.get(spelled, spelled)).to(pint_unit).magnitude
    assert to_unit(f"2.5 {spelled}", unit) == pytest.approx(expected, rel=1e-12)


def test_one_acre_is_43560_square_feet_by_definition():
    assert to_unit("1 acre", "ft**2") == 43_560


def test_a_unit_outside_the_table_is_read_by_pint():
    # 1 rod = 16.5 ft (survey rod in pint, 16.5 survey feet; within a part per million).
    assert to_unit("2 rod", "ft") == pytest.approx(33.0, rel=1e-5)


def test_a_unit_of_the_wrong_kind_is_refused_with_the_dimension_named():
    with pytest.raises(UnitMismatch, match="not an area"):
        to_unit("3 ft", "ft**2")
