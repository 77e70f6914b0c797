"""Counting days and hours the way each village's general provisions say (gap 11).

Neither chapter says how to count its own periods; each village's Ch. 1 does. The rule is
a jurisdiction setting (``time_counting.rule`` in ``jurisdiction.yaml``), and every
deadline carries the rule that computed it (``counting``) and, when the rule moved it,
a sentence saying so (``moved``).

- ``wis-stats-990-001-4``: § 990.001(4) Wis. Stats. (for Spencer, standing in for its Ch.
  1, which is not in hand: ``time_counting.stands_in_for``). "(a) The time within which an
  act is to be done or proceeding had or taken shall be computed by excluding the first day
  and including the last; and when any such time is expressed in hours the whole of Sunday
  and of any legal holiday, from midnight to midnight, shall be excluded. (b) If the last
  day within which an act is to be done or proceeding had or taken falls on a Sunday or
  legal holiday the act may be done or the proceeding had or taken on the next secular
  day." (c): when that last day is a Saturday and the act is a payment to, service on or
  filing with a village office (a notice, for example) whose established hours close it on
  that Saturday, the act may be done on the next day that is not a Sunday or legal holiday.
  Whether the office is closed on Saturdays is a village setting
  (``office_calendar.closed_on_saturdays``).
- ``weekends-and-holidays-excluded``: the last day moves off a Saturday, Sunday or legal
  holiday, and a period under seven days skips them. New Glarus Code Ch. 1, rules of
  construction, C (the citation comes from the village's data): "the day of the act or
  event from which the period of time begins to run shall not be included, but the last day
  of the period shall be included, unless it is a Saturday, a Sunday or a legal holiday. If
  the period of time prescribed or allowed is less than seven days, Saturdays, Sundays and
  legal holidays shall be excluded in the computation." Ch. 1 speaks of days only; the
  reading taken counts the chapter's hours (48 h, 24 h) as clock hours, with nothing
  skipped.

Business days (New Glarus § 135-7C) are the days the Village Administrator's office is
routinely open (§ 135-13, gap 5): every day but Saturdays, Sundays and the office's
closure days, which default to the legal holidays and may be replaced per computation.
"""

from __future__ import annotations

import datetime
import functools
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from siltfence.core.timeline.holidays_wi import CITATION as HOLIDAYS_CITATION
from siltfence.core.timeline.holidays_wi import holiday_name

UTC = datetime.UTC
SATURDAY, SUNDAY = 5, 6


@dataclass(frozen=True)
class Counting:
    """The rule applied to one deadline, as shown with it."""

    rule: str
    citation: str
    says: str

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "citation": self.citation, "says": self.says}


@dataclass(frozen=True)
class DayDeadline:
    """A period counted in days: ``due`` is the last day, included."""

    due: datetime.date
    counting: Counting
    moved: str | None = None


@dataclass(frozen=True)
class HourDeadline:
    """A period counted in hours: ``due`` is a local, aware datetime."""

    due: datetime.datetime
    counting: Counting
    moved: str | None = None


def day_label(day: datetime.date) -> str:
    """``Sunday 2026-10-25``."""
    return f"{day.strftime('%A')} {day.isoformat()}"


def time_label(moment: datetime.datetime) -> str:
    """``Tuesday 2026-05-12 10:00``."""
    return f"{moment.strftime('%A')} {moment.date().isoformat()} {moment.strftime('%H:%M')}"


def named(day: datetime.date, why: str) -> str:
    """``Sunday 2026-05-10``, or ``Thursday 2026-11-26, a legal holiday (Thanksgiving Day)``."""
    if why in ("a Saturday", "a Sunday"):
        return day_label(day)
    return f"{day_label(day)}, {why}"


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def days_text(n: int) -> str:
    return "1 day" if n == 1 else f"{n} days"


@dataclass(frozen=True)
class OfficeCalendar:
    """The Village Administrator's office calendar (New Glarus § 135-13, gap 5).

    ``closures`` None means the configured default, the Wisconsin legal holidays; a set
    replaces them for this computation (empty: the office closes on weekends only).
    """

    closures: frozenset[datetime.date] | None = None
    citation: str = ""  # the section that defines a business day, from the village's data
    office: str = "the office"  # whose office: "the Village Administrator's office"

    def closed(self, day: datetime.date) -> str | None:
        """Why the office is closed on ``day`` (a phrase), or None when it is open."""
        if day.weekday() == SATURDAY:
            return "a Saturday"
        if day.weekday() == SUNDAY:
            return "a Sunday"
        if self.closures is None:
            name = holiday_name(day)
            return f"a legal holiday ({name})" if name else None
        if day in self.closures:
            name = holiday_name(day)
            return f"an office closure day ({name})" if name else "an office closure day"
        return None

    @property
    def says(self) -> str:
        return _calendar_says(self.closures)


