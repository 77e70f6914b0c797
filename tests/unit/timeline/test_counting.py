"""The two counting rules (gap 11) and the New Glarus office calendar, on both sides of
every move. Each expected date is worked out by hand in the comment beside it.

2026 weekdays used here: May 1 is a Friday, June 1 a Monday, November 1 a Sunday.
"""

from __future__ import annotations

import dataclasses
import datetime
from zoneinfo import ZoneInfo

import pytest

from siltfence.core.ordinance.loader import load
from siltfence.core.timeline import CountingRule, OfficeCalendar, rule_for

D = datetime.date
CHICAGO = ZoneInfo("America/Chicago")
# The rules as the data gives them: the state's (ordinances/_states/wi/counting.yaml), and
# New Glarus's own (its jurisdiction.yaml), each around the state's legal holidays.
WISCONSIN = load("spencer-wi").state_law
SPENCER = CountingRule(
    WISCONSIN.counting_rules["wis-stats-990-001-4"], WISCONSIN.holidays, "§ 990.001(4) Wis. Stats."
)
NEW_GLARUS = CountingRule(
    load("new-glarus-wi").counting_rule,
    WISCONSIN.holidays,
    "Village of New Glarus Code Ch. 1, rules of construction, C",
)


def office(closures: frozenset[datetime.date] | None = None) -> OfficeCalendar:
    return OfficeCalendar(closures, holidays=WISCONSIN.holidays)


