"""The bounds on a control plan (the ``MAX_`` bounds of ``plan``): each list at its bound is
read, one more is refused naming the field, before anything past the bound is read; the
largest plan the bounds allow is checked in full."""

from __future__ import annotations

import copy
import datetime
import json
import math
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from siltfence.core.engineering import plan as plan_module
from siltfence.core.engineering.errors import EngineeringInputError, GeometryError
from siltfence.core.engineering.geometry import segment_pairs
from siltfence.core.engineering.plan import (
    MAX_CONTENTS,
    MAX_FEATURES,
    MAX_ID_CHARS,
    MAX_INACTIVE_AREAS,
    MAX_OF_KIND,
    MAX_POSITIONS,
    MAX_SCHEDULE,
    MAX_SEGMENT_PAIRS,
    MAX_SHEET_FLOW,
    OVERLAID_KINDS,
    parse_plan,
)
from siltfence.core.engineering.report import review_plan

REPO = Path(__file__).resolve().parents[3]
STOCKPILES = REPO / "ordinances/spencer-wi/cases/design/stockpiles.json"
LON, LAT = -90.2968, 44.7578  # Spencer
STEP = 1e-4  # about 8 m east, 11 m north


def base() -> dict[str, Any]:
    return json.loads(STOCKPILES.read_text(encoding="utf-8"))


def name(prefix: str, index: int) -> str:
    """An id of MAX_ID_CHARS characters, the longest allowed."""
    return f"{prefix}-{index}-".ljust(MAX_ID_CHARS, "x")


