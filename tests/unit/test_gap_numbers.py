"""The gaps of the texts keep the section map's numbers (``ordinances/README.md``, "Gaps and
ambiguities the system must show, not hide", numbers 1 to 26), one meaning each, and every
gap the code or the docs cite by number is in the villages' data (``rules.yaml`` ``gaps:``).

The table below is copied by hand from the section map's list: the question each number
names, and the id each village's data gives it. A village the question does not concern
has no entry for it (gap 1 is Spencer's one acre; gap 22 is New Glarus's review clock).
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest

from siltfence.core.ordinance.loader import load

ROOT = Path(__file__).resolve().parents[2]
SPENCER, NEW_GLARUS = "spencer-wi", "new-glarus-wi"

# number -> the ids of the village's entries for that question of the list.
LISTED = {
    SPENCER: {
        1: {"plan-tier-one-acre"},  # exactly one acre: 8B "more than", 8C "less than"
        2: {"basins-ten-acres"},  # exactly 10 acres
        3: {"rain-inspection-deadline"},  # "after each rain" sets no deadline
        4: {"rain-event"},  # what "a rain of 0.5 inch" is
        6: {"forfeiture-amount"},  # amounts in Ch. 1 § 1-3
        10: {"runoff-leaving-site"},  # 7B(5) "only to ... runoff leaving the site"
        11: {"counting-time"},  # how days and hours are counted
        12: {"winter-inspection-leap-day"},  # "ending February 28"
        13: {"weekly-inspection"},  # "at least once each week"
        14: {"extraterritorial-reach"},
        20: {"each-rain"},  # no grouping owes fewer or later inspections
        21: {"ten-days-from"},  # § 413-10B/C "within 10 days" from what
        24: {"interest-rate"},  # "at the rate authorized"
        25: {"pending-appeal"},  # whether a pending appeal holds the step
        26: {"rain-unknown-days"},  # a day with no station record is unknown
    },
    NEW_GLARUS: {
        4: {"rain-event"},
        5: {"business-day"},  # the Administrator's office calendar
        7: {"requirements-document"},  # the Requirements document not received
        8: {"designation-and-exemptions"},  # 4A(3) "notwithstanding"
        9: {"no-municipal-inspection-schedule", "section-135-10-not-received"},  # § 135-10
        11: {"counting-time"},
        13: {"weekly-inspection"},
        14: {"extraterritorial-reach"},
        20: {"each-rain"},
        22: {"information-request-clock"},  # § 135-7C(1) and a request for information
        23: {"active-construction"},  # "during active construction periods"
        24: {"interest-rate"},
        25: {"pending-appeal"},
        26: {"rain-unknown-days"},
    },
}
# The list's numbers: 1 to 14 and 20 to 26 name questions; 15 to 19 are the project's own.
LIST_NUMBERS = set(range(1, 15)) | set(range(20, 27))
# Questions the list puts to both villages alike.
BOTH = {4, 11, 13, 14, 20, 24, 25, 26}

CITED = re.compile(r"\b[Gg]aps? (\d+(?:(?:,? and |, | to |–|/)\d+)*)")


def _gaps(village: str) -> list[dict]:
    return list(load(village).rules["gaps"])


def _cited_numbers(text: str) -> set[int]:
    found: set[int] = set()
    for match in CITED.finditer(text):
        words = match.group(1)
        for low, high in re.findall(r"(\d+)(?: to |–)(\d+)", words):
            found.update(range(int(low), int(high) + 1))
        found.update(int(n) for n in re.findall(r"\d+", words))
    return found


def _cited_in_code_and_docs() -> dict[int, list[str]]:
    where: dict[int, list[str]] = defaultdict(list)
    files = [ROOT / "README.md"]
    for folder in (ROOT / "src", ROOT / "docs"):
        files += [
            p
            for p in folder.rglob("*")
            if p.suffix in (".py", ".html", ".md", ".txt", ".yaml")
            and "__pycache__" not in p.parts
            and "vendor" not in p.parts
        ]
    for path in files:
        for number in _cited_numbers(path.read_text(encoding="utf-8")):
            where[number].append(str(path.relative_to(ROOT)))
    return where


def test_the_citations_are_read_as_written() -> None:
    assert _cited_numbers("(gap 13, the reading taken)") == {13}
    assert _cited_numbers("gaps 4 and 20; Gaps 15 to 18; gap 4/20; gaps 1, 2 and 3") == {
        1,
        2,
        3,
        4,
        15,
        16,
        17,
        18,
        20,
    }


@pytest.mark.parametrize("village", [SPENCER, NEW_GLARUS])
def test_each_question_of_the_list_keeps_its_number(village: str) -> None:
    by_number: dict[int, set[str]] = defaultdict(set)
    for gap in _gaps(village):
        by_number[gap["number"]].add(gap["id"])
    listed = {n: ids for n, ids in by_number.items() if n in LIST_NUMBERS}
    assert listed == LISTED[village]


@pytest.mark.parametrize("village", [SPENCER, NEW_GLARUS])
def test_no_number_means_two_things_in_one_village(village: str) -> None:
    # Entries that share a number are one gap seen from two topics: they cite the same
    # provisions (New Glarus's § 135-10, gap 9, for its inspections and its enforcement).
    by_number: dict[int, list[dict]] = defaultdict(list)
    for gap in _gaps(village):
        by_number[gap["number"]].append(gap)
    for number, gaps in by_number.items():
        cited = {tuple(g["citations"]) for g in gaps}
        assert len(cited) == 1, (number, [g["id"] for g in gaps])
    # A reading of the project's own takes no number the list gives another question:
    # the total of a permit's extensions is neither 22 (New Glarus's review clock) nor 24
    # (interest).
    extension = next(g for g in _gaps(village) if g["id"] == "extension-total")
    assert extension["number"] not in LIST_NUMBERS


def test_every_gap_the_code_and_the_docs_cite_is_in_the_data() -> None:
    numbers = {v: {g["number"] for g in _gaps(v)} for v in (SPENCER, NEW_GLARUS)}
    cited = _cited_in_code_and_docs()
    # What this test was written against: the interest (24), a pending appeal (25) and a
    # day with no station record (26) among them.
    assert {24, 25, 26, 13, 21} <= set(cited)
    missing = {
        n: files for n, files in cited.items() if n not in numbers[SPENCER] | numbers[NEW_GLARUS]
    }
    assert missing == {}
    for number in BOTH & set(cited):
        assert number in numbers[SPENCER] and number in numbers[NEW_GLARUS], number


def test_every_gap_number_in_the_data_is_explained_in_the_ordinances_readme() -> None:
    """A person reading "gap 33" on an answer finds it in ``ordinances/README.md``."""
    import re

    readme = (ROOT / "ordinances" / "README.md").read_text(encoding="utf-8")
    explained = {int(n) for n in re.findall(r"^(\d+)\. ", readme, flags=re.MULTILINE)}
    for first, last in re.findall(r"^(\d+)[–-](\d+)\. ", readme, flags=re.MULTILINE):
        explained |= set(range(int(first), int(last) + 1))
    for village in (SPENCER, NEW_GLARUS):
        numbers = {int(g["number"]) for g in load(village).rules["gaps"] if "number" in g}
        assert numbers <= explained, (village, sorted(numbers - explained))
