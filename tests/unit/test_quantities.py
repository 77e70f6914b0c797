"""Every unit name of the grammar converts exactly as pint's own definitions say."""

from __future__ import annotations

import pint
import pytest

from siltfence.core.quantities import UNIT_NAMES, UnitMismatch, read_quantity, to_unit

REGISTRY = pint.UnitRegistry(cache_folder=None)

# pint's base of each dimension of the table, as the factors are written.
BASES = {
    "length": "foot",
    "area": "foot ** 2",
    "volume": "foot ** 3",
    "time": "second",
    "speed": "foot / second",
    "flow": "foot ** 3 / second",
    "ratio": "dimensionless",
    "mass": "pound",
}


@pytest.mark.parametrize(
    "spelling", [s for s, u in UNIT_NAMES.items() if u.dimension != "temperature"]
)
def test_every_unit_name_has_the_factor_pint_gives_it(spelling):
    name = UNIT_NAMES[spelling]
    expected = REGISTRY.Quantity(1, name.pint).to(BASES[name.dimension]).magnitude
    assert name.factor == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("typed", "unit", "pint_typed", "pint_unit"),
    [
        ("10 degC", "degF", (10, "degree_Celsius"), "degree_Fahrenheit"),
        ("-5 degC", "degF", (-5, "degree_Celsius"), "degree_Fahrenheit"),
        ("50 °F", "degC", (50, "degree_Fahrenheit"), "degree_Celsius"),
        ("212 fahrenheit", "degC", (212, "degree_Fahrenheit"), "degree_Celsius"),
    ],
)
def test_temperatures_convert_with_their_offsets_as_pint_does(typed, unit, pint_typed, pint_unit):
    expected = REGISTRY.Quantity(*pint_typed).to(pint_unit).magnitude
    assert read_quantity(typed, unit) == pytest.approx(expected, rel=1e-12)


def test_one_acre_is_43560_square_feet_by_definition():
    assert to_unit("1 acre", "ft**2") == 43_560


def test_one_cubic_yard_is_27_cubic_feet_and_one_in_its_own_unit():
    assert read_quantity("1 cu yd", "ft**3") == 27
    assert to_unit("1 cu yd", "yd**3") == 1


def test_half_an_inch_of_rain_is_12_point_7_millimetres_exactly():
    assert to_unit("12.7 mm", "inch") == pytest.approx(0.5, rel=1e-15)


def test_a_unit_of_the_wrong_kind_is_refused_with_the_dimension_named():
    with pytest.raises(ValueError, match="not an area"):
        to_unit("3 ft", "ft**2")


@pytest.mark.parametrize("text", ["5e-400 acre", "1e-300 acre", "2e-999 acre"])
def test_an_area_too_small_for_any_measurement_is_refused_however_small(text):
    # 5e-400 is below what a float holds and reads as 0.0: it is refused like 1e-300, not
    # taken as the zero it was not written as.
    with pytest.raises(UnitMismatch, match="too small to be a real measurement"):
        read_quantity(text, "acre")


@pytest.mark.parametrize("text", ["0 acre", "0.0 acre", "0e-400 acre"])
def test_zero_written_as_zero_is_zero_acres(text):
    assert read_quantity(text, "acre") == 0.0
