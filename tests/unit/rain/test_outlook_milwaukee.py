"""The season outlook on the real Milwaukee record (GHCN_USW00014839.csv), held-back cases
worked out by hand from the file's rows, apart from the code under test: each day's
inches to tenths of a millimetre (x 254, half up), consecutive wet days summed as one
storm, a storm counted once when any of its days falls in the planned days, and 127
tenths (0.5 inch) or more qualifies.

- May 2024: four storms qualify (05-02..04 27.0 mm, 05-07 31.0, 05-20 29.7, 05-26..28
  55.1); see test_storms_milwaukee.py for the eight storms of the month.
- May 2017: three, the first reaching back into April: 04-29..05-01 41.9 mm, 05-19..21
  14.3 mm, 05-28..29 15.7 mm.
- April 15 to October 15, 1991 to 2020 (no day missing in any year): qualifying rains per
  year 15 15 18 10 15 12 12 13 12 17 22 10 10 14 8 13 11 14 12 18 13 13 14 16 11 15 15 19
  17 13. Ranked: 8 10 10 10 11 11 12 12 12 12 13 13 13 13 13 14 14 14 15 15 15 15 15 16 17
  17 18 18 19 22. Median (15th and 16th of 30) 13.5; 10th percentile at rank 1 + 29 x 0.1
  = 3.9, between the 3rd and 4th (10 and 10): 10; 90th at rank 1 + 29 x 0.9 = 27.1,
  between the 27th and 28th (18 and 18): 18.
- November 1, 2019 to February 29, 2020 (a leap year's winter): seven.
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


def test_a_storm_reaching_back_before_the_first_planned_day_still_counts_once(record):
    found = outlook(record, D(2027, 5, 1), D(2027, 5, 31), range(2017, 2018))
    assert found["qualifying_rains"]["by_year"] == {2017: 3}


def test_a_season_from_april_15_to_october_15_over_1991_to_2020(record):
    found = outlook(record, D(2027, 4, 15), D(2027, 10, 15), range(1991, 2021))
    rains = found["qualifying_rains"]
    assert rains["by_year"][1991] == 15 and rains["by_year"][2001] == 22
    assert rains["by_year"][2005] == 8
    assert (rains["median"], rains["p10"], rains["p90"]) == (13.5, 10.0, 18.0)
    assert (rains["min"], rains["max"]) == (8, 22)
    assert found["years"] == {"from": 1991, "to": 2020, "used": 30}
    assert found["years_left_out"] == []
    assert found["weekly_inspections"] == 26  # 184 days: 26 whole weeks


def test_new_glarus_counts_the_same_rains_and_says_runoff_is_assumed(record):
    found = outlook(record, D(2027, 4, 15), D(2027, 10, 15), range(1991, 2021), "new-glarus-wi")
    assert found["qualifying_rains"]["median"] == 13.5
    assert found["rule"]["citation"] == "§ 135-7E(7)"
    assert any("runoff" in n["says"] for n in found["notes"])


def test_a_winter_window_across_the_new_year_includes_february_29(record):
    found = outlook(record, D(2027, 11, 1), D(2028, 2, 29), range(2019, 2020))
    assert found["qualifying_rains"]["by_year"] == {2019: 7}


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
