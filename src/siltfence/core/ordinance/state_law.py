"""The state law a village's folder relies on for counting time, as loaded from its state
folder (``ordinances/_states/<state>/``): the statewide legal holidays and the state's
counting rules. A village's own counting rule (``counting_rules`` in its
``jurisdiction.yaml``) has the same shape as the state's.

Nothing here knows a state: which days are legal holidays, and how a period of days or
hours is counted, are the data's. This module only works out, from the data, the dates a
holiday rule gives in a year. Everything is immutable and was checked by the loader.
"""

from __future__ import annotations

import calendar
import datetime
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# The kinds of day a counting rule can leave out or move a last day off.
DAY_KINDS = ("saturday", "sunday", "legal_holiday")
# Where an observed day goes when a holiday falls on the weekday it is moved from.
OBSERVED_MOVES = {"next_monday": 1, "previous_friday": -1}
LAST = -1  # ``nth``: the last such weekday of the month


@dataclass(frozen=True)
class Holiday:
    """One rule of the list: a fixed date (``day``), or the ``nth`` ``weekday`` of the month
    (``LAST`` for the last), moved on by ``days_after`` (the Tuesday after the 1st Monday:
    the 1st Monday, one day after). ``years`` limits it to even or odd years; ``starts`` and
    ``ends`` bound the dates on which the rule is the law (``ends`` not included)."""

    name: str
    month: int
    day: int | None = None
    weekday: int | None = None  # 0 is Monday
    nth: int | None = None
    days_after: int = 0
    years: str | None = None  # "even", "odd", or every year
    starts: datetime.date | None = None
    ends: datetime.date | None = None
    citation: str | None = None

    def date_in(self, year: int) -> datetime.date | None:
        """The day this rule gives in ``year``, or None when it gives none that year."""
        if (self.years == "even" and year % 2) or (self.years == "odd" and not year % 2):
            return None
        if self.day is not None:
            day = datetime.date(year, self.month, self.day)
        else:
            assert self.weekday is not None and self.nth is not None
            if self.nth == LAST:
                last = datetime.date(year, self.month, calendar.monthrange(year, self.month)[1])
                day = last - datetime.timedelta(days=(last.weekday() - self.weekday) % 7)
            else:
                first = datetime.date(year, self.month, 1)
                offset = (self.weekday - first.weekday()) % 7 + 7 * (self.nth - 1)
                day = first + datetime.timedelta(days=offset)
        day += datetime.timedelta(days=self.days_after)
        if self.starts is not None and day < self.starts:
            return None
        if self.ends is not None and day >= self.ends:
            return None
        return day


@dataclass(frozen=True)
class HolidayCalendar:
    """A list of legal holidays: ``title`` names it in a sentence ("the ... legal
    holidays"), ``citation`` is the statute that lists them. ``moves`` says which weekday
    a holiday is moved off, and by how many days (an observed day is added; the holiday
    itself stays); ``observed_name`` names the observed day (``{name}`` is the holiday's).
    """

    id: str
    title: str
    citation: str
    holidays: tuple[Holiday, ...]
    moves: tuple[tuple[int, int], ...] = ()
    observed_name: str = "{name}"
    _years: dict[int, Mapping[datetime.date, str]] = field(
        default_factory=dict, init=False, compare=False, repr=False, hash=False
    )

    def in_year(self, year: int) -> Mapping[datetime.date, str]:
        """The legal holidays of one year, in date order, each with its name (worked out
        once per year: counting asks often). Two on one day are named together."""
        found = self._years.get(year)
        if found is None:
            found = self._years[year] = MappingProxyType(self._work_out(year))
        return found

    def name_of(self, day: datetime.date) -> str | None:
        """The name of the legal holiday on ``day``, or None."""
        return self.in_year(day.year).get(day)

    def _work_out(self, year: int) -> dict[datetime.date, str]:
        days: dict[datetime.date, list[str]] = {}
        moves = dict(self.moves)
        # A holiday of the year before or after can be observed in this one.
        for rule_year in (year - 1, year, year + 1):
            for holiday in self.holidays:
                day = holiday.date_in(rule_year)
                if day is None:
                    continue
                if day.year == year:
                    days.setdefault(day, []).append(holiday.name)
                shift = moves.get(day.weekday())
                if shift is not None:
                    observed = day + datetime.timedelta(days=shift)
                    if observed.year == year:
                        name = self.observed_name.replace("{name}", holiday.name)
                        days.setdefault(observed, []).append(name)
        return {day: "; ".join(names) for day, names in sorted(days.items())}


@dataclass(frozen=True)
class ShortPeriod:
    """A period of fewer than ``under_days`` days leaves out the ``skips`` days altogether."""

    under_days: int
    skips: frozenset[str]
    says: str


@dataclass(frozen=True)
class SaturdayFiling:
    """A last day on a Saturday also moves when the act is a filing with a village office
    that is closed on Saturdays (a village setting, ``office_calendar.closed_on_saturdays``)."""

    citation: str
    says: str


@dataclass(frozen=True)
class CountingRuleData:
    """How a rule counts a period: which days a last day moves off, which days a period in
    hours leaves out whole (none: clock hours), and the sentences that say so, with the
    placeholders ``{n}``, ``{days}``, ``{direction}``, ``{citation}``, ``{standing_in}``.
    ``where`` is the file that defines it."""

    id: str
    citation: str
    last_day_moves_off: frozenset[str]
    hours_skip: frozenset[str]
    says_days: str
    says_hours: str
    short_period: ShortPeriod | None = None
    saturday_filing: SaturdayFiling | None = None
    text: str | None = None
    where: str = ""


@dataclass(frozen=True)
class StateLaw:
    """A state folder: its id and name, how its statutes are cited, its legal holidays and
    its counting rules by id."""

    id: str
    name: str
    statutes: str
    holidays: HolidayCalendar
    counting_rules: Mapping[str, CountingRuleData]
    folder: Path = field(compare=False)
