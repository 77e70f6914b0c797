"""The season outlook on the real Milwaukee record (GHCN_USW00014839.csv), held-back cases
worked out from the file's rows apart from the code under test (by hand, and by a
twenty-line count of the CSV that shares no code with siltfence): each day's inches to
tenths of a millimetre (x 254, half up), consecutive wet days summed until the sum
reaches 127 tenths (0.5 inch), which ends a rain (gaps 4, 20), and a rain counted once
when any of its days falls in the planned days.

- May 2024: four storms qualify (05-02..04 27.0 mm, 05-07 31.0, 05-20 29.7, 05-26..28
  55.1); see test_storms_milwaukee.py for the eight storms of the month.
- May 2017: two. April 29-30 (11.9 + 27.7 = 39.6 mm) ended before May; 05-19..20 (14.0
  mm) and 05-28 (13.7 mm) qualify; 05-21 0.3 and 05-29 2.0 are rains below the threshold.
- May 2023: one, reaching back into April: 04-29..05-01 15.0 mm, counted once.
- April 15 to October 15, 1991 to 2020 (no day missing in any year): qualifying rains per
  year 17 18 22 12 18 14 15 15 20 22 25 13 12 18 8 15 17 19 16 21 17 13 17 19 15 15 15 26
  27 17. Ranked: 8 12 12 13 13 14 15 15 15 15 15 15 16 17 17 17 17 17 18 18 18 19 19 20 21
  22 22 25 26 27. Median (15th and 16th of 30) 17; 10th percentile at rank 1 + 29 x 0.1 =
  3.9, between the 3rd and 4th (12 and 13): 12.9; 90th at rank 1 + 29 x 0.9 = 27.1,
  between the 27th and 28th (22 and 25): 22.3. (Under the earlier whole-storm reading the
  median was 13.5: each day of half an inch or more is now a rain of its own.)
- November 1, 2019 to February 29, 2020 (a leap year's winter): six.
"""

from __future__ import annotations

import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.unit.rain.helpers import CHICAGO, MILWAUKEE, source_of

from siltfence.core.errors import SiltfenceError
from siltfence.core.ordinance.loader import load
from siltfence.core.rain.outlook import season_outlook

D = datetime.date


@pytest.fixture(scope="module")
def record():
    source = source_of(MILWAUKEE, station="USW00014839")
    return source.record


def outlook(record, start, end, years, jurisdiction="spencer-wi"):
    return season_outlook(
        record.days,
        load(jurisdiction),
        start,
        end,
        CHICAGO,
        years=years,
        missing=record.missing,
    )


def test_a_permit_for_may_2024_owes_four_inspections_after_rain(record):
    found = outlook(record, D(2027, 5, 1), D(2027, 5, 31), range(2024, 2025))
    assert found["qualifying_rains"]["by_year"] == {2024: 4}
    assert found["rain_inspections"]["median"] == 4
    assert found["rain_inspections"]["citation"] == "§ 413-8E(3)(g)"


def test_a_rain_reaching_back_before_the_first_planned_day_still_counts_once(record):
    found = outlook(record, D(2027, 5, 1), D(2027, 5, 31), range(2023, 2024))
    assert found["qualifying_rains"]["by_year"] == {2023: 1}


def test_a_rain_that_ended_before_the_first_planned_day_does_not_count(record):
    found = outlook(record, D(2027, 5, 1), D(2027, 5, 31), range(2017, 2018))
    assert found["qualifying_rains"]["by_year"] == {2017: 2}


def test_a_season_from_april_15_to_october_15_over_1991_to_2020(record):
    found = outlook(record, D(2027, 4, 15), D(2027, 10, 15), range(1991, 2021))
    rains = found["qualifying_rains"]
    assert rains["by_year"][1991] == 17 and rains["by_year"][2001] == 25
    assert rains["by_year"][2005] == 8
    assert (rains["median"], rains["p10"], rains["p90"]) == (17.0, 12.9, 22.3)
    assert (rains["min"], rains["max"]) == (8, 27)
    assert found["years"] == {"from": 1991, "to": 2020, "used": 30}
    assert found["years_left_out"] == []
    assert found["weekly_inspections"] == 26  # 184 days: 26 whole weeks


def test_new_glarus_counts_the_same_rains_and_says_runoff_is_assumed(record):
    found = outlook(record, D(2027, 4, 15), D(2027, 10, 15), range(1991, 2021), "new-glarus-wi")
    assert found["qualifying_rains"]["median"] == 17.0
    assert found["rule"]["citation"] == "§ 135-7E(7)"
    assert any("runoff" in n["says"] for n in found["notes"])


def test_a_winter_window_across_the_new_year_includes_february_29(record):
    found = outlook(record, D(2027, 11, 1), D(2028, 2, 29), range(2019, 2020))
    assert found["qualifying_rains"]["by_year"] == {2019: 6}


def test_years_before_the_record_began_are_left_out_and_named(record):
    # The record begins 1938-04-01 with no value that day: March 1938 is not on record.
    found = outlook(record, D(2027, 3, 1), D(2027, 3, 31), range(1938, 1940))
    assert [y["year"] for y in found["years_left_out"]] == [1938]
    assert found["years"]["used"] == 1
    with pytest.raises(SiltfenceError) as refused:
        outlook(record, D(2027, 3, 1), D(2027, 3, 31), range(1938, 1939))
    assert refused.value.field == "years"


def test_a_schedule_ending_before_it_begins_or_longer_than_a_season_is_refused(record):
    with pytest.raises(SiltfenceError) as refused:
        outlook(record, D(2027, 5, 2), D(2027, 5, 1), range(2020, 2021))
    assert refused.value.field == "to"
    with pytest.raises(SiltfenceError) as refused:
        outlook(record, D(2027, 1, 1), D(2028, 1, 2), range(2020, 2021))
    assert refused.value.field == "to"


@settings(max_examples=40, deadline=3000)
@given(
    start=st.dates(min_value=D(2026, 1, 1), max_value=D(2027, 12, 31)),
    length=st.integers(min_value=-5, max_value=400),
)
def test_any_schedule_gives_an_outlook_or_a_refusal_naming_the_field(record, start, length):
    try:
        found = outlook(record, start, start + datetime.timedelta(days=length), range(2015, 2021))
    except SiltfenceError as exc:
        assert exc.field in ("to", "years", "from")
    else:
        assert found["qualifying_rains"]["p10"] <= found["qualifying_rains"]["median"]
        assert found["qualifying_rains"]["median"] <= found["qualifying_rains"]["p90"]
