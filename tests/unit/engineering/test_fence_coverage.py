"""Fences along sideslope and downslope sides, § 413-7B(5)(c)[3]."""

import pytest
from shapely import LineString, Point

from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.engineering.fence_coverage import check_fence_coverage, uncovered_edges
from siltfence.core.engineering.result import Outcome

M_TO_FT = 1 / 0.3048
# An L-shaped downslope and sideslope edge in EPSG:3071 metres near Madison.
X, Y = 568_850.0, 288_760.0
EDGE = LineString([(X, Y), (X + 100, Y), (X + 100, Y + 50)])


def test_a_fence_along_the_whole_edge_a_little_off_it_covers_it():
    fence = LineString([(X, Y - 0.5), (X + 100.5, Y - 0.5), (X + 100.5, Y + 50)])
    result = check_fence_coverage(edges=[EDGE], fences=[fence])
    assert result.result is Outcome.PASS


def test_a_fence_along_only_60_of_150_metres_leaves_90_metres_uncovered():
    fence = LineString([(X, Y - 0.5), (X + 60, Y - 0.5)])
    result = check_fence_coverage(edges=[EDGE], fences=[fence], tolerance=0)
    assert result.result is Outcome.FAIL
    gap = next(s for s in result.steps if s.label == "uncovered edge length")
    # With no tolerance, a fence 0.5 m off the edge covers none of it.
    assert gap.value == pytest.approx(150 * M_TO_FT)
    # Within 0.6 m it covers the first 60 m (and 0.6 m past its end, the round cap):
    # 40 m of the bottom edge plus the 50 m side stay uncovered, about 90 m = 295 ft.
    near = check_fence_coverage(edges=[EDGE], fences=[fence], tolerance="0.6 m")
    gap = next(s for s in near.steps if s.label == "uncovered edge length")
    assert gap.value == pytest.approx(90 * M_TO_FT, rel=0.01)


def test_a_fence_farther_off_than_the_tolerance_does_not_count():
    fence = LineString([(X, Y - 2), (X + 100, Y - 2)])  # 2 m = 6.6 ft off, tolerance 3 ft
    gaps = uncovered_edges([EDGE], [fence])
    assert sum(piece.length for piece in gaps) == pytest.approx(150)


def test_two_fences_meeting_at_the_corner_cover_it():
    bottom = LineString([(X, Y - 0.5), (X + 100.5, Y - 0.5)])
    side = LineString([(X + 100.5, Y - 0.5), (X + 100.5, Y + 50)])
    assert check_fence_coverage(edges=[EDGE], fences=[bottom, side]).result is Outcome.PASS


def test_lines_in_feet_are_measured_in_feet():
    edge = LineString([(0, 0), (300, 0)])
    fence = LineString([(0, 1), (200, 1)])
    result = check_fence_coverage(edges=[edge], fences=[fence], units="ft", tolerance=2)
    gap = next(s for s in result.steps if s.label == "uncovered edge length")
    assert gap.value == pytest.approx(100, abs=2.1)  # the round end reaches 2 ft past the fence


def test_no_fences_at_all_leave_every_edge_uncovered():
    result = check_fence_coverage(edges=[EDGE], fences=[])
    assert result.result is Outcome.FAIL
    assert "1 stretch" in result.says


def test_a_point_is_not_a_fence_line():
    with pytest.raises(EngineeringInputError, match=r"^fences\[0\]: expected a LineString"):
        check_fence_coverage(edges=[EDGE], fences=[Point(X, Y)])


def test_no_marked_edges_is_refused():
    with pytest.raises(EngineeringInputError, match=r"^edges: "):
        check_fence_coverage(edges=[], fences=[])
