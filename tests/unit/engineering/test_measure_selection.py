"""Basins or fences, § 413-7B(5)(c)[2] and [3]."""

import pytest

from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.engineering.measure_selection import (
    SedimentMeasure,
    check_sediment_measure,
    required_sediment_measure,
)

from .spencer import MEASURE, PROVISIONS

TEN_ACRES_FT2 = 10 * 43_560


def test_a_site_just_over_10_acres_needs_basins():
    choice = required_sediment_measure(
        **MEASURE, area_disturbed_at_one_time=TEN_ACRES_FT2 + 1, provisions=PROVISIONS
    )
    assert choice.measure is SedimentMeasure.SEDIMENTATION_BASINS
    assert choice.citation == "§ 413-7B(5)(c)[2]"
    assert choice.gap is None


def test_a_site_just_under_10_acres_needs_fences_or_bales():
    choice = required_sediment_measure(
        **MEASURE, area_disturbed_at_one_time=TEN_ACRES_FT2 - 1, provisions=PROVISIONS
    )
    assert choice.measure is SedimentMeasure.FENCES_OR_BALES
    assert choice.citation == "§ 413-7B(5)(c)[3]"


def test_a_site_of_exactly_10_acres_takes_the_stricter_reading_and_says_so():
    choice = required_sediment_measure(**MEASURE, area_disturbed_at_one_time="10 acre")
    assert choice.measure is SedimentMeasure.SEDIMENTATION_BASINS
    assert "neither 'more than'" in choice.gap
    result = check_sediment_measure(**MEASURE, area_disturbed_at_one_time=TEN_ACRES_FT2)
    assert any("stricter reading" in note for note in result.notes)


def test_a_channel_originating_in_the_disturbed_area_needs_basins_on_a_small_site():
    choice = required_sediment_measure(
        **MEASURE, area_disturbed_at_one_time=5_000, channel_originates_in_disturbed_area=True
    )
    assert choice.measure is SedimentMeasure.SEDIMENTATION_BASINS
    assert "channel originates" in choice.reason


def test_a_village_threshold_from_ordinance_data_is_used():
    choice = required_sediment_measure(
        area_disturbed_at_one_time=6 * 43_560, basin_area_at_one_time=5
    )
    assert choice.measure is SedimentMeasure.SEDIMENTATION_BASINS


def test_the_check_cites_the_section_that_applies():
    result = check_sediment_measure(
        **MEASURE, area_disturbed_at_one_time=43_560, provisions=PROVISIONS
    )
    assert result.citation == "§ 413-7B(5)(c)[3]"
    assert "sideslope and downslope sides" in result.says


def test_a_negative_area_is_refused():
    with pytest.raises(EngineeringInputError, match=r"^area_disturbed_at_one_time: "):
        required_sediment_measure(**MEASURE, area_disturbed_at_one_time=-1)
