import pint
import pytest

from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.engineering.units import fmt, registry, to_float


def test_a_plain_number_is_taken_in_the_default_unit():
    assert to_float(12.5, "ft", field="x") == 12.5


def test_acres_given_as_text_become_square_feet():
    assert to_float("1.2 acre", "ft**2", field="x") == pytest.approx(1.2 * 43_560)


def test_square_metres_become_square_feet():
    assert to_float("500 m^2", "ft**2", field="x") == pytest.approx(500 / 0.3048**2)


def test_a_celsius_temperature_becomes_fahrenheit():
    assert to_float("10 degC", "degF", field="t", minimum=None) == pytest.approx(50.0)


def test_a_quantity_from_another_registry_is_accepted():
    other = pint.UnitRegistry()
    assert other is not registry()
    assert to_float(other.Quantity(100, "gallon / minute"), "gal/min", field="q") == pytest.approx(
        100
    )


def test_the_package_registry_is_built_once():
    assert registry() is registry()


def test_a_mass_given_for_an_area_names_the_field():
    with pytest.raises(EngineeringInputError, match=r"^drainage_area: '5 kg' is not an area"):
        to_float("5 kg", "ft**2", field="drainage_area")


@pytest.mark.parametrize("bad", [True, None, [1], float("nan"), float("inf"), "lots"])
def test_values_that_are_not_quantities_are_refused(bad):
    with pytest.raises(EngineeringInputError, match=r"^depth: "):
        to_float(bad, "ft", field="depth")


def test_a_negative_length_is_refused():
    with pytest.raises(EngineeringInputError, match="at least 0"):
        to_float(-1, "ft", field="depth")


def test_numbers_are_shown_with_four_significant_figures_and_a_unit():
    assert fmt(1234.5, "ft**2") == "1,234 sq ft" or fmt(1234.5, "ft**2") == "1,235 sq ft"
    assert fmt(0.00015486, "m/s") == "0.0001549 m/s"
    assert fmt(50.0, "degF") == "50°F"
    assert fmt(100.0, "gal/min") == "100 gal/min"
