"""Sedimentation basins, § 413-7B(5)(c)[2], against the one-year design storms of § 413-4."""

import pytest

from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.engineering.result import Outcome
from siltfence.core.engineering.sediment_basin import check_sediment_basin
from siltfence.core.engineering.storms import design_storm

from .reference import FT, INCH, stokes_velocity
from .spencer import BASIN, PROVISIONS, STORMS

ACRE = 43_560.0
# § 413-4 "SET OF ONE-YEAR DESIGN STORMS": (duration h, intensity in/h, total in)
TABLE = [
    (0.5, 1.8, 0.9),
    (1, 1.1, 1.1),
    (2, 0.7, 1.3),
    (3, 0.5, 1.5),
    (6, 0.3, 1.7),
    (12, 0.2, 2.0),
    (24, 0.1, 2.3),
]


def step(result, label):
    return next(s for s in result.steps if s.label == label)


def name(hours):
    return f"{hours:g}-hour storm"


def test_the_design_storms_are_the_chapter_table():
    assert [(s.duration_h, s.intensity_in_per_h, s.total_in) for s in STORMS] == TABLE


def test_a_basin_of_exactly_1_percent_meets_the_area_rule():
    result = check_sediment_basin(
        **BASIN,
        storms=STORMS,
        drainage_area=100_000,
        basin_surface_area=1_000,
        basin_depth=3,
        runoff_coefficient=0.05,
    )
    assert "under 1%" not in result.says
    assert result.result is Outcome.PASS


def test_a_basin_just_under_1_percent_fails_the_area_rule():
    result = check_sediment_basin(
        **BASIN,
        storms=STORMS,
        drainage_area=100_000,
        basin_surface_area=999,
        basin_depth=3,
        runoff_coefficient=0.05,
    )
    assert result.result is Outcome.FAIL
    assert "under 1% of the drainage area" in result.says
    assert "enlarge the basin to at least 1,000 sq ft" in result.fix.lower()


def test_a_basin_that_rounds_to_the_least_area_shows_enough_digits_to_see_it_is_under():
    # 1% of 10 acres is 4,356 sq ft; a basin of 4,355.8 sq ft reads 4,356 at four figures.
    result = check_sediment_basin(
        **BASIN,
        storms=STORMS,
        drainage_area=10 * ACRE,
        basin_surface_area=4_355.8,
        basin_depth=3,
        runoff_coefficient=0.05,
    )
    assert result.result is Outcome.FAIL
    assert "its 4,355.8 sq ft is under 1% of the drainage area (4,356 sq ft)" in result.says


def test_a_depth_that_rounds_to_3_feet_shows_enough_digits_to_see_it_is_under():
    result = check_sediment_basin(
        **BASIN,
        storms=STORMS,
        drainage_area=100_000,
        basin_surface_area=1_000,
        basin_depth=2.99999,
        runoff_coefficient=0.05,
    )
    assert "its 2.99999 ft depth is under 3 ft" in result.says


def test_a_basin_3_feet_deep_meets_the_depth_rule():
    result = check_sediment_basin(
        **BASIN,
        storms=STORMS,
        drainage_area=100_000,
        basin_surface_area=1_000,
        basin_depth=3,
        runoff_coefficient=0.05,
    )
    assert "depth is under" not in result.says


def test_a_basin_just_under_3_feet_deep_fails_the_depth_rule():
    result = check_sediment_basin(
        **BASIN,
        storms=STORMS,
        drainage_area=100_000,
        basin_surface_area=1_000,
        basin_depth=2.99,
        runoff_coefficient=0.05,
    )
    assert result.result is Outcome.FAIL
    assert "depth is under 3 ft" in result.says


def test_the_peak_method_traps_15_microns_only_in_storms_gentle_enough():
    drainage, basin, c = 10 * ACRE, 0.01 * 10 * ACRE, 0.5
    vs = stokes_velocity(15e-6, 10) / FT  # ft/s; Re about 0.002, so Stokes holds
    result = check_sediment_basin(
        **BASIN,
        storms=STORMS,
        drainage_area=drainage,
        basin_surface_area=basin,
        basin_depth=3,
        runoff_coefficient=c,
    )
    for hours, intensity, _total in TABLE:
        peak = c * intensity * INCH / FT / 3600 * drainage
        expected = "yes" if peak <= basin * vs else "no"
        assert step(result, f"{name(hours)}: (a) peak inflow").value == pytest.approx(peak)
        assert step(result, f"{name(hours)}: (a) traps 15 µm").text == expected
    # A 1% basin holds C i A / (A_basin Vs) <= 1 only for i up to about 0.44 in/h at C = 0.5.
    traps = [s.text for s in result.steps if s.label.endswith("(a) traps 15 µm")]
    assert traps == ["no", "no", "no", "no", "yes", "yes", "yes"]


