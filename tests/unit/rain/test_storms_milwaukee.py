"""Rains and rain inspections from the real Milwaukee record, worked out by hand.

Each expectation below was found by reading the rows of GHCN_USW00014839.csv, converting
inches to millimetres (x 25.4, to 0.1 mm), adding consecutive wet days until the sum
reaches 12.7 mm (0.5 inch), which ends a rain, and starting again after it (gaps 4, 20):

- 2016-09-23 0.8, 09-24 dry, 09-25 12.7 (0.50000027 in), 09-26 dry, 09-27 1.0, 09-28 0.8,
  09-29 dry: the 25th alone is exactly 12.7 mm and qualifies; the 27th-28th is 1.8 mm.
- 2022-07-14 dry, 07-15 12.4 (0.48818924 in), 07-16 dry: 12.4 mm does not qualify.
- 2017-04-25 dry, 04-26 7.9, 04-27 12.4, 04-28 dry: neither day alone qualifies, but the
  rain of the 26th and 27th is 20.3 mm and does. Then 04-29 11.9, 04-30 27.7, 05-01 2.3,
  05-02 dry: 11.9 + 27.7 = 39.6 mm reaches the threshold on the 30th, a rain; the 2.3 mm
  of May 1 is a rain of its own, below it.
- May 2024: 05-02..04 6.4+0.8+19.8 = 27.0 (yes); 05-07 31.0 (yes); 05-09..10 2.0+4.1 = 6.1;
  05-13..14 3.6+0.3 = 3.9; 05-16 3.6; 05-20 29.7 (yes); 05-24 9.4; 05-26..28 5.1+2.0+48.0 =
  55.1 (yes). Four of eight rains qualify: no heavy day falls before the last of its storm.
- 2024-04-26..29: 1.3 + 3.6 + 7.9 = 12.8 mm reaches it on the 28th; the 29th's 2.0 mm is
  a rain below it.
"""

from __future__ import annotations

import datetime

import pytest
from tests.unit.rain.helpers import CHICAGO, MILWAUKEE, source_of

from siltfence.core.ordinance.loader import load
from siltfence.core.rain import storms_report


@pytest.fixture(scope="module")
def milwaukee():
    return source_of(MILWAUKEE, station="USW00014839")


def storms(source, jurisdiction: str, start: str, end: str) -> list[dict]:
    report = storms_report(
        source,
        load(jurisdiction),
        datetime.date.fromisoformat(start),
        datetime.date.fromisoformat(end),
        CHICAGO,
    )
    return report["storms"]


def summary(found: list[dict]) -> list[tuple[str, str, float, bool]]:
    return [(s["first_day"], s["last_day"], s["mm"], s["qualifies"]) for s in found]


def test_exactly_twelve_point_seven_mm_on_2016_09_25_qualifies(milwaukee):
    assert summary(storms(milwaukee, "spencer-wi", "2016-09-23", "2016-09-27")) == [
        ("2016-09-23", "2016-09-23", 0.8, False),
        ("2016-09-25", "2016-09-25", 12.7, True),
        ("2016-09-27", "2016-09-28", 1.8, False),  # shown whole: it runs past the 27th
    ]


def test_twelve_point_four_mm_on_2022_07_15_does_not(milwaukee):
    assert summary(storms(milwaukee, "new-glarus-wi", "2022-07-14", "2022-07-16")) == [
        ("2022-07-15", "2022-07-15", 12.4, False)
    ]


def test_two_wet_days_below_the_threshold_each_make_one_storm_above_it(milwaukee):
    assert summary(storms(milwaukee, "spencer-wi", "2017-04-25", "2017-04-30")) == [
        ("2017-04-26", "2017-04-27", 20.3, True),
        ("2017-04-29", "2017-04-30", 39.6, True),
    ]


def test_rain_after_a_storm_reached_the_threshold_is_a_rain_of_its_own(milwaukee):
    # Gap 20: the rain of April 29-30 reached 0.5 inch on the 30th and ended there; May 1's
    # 2.3 mm could never move its inspection later.
    assert summary(storms(milwaukee, "spencer-wi", "2017-05-01", "2017-05-01")) == [
        ("2017-05-01", "2017-05-01", 2.3, False),
    ]


def test_may_2024_has_eight_storms_of_which_four_qualify(milwaukee):
    assert summary(storms(milwaukee, "new-glarus-wi", "2024-05-01", "2024-05-31")) == [
        ("2024-05-02", "2024-05-04", 27.0, True),
        ("2024-05-07", "2024-05-07", 31.0, True),
        ("2024-05-09", "2024-05-10", 6.1, False),
        ("2024-05-13", "2024-05-14", 3.9, False),
        ("2024-05-16", "2024-05-16", 3.6, False),
        ("2024-05-20", "2024-05-20", 29.7, True),
        ("2024-05-24", "2024-05-24", 9.4, False),
        ("2024-05-26", "2024-05-28", 55.1, True),
    ]


def test_a_storm_crossing_the_start_of_the_range_is_shown_whole(milwaukee):
    # 2024-04-26..28 is 1.3 + 3.6 + 7.9 = 12.8 mm: one rain, asked about from the 28th; the
    # 29th's 2.0 mm is the next rain.
    assert summary(storms(milwaukee, "spencer-wi", "2024-04-28", "2024-04-30")) == [
        ("2024-04-26", "2024-04-28", 12.8, True),
        ("2024-04-29", "2024-04-29", 2.0, False),
    ]


def test_each_storm_cites_the_jurisdictions_rule_and_says_why(milwaukee):
    spencer = storms(milwaukee, "spencer-wi", "2016-09-25", "2016-09-25")[0]
    glarus = storms(milwaukee, "new-glarus-wi", "2022-07-15", "2022-07-15")[0]
    assert spencer["citation"] == "§ 413-8E(3)(g)"
    assert spencer["says"] == "rain of 0.5 in (12.7 mm) on 2016-09-25: 0.5 inch (12.7 mm) or more"
    assert glarus["citation"] == "§ 135-7E(7)"
    assert glarus["says"].endswith("less than 0.5 inch (12.7 mm)")
    assert spencer["inches"] == 0.5 and glarus["inches"] == 0.488


def test_days_without_a_value_are_counted_and_named(milwaukee):
    report = storms_report(
        milwaukee,
        load("spencer-wi"),
        datetime.date(2026, 8, 15),
        datetime.date(2026, 8, 25),
        CHICAGO,
    )
    # the record ends on 2026-08-19: the 20th to the 25th (6 days) have no value
    assert report["missing_days"] == 6
    assert any("no value for 6 of the 11 days (2026-08-20" in n["says"] for n in report["notes"])


def test_a_range_before_the_chapter_set_its_rain_rule_is_an_error(milwaukee):
    from siltfence.core.errors import SiltfenceError

    with pytest.raises(SiltfenceError, match=r"^from: 1950-05-01 is before Ch. 413"):
        storms(milwaukee, "spencer-wi", "1950-05-01", "1950-05-31")