def at(text: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(text).replace(tzinfo=CHICAGO)


# -- days ---------------------------------------------------------------------------------


def test_a_last_day_on_a_saturday_stays_for_spencer_and_moves_to_monday_for_new_glarus():
    # Saturday May 2 + 14 = Saturday May 16; New Glarus skips Sat 16 and Sun 17.
    assert SPENCER.days_after(D(2026, 5, 2), 14).due == D(2026, 5, 16)
    assert SPENCER.days_after(D(2026, 5, 2), 14).moved is None
    moved = NEW_GLARUS.days_after(D(2026, 5, 2), 14)
    assert moved.due == D(2026, 5, 18)
    assert "Saturday" in (moved.moved or "")


def test_a_last_day_on_a_sunday_moves_to_monday_under_both_rules():
    # Sunday May 3 + 14 = Sunday May 17 -> Monday May 18.
    for rule in (SPENCER, NEW_GLARUS):
        counted = rule.days_after(D(2026, 5, 3), 14)
        assert counted.due == D(2026, 5, 18)
        assert counted.moved is not None and "Sunday" in counted.moved


def test_a_last_day_on_memorial_day_moves_to_tuesday():
    # May 11 + 14 = May 25, the last Monday in May -> Tuesday May 26.
    for rule in (SPENCER, NEW_GLARUS):
        counted = rule.days_after(D(2026, 5, 11), 14)
        assert counted.due == D(2026, 5, 26)
        assert "Memorial Day" in (counted.moved or "")


def test_a_last_day_on_juneteenth_moves_to_the_saturday_for_spencer_and_the_monday_for_new_glarus():
    # Friday June 5 + 14 = Friday June 19 (legal holiday). Spencer: next day, Saturday June 20,
    # is neither a Sunday nor a holiday. New Glarus: skips Sat 20 and Sun 21 -> Monday June 22.
    assert SPENCER.days_after(D(2026, 6, 5), 14).due == D(2026, 6, 20)
    assert NEW_GLARUS.days_after(D(2026, 6, 5), 14).due == D(2026, 6, 22)


def test_a_last_day_on_thanksgiving_moves_to_the_friday():
    # November 12 + 14 = Thursday November 26 -> Friday November 27.
    for rule in (SPENCER, NEW_GLARUS):
        assert rule.days_after(D(2026, 11, 12), 14).due == D(2026, 11, 27)


def test_a_last_day_on_the_2026_general_election_moves_to_the_wednesday():
    # October 20 + 14 = Tuesday November 3, election day -> Wednesday November 4.
    for rule in (SPENCER, NEW_GLARUS):
        counted = rule.days_after(D(2026, 10, 20), 14)
        assert counted.due == D(2026, 11, 4)
        assert "General election day" in (counted.moved or "")


def test_spencer_moves_a_45th_day_on_a_sunday_and_says_so():
    # September 10 + 45: 20 days to September 30, 25 more to Sunday October 25 -> Monday 26.
    counted = SPENCER.days_after(D(2026, 9, 10), 45)
    assert counted.due == D(2026, 10, 26)
    assert counted.moved == (
        "the 45th day, 2026-10-25, fell on a Sunday; moved to Monday 2026-10-26"
    )


def test_a_day_that_is_not_excluded_is_not_moved():
    # Wednesday May 13 + 14 = Wednesday May 27.
    for rule in (SPENCER, NEW_GLARUS):
        counted = rule.days_after(D(2026, 5, 13), 14)
        assert counted.due == D(2026, 5, 27) and counted.moved is None


# -- New Glarus: periods of less than seven days -------------------------------------------


def test_five_days_from_a_wednesday_end_the_next_wednesday_in_new_glarus():
    # Wed May 13: Thu 14 (1), Fri 15 (2), [Sat, Sun], Mon 18 (3), Tue 19 (4), Wed 20 (5).
    counted = NEW_GLARUS.days_after(D(2026, 5, 13), 5)
    assert counted.due == D(2026, 5, 20)
    assert counted.moved is not None and "less than seven days" in counted.moved


def test_five_days_across_thanksgiving_and_a_weekend_skip_both():
    # Wed Nov 25: [Thu 26 Thanksgiving], Fri 27 (1), [Sat, Sun], Mon 30 (2), Tue Dec 1 (3),
    # Wed 2 (4), Thu 3 (5).
    assert NEW_GLARUS.days_after(D(2026, 11, 25), 5).due == D(2026, 12, 3)


def test_five_days_across_memorial_day_weekend_skip_three_days():
    # Thu May 21: Fri 22 (1), [Sat 23, Sun 24, Mon 25 Memorial Day], Tue 26 (2), Wed 27 (3),
    # Thu 28 (4), Fri 29 (5).
    assert NEW_GLARUS.days_after(D(2026, 5, 21), 5).due == D(2026, 5, 29)


def test_seven_days_are_not_a_short_period_so_only_the_last_day_moves():
    # Saturday June 6 + 7 = Saturday June 13 -> Monday June 15 (the whole-period rule).
    assert NEW_GLARUS.days_after(D(2026, 6, 6), 7).due == D(2026, 6, 15)


# -- hours ----------------------------------------------------------------------------------


def test_48_hours_from_saturday_morning_end_tuesday_for_spencer_and_monday_for_new_glarus():
    # Spencer: Saturday 10:00 to midnight is 14 h; Sunday is excluded whole; Monday gives 24
    # (38 h); Tuesday 10:00 makes 48. New Glarus: clock hours, Monday 10:00.
    spencer = SPENCER.hours_after(at("2026-05-09T10:00"), 48)
    assert spencer.due == at("2026-05-12T10:00")
    assert spencer.moved == "the 48 hours exclude the whole of Sunday 2026-05-10"
    new_glarus = NEW_GLARUS.hours_after(at("2026-05-09T10:00"), 48)
    assert new_glarus.due == at("2026-05-11T10:00")
    assert new_glarus.moved is None


def test_24_hours_across_thanksgiving_skip_the_holiday_for_spencer_only():
    # Wednesday Nov 25 12:00: 12 h to midnight, Thursday 26 excluded, Friday 27 12:00.
    assert SPENCER.hours_after(at("2026-11-25T12:00"), 24).due == at("2026-11-27T12:00")
    assert NEW_GLARUS.hours_after(at("2026-11-25T12:00"), 24).due == at("2026-11-26T12:00")


def test_48_hours_before_a_monday_morning_start_are_clock_hours_in_new_glarus():
    # Monday June 8 07:00 - 48 h = Saturday June 6 07:00.
    assert NEW_GLARUS.hours_before(at("2026-06-08T07:00"), 48).due == at("2026-06-06T07:00")


def test_hours_are_elapsed_hours_across_the_spring_clock_change():
    # Saturday March 7, 2026 12:00 CST (-06:00) + 24 clock hours = Sunday March 8 13:00 CDT
    # (-05:00), because the night of March 8 has 23 hours.
    due = NEW_GLARUS.hours_after(at("2026-03-07T12:00"), 24).due
    assert due.isoformat() == "2026-03-08T13:00:00-05:00"


# -- business days (New Glarus § 135-7C, § 135-13) ------------------------------------------


@pytest.mark.parametrize(
    ("closures", "due"),
    [
        # Default (legal holidays): Mon 23 (1), Tue 24 (2), Wed 25 (3), [Thu 26], Fri 27 (4),
        # Mon 30 (5), Tue Dec 1 (6), Wed 2 (7), Thu 3 (8), Fri 4 (9), Mon 7 (10).
        (None, D(2026, 12, 7)),
        # The office also closes Friday 27: one more day, Tuesday December 8.
        (frozenset({D(2026, 11, 26), D(2026, 11, 27)}), D(2026, 12, 8)),
        # Weekends only: Thursday 26 counts too (4), so the tenth day is Friday December 4.
        (frozenset(), D(2026, 12, 4)),
    ],
)
def test_ten_business_days_across_thanksgiving_week(closures, due):
    calendar = office(closures)
    assert NEW_GLARUS.business_days_after(D(2026, 11, 20), 10, calendar).due == due


def test_a_closure_day_given_by_the_office_pushes_a_business_day_deadline():
    # Friday June 5: Mon 8..Fri 12 (1-5), Mon 15..Thu 18 (6-9). Friday June 19 is Juneteenth
    # (a default closure) or a closure given by the office: the tenth day is Monday June 22.
    # With weekends only, Friday June 19 is the tenth day.
    assert NEW_GLARUS.business_days_after(D(2026, 6, 5), 10, office()).due == D(2026, 6, 22)
    given = office(frozenset({D(2026, 6, 19)}))
    counted = NEW_GLARUS.business_days_after(D(2026, 6, 5), 10, given)
    assert counted.due == D(2026, 6, 22)
    assert "Friday 2026-06-19" in (counted.moved or "")
    weekends = office(frozenset())
    assert NEW_GLARUS.business_days_after(D(2026, 6, 5), 10, weekends).due == D(2026, 6, 19)


def test_years_of_closure_days_are_summed_up_and_only_those_the_count_skips_are_named():
    # Every Christmas Eve and New Year's Eve from 2016 to 2026: 22 closure days given.
    years = range(2016, 2027)
    closures = frozenset([D(y, 12, 24) for y in years] + [D(y, 12, 31) for y in years])
    # From Friday December 18, 2026: Mon 21 (1), Tue 22 (2), Wed 23 (3), [Thu 24 given],
    # [Fri 25 Christmas is not given here, so it counts] (4), Mon 28 (5).
    counted = NEW_GLARUS.business_days_after(D(2026, 12, 18), 5, office(closures))
    assert counted.due == D(2026, 12, 28)
    says = counted.counting.says
    assert "22 days from 2016-12-24 to 2026-12-31" in says
    assert "2019-12-24" not in says
    assert "2026-12-24" in (counted.moved or "") and "2016" not in (counted.moved or "")


def test_a_few_closure_days_are_each_listed():
    ten = frozenset(D(2026, 7, day) for day in range(6, 16))  # Monday 6 to Wednesday 15
    says = NEW_GLARUS.business_days_after(D(2026, 7, 1), 3, office(ten)).counting.says
    assert all(d.isoformat() in says for d in ten)
    eleven = ten | {D(2026, 7, 16)}
    says = NEW_GLARUS.business_days_after(D(2026, 7, 1), 3, office(eleven)).counting.says
    assert "11 days from 2026-07-06 to 2026-07-16" in says


def test_a_chapter_keeps_its_counting_rule_however_many_other_chapters_are_counted():
    """One rule per loaded chapter, with the deadlines it has counted, for as long as the
    chapter lives: counting for a thousand other chapters (a state's villages) does not
    push it out, and a copy of a chapter is a chapter of its own."""
    spencer = load("spencer-wi")
    rule = rule_for(spencer)
    week = rule.days_after(datetime.date(2026, 6, 1), 7)
    others = [dataclasses.replace(spencer) for _ in range(1000)]
    assert all(rule_for(o) is not rule for o in others)
    assert rule_for(spencer) is rule
    assert rule.days_after(datetime.date(2026, 6, 1), 7) is week  # counted once, kept
    assert week.due == datetime.date(2026, 6, 8)