@functools.lru_cache(maxsize=256)
def _calendar_says(closures: frozenset[datetime.date] | None) -> str:
    """What ``OfficeCalendar.says``: worked out once per calendar, not once per deadline
    (a recompute passes one village's calendar, years of closure days, to every permit)."""
    if closures is None:
        return (
            "closure days: the Wisconsin legal holidays "
            f"({HOLIDAYS_CITATION}), as the Village's calendar is seeded"
        )
    if not closures:
        return "closure days given for this computation: none (weekends only)"
    given = "closure days given for this computation (replacing the default)"
    days = sorted(closures)
    if len(days) <= LISTED_CLOSURES:
        return f"{given}: {', '.join(d.isoformat() for d in days)}"
    # Years of an office's calendar would bury the deadline: the count names the closure
    # days it skips, and the rest are summed up.
    return (
        f"{given}: {len(days)} days from {days[0].isoformat()} to {days[-1].isoformat()}; "
        "those the count skips are named"
    )


LISTED_CLOSURES = 10


class CountingRule(ABC):
    """How a village counts a period of days or hours from an event."""

    id: str
    citation: str

    def __init__(
        self,
        citation: str,
        closed_on_saturdays: bool | None = None,
        stands_in_for: str | None = None,
    ) -> None:
        self.citation = citation
        # Whether the village office is closed to the public on Saturdays; None: not said.
        self.closed_on_saturdays = closed_on_saturdays
        # The village's own provision this rule stands in for, when that is not in hand.
        self.stands_in_for = stands_in_for

    @property
    def standing_in(self) -> str:
        """``, standing in for <the village's provision>, not in hand``, or nothing."""
        return f", standing in for {self.stands_in_for}, not in hand" if self.stands_in_for else ""

    @abstractmethod
    def days_after(self, start: datetime.date, n: int, *, filing: bool = False) -> DayDeadline:
        """The last day of a period of ``n`` days that begins to run on ``start``.

        ``filing``: the act is a notice or other filing with the village office, which
        some rules move off a Saturday the office is closed (§ 990.001(4)(c) Wis. Stats.).
        """

    def plain_days_after(self, start: datetime.date, n: int, why: str) -> DayDeadline:
        """The ``n``-th day after ``start``, never moved: for a period that is not a time
        within which an act is to be done (``why`` says which reading, and its gap)."""
        return DayDeadline(
            start + datetime.timedelta(days=n),
            Counting(
                self.id,
                self.citation,
                f"{days_text(n)}, the day of the event excluded and the last day included; "
                f"the last day does not move: {why}",
            ),
        )

    @abstractmethod
    def hours_after(self, start: datetime.datetime, n: int) -> HourDeadline:
        """The end of a period of ``n`` hours that begins at ``start``."""

    @abstractmethod
    def hours_before(self, moment: datetime.datetime, n: int) -> HourDeadline:
        """The latest time that is ``n`` hours before ``moment``."""

    def business_days_after(
        self, start: datetime.date, n: int, office: OfficeCalendar
    ) -> DayDeadline:
        """The ``n``-th day after ``start`` on which the office is open (New Glarus § 135-13).

        The day of the event is excluded (Ch. 1 C); every day counted is an open day, so
        the last day never needs to move. Closure days that fall on weekdays are named in
        ``moved``, since they push the deadline past the plain count of weekdays.
        """
        day = start
        counted = 0
        skipped: list[str] = []
        while counted < n:
            day += datetime.timedelta(days=1)
            why = office.closed(day)
            if why is None:
                counted += 1
            elif day.weekday() < SATURDAY:
                skipped.append(named(day, why))
        counting = Counting(
            self.id,
            self.citation,
            f"{n} business days, the day of the event excluded: the days {office.office} is "
            f"routinely open{f' ({office.citation})' if office.citation else ''}, every day but "
            f"Saturdays, Sundays and closure days; {office.says}",
        )
        moved = None
        if skipped:
            moved = f"the count skips the office's closure days {', '.join(skipped)}"
        return DayDeadline(day, counting, moved)


