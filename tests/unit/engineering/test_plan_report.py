"""Design-check reports of the example plans, against values worked out independently.

The example plans are in ``ordinances/*/cases/design/``. Areas and distances are measured
here on the ellipsoid with ``pyproj.Geod`` (not through EPSG:3071 as the package does), sheet
flow is worked out by hand, and settling velocities come from a different drag law
(``reference.schiller_naumann_velocity``).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from pyproj import Geod

from siltfence.core.engineering.report import review_plan
from siltfence.core.engineering.standards import parse_standards

from .reference import FT, GALLON, round_diameter_ft, schiller_naumann_velocity

REPO = Path(__file__).resolve().parents[3]
SPENCER = REPO / "ordinances/spencer-wi/cases/design"
NEW_GLARUS = REPO / "ordinances/new-glarus-wi/cases/design"
GEOD = Geod(ellps="GRS80")
FT2 = FT * FT


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def report(path: Path) -> dict:
    return review_plan(load(path)).to_dict()


def features(plan: dict, kind: str) -> list[dict]:
    return [f for f in plan["site"]["features"] if f["properties"]["kind"] == kind]


def feature(plan: dict, ident: str) -> dict:
    return next(f for f in plan["site"]["features"] if f["properties"].get("id") == ident)


def geodesic_area_ft2(polygon: dict) -> float:
    lons, lats = zip(*polygon["coordinates"][0], strict=True)
    area, _ = GEOD.polygon_area_perimeter(lons, lats)
    return abs(area) / FT2


def geodesic_distance_to_line_ft(point: list[float], line: list[list[float]]) -> float:
    """Least geodesic distance from a point to a two-point line, by golden-section search."""
    (lon1, lat1), (lon2, lat2) = line[0], line[-1]

    def at(t: float) -> float:
        lon, lat = lon1 + t * (lon2 - lon1), lat1 + t * (lat2 - lat1)
        return GEOD.inv(point[0], point[1], lon, lat)[2]

    low, high = 0.0, 1.0
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(100):
        a, b = high - ratio * (high - low), low + ratio * (high - low)
        if at(a) < at(b):
            high = b
        else:
            low = a
    return at((low + high) / 2) / FT


def checks(answer: dict, id: str) -> list[dict]:
    return [c for c in answer["checks"] if c["id"] == id]


def step(check: dict, label: str) -> dict:
    return next(s for s in check["steps"] if s["label"] == label)


# -- dewatering: the NOTE's three devices --------------------------------------------------

NOTE_PLANS = {
    1: ("dewatering-note-1-gal-min.json", 8 / 12),
    100: ("dewatering-note-100-gal-min.json", 4.5),
    10_000: ("dewatering-note-10000-gal-min.json", 35.0),
}


@pytest.mark.parametrize("gpm", sorted(NOTE_PLANS))
def test_each_note_device_is_judged_against_an_independent_overflow_rate_size(gpm):
    name, diameter_ft = NOTE_PLANS[gpm]
    answer = report(SPENCER / name)
    (check,) = checks(answer, "dewatering")
    needed_ft = round_diameter_ft(gpm * GALLON / 60 / schiller_naumann_velocity(100e-6, 10))
    computed = step(check, "diameter of a round device with that area")["value"]
    assert computed == pytest.approx(needed_ft, rel=0.02)
    assert check["result"] == ("pass" if diameter_ft >= needed_ft else "fail")
    assert check["citation"] == "§ 413-7B(1)"
    source = step(
        check, "dewatering_particle_size: the particle size that pumped water must be cleared of"
    )
    assert source["value"] == 100 and source["formula"] == "from § 413-7B(1)"


def test_the_35_foot_basin_for_10000_gal_min_fails_first_with_its_fix():
    answer = report(SPENCER / "dewatering-note-10000-gal-min.json")
    first = answer["checks"][0]
    assert (first["id"], first["result"]) == ("dewatering", "fail")
    assert "Enlarge the device to at least 1,059 sq ft" in first["fix"]


def test_a_small_lot_gets_the_plan_statement_checklist_ticked_from_the_plan():
    answer = report(SPENCER / "dewatering-note-100-gal-min.json")
    checklist = answer["checklist"]
    assert (checklist["kind"], checklist["citation"]) == ("control_plan_statement", "§ 413-8C")
    assert [i["id"] for i in checklist["items"]] == [
        "site_map",
        "site_description",
        "erosion_controls",
        "schedule",
    ]
    assert all(i["present"] for i in checklist["items"])


# -- sheet flow: worked by hand --------------------------------------------------------------


def hand_velocity_ft_s(intensity_in_h: float, length_ft: float, slope: float, n: float) -> float:
    """Kinematic-wave equilibrium, US units: q = i L, y = (q n / (k S^0.5))^0.6, V = q / y.

    k = (1 m / 0.3048 ft)^(1/3) = 1.4859, the constant usually rounded to 1.49.
    """
    k = (1 / 0.3048) ** (1 / 3)
    q = intensity_in_h / 12 / 3600 * length_ft  # ft²/s
    y = (q * n / (k * math.sqrt(slope))) ** 0.6
    return q / y


def test_sheet_flow_over_fallow_ground_is_worked_out_by_hand_and_passes():
    answer = report(SPENCER / "sheet-flow.json")
    check = next(c for c in checks(answer, "sheet-flow") if "Sheet flow A" in c["steps"][0]["text"])
    # 0.5-hour storm, 1.8 in/h (§ 413-4); 100 ft at 2 %; TR-55 fallow n = 0.05:
    # q = 1.8/12/3600 x 100 = 0.0041667 ft²/s; y = 0.015740 ft; V = 0.2647 ft/s.
    expected = hand_velocity_ft_s(1.8, 100, 0.02, 0.05)
    assert expected == pytest.approx(0.2647, abs=5e-4)
    assert step(check, "0.5-hour storm: velocity")["value"] == pytest.approx(expected, rel=1e-6)
    assert check["result"] == "pass"


def test_sheet_flow_over_smooth_ground_is_fast_enough_to_need_diversion():
    answer = report(SPENCER / "sheet-flow.json")
    check = next(c for c in checks(answer, "sheet-flow") if "Sheet flow B" in c["steps"][0]["text"])
    # 150 ft at 5 % ("5 %" in the plan); smooth n = 0.011: V = 1.015 ft/s >= 0.5 ft/s.
    expected = hand_velocity_ft_s(1.8, 150, 0.05, 0.011)
    assert expected == pytest.approx(1.015, abs=2e-3)
    assert step(check, "0.5-hour storm: velocity")["value"] == pytest.approx(expected, rel=1e-6)
    assert check["result"] == "fail"
    assert "Divert" in check["fix"] and check["citation"] == "§ 413-7B(5)(a)"
    assert answer["checks"][0] is not None and answer["checks"][0]["result"] == "fail"


def test_a_diversion_drawn_for_the_fast_path_meets_the_rule():
    plan = load(SPENCER / "sheet-flow.json")
    edge = features(plan, "downslope_edge")[0]["geometry"]
    plan["site"]["features"].append(
        {"type": "Feature", "properties": {"kind": "diversion", "id": "DV-1"}, "geometry": edge}
    )
    plan["sheet_flow"][1]["diverted_by"] = "DV-1"
    answer = review_plan(plan).to_dict()
    check = next(c for c in checks(answer, "sheet-flow") if "Sheet flow B" in c["steps"][0]["text"])
    assert check["result"] == "pass" and "diverted" in check["says"]


# -- a basin draining 10 acres across the seven design storms ------------------------------

STORMS = [
    (0.5, 1.8, 0.9),
    (1, 1.1, 1.1),
    (2, 0.7, 1.3),
    (3, 0.5, 1.5),
    (6, 0.3, 1.7),
    (12, 0.2, 2.0),
    (24, 0.1, 2.3),
]  # § 413-4: hours, in/h, in


def test_the_basin_is_checked_storm_by_storm_against_independent_numbers():
    plan = load(SPENCER / "basin-10-acre.json")
    answer = review_plan(plan).to_dict()
    (check,) = checks(answer, "sediment-basin")
    basin_ft2 = geodesic_area_ft2(feature(plan, "B-1")["geometry"])
    assert basin_ft2 == pytest.approx(10_000, rel=2e-3)
    assert step(check, "basin surface area")["value"] == pytest.approx(basin_ft2, rel=2e-3)
    drainage = 10 * 43_560
    vs = schiller_naumann_velocity(15e-6, 10) / FT  # ft/s
    depth = 4.0
    for hours, intensity, total in STORMS:
        name = f"{hours:g}-hour storm"
        peak = 0.5 * intensity / 12 / 3600 * drainage  # C i A, C = 0.5
        capacity = basin_ft2 * vs
        assert step(check, f"{name}: (a) peak inflow")["value"] == pytest.approx(peak, rel=1e-9)
        assert step(check, f"{name}: (a) settling capacity")["value"] == pytest.approx(
            capacity, rel=0.02
        )
        assert step(check, f"{name}: (a) traps 15 µm")["text"] == (
            "yes" if peak <= capacity else "no"
        )
        volume = 0.5 * total / 12 * drainage
        pool = basin_ft2 * depth
        traps = volume <= pool or pool * hours / volume >= depth / vs / 3600
        assert step(check, f"{name}: (b) traps 15 µm")["text"] == ("yes" if traps else "no")
    # The peak method fails the 0.5- and 1-hour storms, the storage method none: they disagree.
    assert check["result"] == "needs-action"
    assert "0.5-hour storm, 1-hour storm" in check["says"]


def test_twelve_acres_at_once_call_for_basins_computed_from_the_drawing():
    plan = load(SPENCER / "basin-10-acre.json")
    answer = review_plan(plan).to_dict()
    expected = geodesic_area_ft2(feature(plan, "D-1")["geometry"])
    assert answer["site"]["area_disturbed_at_one_time_ft2"] == pytest.approx(expected, rel=2e-3)
    assert answer["determination"]["facts"]["disturbed_area"] == pytest.approx(expected, rel=2e-3)
    (measure,) = checks(answer, "sediment-measure")
    assert "Sedimentation basins are required" in measure["says"]
    assert answer["checklist"]["kind"] == "control_plan"
    floodplains = next(i for i in answer["checklist"]["items"] if i["id"] == "floodplains")
    assert floodplains["present"] and "plan.contents" in floodplains["evidence"]
    watercourses = next(i for i in answer["checklist"]["items"] if i["id"] == "watercourses")
    assert not watercourses["present"] and "§ 413-8B(1)(b)" in watercourses["fix"]


def test_a_site_needing_basins_that_draws_none_fails():
    plan = load(SPENCER / "basin-10-acre.json")
    plan["site"]["features"] = [
        f for f in plan["site"]["features"] if f["properties"]["kind"] != "sediment_basin"
    ]
    answer = review_plan(plan).to_dict()
    first = answer["checks"][0]
    assert (first["id"], first["result"]) == ("sediment-basins-drawn", "fail")


# -- stockpiles: distances from the drawing ---------------------------------------------------


def test_stockpile_distances_match_geodesic_distances_to_the_nearest_road_or_channel():
    plan = load(SPENCER / "stockpiles.json")
    answer = review_plan(plan).to_dict()
    roads = features(plan, "road") + features(plan, "drainage_channel")
    piles = checks(answer, "stockpile")
    assert len(piles) == 3
    for pile in features(plan, "stockpile"):
        ident = pile["properties"]["id"]
        check = next(c for c in piles if f"Stockpile {ident}" in c["steps"][0]["text"])
        expected = min(
            geodesic_distance_to_line_ft(
                pile["geometry"]["coordinates"], r["geometry"]["coordinates"]
            )
            for r in roads
        )
        nearest = next(s for s in check["steps"] if s["label"].startswith("nearest roadway"))
        assert nearest["value"] == pytest.approx(expected, rel=2e-3, abs=0.01), ident
    verdicts = {
        ident: next(c for c in piles if f"Stockpile {ident}" in c["steps"][0]["text"])["result"]
        for ident in ("P-1", "P-2", "P-3")
    }
    # P-1: 40 cu yd, 30 ft from Clark Street, stabilized for 21 days: meets § 413-7B(5)(d).
    # P-2: 60 cu yd, 15 ft from the ditch (under 25 ft), 5 days with no barrier.
    # P-3: in the street 10 days, not covered.
    assert verdicts == {"P-1": "pass", "P-2": "fail", "P-3": "fail"}


def test_the_report_lists_failures_first_then_actions_then_passes_then_information():
    answer = report(SPENCER / "stockpiles.json")
    order = ["fail", "needs-action", "pass", "info"]
    results = [c["result"] for c in answer["checks"]]
    assert results == sorted(results, key=order.index)
    assert answer["summary"]["fail"] == results.count("fail") == 3
    assert all(c["fix"] for c in answer["checks"] if c["result"] == "fail")


def test_every_inlet_is_protected_by_its_flag_or_by_a_drawn_protection():
    answer = report(SPENCER / "stockpiles.json")
    (inlets,) = checks(answer, "inlet-protection")
    assert inlets["result"] == "pass" and "All 2" in inlets["says"]


def test_seeding_before_september_15_stabilizes_the_inactive_ground():
    answer = report(SPENCER / "stockpiles.json")
    (stabilization,) = checks(answer, "stabilization")
    assert stabilization["result"] == "pass"
    assert stabilization["citation"] == "§ 413-7B(5)(c)[1]"


# -- phases: the area disturbed at one time -------------------------------------------------


def test_the_area_disturbed_at_one_time_is_the_largest_overlap_of_phases_by_date():
    plan = load(SPENCER / "phased-site.json")
    answer = review_plan(plan).to_dict()
    area = {i: geodesic_area_ft2(feature(plan, i)["geometry"]) for i in ("PH-1", "PH-2", "PH-3")}
    # Phase 1 (Apr 1 - Jun 30) overlaps phase 2 (Jun 15 - Aug 31): 40,000 + 40,000 sq ft.
    # Phases 2 and 3 (Jul 1 - Sep 30) overlap with 40,000 + 20,000 sq ft.
    assert answer["site"]["disturbed_area_ft2"] == pytest.approx(sum(area.values()), rel=2e-3)
    assert answer["site"]["area_disturbed_at_one_time_ft2"] == pytest.approx(
        area["PH-1"] + area["PH-2"], rel=2e-3
    )
    assert answer["site"]["at_one_time_on"] == "2026-06-15"
    assert answer["site"]["at_one_time_features"] == ["PH-1", "PH-2"]


def test_fence_gaps_along_the_downslope_edge_fail_with_the_length_uncovered():
    answer = report(SPENCER / "phased-site.json")
    (fences,) = checks(answer, "fence-coverage")
    # The edge runs 640 ft; the fence covers 420 ft of it plus the 3 ft tolerance.
    assert fences["result"] == "fail"
    assert step(fences, "uncovered edge length")["value"] == pytest.approx(640 - 420 - 3, abs=1)


# -- New Glarus: standards incorporated by reference ----------------------------------------


def test_new_glarus_checks_need_values_the_village_has_not_entered_and_invent_none():
    answer = report(NEW_GLARUS / "standards-not-entered.json")
    assert answer["checks"] and all(c["result"] == "needs-action" for c in answer["checks"])
    for check in answer["checks"]:
        assert "the Village has not entered" in check["says"]
        assert (
            "Village of New Glarus Erosion Control and Stormwater Management Requirements"
            in (check["says"])
        )
        assert all(s["value"] is None for s in check["steps"])
    assert "§ 413" not in json.dumps(answer, ensure_ascii=False)
    ids = {c["id"] for c in answer["checks"]}
    assert {"dewatering", "sediment-basin", "stockpile", "sheet-flow", "stabilization"} <= ids


def test_the_new_glarus_checklist_is_the_erosion_and_sediment_control_plan():
    answer = report(NEW_GLARUS / "standards-not-entered.json")
    checklist = answer["checklist"]
    assert checklist["kind"] == "erosion_and_sediment_control_plan"
    present = {i["id"]: i["present"] for i in checklist["items"]}
    assert present == {
        "village_requirements_information": False,
        "performance_standards_incorporated": False,
        "drainage_facilities": False,
        "technical_standards": True,
    }


def standards_with(values_by_standard: dict[str, dict]) -> object:
    path = REPO / "ordinances/new-glarus-wi/standards.yaml"
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for item in data["standards"]:
        item["values"] = values_by_standard.get(item["id"], {})
    return parse_standards(data, jurisdiction="new-glarus-wi", file="standards.yaml")


# Hypothetical entries, as a village would make them: the numbers are the test's, not a claim
# about what WR-222 says.
PILE_VALUES = {
    "stockpile_volume": {"value": 10, "unit": "yd**3", "reference": "test entry, piles"},
    "stockpile_setback": {"value": "25 ft", "unit": "ft", "reference": "test entry, setback"},
    "stockpile_days": {"value": 7, "unit": "day", "reference": "test entry, days"},
}


def test_a_value_the_village_enters_from_a_standard_is_used_and_cited_to_that_standard():
    standards = standards_with({"wr-222": PILE_VALUES})
    answer = review_plan(load(NEW_GLARUS / "standards-not-entered.json"), standards=standards)
    (pile,) = [c.to_dict() for c in answer.checks if c.id == "stockpile"]
    assert pile["result"] == "pass"
    assert pile["citation"] == (
        "WR-222, test entry, piles (§ 135-5A(1)); WR-222, test entry, setback (§ 135-5A(1)); "
        "WR-222, test entry, days (§ 135-5A(1))"
    )
    setback = next(s for s in pile["steps"] if s["label"].startswith("stockpile_setback"))
    assert setback["value"] == 25 and setback["formula"] == (
        "from WR-222, test entry, setback (§ 135-5A(1))"
    )
    assert "§ 413" not in json.dumps(pile, ensure_ascii=False)
    assert "Building Inspector" not in json.dumps(pile)


def test_the_villages_own_requirements_take_precedence_over_wr_222():
    stricter = {**PILE_VALUES["stockpile_setback"], "value": 50, "reference": "village table 2"}
    standards = standards_with(
        {"wr-222": PILE_VALUES, "village-requirements": {"stockpile_setback": stricter}}
    )
    answer = review_plan(load(NEW_GLARUS / "standards-not-entered.json"), standards=standards)
    (pile,) = [c.to_dict() for c in answer.checks if c.id == "stockpile"]
    # P-1 sits 30 ft from 2nd Street: enough under 25 ft, not under the Village's 50 ft.
    assert pile["result"] == "fail"
    assert "Village requirements, village table 2 (§ 135-5A)" in pile["citation"]


def test_an_approved_other_standard_needs_its_day_of_approval_before_its_values_count():
    from siltfence.core.errors import OrdinanceFileError

    with pytest.raises(OrdinanceFileError, match="approved"):
        standards_with({"approved-other": PILE_VALUES})


def test_a_standards_file_with_an_unknown_value_name_is_refused_naming_the_key():
    from siltfence.core.errors import OrdinanceFileError

    with pytest.raises(OrdinanceFileError) as caught:
        standards_with({"wr-222": {"pile_size": PILE_VALUES["stockpile_volume"]}})
    assert caught.value.key == "standards[1].values.pile_size"


def test_a_quantity_in_the_wrong_unit_in_the_standards_file_is_refused():
    from siltfence.core.errors import OrdinanceFileError

    bad = {"stockpile_setback": {"value": 25, "unit": "m", "reference": "x"}}
    with pytest.raises(OrdinanceFileError) as caught:
        standards_with({"wr-222": bad})
    assert caught.value.key == "standards[1].values.stockpile_setback.unit"


def test_the_shipped_new_glarus_standards_hold_no_values_yet():
    from siltfence.core.engineering.standards import load_standards

    standards = load_standards(REPO / "ordinances/new-glarus-wi")
    assert standards is not None
    assert [s.citation for s in standards.standards] == [
        "§ 135-5A",
        "§ 135-5A(1)",
        "§ 135-5A(2)",
        "§ 135-5B",
    ]
    assert all(not s.values for s in standards.standards)
    assert load_standards(REPO / "ordinances/spencer-wi") is None


def test_a_plan_the_chapter_does_not_reach_gets_no_design_checks():
    # With no disturbed area drawn, no trigger of § 413-7A holds.
    plan = load(SPENCER / "dewatering-note-1-gal-min.json")
    plan["site"]["features"] = [
        f for f in plan["site"]["features"] if f["properties"]["kind"] != "disturbed_area"
    ]
    answer = review_plan(plan).to_dict()
    assert answer["applies"] is False
    assert [c["id"] for c in answer["checks"]] == ["chapter-applies"]
    assert answer["checklist"]["items"] == []