def square(index: int, size: float = STEP * 0.8, row: float = 0.0) -> list:
    x, y = LON + 0.01 + (index % 40) * STEP, LAT + 0.01 + (index // 40 + row) * STEP
    return [[[x, y], [x + size, y], [x + size, y + size], [x, y + size], [x, y]]]


def circle(cx: float, cy: float, radius: float, positions: int, turn: float = 0.0) -> list:
    ring = [
        [
            cx + radius * math.cos(2 * math.pi * k / positions + turn),
            cy + radius * math.sin(2 * math.pi * k / positions + turn),
        ]
        for k in range(positions)
    ]
    return [[*ring, ring[0]]]


def feature(kind: str, geometry: dict, **properties: Any) -> dict:
    return {"type": "Feature", "properties": {"kind": kind, **properties}, "geometry": geometry}


def point(index: int, row: float = 0.0) -> dict:
    return {"type": "Point", "coordinates": square(index, row=row)[0][0]}


def disturbed(index: int) -> dict:
    start = datetime.date(2026, 4, 1) + datetime.timedelta(days=index)
    return feature(
        "disturbed_area",
        {"type": "Polygon", "coordinates": square(index, row=2)},
        id=f"A-{index}",
        start=start.isoformat(),
        end="2099-12-31",
    )


def stockpile(index: int) -> dict:
    return feature("stockpile", point(index, row=5), id=f"Q-{index}", volume=20, days=3)


def basin(index: int) -> dict:
    return feature(
        "sediment_basin",
        {"type": "Polygon", "coordinates": square(index, row=8)},
        id=f"B-{index}",
        depth="4 ft",
        drainage_area="1 acre",
    )


def trap(index: int) -> dict:
    return feature("sediment_trap", point(index, row=11))


FEATURE_MAKERS = {"disturbed_area": disturbed, "stockpile": stockpile, "sediment_basin": basin}


def with_features(kind: str, count: int) -> dict:
    """The worked plan with ``count`` features of ``kind`` in all (the plan's own included);
    ``features``: sediment traps added until the site holds ``count`` features."""
    data = base()
    features = data["site"]["features"]
    if kind == "features":
        features.extend(trap(i) for i in range(count - len(features)))
        return data
    have = sum(1 for f in features if f["properties"]["kind"] == kind)
    features.extend(FEATURE_MAKERS[kind](i) for i in range(count - have))
    return data


LIST_ITEMS = {
    "sheet_flow": lambda i: {
        "id": f"S-{i}",
        "adjacent_area": 20000,
        "flow_length": 100,
        "slope": 0.02,
    },
    "schedule": lambda i: {"activity": f"step {i}", "start": "2026-05-01", "end": "2026-05-02"},
    "inactive_areas": lambda i: {"area": "D-1", "from": "2026-05-10", "method": "mulching"},
    "contents": lambda i: f"item_{i}",
}
LISTS = {  # field -> (bound, what the message counts)
    "sheet_flow": (MAX_SHEET_FLOW, "paths"),
    "schedule": (MAX_SCHEDULE, "activities"),
    "inactive_areas": (MAX_INACTIVE_AREAS, "stretches of inactive ground"),
    "contents": (MAX_CONTENTS, "item ids"),
}


def with_list(field: str, count: int) -> dict:
    data = base()
    data[field] = [LIST_ITEMS[field](i) for i in range(count)]
    return data


def refused(data: dict) -> EngineeringInputError:
    with pytest.raises(EngineeringInputError) as caught:
        parse_plan(data)
    return caught.value


def positions(data: dict) -> int:
    def count(value: Any) -> int:
        if isinstance(value, list) and value and isinstance(value[0], int | float):
            return 1
        return sum(count(v) for v in value) if isinstance(value, list) else 0

    return sum(count(f["geometry"]["coordinates"]) for f in data["site"]["features"])


# -- each list ----------------------------------------------------------------------------


@pytest.mark.parametrize("field", LISTS)
def test_a_plan_list_at_its_bound_is_read_and_one_more_is_refused_naming_it(field):
    bound, things = LISTS[field]
    parsed = parse_plan(with_list(field, bound))
    assert len(getattr(parsed, field)) == bound
    error = refused(with_list(field, bound + 1))
    assert error.field == f"plan.{field}"
    assert str(error) == f"plan.{field}: at most {bound:,} {things}; got {bound + 1:,}"


@pytest.mark.parametrize("field", LISTS)
def test_a_list_over_its_bound_is_refused_before_any_item_is_read(field):
    bound, _ = LISTS[field]
    data = base()
    data[field] = [{"not": "an item"}] * (bound + 1)
    assert refused(data).field == f"plan.{field}"


def test_ten_thousand_sheet_flow_paths_are_refused_naming_the_bound():
    error = refused(with_list("sheet_flow", 10_000))
    assert str(error) == f"plan.sheet_flow: at most {MAX_SHEET_FLOW} paths; got 10,000"


def test_the_site_at_its_bound_of_features_is_read_and_one_more_is_refused():
    parsed = parse_plan(with_features("features", MAX_FEATURES))
    assert len(parsed.features) == MAX_FEATURES
    error = refused(with_features("features", MAX_FEATURES + 1))
    assert error.field == "plan.site.features"
    assert str(error) == (
        f"plan.site.features: at most {MAX_FEATURES} features; got {MAX_FEATURES + 1}"
    )


@pytest.mark.parametrize("kind", sorted(MAX_OF_KIND))
def test_each_bounded_kind_at_its_bound_is_read_and_one_more_is_refused(kind):
    bound = MAX_OF_KIND[kind]
    parsed = parse_plan(with_features(kind, bound))
    assert len(parsed.of_kind(kind)) == bound
    error = refused(with_features(kind, bound + 1))
    assert error.field == "plan.site.features"
    assert str(error) == f"plan.site.features: at most {bound} {kind} features; got {bound + 1}"


def test_a_site_over_its_bound_is_refused_before_any_geometry_is_read():
    data = base()
    data["site"]["features"] = [{"type": "Feature", "geometry": "not read"}] * (MAX_FEATURES + 1)
    assert refused(data).field == "plan.site.features"


def test_the_thousand_phases_to_2099_are_refused_naming_the_bound():
    data = base()
    data["site"]["features"].extend(disturbed(i) for i in range(1000))
    assert str(refused(data)) == f"plan.site.features: at most {MAX_FEATURES} features; got 1,014"


def test_the_phases_at_their_bound_to_2099_are_measured_day_by_day():
    data = with_features("disturbed_area", MAX_OF_KIND["disturbed_area"])
    answer = review_plan(data).to_dict()
    steps = answer["site"]["measured"]["steps"]
    open_on = [s for s in steps if s["label"].startswith("open on ")]
    # D-1 (May 1 to July 31) and 29 squares starting April 1, 2, ... 29, each to 2099.
    assert len(open_on) == MAX_OF_KIND["disturbed_area"]
    assert open_on[-1]["label"].startswith("open on 2026-05-01: D-1, A-0, A-1, ")
    assert answer["site"]["at_one_time_on"] == "2026-05-01"
    assert len(answer["site"]["at_one_time_features"]) == MAX_OF_KIND["disturbed_area"]


# -- positions ------------------------------------------------------------------------------


def with_positions(total: int) -> dict:
    """The worked plan with a road drawn with as many positions as make ``total`` in all."""
    data = base()
    count = total - positions(data)
    line = [[LON + 0.01 + k * 1e-6, LAT - 0.01 + (k % 2) * 1e-6] for k in range(count)]
    data["site"]["features"].append(
        feature("road", {"type": "LineString", "coordinates": line}, id="long road")
    )
    return data


def test_the_site_at_its_bound_of_positions_is_read_and_one_more_is_refused():
    data = with_positions(MAX_POSITIONS)
    assert positions(data) == MAX_POSITIONS
    parse_plan(data)
    error = refused(with_positions(MAX_POSITIONS + 1))
    assert error.field == "plan.site.features"
    assert str(error) == (
        f"plan.site.features: at most {MAX_POSITIONS:,} positions (vertices) in all the "
        f"geometries; got {MAX_POSITIONS + 1:,}"
    )


# -- ids ------------------------------------------------------------------------------------


def feature_id(data: dict, text: str) -> None:
    data["site"]["features"][1]["properties"]["id"] = text  # the disturbed area D-1


def sheet_flow_id(data: dict, text: str) -> None:
    data["sheet_flow"] = [LIST_ITEMS["sheet_flow"](0) | {"id": text}]


def inactive_area(data: dict, text: str) -> None:
    data["inactive_areas"][0]["area"] = text  # names D-1


def contents_item(data: dict, text: str) -> None:
    data["contents"] = [text]


@pytest.mark.parametrize(
    "put, field",
    [
        (feature_id, "plan.site.features[1].properties.id"),
        (sheet_flow_id, "plan.sheet_flow[0].id"),
        (inactive_area, "plan.inactive_areas[0].area"),
        (contents_item, "plan.contents[0]"),
    ],
)
def test_an_id_at_its_bound_is_read_and_one_character_more_is_refused_naming_it(put, field):
    longest = "x" * MAX_ID_CHARS
    data = base()
    feature_id(data, longest)  # D-1 renamed, and the inactive area naming it too
    inactive_area(data, longest)
    put(data, longest)
    parse_plan(data)
    data = base()
    put(data, longest + "x")
    error = refused(data)
    assert error.field == field
    assert str(error) == f"{field}: at most {MAX_ID_CHARS} characters; got {MAX_ID_CHARS + 1}"


# -- lines and outlines that cross --------------------------------------------------------


def test_segment_pairs_counts_segments_whose_extents_overlap_but_not_neighbours_in_a_line():
    across = [shapely.LineString([(0, y), (100, y)]) for y in range(5, 100, 10)]  # 10
    down = [shapely.LineString([(x, 0), (x, 100)]) for x in range(5, 100, 5)]  # 19
    assert segment_pairs([*across, *down], 10**6) == 10 * 19
    straight = shapely.LineString([(x, 0) for x in range(50)])
    assert segment_pairs([straight], 10**6) == 0
    assert segment_pairs([shapely.box(0, 0, 10, 10)], 10**6) == 1  # the ring's closing vertex
    assert segment_pairs([*across, *down], 20) > 20


def sawtooth(positions: int, across: bool, x0: float = LON + 0.02, y0: float = LAT) -> list:
    """A line zigzagging over a 0.004-degree square: two of them, one turned, cross at about
    (positions / 2) ** 2 points."""
    teeth = positions // 2
    size = 0.004
    line = []
    for k in range(teeth):
        t = k * size / teeth
        line += [[t, size], [t + size / teeth / 2, 0.0]]
    if not across:
        line = [[y, x] for x, y in line]
    return [[x0 + x, y0 + y] for x, y in line]


def with_crossing_fences(per_fence: int) -> dict:
    data = base()
    for across in (True, False):
        line = {"type": "LineString", "coordinates": sawtooth(per_fence, across)}
        data["site"]["features"].append(feature("silt_fence", line))
    return data


def overlaid_pairs(data: dict) -> int:
    limit = plan_module.MAX_SEGMENT_PAIRS
    plan_module.MAX_SEGMENT_PAIRS = 10**9
    try:
        parsed = parse_plan(data)
    finally:
        plan_module.MAX_SEGMENT_PAIRS = limit
    return segment_pairs([f.geometry for f in parsed.features if f.kind in OVERLAID_KINDS], 10**9)


def test_crossings_at_the_bound_are_read_and_one_pair_more_is_refused(monkeypatch):
    data = with_crossing_fences(40)
    pairs = overlaid_pairs(data)
    assert pairs > 400  # the two fences cross about 20 x 20 times
    monkeypatch.setattr(plan_module, "MAX_SEGMENT_PAIRS", pairs)
    parse_plan(data)
    monkeypatch.setattr(plan_module, "MAX_SEGMENT_PAIRS", pairs - 1)
    with pytest.raises(GeometryError) as caught:
        parse_plan(data)
    assert caught.value.field == "plan.site.features"


def test_fences_drawn_across_each_other_hundreds_of_times_are_refused():
    with pytest.raises(GeometryError) as caught:
        parse_plan(with_crossing_fences(400))
    assert str(caught.value).startswith(
        f"plan.site.features: at most {MAX_SEGMENT_PAIRS:,} pairs of segments that cross or "
        "nearly cross"
    )


# -- the largest plan the bounds allow ----------------------------------------------------


def largest_plan() -> dict:
    """Every list at its bound and ids at their longest: 30 overlapping phases starting on 30
    days and open to 2099, 10 stockpiles, 4 basins with their drainage areas, two silt
    fences crossing each other near the bound of crossings, storm inlets to 200 features,
    8 sheet-flow paths, 10 stretches of inactive ground, 100 schedule items."""
    data = base()
    features = [f for f in data["site"]["features"] if f["properties"]["kind"] != "stockpile"]
    for f in features:
        if f["properties"]["kind"] == "disturbed_area":
            f["properties"]["id"] = name("D", 0)
    for i in range(1, MAX_OF_KIND["disturbed_area"]):
        start = datetime.date(2026, 4, 1) + datetime.timedelta(days=i)
        ring = circle(LON + 0.0005 + (i % 6) * STEP, LAT + 0.0005 + (i // 6) * STEP, STEP, 60, i)
        features.append(
            feature(
                "disturbed_area",
                {"type": "Polygon", "coordinates": ring},
                id=name("D", i),
                start=start.isoformat(),
                end="2099-12-31",
            )
        )
    features.extend(
        feature("stockpile", point(i, row=-60), id=name("P", i), volume="40 yd^3", days=21)
        for i in range(MAX_OF_KIND["stockpile"])
    )
    for i in range(MAX_OF_KIND["sediment_basin"]):
        features.append(
            feature(
                "sediment_basin",
                {"type": "Polygon", "coordinates": square(i, row=-65)},
                id=name("B", i),
                depth="4 ft",
            )
        )
        features.append(
            feature(
                "basin_drainage",
                {"type": "Polygon", "coordinates": square(i, STEP * 3, row=-70)},
                basin=name("B", i),
            )
        )
    for across in (True, False):
        line = {"type": "LineString", "coordinates": sawtooth(136, across)}
        features.append(feature("straw_bale" if across else "silt_fence", line))
    i = 0
    while len(features) < MAX_FEATURES:
        features.append(feature("storm_inlet", point(i, row=-75), id=name("I", i)))
        i += 1
    data["site"]["features"] = features
    item = LIST_ITEMS["sheet_flow"]
    data["sheet_flow"] = [item(i) | {"id": name("S", i)} for i in range(MAX_SHEET_FLOW)]
    data["schedule"] = [LIST_ITEMS["schedule"](i) for i in range(MAX_SCHEDULE)]
    data["inactive_areas"] = [
        {"area": name("D", i), "from": "2026-05-10", "until": "2026-05-20", "method": "seeding"}
        for i in range(MAX_INACTIVE_AREAS)
    ]
    return data


def test_the_largest_plan_the_bounds_allow_is_checked_in_full():
    data = largest_plan()
    kinds = Counter(f["properties"]["kind"] for f in data["site"]["features"])
    assert len(data["site"]["features"]) == MAX_FEATURES
    assert all(kinds[kind] == bound for kind, bound in MAX_OF_KIND.items())
    assert positions(data) <= MAX_POSITIONS
    assert 0.8 * MAX_SEGMENT_PAIRS < overlaid_pairs(data) <= MAX_SEGMENT_PAIRS

    started = time.process_time()
    answer = review_plan(copy.deepcopy(data)).to_dict()
    spent = time.process_time() - started

    checks = Counter(c["id"] for c in answer["checks"])
    assert checks["stockpile"] == MAX_OF_KIND["stockpile"]
    assert checks["sediment-basin"] == MAX_OF_KIND["sediment_basin"]
    assert checks["sheet-flow"] == MAX_SHEET_FLOW
    assert checks["stabilization"] == MAX_INACTIVE_AREAS
    fences = next(c for c in answer["checks"] if c["id"] == "fence-coverage")
    # The plan's fence and bale lines, and the two drawn across each other, were measured.
    assert fences["inputs"]["fences"].startswith("4 lines")
    site = answer["site"]
    open_on = [s for s in site["measured"]["steps"] if s["label"].startswith("open on ")]
    assert len(open_on) == MAX_OF_KIND["disturbed_area"]
    # Every phase is open on the last start day, and each adds ground: the most at one time
    # is then all of it.
    assert len(site["at_one_time_features"]) == MAX_OF_KIND["disturbed_area"]
    assert site["area_disturbed_at_one_time_ft2"] == pytest.approx(
        site["disturbed_area_ft2"], rel=1e-9
    )
    # A guard, not a measure (about half a second here): the bounds exist so that no plan
    # holds a worker for long.
    assert spent < 10


# -- any size ---------------------------------------------------------------------------------

SIZED = [*LISTS, "features", *sorted(MAX_OF_KIND)]


def bound_of(field: str) -> int:
    if field in LISTS:
        return LISTS[field][0]
    return MAX_FEATURES if field == "features" else MAX_OF_KIND[field]


@settings(max_examples=60, deadline=datetime.timedelta(seconds=3))
@given(data=st.data())
def test_any_list_is_read_up_to_its_bound_and_refused_past_it(data):
    field = data.draw(st.sampled_from(SIZED))
    bound = bound_of(field)
    size = data.draw(
        st.integers(min_value=0, max_value=bound + 3) | st.sampled_from([bound, bound + 1])
    )
    if field in LISTS:
        plan, where = with_list(field, size), f"plan.{field}"
    else:
        present = sum(
            1 for f in base()["site"]["features"] if field in ("features", f["properties"]["kind"])
        )
        size = max(size, present)
        plan, where = with_features(field, size), "plan.site.features"
    if size <= bound:
        parsed = parse_plan(plan)
        if field in LISTS:
            assert len(getattr(parsed, field)) == size
        elif field == "features":
            assert len(parsed.features) == size
        else:
            assert len(parsed.of_kind(field)) == size
        return
    error = refused(plan)
    assert error.field == where
    if field in LISTS:
        assert str(error) == f"{where}: at most {bound:,} {LISTS[field][1]}; got {size:,}"
    elif field == "features":
        assert str(error) == f"{where}: at most {bound:,} features; got {size:,}"
    else:
        assert str(error) == f"{where}: at most {bound:,} {field} features; got {size:,}"