class WisStats990Rule(CountingRule):
    """§ 990.001(4) Wis. Stats. (for Spencer, standing in for its own Ch. 1)."""

    id = "wis-stats-990-001-4"

    @staticmethod
    def excluded(day: datetime.date) -> str | None:
        if day.weekday() == SUNDAY:
            name = holiday_name(day)
            return f"a Sunday ({name})" if name else "a Sunday"
        name = holiday_name(day)
        return f"a legal holiday ({name})" if name else None

    def _excluded_for_filing(self, day: datetime.date) -> str | None:
        """(c): a Saturday the village office is closed also moves a filing's last day."""
        if day.weekday() == SATURDAY:
            name = holiday_name(day)
            closed = "a Saturday, when the village office is closed"
            return f"{closed} ({name})" if name else closed
        return self.excluded(day)

    def days_after(self, start: datetime.date, n: int, *, filing: bool = False) -> DayDeadline:
        # (a) exclude the first day, include the last; (b) a last day on a Sunday or legal
        # holiday moves to the next secular day. A Saturday does not move, except under (c)
        # for a filing with a village office that is closed on Saturdays.
        target = start + datetime.timedelta(days=n)
        saturday_moves = filing and self.closed_on_saturdays is True
        excluded = self._excluded_for_filing if saturday_moves else self.excluded
        day, reasons = _move_forward(target, excluded)
        if saturday_moves:
            rule = (
                "a last day on a Sunday or legal holiday, or on a Saturday the village office "
                "is closed, moves to the next day that is none of these (§ 990.001(4)(a), (b), "
                "(c) Wis. Stats.: (c) because this is a filing with the village office"
            )
        else:
            rule = (
                "a last day on a Sunday or legal holiday moves to the next day that is neither "
                "(§ 990.001(4)(a), (b) Wis. Stats."
            )
        counting = Counting(
            self.id,
            self.citation,
            f"{days_text(n)}, the day of the event excluded and the last day included; {rule}"
            f"{self.standing_in})",
        )
        moved = None
        if reasons:
            moved = (
                f"the {ordinal(n)} day, {target.isoformat()}, fell on {'; '.join(reasons)}; "
                f"moved to {day_label(day)}"
            )
        return DayDeadline(day, counting, moved)

    def _hours(self, n: int, direction: str) -> Counting:
        return Counting(
            self.id,
            self.citation,
            f"{n} hours {direction}, excluding the whole of every Sunday and legal holiday, "
            f"midnight to midnight (§ 990.001(4)(a) Wis. Stats.{self.standing_in})",
        )

    def hours_after(self, start: datetime.datetime, n: int) -> HourDeadline:
        due, skipped = _hours_skipping(start, n, self.excluded, forward=True)
        return HourDeadline(due, self._hours(n, "after the event"), _skipped_text(n, skipped))

    def hours_before(self, moment: datetime.datetime, n: int) -> HourDeadline:
        due, skipped = _hours_skipping(moment, n, self.excluded, forward=False)
        return HourDeadline(due, self._hours(n, "before the event"), _skipped_text(n, skipped))


