"""Wisconsin's legal holidays, § 995.20 Wis. Stats., worked out by hand from a calendar."""

from __future__ import annotations

import datetime

from siltfence.core.timeline import WisconsinLegalHolidays, legal_holidays

D = datetime.date


def test_the_2026_legal_holidays_are_the_thirteen_days_of_section_995_20():
    # 2026 starts on a Thursday. 3rd Monday of January: Mondays 5, 12, 19. February 1 is a
    # Sunday: Mondays 2, 9, 16. May 31 is a Sunday, so the last Monday is the 25th.
    # June 19 is a Friday; July 4 a Saturday (a Saturday is not moved). September 1 is a
    # Tuesday: 1st Monday the 7th. October 1 is a Thursday: Mondays 5, 12. November 1 is a
    # Sunday: the general election is Tuesday the 3rd (after Monday the 2nd), Thursdays are
    # 5, 12, 19, 26; November 11 is a Wednesday; December 25 a Friday. August 1 is a
    # Saturday: Tuesdays 4, 11, so the partisan primary is August 11 (§ 5.02(12s)).
    assert sorted(legal_holidays(2026)) == [
        D(2026, 1, 1),
        D(2026, 1, 19),
        D(2026, 2, 16),
        D(2026, 5, 25),
        D(2026, 6, 19),
        D(2026, 7, 4),
        D(2026, 8, 11),
        D(2026, 9, 7),
        D(2026, 10, 12),
        D(2026, 11, 3),
        D(2026, 11, 11),
        D(2026, 11, 26),
        D(2026, 12, 25),
    ]


def test_the_2027_legal_holidays_move_a_sunday_to_monday_and_have_no_election_day():
    # 2027 starts on a Friday. January Mondays 4, 11, 18; February 1 is a Monday: 1, 8, 15;
    # May 31 is a Monday. June 19 is a Saturday (stays). July 4 is a Sunday, so Monday the
    # 5th is the legal holiday too. September 1 is a Wednesday: Monday the 6th. October 1 is
    # a Friday: Mondays 4, 11. November 1 is a Monday: Thursdays 4, 11, 18, 25; November 11
    # is a Thursday. December 25 is a Saturday (stays). 2027 is odd: no primary, no election.
    assert sorted(legal_holidays(2027)) == [
        D(2027, 1, 1),
        D(2027, 1, 18),
        D(2027, 2, 15),
        D(2027, 5, 31),
        D(2027, 6, 19),
        D(2027, 7, 4),
        D(2027, 7, 5),
        D(2027, 9, 6),
        D(2027, 10, 11),
        D(2027, 11, 11),
        D(2027, 11, 25),
        D(2027, 12, 25),
    ]


def test_state_office_closures_and_good_friday_are_not_legal_holidays():
    calendar = WisconsinLegalHolidays(years=2026)
    assert D(2026, 12, 24) not in calendar
    assert D(2026, 12, 31) not in calendar
    assert D(2026, 4, 3) not in calendar  # Good Friday 2026: only 11 a.m. to 3 p.m. observed


def test_the_class_is_a_holidays_library_calendar_that_answers_membership():
    calendar = WisconsinLegalHolidays(years=2026)
    assert D(2026, 11, 26) in calendar
    assert calendar.get(D(2026, 11, 26)) == "Thanksgiving Day"
    assert D(2026, 11, 27) not in calendar
