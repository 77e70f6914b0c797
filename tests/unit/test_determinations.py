"""The Determination's JSON against the public contract v1 (DESIGN.md), and the version
of a chapter in force on a date."""

from __future__ import annotations

import datetime
import json
import re
from typing import Any

import pytest

from siltfence.core.errors import NotInForce, UnknownJurisdiction
from siltfence.core.ordinance.loader import load
from siltfence.core.rules import determine

ON = datetime.date(2026, 11, 30)
CHAPTER_CITATION = re.compile(r"^§ \d+-\d+")
OUTSIDE_CITATION = re.compile(r"Wis\. Stats\.|Wis\. Adm\. Code|CFR|Code Ch\. \d+")


def as_json(jurisdiction: str, facts: dict[str, Any], on: datetime.date = ON) -> dict[str, Any]:
    return determine(jurisdiction, facts, on).to_json()


def all_citations(result: dict[str, Any]) -> list[str]:
    citations = [f["citation"] for f in result["findings"]]
    if result["plan"] is not None:
        citations.append(result["plan"]["citation"])
        citations += [c["citation"] for c in result["plan"]["contents"]]
    citations += [r["citation"] for r in result["requirements"]]
    citations += [c for n in result["notes"] for c in n["citations"]]
    return citations


def test_a_determination_has_every_key_of_the_contract() -> None:
    result = as_json("spencer-wi", {"disturbed_area": 5000})
    assert {
        "jurisdiction",
        "ordinance",
        "evaluated_on",
        "applies",
        "findings",
        "plan",
        "requirements",
        "notes",
    } <= set(result)
    assert result["jurisdiction"] == "spencer-wi"
    assert {"title", "version"} <= set(result["ordinance"])
    assert "413" in result["ordinance"]["title"]
    assert result["ordinance"]["version"] == "2015-02-17"
    assert result["evaluated_on"] == "2026-11-30"
    assert result["applies"] is True
    for finding in result["findings"]:
        assert {"id", "holds", "citation", "says"} <= set(finding)
        assert isinstance(finding["holds"], bool)
        assert finding["says"].strip()
    assert {"kind", "citation", "contents"} <= set(result["plan"])
    for item in result["plan"]["contents"]:
        assert {"item", "citation"} <= set(item)
    for requirement in result["requirements"]:
        assert {"id", "citation", "says"} <= set(requirement)
    for note in result["notes"]:
        assert {"says", "citations"} <= set(note)
        assert note["citations"]


def test_a_determination_is_plain_json() -> None:
    result = as_json(
        "new-glarus-wi", {"disturbed_area": "1.2 acre", "location": "extraterritorial"}
    )
    assert json.loads(json.dumps(result)) == result


def test_the_new_glarus_version_is_the_text_adopted_in_2002() -> None:
    result = as_json("new-glarus-wi", {"disturbed_area": 5000})
    assert result["ordinance"]["version"] == "2002-12-03"
    assert "135" in result["ordinance"]["title"]


def test_plan_is_null_and_no_permit_requirement_attaches_where_the_chapter_does_not_apply() -> None:
    # Only the duties that bind every construction site remain (Spencer § 413-11B).
    for jurisdiction in ("spencer-wi", "new-glarus-wi"):
        result = as_json(jurisdiction, {"disturbed_area": 3999})
        assert result["applies"] is False
        assert result["plan"] is None
        assert [r for r in result["requirements"] if r["scope"] == "permit"] == []


def test_spencer_findings_list_all_six_applicability_criteria_and_both_exemptions() -> None:
    # § 413-7A(1)-(6); § 413-3 (state funded or conducted); § 413-4 (not land disturbing
    # construction activity). All listed, most not holding, for a plain small site.
    result = as_json("spencer-wi", {"disturbed_area": 100})
    citations = {f["citation"] for f in result["findings"]}
    assert {f"§ 413-7A({n})" for n in range(1, 7)} <= citations
    assert {"§ 413-3", "§ 413-4"} <= citations
    assert [f["holds"] for f in result["findings"] if f["citation"].startswith("§ 413-7A")] == [
        False
    ] * 6


def test_new_glarus_findings_list_the_three_size_triggers_the_designation_and_four_exemptions() -> (
    None
):
    result = as_json("new-glarus-wi", {"disturbed_area": 100})
    citations = {f["citation"] for f in result["findings"]}
    assert {"§ 135-4A(1)(a)", "§ 135-4A(1)(b)", "§ 135-4A(1)(c)", "§ 135-4A(3)"} <= citations
    assert {"§ 135-4A(2)(a)", "§ 135-4A(2)(b)", "§ 135-4A(2)(c)", "§ 135-4C"} <= citations


def test_the_territory_finding_cites_the_jurisdiction_section() -> None:
    spencer = as_json("spencer-wi", {"disturbed_area": 5000})
    glarus = as_json("new-glarus-wi", {"disturbed_area": 5000})
    assert {f["id"]: f["citation"] for f in spencer["findings"]}["territory"] == "§ 413-3"
    assert {f["id"]: f["citation"] for f in glarus["findings"]}["territory"] == "§ 135-4B"


