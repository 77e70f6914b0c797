"""The screens' words for the contract's names (presentation/labels.py) and the anchors of a
section's subsections (presentation/sections.py)."""

from __future__ import annotations

import pytest

from siltfence.apps.web.diffing import differences
from siltfence.presentation.labels import gap, label, say, say_names
from siltfence.presentation.sections import anchor_for, cited_anchor, subsections


@pytest.mark.parametrize(
    "core, screen",
    [
        ("facts.disturbed_area: '5 kg' is not an area", "Disturbed area: '5 kg' is not an area"),
        ("4000.0 ft**2 disturbed", "4,000 sq ft disturbed"),
        ("particles of 100.0 um", "particles of 100 µm"),
        ("(routine_maintenance is false)", "(routine maintenance: no)"),
        ("activity_kind is tree_harvesting", "kind of work is tree harvesting"),
        ("land_use is not given", "land use is not given"),
        (
            "plan.site.features[2].properties.start: a disturbed_area needs start",
            "feature 3 of the plan, start: a disturbed area needs start",
        ),
        ("edit ordinances/new-glarus-wi/standards.yaml", "edit the village's standards data"),
        ("the format is in docs/plan-format.md", "the format is in the plan format page"),
        (
            "on: expected a date written YYYY-MM-DD, got '2026-13-01'",
            "Date the work is judged on: expected a date written YYYY-MM-DD, got '2026-13-01'",
        ),
        (
            "plan: not valid JSON (Expecting value at line 1)",
            "The plan: not valid JSON (Expecting value at line 1)",
        ),
    ],
)
def test_a_sentence_from_the_core_reads_in_the_screens_words(core, screen):
    assert say(core) == screen


def test_a_duty_and_its_party_read_as_a_clerk_says_them():
    assert f"{label('re_review_decision')} ({label('authority')})" == (
        "Review decision after the information arrives (Village)"
    )


def test_a_gap_reads_as_unclear_text_with_its_note_number():
    assert gap(7) == "Unclear in the text (note 7)"


def test_names_the_comparison_writes_with_spaces_read_as_words():
    assert say_names("federal npdes exempt") == (
        "exempt by federal law from an NPDES construction permit"
    )


@pytest.mark.parametrize(
    "citation, anchor",
    [
        ("§ 413-7A(3)", "413-7A-3"),
        ("§ 413-7B(5)(c)[2]", "413-7B-5-c-2"),
        ("§ 135-4A(1)(a)", "135-4A-1-a"),
        ("§ 413-7", None),
    ],
)
def test_a_citation_names_the_anchor_of_its_subsection(citation, anchor):
    assert anchor_for(citation) == anchor


TEXT = "A.\nApplicability.\n(1)\nFirst.\n[1]\nEditor's Note: Amended.\n(2)\nSecond.\n(a)\nDeep."


def test_each_marker_joins_its_words_and_gets_its_anchor():
    parts = subsections("1-1", TEXT)
    assert [(p.anchor, p.marker, p.text) for p in parts] == [
        ("1-1A", "A.", "Applicability."),
        ("1-1A-1", "(1)", "First."),
        (None, "[1]", "Editor's Note: Amended."),
        ("1-1A-2", "(2)", "Second."),
        ("1-1A-2-a", "(a)", "Deep."),
    ]


def test_a_citation_deeper_than_the_text_marks_the_nearest_subsection_above():
    assert cited_anchor("1-1", TEXT, "§ 1-1A(2)(a)[3]") == "1-1A-2-a"
    assert cited_anchor("1-1", TEXT, "§ 1-1A(9)") == "1-1A"
    assert cited_anchor("1-1", TEXT, "§ 1-1") is None


def test_only_the_words_one_side_lacks_are_marked_and_both_sides_are_escaped():
    left, right = differences(["45 days <b>"], ["30 business days <b>"])
    assert left == ['<mark class="changed">45</mark> days &lt;b&gt;']
    assert right == [
        '<mark class="changed">30</mark> <mark class="changed">business</mark> days &lt;b&gt;'
    ]
