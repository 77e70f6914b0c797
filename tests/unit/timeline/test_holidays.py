"""Wisconsin's legal holidays, § 995.20 Wis. Stats., as the state folder lists them
(ordinances/_states/wi/holidays.yaml), worked out by hand from a calendar.

The expected days come from the statute's list as the project recorded it
(docs/decisions/0005-counting-time.md: January 1, the 3rd Monday in January, the 3rd Monday
in February, the last Monday in May, June 19, July 4, the 1st Monday in September, the 2nd
Monday in October, November 11, the 4th Thursday in November, December 25, the partisan
primary and the general election; a Sunday moves to the Monday) and from a calendar, never
from the code. No copy of § 995.20 is among the received texts; see the data's note.
"""

from __future__ import annotations

import datetime

from siltfence.core.ordinance.loader import load

D = datetime.date
HOLIDAYS = load("spencer-wi").holidays


def legal_holidays(year: int) -> list[datetime.date]:
    return sorted(HOLIDAYS.in_year(year))


def test_the_2026_legal_holidays_are_the_thirteen_days_of_section_995_20():
    # 2026 starts on a Thursday. 3rd Monday of January: Mondays 5, 12, 19. February 1 is a
    # Sunday: Mondays 2, 9, 16. May 31 is a Sunday, so the last Monday is the 25th.
    # June 19 is a Friday; July 4 a Saturday (a Saturday is not moved). September 1 is a
    # Tuesday: 1st Monday the 7th. October 1 is a Thursday: Mondays 5, 12. November 1 is a
    # Sunday: the general election is Tuesday the 3rd (after Monday the 2nd), Thursdays are
    # 5, 12, 19, 26; November 11 is a Wednesday; December 25 a Friday. August 1 is a
    # Saturday: Tuesdays 4, 11, so the partisan primary is August 11 (§ 5.02(12s)).
    assert legal_holidays(2026) == [
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


def test_twelve_of_the_2026_legal_holidays_fall_on_a_weekday():
    # From the list above: Thu Jan 1, Mon Jan 19, Mon Feb 16, Mon May 25, Fri Jun 19,
    # Tue Aug 11, Mon Sep 7, Mon Oct 12, Tue Nov 3, Wed Nov 11, Thu Nov 26, Fri Dec 25.
    # Only July 4 (a Saturday) does not; none falls on a Sunday, so none is observed.
    weekdays = [d for d in legal_holidays(2026) if d.weekday() < 5]
    assert len(weekdays) == 12
    assert [d for d in legal_holidays(2026) if d not in weekdays] == [D(2026, 7, 4)]


def test_the_2027_legal_holidays_move_a_sunday_to_monday_and_have_no_election_day():
    # 2027 starts on a Friday. January Mondays 4, 11, 18; February 1 is a Monday: 1, 8, 15;
    # May 31 is a Monday. June 19 is a Saturday (stays). July 4 is a Sunday, so Monday the
    # 5th is the legal holiday too. September 1 is a Wednesday: Monday the 6th. October 1 is
    # a Friday: Mondays 4, 11. November 1 is a Monday: Thursdays 4, 11, 18, 25; November 11
    # is a Thursday. December 25 is a Saturday (stays). 2027 is odd: no primary, no election.
    assert legal_holidays(2027) == [
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
    assert HOLIDAYS.name_of(D(2027, 7, 5)) == "Independence Day, observed"


def test_a_christmas_on_sunday_is_observed_on_monday_december_26():
    # December 25, 2022 was a Sunday (2022 began on a Saturday: Dec 25 is day 359, 358 days
    # = 51 weeks + 1 day after a Saturday). Saturday December 24 is not a holiday.
    assert HOLIDAYS.name_of(D(2022, 12, 26)) == "Christmas Day, observed"
    assert HOLIDAYS.name_of(D(2022, 12, 24)) is None


def test_state_office_closures_and_good_friday_are_not_legal_holidays():
    assert HOLIDAYS.name_of(D(2026, 12, 24)) is None
    assert HOLIDAYS.name_of(D(2026, 12, 31)) is None
    assert HOLIDAYS.name_of(D(2026, 4, 3)) is None  # Good Friday 2026: only 11 a.m. to 3 p.m.


def test_the_calendar_names_a_holiday_and_not_the_day_after():
    assert HOLIDAYS.name_of(D(2026, 11, 26)) == "Thanksgiving Day"
    assert HOLIDAYS.name_of(D(2026, 11, 27)) is None


def test_both_villages_count_around_the_same_state_list_which_cites_section_995_20():
    new_glarus = load("new-glarus-wi")
    assert new_glarus.holidays.in_year(2026) == HOLIDAYS.in_year(2026)
    assert new_glarus.holidays.citation == "§ 995.20 Wis. Stats."
    assert new_glarus.state == load("spencer-wi").state == "Wisconsin"
