"""Wisconsin's legal holidays, § 995.20 Wis. Stats.

Both villages count time around "legal holidays": New Glarus Code Ch. 1, C ("any
statewide legal holiday specified by state law"), and § 990.001(4) Wis. Stats., which
stands in for Spencer's Ch. 1. The statewide list is § 995.20:

    January 1, the 3rd Monday in January, the 3rd Monday in February, the last Monday
    in May, June 19, July 4, the 1st Monday in September, the 2nd Monday in October,
    November 11, the 4th Thursday in November, December 25, the day of holding the
    partisan primary [...] and the day of holding the general election in November are
    legal holidays. [...] Whenever any of these days falls on a Sunday, the following
    Monday is the legal holiday.

Not modelled, on purpose: December 24 and 31 close state offices (§ 230.35(4)) but are
not legal holidays; on Good Friday only 11 a.m. to 3 p.m. "shall uniformly be observed
for the purpose of worship", which is not a whole holiday. The partisan primary is the
2nd Tuesday in August of even-numbered years (§ 5.02(12s) Wis. Stats., since 2011 Wis.
Act 75; docs/decisions/0005-counting-time.md).
"""

from __future__ import annotations

import datetime
from functools import cache

from holidays.observed_holiday_base import SUN_TO_NEXT_MON, ObservedHolidayBase

CITATION = "§ 995.20 Wis. Stats."


class WisconsinLegalHolidays(ObservedHolidayBase):
    """The statewide legal holidays of § 995.20 Wis. Stats., with Sunday moved to Monday."""

    observed_label = "%s, observed"

    def __init__(self, *args: object, **kwargs: object) -> None:
        # "Whenever any of these days falls on a Sunday, the following Monday is the legal
        # holiday." A Saturday is not moved.
        kwargs.setdefault("observed_rule", SUN_TO_NEXT_MON)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def _populate_public_holidays(self) -> None:
        self._add_observed(self._add_holiday_jan_1("New Year's Day"))
        self._add_holiday_3rd_mon_of_jan("Martin Luther King, Jr. Day")
        self._add_holiday_3rd_mon_of_feb("Washington-Lincoln Day")
        self._add_holiday_last_mon_of_may("Memorial Day")
        self._add_observed(self._add_holiday_jun_19("Juneteenth"))
        self._add_observed(self._add_holiday_jul_4("Independence Day"))
        self._add_holiday_1st_mon_of_sep("Labor Day")
        self._add_holiday_2nd_mon_of_oct("Columbus Day")
        self._add_observed(self._add_holiday_nov_11("Veterans Day"))
        self._add_holiday_4th_thu_of_nov("Thanksgiving Day")
        self._add_observed(self._add_holiday_dec_25("Christmas Day"))
        if self._year % 2 == 0:
            # The partisan primary: the 2nd Tuesday in August of even-numbered years.
            self._add_holiday_2nd_tue_of_aug("Partisan primary day")
            # The general election: the Tuesday after the first Monday in November of
            # even-numbered years (§ 5.02(5) Wis. Stats.).
            self._add_holiday_1_day_past_1st_mon_of_nov("General election day")


@cache
def legal_holidays(year: int) -> dict[datetime.date, str]:
    """The legal holidays of one year, each with its name (cached: counting asks often)."""
    calendar = WisconsinLegalHolidays(years=year)
    return {day: str(name) for day, name in sorted(calendar.items()) if day.year == year}


def holiday_name(day: datetime.date) -> str | None:
    """The name of the legal holiday on ``day``, or None."""
    return legal_holidays(day.year).get(day)
