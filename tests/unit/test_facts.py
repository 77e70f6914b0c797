"""Facts as the public contract defines them (DESIGN.md, "Facts"): quantities in their
default unit or as a string with a unit; an unknown key, a wrong type or a unit that
does not fit is an error naming the key, never ignored."""

from __future__ import annotations

import pytest

from siltfence.core.errors import FactsError, SiltfenceError
from siltfence.core.facts import FACTS, parse_facts

FOOT_IN_METRES = 0.3048  # exact, by the 1959 international yard and pound agreement
SQ_FT_PER_ACRE = 43_560  # 1 acre = 10 square chains = 43,560 sq ft, by definition


def one(key: str, value: object) -> object:
    return parse_facts({key: value}).value(key)


def error_for(facts: object) -> FactsError:
    with pytest.raises(FactsError) as raised:
        parse_facts(facts)
    return raised.value


def test_a_plain_number_is_taken_in_the_default_unit() -> None:
    assert one("disturbed_area", 5000) == 5000
    assert one("excavation_fill_volume", 400.5) == 400.5
    assert one("underground_pipe_length", 300) == 300
    assert one("channel_length_disturbed", 99) == 99


def test_one_point_two_acres_is_52272_square_feet() -> None:
    assert one("disturbed_area", "1.2 acre") == pytest.approx(1.2 * SQ_FT_PER_ACRE, rel=1e-12)
    assert one("disturbed_area", "1.2 acre") == pytest.approx(52_272, rel=1e-12)


def test_one_acre_is_exactly_43560_square_feet_so_the_one_acre_gap_is_reachable() -> None:
    assert one("disturbed_area", "1 acre") == pytest.approx(43_560, abs=1e-9)


def test_five_hundred_square_metres_converts_with_the_international_foot() -> None:
    expected = 500 / FOOT_IN_METRES**2
    assert one("disturbed_area", "500 m^2") == pytest.approx(expected, rel=1e-12)


def test_four_hundred_twenty_cubic_yards_stays_420_cubic_yards() -> None:
    assert one("excavation_fill_volume", "420 yd^3") == pytest.approx(420, rel=1e-12)


def test_cubic_metres_convert_to_cubic_yards() -> None:
    yard = 3 * FOOT_IN_METRES
    assert one("excavation_fill_volume", "300 m^3") == pytest.approx(300 / yard**3, rel=1e-12)


def test_a_length_in_metres_converts_to_feet() -> None:
    assert one("underground_pipe_length", "100 m") == pytest.approx(100 / FOOT_IN_METRES, rel=1e-12)


def test_kilograms_as_an_area_is_an_error_naming_the_key() -> None:
    error = error_for({"disturbed_area": "5 kg"})
    assert error.key == "disturbed_area"
    assert "facts.disturbed_area" in str(error)
    assert "5 kg" in str(error)


def test_an_area_given_as_a_length_is_an_error_naming_the_key() -> None:
    error = error_for({"disturbed_area": "300 ft"})
    assert error.key == "disturbed_area"


def test_an_area_given_for_a_length_fact_is_an_error_naming_the_key() -> None:
    error = error_for({"channel_length_disturbed": "100 m^2"})
    assert error.key == "channel_length_disturbed"


def test_a_string_that_is_not_a_quantity_is_an_error_naming_the_key() -> None:
    error = error_for({"disturbed_area": "about half the lot"})
    assert error.key == "disturbed_area"


def test_an_unknown_key_is_an_error_naming_it() -> None:
    error = error_for({"disturbed_area": 5000, "lot_size": 9000})
    assert error.key == "lot_size"
    assert "facts.lot_size" in str(error)
    assert "unknown" in str(error)


def test_facts_that_are_not_a_mapping_are_an_error() -> None:
    with pytest.raises(FactsError):
        parse_facts([("disturbed_area", 5000)])


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("disturbed_area", [5000]),
        ("disturbed_area", {"value": 5000}),
        ("road_work", "yes"),
        ("road_work", 1),
        ("road_work", "true"),
        ("location", "downtown"),
        ("location", True),
        ("activity_kind", "mining"),
        ("land_use", "Residential"),
    ],
)
def test_a_wrong_type_or_choice_is_an_error_naming_the_key(key: str, value: object) -> None:
    error = error_for({key: value})
    assert error.key == key
    assert f"facts.{key}" in str(error)


@pytest.mark.parametrize("value", [-1, -0.01, "-5 acre", "-100 m^2"])
def test_a_negative_area_is_an_error_naming_the_key(value: object) -> None:
    assert error_for({"disturbed_area": value}).key == "disturbed_area"


@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf", "Infinity", float("nan"), 1e400])
def test_not_a_number_or_infinity_is_an_error_naming_the_key(value: object) -> None:
    assert error_for({"excavation_fill_volume": value}).key == "excavation_fill_volume"


@pytest.mark.parametrize("value", [True, False])
def test_true_or_false_where_a_number_is_expected_is_an_error(value: bool) -> None:
    assert error_for({"disturbed_area": value}).key == "disturbed_area"


def test_null_is_treated_as_not_given() -> None:
    facts = parse_facts({"disturbed_area": None, "road_work": None, "location": None})
    assert not facts.is_given("disturbed_area")
    assert not facts.is_given("road_work")
    assert facts.value("disturbed_area") == 0
    assert facts.value("road_work") is False
    assert facts.value("location") == "inside"
    assert facts.as_json() == {}


def test_defaults_are_those_of_the_contract() -> None:
    facts = parse_facts({})
    assert facts.value("activity_kind") == "construction"
    assert facts.value("location") == "inside"
    assert facts.value("runoff_leaves_site") is True
    assert facts.value("state_funded") is False


def test_a_facts_error_is_a_siltfence_error_for_the_cli_and_the_api() -> None:
    assert isinstance(error_for({"nope": 1}), SiltfenceError)


def test_every_fact_of_the_public_contract_is_known() -> None:
    contract = {
        "disturbed_area",
        "excavation_fill_volume",
        "underground_pipe_length",
        "channel_length_disturbed",
        "subdivision_plat",
        "certified_survey",
        "road_work",
        "activity_kind",
        "routine_maintenance",
        "state_funded",
        "state_agency",
        "federal_npdes_exempt",
        "designated_by_authority",
        "location",
        "land_use",
        "runoff_leaves_site",
        "area_disturbed_at_one_time",
        "channel_originates_on_site",
    }
    assert contract <= set(FACTS)