def test_the_storage_method_credits_a_pool_that_holds_the_storm():
    drainage, basin, depth, c = 10 * ACRE, 0.01 * 10 * ACRE, 3.0, 0.5
    vs = stokes_velocity(15e-6, 10) / FT
    result = check_sediment_basin(
        **BASIN,
        storms=STORMS,
        drainage_area=drainage,
        basin_surface_area=basin,
        basin_depth=depth,
        runoff_coefficient=c,
    )
    settling_h = depth / vs / 3600
    for hours, _intensity, total in TABLE:
        volume = c * total / 12 * drainage
        pool = basin * depth
        detention = pool * hours / volume
        expected = "yes" if volume <= pool or detention >= settling_h else "no"
        assert step(result, f"{name(hours)}: (b) runoff volume").value == pytest.approx(volume)
        assert step(result, f"{name(hours)}: (b) settling time").value == pytest.approx(
            settling_h, rel=5e-3
        )
        assert step(result, f"{name(hours)}: (b) traps 15 µm").text == expected
    assert result.result is Outcome.FAIL


def test_a_basin_that_holds_the_whole_storm_traps_it():
    # C P A for the 24-hour storm at C = 0.1: 0.23 in over 1 acre = 834.9 cu ft < 1,000 x 3 ft.
    result = check_sediment_basin(
        **BASIN,
        storms=STORMS,
        drainage_area=ACRE,
        basin_surface_area=1_000,
        basin_depth=3,
        runoff_coefficient=0.1,
    )
    assert step(result, "24-hour storm: (b) detention").text == "the whole runoff stays in the pool"


def test_when_the_two_methods_disagree_the_inspector_decides():
    # At C = 0.3 a 1% basin passes every storm by storage but not the short storms by peak.
    result = check_sediment_basin(
        **BASIN,
        storms=STORMS,
        drainage_area=20 * ACRE,
        basin_surface_area=0.2 * ACRE,
        basin_depth=3,
        runoff_coefficient=0.3,
        provisions=PROVISIONS,
    )
    assert result.result is Outcome.NEEDS_ACTION
    assert "§ 413-5" in result.fix


def test_a_large_basin_passes_every_storm_by_both_methods():
    result = check_sediment_basin(
        **BASIN,
        storms=STORMS,
        drainage_area=20 * ACRE,
        basin_surface_area=0.05 * 20 * ACRE,
        basin_depth=3,
    )
    assert result.result is Outcome.PASS
    assert "all 7 design storms" in result.says


def test_every_storm_of_the_table_is_reported():
    result = check_sediment_basin(
        **BASIN, storms=STORMS, drainage_area=ACRE, basin_surface_area=500, basin_depth=3
    )
    for hours, _, _ in TABLE:
        assert step(result, f"{name(hours)}: (a) traps 15 µm")
        assert step(result, f"{name(hours)}: (b) traps 15 µm")


def test_community_storms_and_thresholds_from_ordinance_data_are_accepted():
    # One community storm of 2 in/h for 30 min (1 in), a 2% area rule, a depth in metres.
    storms = [design_storm("30 min", "2.0 in/h", "1.0 in")]
    result = check_sediment_basin(
        drainage_area="1 acre",
        basin_surface_area=900,
        basin_depth="1 m",
        storms=storms,
        surface_percent=2,
        min_depth="3 ft",
        particle_size="15 um",
    )
    assert step(result, "least surface area").value == pytest.approx(0.02 * ACRE)
    # Peak: 0.5 x 2 in/h x 1 acre = 1.008 cu ft/s, far above 900 sq ft x Vs(15 µm).
    assert step(result, "0.5-hour storm: (a) traps 15 µm").text == "no"
    # Storage: 0.5 x 1 in x 1 acre = 1,815 cu ft fits in 900 sq ft x 3.28 ft = 2,953 cu ft.
    assert step(result, "0.5-hour storm: (b) traps 15 µm").text == "yes"
    assert result.result is Outcome.NEEDS_ACTION


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("runoff_coefficient", 1.5),
        ("runoff_coefficient", 0),
        ("basin_depth", -1),
        ("drainage_area", "3 ft"),
    ],
)
def test_bad_basin_inputs_are_refused_by_name(field, value):
    arguments = {
        **BASIN,
        "drainage_area": ACRE,
        "basin_surface_area": 500,
        "basin_depth": 3,
        "storms": STORMS,
        field: value,
    }
    with pytest.raises(EngineeringInputError, match=f"^{field}: "):
        check_sediment_basin(**arguments)


def test_an_empty_storm_list_is_refused():
    with pytest.raises(EngineeringInputError, match=r"^storms: "):
        check_sediment_basin(
            **BASIN, drainage_area=ACRE, basin_surface_area=500, basin_depth=3, storms=[]
        )
