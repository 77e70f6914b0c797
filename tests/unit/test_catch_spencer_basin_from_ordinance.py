"""Spencer's sedimentation basin, checked with the numbers of Spencer's own ordinance data.

The checks have no defaults (the unit tests read Spencer's numbers from its data, through
``tests/unit/engineering/spencer.py``). Here, besides, the ordinance is loaded with the
project's loader and a plan is reviewed through the engineering entry point
(``review_plan``), so every number comes from the data, and the answer is held against
values worked out by hand from the chapter's words:

Spencer § 413-7B(5)(c)[2] (source.txt): "For sites with more than 10 acres disturbed at one
time ... one or more sedimentation basins shall be constructed. Each sedimentation basin
shall have a surface area of at least 1% of the area draining to the basin and at least
three feet of depth ... The basin shall be designed to trap sediment greater than 15
microns in size, based on the set of one-year design storms having durations from 0.5 to 24
hours."

By hand, for the example plan's basin B-1 (4 ft deep, about 9,997 sq ft drawn), with
1 acre = 43,560 sq ft:

- draining 10 acres = 435,600 sq ft: at least 1% = 4,356 sq ft;
- draining 15 acres = 653,400 sq ft: at least 6,534 sq ft, and B-1 (1.53%) is large enough;
- draining 25 acres = 1,089,000 sq ft: at least 10,890 sq ft, and B-1 (0.92%) is not.

The physics of "designed to trap" 15 µm (§ 413-4's storms; runoff C = 0.5, the plan gives
none): a quartz grain (2,650 kg/m³) in water at 50 °F (999.7 kg/m³, 1.307 mPa·s) settles by
Stokes' law at Vs = g (ρs - ρ) d² / (18 μ) = 9.80665 x 1,650.3 x (15e-6)² / (18 x 1.307e-3)
= 1.5478e-4 m/s = 5.0782e-4 ft/s (Re about 0.002, so Stokes holds). For 10 acres:

- by the peak overflow rate, the worst storm is the 0.5-hour one (1.8 in/h): Q = C i A =
  0.5 x 1.8 / 12 / 3600 ft/s x 435,600 sq ft = 9.075 cu ft/s, needing Q / Vs = 17,871 sq ft;
- by storage, each storm's runoff V = C P A fits in the pool (A x 4 ft) or is detained long
  enough (A x 4 ft x duration / V >= 4 ft / Vs), so A >= min(V / 4 ft, V / (duration x Vs)).
  The 2-hour storm (1.3 in) needs most: V = 0.5 x 1.3 / 12 x 435,600 = 23,595 cu ft,
  min(5,898.75, 23,595 / (7,200 s x 5.0782e-4 ft/s) = 6,453) = 5,898.75 sq ft.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest

from siltfence.core.engineering.report import review_plan
from siltfence.core.ordinance.loader import load

ACRE_FT2 = 43_560
SECTION = "§ 413-7B(5)(c)[2]"


@pytest.fixture(scope="module")
def spencer() -> Any:
    return load("spencer-wi")


@pytest.fixture(scope="module")
def plan(spencer: Any) -> dict[str, Any]:
    path = spencer.folder / "cases" / "design" / "basin-10-acre.json"
    return json.loads(path.read_text(encoding="utf-8"))


def _basin_check(plan: dict[str, Any], drainage_acres: float) -> dict[str, Any]:
    changed = copy.deepcopy(plan)
    (basin,) = [
        f for f in changed["site"]["features"] if f["properties"]["kind"] == "sediment_basin"
    ]
    basin["properties"]["drainage_area"] = f"{drainage_acres:g} acre"
    answer = review_plan(changed).to_dict()
    assert answer["jurisdiction"] == "spencer-wi"
    (check,) = [c for c in answer["checks"] if c["id"] == "sediment-basin"]
    return check


def _step(check: dict[str, Any], label: str) -> dict[str, Any]:
    return next(s for s in check["steps"] if s["label"] == label)


def test_the_hand_numbers_rest_on_the_words_of_the_chapter(spencer: Any) -> None:
    text = (spencer.folder / "source.txt").read_text(encoding="utf-8")
    assert (
        "Each sedimentation basin shall have a surface area of at least 1% of the area "
        "draining to the basin and at least three feet of depth"
    ) in text
    assert "designed to trap sediment greater than 15 microns in size" in text


def test_a_basin_draining_ten_acres_must_be_at_least_4356_square_feet(
    plan: dict[str, Any],
) -> None:
    check = _basin_check(plan, 10)
    assert check["citation"] == SECTION
    assert _step(check, "drainage area")["value"] == pytest.approx(10 * ACRE_FT2)
    least = _step(check, "least surface area")
    assert least["value"] == pytest.approx(4_356, abs=1e-6)
    assert least["unit"] == "ft**2"
    # The share used is the chapter's, read from its data with its section.
    fraction = next(s for s in check["steps"] if s["label"].startswith("basin_surface_fraction"))
    assert fraction["value"] == pytest.approx(1.0)
    assert SECTION in fraction["formula"]
    assert "meets the 1% and 3 ft rules" in check["says"]


def test_what_trapping_fifteen_microns_asks_of_a_basin_draining_ten_acres(
    plan: dict[str, Any],
) -> None:
    check = _basin_check(plan, 10)
    storage = _step(check, "(b) basin area needed for every storm")
    assert storage["value"] == pytest.approx(5_898.75, rel=1e-9)
    peak = _step(check, "(a) basin area needed for every storm")
    assert peak["value"] == pytest.approx(17_871, rel=5e-3)
    # Both exceed the 1% floor: the area the chapter asks for is set by the trapping.
    assert storage["value"] > 4_356 and peak["value"] > 4_356


def test_a_basin_of_one_and_a_half_percent_meets_the_area_rule(plan: dict[str, Any]) -> None:
    check = _basin_check(plan, 15)
    basin = _step(check, "basin surface area")["value"]
    least = _step(check, "least surface area")["value"]
    assert least == pytest.approx(6_534, abs=1e-6)
    assert basin / (15 * ACRE_FT2) * 100 == pytest.approx(1.53, abs=0.01)
    assert "of the drainage area" not in check["says"], check["says"]
    assert not re.search(r"enlarge the basin to at least 6,534", check["fix"] or "")


def test_a_basin_under_one_percent_fails_the_area_rule_with_the_area_it_needs(
    plan: dict[str, Any],
) -> None:
    check = _basin_check(plan, 25)
    assert _step(check, "least surface area")["value"] == pytest.approx(10_890, abs=1e-6)
    assert check["result"] == "fail"
    assert "is under 1% of the drainage area (10,890 sq ft)" in check["says"], check["says"]
    assert "nlarge the basin to at least 10,890 sq ft" in check["fix"]
