"""Determinations read against the chapters' words: duties that bind every construction
site, readings the text leaves open, and citations to the right subsection."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from siltfence.core.ordinance.compare import compare
from siltfence.core.ordinance.loader import load
from siltfence.core.rules import determine

ON = datetime.date(2026, 11, 30)


def answer(jurisdiction: str, facts: dict[str, Any]) -> dict[str, Any]:
    return determine(jurisdiction, facts, ON).to_json()


def note_ids(result: dict[str, Any]) -> set[str]:
    return {n["id"] for n in result["notes"]}


# -- § 413-11B: "No person ... engaging in activity at a construction site ... shall allow
# erosion ... or the tracking or dropping of dirt ... onto any public street" -------------


@pytest.mark.parametrize(
    "facts",
    [
        {"disturbed_area": 3000},  # below every § 413-7A criterion
        {"disturbed_area": 3999},
        {"disturbed_area": 4000},  # meets § 413-7A(3)
        {"road_work": True},
    ],
)
def test_every_spencer_construction_site_carries_the_section_413_11_duty(facts):
    result = answer("spencer-wi", facts)
    duty = next(r for r in result["requirements"] if r["citation"] == "§ 413-11B")
    assert duty["scope"] == "every_site"
    assert "tracking or dropping of dirt" in duty["says"]
    for who in ("agents", "employees", "subcontractors", "haulers"):
        assert who in duty["responsible"]


def test_a_spencer_no_permit_answer_says_section_413_11_still_binds():
    result = answer("spencer-wi", {"disturbed_area": 3000})
    assert result["applies"] is False
    assert "street-tracking-prohibition-without-permit" in note_ids(result)


def test_a_permit_answer_does_not_repeat_the_no_permit_note():
    result = answer("spencer-wi", {"disturbed_area": 5000})
    assert result["applies"] is True
    assert "street-tracking-prohibition-without-permit" not in note_ids(result)


@pytest.mark.parametrize(
    "facts", [{"disturbed_area": 5000, "location": "outside"}, {"state_funded": True}]
)
def test_the_section_413_11_duty_does_not_reach_outside_the_chapter(facts):
    # Outside the territory (§ 413-3), or state funded or conducted construction, which "is
    # exempt from this chapter" (§ 413-3): no duty of the chapter binds.
    result = answer("spencer-wi", facts)
    assert all(r["citation"] != "§ 413-11B" for r in result["requirements"])


def test_new_glarus_has_no_duty_binding_sites_without_a_permit():
    result = answer("new-glarus-wi", {"disturbed_area": 3000})
    assert result["requirements"] == []


# -- § 413-4: "land disturbing construction activity", a defined term no operative clause
# uses ------------------------------------------------------------------------------------


def test_the_landscaping_exclusion_deciding_the_answer_carries_its_reading():
    result = answer("spencer-wi", {"disturbed_area": 5000, "activity_kind": "landscaping"})
    assert result["applies"] is False
    note = next(n for n in result["notes"] if n["id"] == "defined-term-not-used")
    assert note["citations"] == ["§ 413-4", "§ 413-7A"]


def test_the_exclusion_note_stays_away_when_no_criterion_is_met():
    result = answer("spencer-wi", {"disturbed_area": 3000, "activity_kind": "landscaping"})
    assert "defined-term-not-used" not in note_ids(result)


# -- § 413-7B(5)(c) "either of the following" -----------------------------------------------


def test_spencer_says_that_stabilization_and_basins_or_fences_are_listed_on_a_reading():
    result = answer("spencer-wi", {"disturbed_area": 5000})
    ids = {r["id"] for r in result["requirements"]}
    assert {"stabilization", "fences-or-bales"} <= ids
    note = next(n for n in result["notes"] if n["id"] == "either-of-the-following")
    assert "either of the following" in note["says"]


def test_no_either_note_where_no_runoff_leaves_the_site():
    result = answer("spencer-wi", {"disturbed_area": 5000, "runoff_leaves_site": False})
    assert "either-of-the-following" not in note_ids(result)


# -- a plan tier chosen without an area -------------------------------------------------


def test_road_work_without_an_area_says_the_plan_depends_on_the_area():
    result = answer("spencer-wi", {"road_work": True})
    assert result["plan"]["kind"] == "control_plan_statement"
    note = next(n for n in result["notes"] if n["id"] == "plan-tier-area-not-given")
    assert note["citations"] == ["§ 413-8B", "§ 413-8C"]


def test_no_area_note_once_the_area_is_given():
    result = answer("spencer-wi", {"road_work": True, "disturbed_area": 2000})
    assert "plan-tier-area-not-given" not in note_ids(result)


# -- § 413-7B(5)(d) "should not be located" -------------------------------------------------


def test_the_stockpile_requirement_quotes_should_and_notes_the_reading():
    result = answer("spencer-wi", {"disturbed_area": 5000})
    stockpiles = next(r for r in result["requirements"] if r["id"] == "stockpiles")
    assert '"should not be located"' in stockpiles["says"]
    assert "stockpile-should" in note_ids(result)


# -- § 135-13 "construction site": "part of a larger common plan of development or sale" --


def test_a_small_lot_in_a_larger_common_plan_needs_a_new_glarus_permit():
    facts = {
        "disturbed_area": 1500,
        "part_of_common_plan": True,
        "common_plan_disturbed_area": 4000,
    }
    result = answer("new-glarus-wi", facts)
    assert result["applies"] is True
    trigger = next(f for f in result["findings"] if f["id"] == "common-plan-area-trigger")
    assert trigger["holds"] is True


def test_a_common_plan_under_4000_sq_ft_does_not_bring_the_lot_in():
    facts = {
        "disturbed_area": 1500,
        "part_of_common_plan": True,
        "common_plan_disturbed_area": 3999,
    }
    assert answer("new-glarus-wi", facts)["applies"] is False


def test_a_plan_area_without_the_plan_flag_does_not_count():
    facts = {"disturbed_area": 1500, "common_plan_disturbed_area": 10000}
    assert answer("new-glarus-wi", facts)["applies"] is False


def test_part_of_a_common_plan_without_its_area_asks_for_it():
    result = answer("new-glarus-wi", {"disturbed_area": 1500, "part_of_common_plan": True})
    assert result["applies"] is False
    assert "common-plan-area-not-given" in note_ids(result)


def test_spencer_says_it_has_no_common_plan_rule():
    facts = {
        "disturbed_area": 1500,
        "part_of_common_plan": True,
        "common_plan_disturbed_area": 9000,
    }
    result = answer("spencer-wi", facts)
    assert result["applies"] is False
    assert "fact-not-used-part-of-common-plan" in note_ids(result)


# -- citations ---------------------------------------------------------------------------


def test_the_utility_note_cites_all_of_section_413_7a():
    # The NOTE follows § 413-7A(6) but speaks of "any of the above applicability criteria".
    result = answer("spencer-wi", {"underground_pipe_length": 50})
    note = next(n for n in result["notes"] if n["id"] == "utility-memorandum")
    assert note["citations"] == ["§ 413-7A"]


def test_the_version_stands_in_note_cites_the_chapter_history_not_section_1():
    result = determine("spencer-wi", {"disturbed_area": 5000}, datetime.date(2000, 1, 3)).to_json()
    note = next(n for n in result["notes"] if n["id"] == "version-stands-in")
    assert note["citations"] == ["Ch. 413, history"]


def test_who_applies_is_cited_to_the_application_sections():
    topics = {t.name: t for t in compare(load("spencer-wi"), load("new-glarus-wi"), ON, ON)}
    who = topics["Who applies"]
    assert who.left[0][1] == "§ 413-8A"
    assert who.right[0][1] == "§ 135-6A"
    assert topics["Administering authority"].left[0][1] == "§ 413-8A"


def test_the_permit_repeats_the_words_of_section_413_8e_3_f():
    spencer = load("spencer-wi").rules["permit_conditions"]
    repair = next(c for c in spencer if c["id"] == "repair-damage")
    assert repair["says"].startswith("Repair any situation or erosion damage")
    assert "siltation" in repair["note"]
    new_glarus = load("new-glarus-wi").rules["permit_conditions"]
    assert next(c for c in new_glarus if c["id"] == "repair-damage")["says"].startswith(
        "Repair any siltation or erosion damage"
    )


def test_the_seeding_cutoff_is_described_as_before_september_15():
    description = load("spencer-wi").parameters["seeding_cutoff"].description
    assert "before this day" in description
    assert "Last day" not in description


def test_new_glarus_permits_may_carry_conditions_the_administrator_adds():
    added = load("new-glarus-wi").rules["permit"]["added_conditions"]
    assert added["citation"] == "§ 135-7F"
    assert "added_conditions" not in load("spencer-wi").rules["permit"]
