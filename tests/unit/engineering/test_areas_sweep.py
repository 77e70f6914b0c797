"""The area disturbed at one time, measured by the sweep over faces and day by day: the same
phases open on each start day, the same areas, the first day kept on a tie."""

from __future__ import annotations

import datetime
import math

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from siltfence.core.engineering import areas
from siltfence.core.engineering.plan import parse_plan

LON, LAT = -90.2968, 44.7578
STEP = 1e-4  # about 8 m east, 11 m north


def ring(x: float, y: float, radius: float, corners: int, hole: bool) -> list:
    def around(r: float, turn: int) -> list:
        points = [
            [
                x + r * math.cos(turn * 2 * math.pi * k / corners),
                y + r * math.sin(turn * 2 * math.pi * k / corners),
            ]
            for k in range(corners)
        ]
        return [*points, points[0]]

    return [around(radius, 1), around(radius / 3, -1)] if hole else [around(radius, 1)]


PHASE = st.tuples(
    st.integers(0, 8),  # column
    st.integers(0, 8),  # row
    st.sampled_from([0.5, 1.0, 2.0, 3.0]),  # radius, steps
    st.sampled_from([4, 5, 12, 40]),  # corners
    st.booleans(),  # hole
    st.integers(0, 40),  # start, days after April 1
    st.sampled_from([0, 1, 6, 30, 27_000]),  # days open after the start
)


def plan_of(phases: list[tuple]) -> dict:
    features = []
    for i, (col, row, radius, corners, hole, start, days) in enumerate(phases):
        first = datetime.date(2026, 4, 1) + datetime.timedelta(days=start)
        last = min(first + datetime.timedelta(days=days), datetime.date(2099, 12, 31))
        coordinates = ring(LON + col * STEP, LAT + row * STEP, radius * STEP, corners, hole)
        features.append(
            {
                "type": "Feature",
                "properties": {
                    "kind": "disturbed_area",
                    "id": f"D-{i}",
                    "start": first.isoformat(),
                    "end": last.isoformat(),
                },
                "geometry": {"type": "Polygon", "coordinates": coordinates},
            }
        )
    return {
        "jurisdiction": "spencer-wi",
        "on": "2026-06-01",
        "land_use": "residential",
        "runoff_leaves_site": True,
        "channel_originates_on_site": False,
        "site": {"type": "FeatureCollection", "features": features},
    }


def measured(plan, monkeypatch, once_over: int) -> list:
    monkeypatch.setattr(areas, "_UNION_ONCE_OVER", once_over)
    phases = plan.of_kind("disturbed_area")
    total = areas.area_ft2(shapely.union_all([p.geometry for p in phases]))
    return areas._open_by_start_day(phases, total)


@settings(max_examples=40, deadline=datetime.timedelta(seconds=5))
@given(phases=st.lists(PHASE, min_size=1, max_size=30))
def test_the_faces_and_the_daily_unions_give_the_same_phases_and_areas(phases):
    plan = parse_plan(plan_of(phases))
    with pytest.MonkeyPatch.context() as monkeypatch:
        by_faces = measured(plan, monkeypatch, -1)
        day_by_day = measured(plan, monkeypatch, 10**9)
    assert [(d, [p.id for p in o]) for d, o, _ in by_faces] == [
        (d, [p.id for p in o]) for d, o, _ in day_by_day
    ]
    for (_, _, faces), (_, _, union) in zip(by_faces, day_by_day, strict=True):
        assert faces == pytest.approx(union, rel=1e-9, abs=1e-6)


def test_a_phase_inside_another_adds_nothing_and_the_first_day_is_kept(monkeypatch):
    # A 3-step disc from April 1, and a disc inside it from April 2, both open to 2099.
    phases = [(4, 4, 3.0, 40, False, 0, 27_000), (4, 4, 1.0, 12, False, 1, 27_000)]
    plan = parse_plan(plan_of(phases))
    days = measured(plan, monkeypatch, -1)
    assert days[0][2] == days[1][2]  # the same faces: exactly the same sum
    result = areas.site_areas(plan)  # measured by the faces too (monkeypatched)
    assert result.at_one_time_on == datetime.date(2026, 4, 1)
    assert result.at_one_time_features == ("D-0",)


def test_when_the_faces_do_not_add_up_each_day_is_measured_as_a_union(monkeypatch):
    phases = [(i % 3, i // 3, 1.0, 12, False, i, 27_000) for i in range(9)]
    plan = parse_plan(plan_of(phases))
    day_by_day = measured(plan, monkeypatch, 10**9)
    monkeypatch.setattr(areas, "_FACES_AGREE", -1.0)  # no sum of faces is close enough
    assert measured(plan, monkeypatch, -1) == day_by_day
