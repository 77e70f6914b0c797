"""Defined terms read from the definitions sections' text (Spencer § 413-4, New Glarus
§ 135-13) and found in running text. The lists are the chapters' own, as the section map
of the ordinances' README gives them."""

from __future__ import annotations

from siltfence.core.ordinance.loader import load
from siltfence.core.ordinance.terms import defined_terms, mentions

SPENCER = {
    "AGRICULTURAL LAND USE",
    "COMMERCIAL LAND USE",
    "CONSTRUCTION SITE CONTROL MEASURE",
    "CONTROL MEASURE",
    "CONTROL PLAN",
    "EROSION",
    "LAND DEVELOPING ACTIVITY",
    "LAND DISTURBING CONSTRUCTION ACTIVITY",
    "LAND USER",
    "LANDOWNER",
    "RUNOFF",
    "SET OF ONE-YEAR DESIGN STORMS",
    "SITE",
}


def found(text: str, jurisdiction: str) -> list[tuple[str, str]]:
    terms = defined_terms(load(jurisdiction))
    return [(text[m.start : m.end], m.term.names[0]) for m in mentions(text, terms)]


def test_spencer_defines_the_thirteen_terms_of_section_413_4_with_their_meaning():
    terms = defined_terms(load("spencer-wi"))
    assert {t.names[0] for t in terms} == SPENCER
    runoff = next(t for t in terms if t.names == ("RUNOFF",))
    assert (
        runoff.meaning
        == "The rainfall, snowmelt, or irrigation water flowing over the ground surface."
    )
    assert runoff.citation == "§ 413-4"


def test_new_glarus_reads_a_term_written_with_or_as_two_names_of_one_meaning():
    terms = defined_terms(load("new-glarus-wi"))
    bmp = next(t for t in terms if "BMP" in t.names)
    assert bmp.names == ("BEST MANAGEMENT PRACTICE", "BMP")
    assert bmp.citation == "§ 135-13"
    assert found("Inspect the BMPs within 24 hours", "new-glarus-wi") == [
        ("BMPs", "BEST MANAGEMENT PRACTICE")
    ]


def test_the_longer_term_wins_and_plurals_and_any_case_are_found_once():
    text = "Construction site control measures and control measures; Runoff, runoff"
    assert found(text, "spencer-wi") == [
        ("Construction site control measures", "CONSTRUCTION SITE CONTROL MEASURE"),
        ("control measures", "CONTROL MEASURE"),
        ("Runoff", "RUNOFF"),
    ]


def test_a_term_inside_another_word_is_not_a_mention():
    assert found("the website and the campsites", "spencer-wi") == []
    assert found("a siteplan", "spencer-wi") == []


def test_hyphens_and_spaces_match_each_other():
    assert found("land-disturbing construction activity", "spencer-wi") == [
        ("land-disturbing construction activity", "LAND DISTURBING CONSTRUCTION ACTIVITY")
    ]