class WeekendsAndHolidaysRule(CountingRule):
    """The last day moves off a Saturday, Sunday or legal holiday; a period of less than seven
    days leaves them out. New Glarus Code Ch. 1, rules of construction, C."""

    id = "weekends-and-holidays-excluded"

    @staticmethod
    def excluded(day: datetime.date) -> str | None:
        name = holiday_name(day)
        if day.weekday() == SATURDAY:
            return f"a Saturday ({name})" if name else "a Saturday"
        if day.weekday() == SUNDAY:
            return f"a Sunday ({name})" if name else "a Sunday"
        return f"a legal holiday ({name})" if name else None

    def days_after(self, start: datetime.date, n: int, *, filing: bool = False) -> DayDeadline:
        # Ch. 1, C already moves a last day off a Saturday, filing or not.
        plain = start + datetime.timedelta(days=n)
        if n < 7:
            # "If the period [...] is less than seven days, Saturdays, Sundays and legal
            # holidays shall be excluded in the computation."
            day = start
            counted = 0
            skipped: list[str] = []
            while counted < n:
                day += datetime.timedelta(days=1)
                why = self.excluded(day)
                if why is None:
                    counted += 1
                else:
                    skipped.append(named(day, why))
            counting = Counting(
                self.id,
                self.citation,
                f"{days_text(n)}, the day of the event excluded; a period of less than seven days "
                f"excludes Saturdays, Sundays and legal holidays altogether ({self.citation})",
            )
            moved = None
            if day != plain:
                moved = (
                    f"a period of less than seven days skips {', '.join(skipped)}; the "
                    f"{ordinal(n)} day counted is {day_label(day)}, not {plain.isoformat()}"
                )
            return DayDeadline(day, counting, moved)
        day, reasons = _move_forward(plain, self.excluded)
        counting = Counting(
            self.id,
            self.citation,
            f"{days_text(n)}, the day of the event excluded and the last day included, unless it "
            "is a Saturday, Sunday or legal holiday, when it moves to the next day that is "
            f"none of these ({self.citation})",
        )
        moved = None
        if reasons:
            moved = (
                f"the {ordinal(n)} day, {plain.isoformat()}, fell on {'; '.join(reasons)}; "
                f"moved to {day_label(day)}"
            )
        return DayDeadline(day, counting, moved)

    def _hours(self, n: int, direction: str) -> Counting:
        return Counting(
            self.id,
            self.citation,
            f"{n} clock hours {direction}, nothing skipped: {self.citation} speaks of days, "
            "and the reading taken (gap 11) does not extend it to periods stated in hours",
        )

    def hours_after(self, start: datetime.datetime, n: int) -> HourDeadline:
        due = (start.astimezone(UTC) + datetime.timedelta(hours=n)).astimezone(start.tzinfo)
        return HourDeadline(due, self._hours(n, "after the event"))

    def hours_before(self, moment: datetime.datetime, n: int) -> HourDeadline:
        due = (moment.astimezone(UTC) - datetime.timedelta(hours=n)).astimezone(moment.tzinfo)
        return HourDeadline(due, self._hours(n, "before the event"))


RULES: Mapping[str, type[CountingRule]] = {
    WisStats990Rule.id: WisStats990Rule,
    WeekendsAndHolidaysRule.id: WeekendsAndHolidaysRule,
}


def rule_for(
    time_counting: Mapping[str, Any], office_calendar: Mapping[str, Any] | None = None
) -> CountingRule:
    """The counting rule a jurisdiction's ``time_counting`` setting names."""
    closed = (office_calendar or {}).get("closed_on_saturdays")
    instead = time_counting.get("stands_in_for") if time_counting.get("stands_in") else None
    return RULES[time_counting["rule"]](time_counting["citation"], closed, instead)


def _move_forward(target: datetime.date, excluded: Any) -> tuple[datetime.date, list[str]]:
    day = target
    reasons: list[str] = []
    while (why := excluded(day)) is not None:
        reasons.append(why if day == target else f"{day_label(day)} is {why}")
        day += datetime.timedelta(days=1)
    return day, reasons


def _midnight(day: datetime.date, zone: datetime.tzinfo | None) -> datetime.datetime:
    return datetime.datetime.combine(day, datetime.time(0), tzinfo=zone)


def _hours_skipping(
    start: datetime.datetime, n: int, excluded: Any, *, forward: bool
) -> tuple[datetime.datetime, list[str]]:
    """``n`` elapsed hours from ``start``, leaving out the whole of each excluded day.

    Arithmetic is done in UTC, so a day of 23 or 25 hours (daylight saving time) counts
    the hours it really has.
    """
    zone = start.tzinfo if start.tzinfo is not None else ZoneInfo("UTC")
    remaining = datetime.timedelta(hours=n)
    current = start.astimezone(zone)
    skipped: list[str] = []
    tick = datetime.timedelta(microseconds=1)
    while True:
        day = current.date() if forward else (current - tick).astimezone(zone).date()
        why = excluded(day)
        if why is not None:
            skipped.append(named(day, why))
            current = _midnight(day + datetime.timedelta(days=1) if forward else day, zone)
            continue
        edge = _midnight(day + datetime.timedelta(days=1) if forward else day, zone)
        available = abs(edge.astimezone(UTC) - current.astimezone(UTC))
        if remaining <= available:
            moment = current.astimezone(UTC) + (remaining if forward else -remaining)
            return moment.astimezone(zone), skipped
        remaining -= available
        current = edge


def _skipped_text(n: int, skipped: list[str]) -> str | None:
    if not skipped:
        return None
    return f"the {n} hours exclude the whole of {', '.join(skipped)}"