def test_the_area_finding_explains_itself_with_both_numbers() -> None:
    result = as_json("spencer-wi", {"disturbed_area": 5000})
    area = next(f for f in result["findings"] if f["citation"] == "§ 413-7A(3)")
    assert area["holds"] is True
    assert "5,000 sq ft" in area["says"]
    assert "4,000 sq ft" in area["says"]


@pytest.mark.parametrize(
    ("jurisdiction", "facts"),
    [
        ("spencer-wi", {"disturbed_area": "12 acre", "land_use": "commercial"}),
        ("spencer-wi", {"disturbed_area": 435_600, "location": "extraterritorial"}),
        ("spencer-wi", {"disturbed_area": 5000, "state_funded": True, "runoff_leaves_site": False}),
        ("new-glarus-wi", {"disturbed_area": "2 acre", "state_funded": True}),
        (
            "new-glarus-wi",
            {
                "disturbed_area": 100,
                "designated_by_authority": True,
                "activity_kind": "agricultural",
                "location": "extraterritorial",
            },
        ),
    ],
)
def test_every_citation_names_a_section_of_the_chapter_or_an_outside_provision(
    jurisdiction: str, facts: dict[str, Any]
) -> None:
    chapter = {"spencer-wi": "413", "new-glarus-wi": "135"}[jurisdiction]
    for citation in all_citations(as_json(jurisdiction, facts)):
        if CHAPTER_CITATION.match(citation):
            assert citation.startswith(f"§ {chapter}-"), citation
        else:
            assert OUTSIDE_CITATION.search(citation), citation


def test_gap_notes_cite_every_provision_involved_and_their_gap_number() -> None:
    # README gap 1: § 413-8B "more than one acre" against § 413-8C "less than one acre".
    one_acre = as_json("spencer-wi", {"disturbed_area": 43_560})
    tier = next(n for n in one_acre["notes"] if n["id"] == "plan-tier-one-acre")
    assert {"§ 413-8B", "§ 413-8C"} <= set(tier["citations"])
    assert tier["gap"] == 1
    # README gap 2: § 413-7B(5)(c)[2] "more than 10 acres" against [3] "less than 10 acres".
    ten_acres = as_json("spencer-wi", {"disturbed_area": 435_600})
    basins = next(n for n in ten_acres["notes"] if n["id"] == "basins-ten-acres")
    assert {"§ 413-7B(5)(c)[2]", "§ 413-7B(5)(c)[3]"} <= set(basins["citations"])
    assert basins["gap"] == 2
    # README gap 8: § 135-4A(3) against § 135-4A(2) and § 135-4C.
    designated = as_json(
        "new-glarus-wi",
        {"disturbed_area": 100, "designated_by_authority": True, "activity_kind": "agricultural"},
    )
    override = next(n for n in designated["notes"] if n["id"] == "designation-and-exemptions")
    assert {"§ 135-4A(2)", "§ 135-4A(3)", "§ 135-4C"} <= set(override["citations"])
    assert override["gap"] == 8


def test_the_evaluation_date_is_an_input_not_the_clock() -> None:
    early = as_json("spencer-wi", {"disturbed_area": 5000}, datetime.date(2000, 1, 1))
    assert early["evaluated_on"] == "2000-01-01"


def test_an_unknown_jurisdiction_is_an_error_naming_the_known_ones() -> None:
    with pytest.raises(UnknownJurisdiction) as raised:
        determine("madison-wi", {"disturbed_area": 5000}, ON)
    assert "spencer-wi" in str(raised.value)
    assert "new-glarus-wi" in str(raised.value)


# --- Ordinance.version_on -------------------------------------------------------------


def test_spencer_is_not_in_force_the_day_before_adoption() -> None:
    with pytest.raises(NotInForce) as raised:
        load("spencer-wi").version_on(datetime.date(1993, 10, 3))
    assert "1993-10-04" in str(raised.value)


def test_on_spencer_adoption_day_the_2015_text_stands_in_with_a_note() -> None:
    version, note = load("spencer-wi").version_on(datetime.date(1993, 10, 4))
    assert version.effective == datetime.date(2015, 2, 17)
    assert note


def test_from_2015_02_17_the_spencer_text_held_is_in_force_without_a_note() -> None:
    spencer = load("spencer-wi")
    for on in (datetime.date(2015, 2, 17), datetime.date(2026, 11, 30)):
        version, note = spencer.version_on(on)
        assert version.effective == datetime.date(2015, 2, 17)
        assert note is None


def test_new_glarus_is_in_force_from_its_adoption_day_without_a_note() -> None:
    glarus = load("new-glarus-wi")
    with pytest.raises(NotInForce):
        glarus.version_on(datetime.date(2002, 12, 2))
    version, note = glarus.version_on(datetime.date(2002, 12, 3))
    assert version.effective == datetime.date(2002, 12, 3)
    assert note is None
