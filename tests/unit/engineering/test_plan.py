"""The control-plan format (docs/plan-format.md): strict, and every error names its field."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from siltfence.core.engineering.errors import EngineeringInputError, GeometryError
from siltfence.core.engineering.plan import parse_plan
from siltfence.core.engineering.report import review_plan

REPO = Path(__file__).resolve().parents[3]
STOCKPILES = REPO / "ordinances/spencer-wi/cases/design/stockpiles.json"


def plan() -> dict:
    return json.loads(STOCKPILES.read_text(encoding="utf-8"))


def feature_index(data: dict, kind: str) -> int:
    return next(
        i for i, f in enumerate(data["site"]["features"]) if f["properties"]["kind"] == kind
    )


def field_of(data: dict) -> str:
    with pytest.raises(EngineeringInputError) as caught:
        review_plan(data)
    return caught.value.field or ""


def test_the_example_plan_reads_with_every_feature_kept_and_measured_in_feet():
    parsed = parse_plan(plan())
    assert parsed.jurisdiction == "spencer-wi"
    assert [f.id for f in parsed.of_kind("stockpile")] == ["P-1", "P-2", "P-3"]
    pile = parsed.by_id("stockpile", "P-1")
    assert pile is not None and pile.properties["volume"] == pytest.approx(40.0)


def test_an_unknown_top_level_key_is_named():
    data = plan() | {"measures": []}
    assert field_of(data) == "plan.measures"


def test_a_missing_required_key_is_named():
    data = plan()
    del data["land_use"]
    assert field_of(data) == "plan.land_use"


def test_an_unknown_feature_kind_is_named_with_its_place_in_the_collection():
    data = plan()
    data["site"]["features"][1]["properties"]["kind"] = "hay_bale"
    assert field_of(data) == "plan.site.features[1].properties.kind"


def test_a_stockpile_without_a_volume_names_the_property():
    data = plan()
    index = feature_index(data, "stockpile")
    del data["site"]["features"][index]["properties"]["volume"]
    assert field_of(data) == f"plan.site.features[{index}].properties.volume"


def test_a_volume_in_kilograms_is_refused_as_not_a_volume():
    data = plan()
    index = feature_index(data, "stockpile")
    data["site"]["features"][index]["properties"]["volume"] = "5 kg"
    with pytest.raises(EngineeringInputError, match="not a volume") as caught:
        review_plan(data)
    assert caught.value.field == f"plan.site.features[{index}].properties.volume"


def test_an_unknown_property_of_a_feature_is_named():
    data = plan()
    index = feature_index(data, "stockpile")
    data["site"]["features"][index]["properties"]["height"] = 4
    assert field_of(data) == f"plan.site.features[{index}].properties.height"


def test_a_stockpile_drawn_as_a_line_is_refused_at_its_geometry_type():
    data = plan()
    index = feature_index(data, "stockpile")
    point = data["site"]["features"][index]["geometry"]["coordinates"]
    data["site"]["features"][index]["geometry"] = {
        "type": "LineString",
        "coordinates": [point, [point[0] + 0.0001, point[1]]],
    }
    with pytest.raises(GeometryError) as caught:
        review_plan(data)
    assert caught.value.field == f"plan.site.features[{index}].geometry.type"


def test_coordinates_outside_wisconsin_are_a_geometry_error_naming_the_position():
    data = plan()
    data["site"]["features"][0]["geometry"]["coordinates"][0][0] = [-80.0, 44.7]
    with pytest.raises(GeometryError) as caught:
        review_plan(data)
    assert caught.value.field == "plan.site.features[0].geometry.coordinates[0][0]"


def test_a_phase_that_ends_before_it_starts_is_refused():
    data = plan()
    index = feature_index(data, "disturbed_area")
    data["site"]["features"][index]["properties"]["end"] = "2026-04-01"
    assert field_of(data) == f"plan.site.features[{index}].properties.end"


def test_a_slope_that_is_not_a_number_names_the_sheet_flow_entry():
    data = plan() | {
        "sheet_flow": [
            {"adjacent_area": 20000, "flow_length": 100, "slope": 0.02},
            {"adjacent_area": 20000, "flow_length": 100, "slope": "steep"},
        ]
    }
    assert field_of(data) == "plan.sheet_flow[1].slope"


def test_a_dewatering_entry_without_a_pumping_rate_is_refused():
    data = plan() | {"dewatering": {"device_area": 10}}
    assert field_of(data) == "plan.dewatering.highest_pumping_rate"


def test_a_retyped_disturbed_area_is_refused_because_the_geometry_gives_it():
    data = plan() | {"facts": {"disturbed_area": 5000}}
    with pytest.raises(EngineeringInputError, match="computed from the disturbed_area"):
        review_plan(data)


def test_another_fact_with_a_bad_value_is_named_under_plan_facts():
    data = plan() | {"facts": {"excavation_fill_volume": "5 kg"}}
    assert field_of(data) == "plan.facts.excavation_fill_volume"


def test_an_unknown_plan_content_item_is_named_with_the_known_ones():
    data = plan() | {"contents": ["soils", "wetland_delineation"]}
    with pytest.raises(EngineeringInputError, match="floodplains") as caught:
        review_plan(data)
    assert caught.value.field == "plan.contents[1]"


def test_a_basin_with_no_drainage_area_asks_for_one():
    data = plan()
    data["site"]["features"].append(
        {
            "type": "Feature",
            "properties": {"kind": "sediment_basin", "id": "B-9", "depth": 4},
            "geometry": copy.deepcopy(data["site"]["features"][0]["geometry"]),
        }
    )
    index = len(data["site"]["features"]) - 1
    assert field_of(data) == f"plan.site.features[{index}].properties.drainage_area"


def test_inlet_protection_naming_an_inlet_that_is_not_drawn_is_refused():
    data = plan()
    index = feature_index(data, "inlet_protection")
    data["site"]["features"][index]["properties"]["inlet"] = "I-9"
    assert field_of(data) == f"plan.site.features[{index}].properties.inlet"


def test_a_plan_without_an_evaluation_date_needs_one_from_the_caller():
    data = plan()
    del data["on"]
    assert field_of(data) == "plan.on"


def test_the_evaluation_date_may_come_from_the_caller_instead():
    import datetime

    data = plan()
    del data["on"]
    report = review_plan(data, on=datetime.date(2026, 6, 1))
    assert report.evaluated_on == datetime.date(2026, 6, 1)


def test_a_date_written_another_way_is_refused():
    data = plan() | {"on": "06/01/2026"}
    assert field_of(data) == "plan.on"


def test_an_unknown_jurisdiction_is_named():
    data = plan() | {"jurisdiction": "nowhere-wi"}
    assert field_of_any(data) == "jurisdiction"


def field_of_any(data: dict) -> str:
    from siltfence.core.errors import SiltfenceError

    with pytest.raises(SiltfenceError) as caught:
        review_plan(data)
    return caught.value.field or ""
