"""Dewatering devices, § 413-7B(1), and the three examples of its NOTE."""

import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from siltfence.core.engineering.dewatering import (
    check_dewatering,
    required_settling_area,
    round_device_area,
    round_device_diameter,
)
from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.engineering.result import Outcome

from .reference import GALLON, round_diameter_ft, schiller_naumann_velocity
from .spencer import DEWATERING, PROVISIONS

# The NOTE to § 413-7B(1), in its own words: pumping rate (gal/min) -> device size (ft).
NOTE = {
    1: 8 / 12,  # "about eight inches in diameter for 1 gal/min"
    100: 4.5,  # "about 4 1/2 feet across for a 100 gal/min pumping rate"
    10_000: 35.0,  # "about 35 feet in diameter for a pumping rate of 10,000 gal/min"
}


def independent_diameter_ft(gpm: float) -> float:
    """A = Q / Vs with Vs from the Schiller-Naumann drag law in 10 °C water."""
    flow = gpm * GALLON / 60
    return round_diameter_ft(flow / schiller_naumann_velocity(100e-6, 10))


@pytest.mark.parametrize("gpm", sorted(NOTE))
def test_the_required_diameter_agrees_with_an_independent_overflow_rate_calculation(gpm):
    method = round_device_diameter(required_settling_area(gpm, **DEWATERING))
    assert method == pytest.approx(independent_diameter_ft(gpm), rel=0.02)


@pytest.mark.parametrize("gpm", sorted(NOTE))
def test_each_note_example_is_within_a_factor_of_two_of_the_method(gpm):
    ratio = round_device_diameter(required_settling_area(gpm, **DEWATERING)) / NOTE[gpm]
    assert 0.5 < ratio < 2


def test_the_8_inch_pipe_for_1_gal_min_is_about_twice_the_ideal_diameter():
    # The method asks for about 4.4 in; the NOTE's 8-in pipe carries a large allowance
    # (a pipe "several feet long" where turbulence and short-circuiting dominate).
    ratio = round_device_diameter(required_settling_area(1, **DEWATERING)) / NOTE[1]
    assert 0.5 < ratio < 0.6


def test_the_4_and_a_half_foot_tank_for_100_gal_min_is_a_fifth_wider_than_ideal():
    # About 3.7 ft by the method: the NOTE's tank adds room for inlet baffles.
    ratio = round_device_diameter(required_settling_area(100, **DEWATERING)) / NOTE[100]
    assert 0.75 < ratio < 0.9


def test_the_35_foot_basin_for_10000_gal_min_is_close_to_ideal_in_50_f_water():
    # About 36.7 ft at 50 °F; 35 ft matches the method in water near 60 °F.
    ratio = round_device_diameter(required_settling_area(10_000, **DEWATERING)) / NOTE[10_000]
    assert 1.0 < ratio < 1.1
    warmer = round_device_diameter(
        required_settling_area(10_000, **DEWATERING, water_temperature=60)
    )
    assert warmer == pytest.approx(35.0, rel=0.03)


def test_the_note_sizes_do_not_scale_with_flow_as_the_method_does():
    # Overflow-rate sizing makes area proportional to flow (x10,000 from 1 to 10,000 gal/min);
    # the NOTE's areas grow only about 2,760 times, so its small devices carry the margin.
    method_ratio = required_settling_area(10_000, **DEWATERING) / required_settling_area(
        1, **DEWATERING
    )
    note_ratio = (NOTE[10_000] / NOTE[1]) ** 2
    assert method_ratio == pytest.approx(10_000)
    assert note_ratio == pytest.approx(2756.25)


def test_a_device_exactly_the_required_area_passes():
    needed = required_settling_area(100, **DEWATERING)
    assert (
        check_dewatering(**DEWATERING, highest_pumping_rate=100, device_area=needed).result
        is Outcome.PASS
    )


def test_a_device_just_under_the_required_area_fails_with_the_remedies():
    needed = required_settling_area(100, **DEWATERING)
    result = check_dewatering(
        **DEWATERING, highest_pumping_rate=100, device_area=needed * 0.999, provisions=PROVISIONS
    )
    assert result.result is Outcome.FAIL
    assert result.citation == "§ 413-7B(1)"
    assert "grit chamber" in result.fix and "no particles over 100 µm" in result.fix


def test_a_round_device_is_sized_by_its_diameter():
    result = check_dewatering(**DEWATERING, highest_pumping_rate=100, device_diameter=4.5)
    assert result.result is Outcome.PASS
    assert round_device_area(4.5) == pytest.approx(math.pi * 4.5**2 / 4)


def test_without_a_device_the_check_says_what_size_is_needed():
    result = check_dewatering(**DEWATERING, highest_pumping_rate="10000 gal/min")
    assert result.result is Outcome.NEEDS_ACTION
    assert re.search(
        r"needs a settling device of at least 1,0\d\d sq ft \(36\.\d+ ft across", result.says
    )


def test_water_shown_free_of_100_micron_particles_needs_no_control():
    result = check_dewatering(
        **DEWATERING, highest_pumping_rate=100, shown_free_of_particles=True, provisions=PROVISIONS
    )
    assert result.result is Outcome.PASS
    assert "Building Inspector" in result.says


def test_the_check_reports_the_reynolds_number_and_the_stokes_velocity():
    labels = [step.label for step in check_dewatering(**DEWATERING, highest_pumping_rate=1).steps]
    assert "particle Reynolds number" in labels
    assert any(label.startswith("Stokes velocity") for label in labels)


def test_the_pumping_rate_may_be_given_in_cubic_metres_per_second():
    per_second = required_settling_area("0.00630901964 m^3/s", **DEWATERING)
    assert per_second == pytest.approx(required_settling_area(100, **DEWATERING), rel=1e-6)


def test_giving_both_area_and_diameter_is_refused():
    with pytest.raises(EngineeringInputError, match=r"^device_area: "):
        check_dewatering(**DEWATERING, highest_pumping_rate=1, device_area=1, device_diameter=1)


@pytest.mark.parametrize("bad", [0, -5, "5 ft", True])
def test_a_pumping_rate_that_is_not_a_flow_is_refused(bad):
    with pytest.raises(EngineeringInputError, match=r"^highest_pumping_rate: "):
        check_dewatering(**DEWATERING, highest_pumping_rate=bad)


@given(
    st.floats(min_value=0.01, max_value=50_000),
    st.floats(min_value=0.01, max_value=50_000),
)
def test_more_flow_never_needs_less_area(first, second):
    low, high = sorted((first, second))
    assert required_settling_area(low, **DEWATERING) <= required_settling_area(high, **DEWATERING)


@given(st.floats(min_value=0.01, max_value=50_000))
def test_area_is_flow_over_settling_velocity(gpm):
    # Doubling the flow doubles the area: A = Q / Vs is linear in Q.
    assert required_settling_area(2 * gpm, **DEWATERING) == pytest.approx(
        2 * required_settling_area(gpm, **DEWATERING)
    )
