"""Sheet flow from adjacent areas, § 413-7B(5)(a)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.engineering.result import Outcome
from siltfence.core.engineering.sheet_flow import (
    TR55_SHEET_FLOW_N,
    check_sheet_flow,
    length_at_velocity,
    sheet_flow,
)

from .reference import manning_sheet_flow_us
from .spencer import SHEET_FLOW, STORMS


def test_the_tr55_sheet_flow_n_values_are_those_of_table_3_1():
    table = {key: n for key, (n, _) in TR55_SHEET_FLOW_N.items()}
    assert table == {
        "smooth": 0.011,
        "fallow": 0.05,
        "cultivated_residue_20_or_less": 0.06,
        "cultivated_residue_over_20": 0.17,
        "grass_short_prairie": 0.15,
        "grass_dense": 0.24,
        "grass_bermuda": 0.41,
        "range": 0.13,
        "woods_light_underbrush": 0.40,
        "woods_dense_underbrush": 0.80,
    }


def test_velocity_matches_a_hand_computed_manning_case():
    # 1.8 in/h over 100 ft of bare soil (n 0.05) at 2%: q = 0.004167 sq ft/s,
    # y = (0.004167 x 0.05 / (1.49 x 0.1414))^0.6 = 0.01574 ft, V = q / y = 0.2648 ft/s.
    expected = manning_sheet_flow_us(1.8, 100, 0.02, 0.05)
    assert expected == pytest.approx(0.2648, abs=5e-4)
    flow = sheet_flow(intensity_in_per_h=1.8, flow_length_ft=100, slope=0.02, n=0.05)
    # 1.49 is (3.2808)^(1/3) = 1.486 rounded; the package works in SI, 0.2% apart.
    assert flow.velocity_ft_s == pytest.approx(expected, rel=5e-3)
    assert flow.velocity_ft_s == pytest.approx(flow.unit_discharge_ft2_s / flow.depth_ft)


def test_an_adjacent_area_of_exactly_10000_sq_ft_need_not_be_diverted():
    result = check_sheet_flow(
        **SHEET_FLOW, storms=STORMS, adjacent_area=10_000, flow_length=1_000, slope=0.1
    )
    assert result.result is Outcome.INFO
    assert "not greater than 10,000 sq ft" in result.says


def test_an_adjacent_area_just_over_10000_sq_ft_is_checked():
    result = check_sheet_flow(
        **SHEET_FLOW, storms=STORMS, adjacent_area=10_001, flow_length=250, slope=0.1
    )
    assert result.result is Outcome.FAIL


def test_a_path_just_shorter_than_the_limit_length_passes_and_just_longer_fails():
    # L at which V = 0.5 ft/s in the 1.8 in/h storm, by hand in US units:
    # V = q^0.4 (1.49 S^0.5 / n)^0.6  ->  q = V^2.5 / (1.49 S^0.5 / n)^1.5, L = q / i.
    slope, n = 0.05, 0.05
    q = 0.5**2.5 / (1.49 * slope**0.5 / n) ** 1.5
    by_hand = q / (1.8 / 12 / 3600)
    limit = length_at_velocity(velocity_ft_s=0.5, intensity_in_per_h=1.8, slope=slope, n=n)
    assert limit == pytest.approx(by_hand, rel=0.01)
    assert limit < 300  # still sheet flow by TR-55's limit
    below = check_sheet_flow(
        **SHEET_FLOW, storms=STORMS, adjacent_area=20_000, flow_length=limit * 0.99, slope=slope
    )
    above = check_sheet_flow(
        **SHEET_FLOW, storms=STORMS, adjacent_area=20_000, flow_length=limit * 1.01, slope=slope
    )
    assert below.result is Outcome.PASS
    assert above.result is Outcome.FAIL
    assert "divert" in above.fix.lower()


def test_a_velocity_of_exactly_half_a_foot_per_second_is_not_less_than_the_limit():
    slope = 0.02
    exact = length_at_velocity(velocity_ft_s=0.5, intensity_in_per_h=1.8, slope=slope, n=0.05)
    result = check_sheet_flow(
        storms=STORMS,
        adjacent_area=20_000,
        flow_length=exact,
        slope=slope,
        adjacent_area_limit=SHEET_FLOW["adjacent_area_limit"],
        velocity_limit=0.5 * (1 - 1e-12),
    )
    assert result.result is Outcome.FAIL


def test_the_most_intense_storm_governs():
    result = check_sheet_flow(
        **SHEET_FLOW, storms=STORMS, adjacent_area=20_000, flow_length=100, slope=0.02
    )
    velocities = {
        s.label.split(":")[0]: s.value for s in result.steps if s.label.endswith(": velocity")
    }
    assert max(velocities, key=velocities.__getitem__) == "0.5-hour storm"
    assert len(velocities) == 7
    assert "0.5-hour storm" in result.says


def test_a_path_longer_than_300_ft_is_not_shown_slow_enough():
    result = check_sheet_flow(
        **SHEET_FLOW,
        storms=STORMS,
        adjacent_area=50_000,
        flow_length=400,
        slope=0.01,
        surface="woods_dense_underbrush",
    )
    assert result.result is Outcome.NEEDS_ACTION


def test_runoff_that_does_not_leave_the_site_is_not_checked():
    result = check_sheet_flow(
        **SHEET_FLOW,
        storms=STORMS,
        adjacent_area=50_000,
        flow_length=100,
        slope=0.02,
        runoff_leaves_site=False,
    )
    assert result.result is Outcome.INFO


def test_the_slope_may_be_given_in_percent():
    percent = check_sheet_flow(
        **SHEET_FLOW, storms=STORMS, adjacent_area=20_000, flow_length=100, slope="2 %"
    )
    ratio = check_sheet_flow(
        **SHEET_FLOW, storms=STORMS, adjacent_area=20_000, flow_length=100, slope=0.02
    )
    assert percent.steps == ratio.steps


def test_an_unknown_surface_is_refused_with_the_choices():
    with pytest.raises(EngineeringInputError, match=r"^surface: unknown surface 'gravel'; use one"):
        check_sheet_flow(
            **SHEET_FLOW,
            storms=STORMS,
            adjacent_area=20_000,
            flow_length=100,
            slope=0.02,
            surface="gravel",
        )


@pytest.mark.parametrize(("field", "value"), [("slope", 0), ("flow_length", -3), ("slope", "3 ft")])
def test_bad_sheet_flow_inputs_are_refused_by_name(field, value):
    arguments = {
        **SHEET_FLOW,
        "adjacent_area": 20_000,
        "flow_length": 100,
        "slope": 0.02,
        "storms": STORMS,
        field: value,
    }
    with pytest.raises(EngineeringInputError, match=f"^{field}: "):
        check_sheet_flow(**arguments)


lengths = st.floats(min_value=1, max_value=2_000)


@given(lengths, lengths, st.sampled_from(sorted(TR55_SHEET_FLOW_N)))
def test_a_longer_slope_is_never_slower(first, second, surface):
    short, long = sorted((first, second))
    n = TR55_SHEET_FLOW_N[surface][0]
    slow = sheet_flow(intensity_in_per_h=1.1, flow_length_ft=short, slope=0.03, n=n)
    fast = sheet_flow(intensity_in_per_h=1.1, flow_length_ft=long, slope=0.03, n=n)
    assert slow.velocity_ft_s <= fast.velocity_ft_s


@given(st.floats(min_value=0.001, max_value=0.5), st.floats(min_value=0.001, max_value=0.5))
def test_a_steeper_slope_is_never_slower(first, second):
    gentle, steep = sorted((first, second))
    a = sheet_flow(intensity_in_per_h=1.8, flow_length_ft=100, slope=gentle, n=0.05)
    b = sheet_flow(intensity_in_per_h=1.8, flow_length_ft=100, slope=steep, n=0.05)
    assert a.velocity_ft_s <= b.velocity_ft_s
