"""Counting days and hours the way each village's general provisions say (gap 11).

Neither chapter says how to count its own periods; each village's Ch. 1 does. The rule is
a jurisdiction setting (``time_counting.rule`` in ``jurisdiction.yaml``), and every
deadline carries the rule that computed it (``counting``) and, when the rule moved it,
a sentence saying so (``moved``).

The rules are data, never code: a village names one of its state's rules
(``ordinances/_states/<state>/counting.yaml``) or one of its own (``counting_rules`` in its
``jurisdiction.yaml``), and ``CountingRule`` counts by what the rule says
(``siltfence.core.ordinance.state_law.CountingRuleData``):

- ``last_day_moves_off``: a last day on a Saturday, a Sunday or a legal holiday (those
  listed) moves to the next day that is none of them;
- ``short_period``: a period of fewer than ``under_days`` days leaves out the days it lists
  altogether;
- ``saturday_filing``: when the act is a notice or other filing with a village office whose
  established hours close it on Saturdays (``office_calendar.closed_on_saturdays``), a last
  day on a Saturday moves too, to the next day that is not a Sunday or legal holiday;
- ``hours_skip``: a period stated in hours leaves out the whole of each day it lists,
  midnight to midnight; with none listed, hours are clock hours.

The legal holidays are the state's (``holidays.yaml`` in the state folder). Business days
(a chapter that counts them) are the days the authority's office is routinely open: every
day but Saturdays, Sundays and the office's closure days, which default to the legal
holidays and may be replaced per computation.
"""

from __future__ import annotations

import datetime
import functools
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar
from zoneinfo import ZoneInfo

from siltfence.core.ordinance.sentences import in_words
from siltfence.core.ordinance.state_law import CountingRuleData, HolidayCalendar, ShortPeriod

if TYPE_CHECKING:
    from siltfence.core.ordinance.model import Ordinance

UTC = datetime.UTC
# How many counted deadlines a rule keeps before it starts afresh.
KEPT_DEADLINES = 4096
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


_Deadline = TypeVar("_Deadline", DayDeadline, HourDeadline)


def day_label(day: datetime.date) -> str:
    """``Sunday 2026-10-25``."""
    return f"{day.strftime('%A')} {day.isoformat()}"


def time_label(moment: datetime.datetime) -> str:
    """``Tuesday 2026-05-12 10:00``."""
    return f"{moment.strftime('%A')} {moment.date().isoformat()} {moment.strftime('%H:%M')}"


def named(day: datetime.date, why: str) -> str:
    """``Sunday 2026-05-10``, or ``Thursday 2026-11-26, a legal holiday (<its name>)``."""
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
    """The office calendar of the authority that counts business days (gap 5).

    ``closures`` None means the configured default, the legal holidays (``holidays``, the
    village's state's); a set replaces them for this computation (empty: the office closes
    on weekends only).
    """

    closures: frozenset[datetime.date] | None = None
    citation: str = ""  # the section that defines a business day, from the village's data
    office: str = "the office"  # whose office: "the Village Administrator's office"
    holidays: HolidayCalendar = field(kw_only=True)

    def closed(self, day: datetime.date) -> str | None:
        """Why the office is closed on ``day`` (a phrase), or None when it is open."""
        if day.weekday() == SATURDAY:
            return "a Saturday"
        if day.weekday() == SUNDAY:
            return "a Sunday"
        if self.closures is None:
            name = self.holidays.name_of(day)
            return f"a legal holiday ({name})" if name else None
        if day in self.closures:
            name = self.holidays.name_of(day)
            return f"an office closure day ({name})" if name else "an office closure day"
        return None

    @property
    def says(self) -> str:
        return _calendar_says(self.closures, self.holidays.title, self.holidays.citation)


@functools.lru_cache(maxsize=256)
def _calendar_says(closures: frozenset[datetime.date] | None, title: str, citation: str) -> str:
    """What ``OfficeCalendar.says``: worked out once per calendar, not once per deadline
    (a recompute passes one village's calendar, years of closure days, to every permit)."""
    if closures is None:
        return f"closure days: {title} ({citation}), as the Village's calendar is seeded"
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


class CountingRule:
    """How a village counts a period of days or hours from an event: the rule its data
    names (``data``), around the legal holidays of its state (``holidays``).

    ``citation`` is the provision the village counts by (``time_counting.citation``), shown
    on every deadline; ``closed_on_saturdays`` whether the village office is closed to the
    public on Saturdays (None: not said); ``stands_in_for`` the village's own provision the
    rule stands in for, when that is not in hand.
    """

    def __init__(
        self,
        data: CountingRuleData,
        holidays: HolidayCalendar,
        citation: str,
        closed_on_saturdays: bool | None = None,
        stands_in_for: str | None = None,
    ) -> None:
        self.data = data
        self.holidays = holidays
        self.citation = citation
        self.closed_on_saturdays = closed_on_saturdays
        self.stands_in_for = stands_in_for
        # Deadlines already counted, by what they were counted from: a rule is kept per
        # chapter (``rule_for``), and the permits of a village count the same weeks and
        # the same rains again and again. Each deadline is immutable.
        self._counted: dict[tuple[Any, ...], DayDeadline | HourDeadline] = {}

    def _kept(self, key: tuple[Any, ...], count: Callable[[], _Deadline]) -> _Deadline:
        found = self._counted.get(key)
        if found is None:
            if len(self._counted) >= KEPT_DEADLINES:
                self._counted.clear()
            found = self._counted[key] = count()
        return found  # type: ignore[return-value]

    @property
    def id(self) -> str:
        return self.data.id

    @property
    def standing_in(self) -> str:
        """``, standing in for <the village's provision>, not in hand``, or nothing."""
        return f", standing in for {self.stands_in_for}, not in hand" if self.stands_in_for else ""

    def _says(self, template: str, n: int, direction: str = "") -> str:
        return template.format(
            n=n,
            days=days_text(n),
            direction=direction,
            citation=self.citation,
            standing_in=self.standing_in,
        )

    def excluded_among(self, kinds: frozenset[str], day: datetime.date) -> str | None:
        """Why ``day`` is one of the ``kinds`` of day (a phrase), or None."""
        name = self.holidays.name_of(day)
        if "saturday" in kinds and day.weekday() == SATURDAY:
            return f"a Saturday ({name})" if name else "a Saturday"
        if "sunday" in kinds and day.weekday() == SUNDAY:
            return f"a Sunday ({name})" if name else "a Sunday"
        if "legal_holiday" in kinds and name:
            return f"a legal holiday ({name})"
        return None

    def excluded(self, day: datetime.date) -> str | None:
        """Why a last day on ``day`` moves (a phrase), or None when it stays."""
        return self.excluded_among(self.data.last_day_moves_off, day)

    def _excluded_for_filing(self, day: datetime.date) -> str | None:
        """A Saturday the village office is closed also moves a filing's last day."""
        if day.weekday() == SATURDAY:
            name = self.holidays.name_of(day)
            closed = "a Saturday, when the village office is closed"
            return f"{closed} ({name})" if name else closed
        return self.excluded(day)

    def days_after(self, start: datetime.date, n: int, *, filing: bool = False) -> DayDeadline:
        """The last day of a period of ``n`` days that begins to run on ``start``: the day
        of the event excluded, the last day included.

        ``filing``: the act is a notice or other filing with the village office, which a
        rule with ``saturday_filing`` moves off a Saturday the office is closed.
        """
        return self._kept(
            ("days", start, n, filing), lambda: self._days_after(start, n, filing=filing)
        )

    def _days_after(self, start: datetime.date, n: int, *, filing: bool) -> DayDeadline:
        plain = start + datetime.timedelta(days=n)
        short = self.data.short_period
        if short is not None and n < short.under_days:
            return self._short_days_after(start, n, plain, short)
        filing_rule = self.data.saturday_filing
        saturday_moves = filing and filing_rule is not None and self.closed_on_saturdays is True
        if saturday_moves:
            assert filing_rule is not None
            day, reasons = _move_forward(plain, self._excluded_for_filing)
            says = filing_rule.says
        else:
            day, reasons = _move_forward(plain, self.excluded)
            says = self.data.says_days
        moved = None
        if reasons:
            moved = (
                f"the {ordinal(n)} day, {plain.isoformat()}, fell on {'; '.join(reasons)}; "
                f"moved to {day_label(day)}"
            )
        return DayDeadline(day, Counting(self.id, self.citation, self._says(says, n)), moved)

    def _short_days_after(
        self, start: datetime.date, n: int, plain: datetime.date, short: ShortPeriod
    ) -> DayDeadline:
        """A period shorter than the rule's short period: its ``skips`` days are not counted."""
        day = start
        counted = 0
        skipped: list[str] = []
        while counted < n:
            day += datetime.timedelta(days=1)
            why = self.excluded_among(short.skips, day)
            if why is None:
                counted += 1
            else:
                skipped.append(named(day, why))
        moved = None
        if day != plain:
            under = in_words(short.under_days)
            moved = (
                f"a period of less than {under} days skips {', '.join(skipped)}; the "
                f"{ordinal(n)} day counted is {day_label(day)}, not {plain.isoformat()}"
            )
        counting = Counting(self.id, self.citation, self._says(short.says, n))
        return DayDeadline(day, counting, moved)

    def plain_days_after(self, start: datetime.date, n: int, why: str) -> DayDeadline:
        """The ``n``-th day after ``start``, never moved: for a period that is not a time
        within which an act is to be done (``why`` says which reading, and its gap)."""
        return self._kept(
            ("plain", start, n, why),
            lambda: DayDeadline(
                start + datetime.timedelta(days=n),
                Counting(
                    self.id,
                    self.citation,
                    f"{days_text(n)}, the day of the event excluded and the last day included; "
                    f"the last day does not move: {why}",
                ),
            ),
        )

    def _hours_skipped(self, day: datetime.date) -> str | None:
        return self.excluded_among(self.data.hours_skip, day)

    def hours_after(self, start: datetime.datetime, n: int) -> HourDeadline:
        """The end of a period of ``n`` hours that begins at ``start``."""
        # Kept by the instant and the zone, not the wall time: in the hour a clock turns
        # back, 01:30 CDT and 01:30 CST are equal datetimes but an hour apart.
        key = ("hours", start.astimezone(UTC), start.tzinfo, n)
        return self._kept(key, lambda: self._hours_after(start, n))

    def _hours_after(self, start: datetime.datetime, n: int) -> HourDeadline:
        counting = Counting(
            self.id, self.citation, self._says(self.data.says_hours, n, "after the event")
        )
        if not self.data.hours_skip:
            due = (start.astimezone(UTC) + datetime.timedelta(hours=n)).astimezone(start.tzinfo)
            return HourDeadline(due, counting)
        due, skipped = _hours_skipping(start, n, self._hours_skipped, forward=True)
        return HourDeadline(due, counting, _skipped_text(n, skipped))

    def hours_before(self, moment: datetime.datetime, n: int) -> HourDeadline:
        """The latest time that is ``n`` hours before ``moment``."""
        counting = Counting(
            self.id, self.citation, self._says(self.data.says_hours, n, "before the event")
        )
        if not self.data.hours_skip:
            due = (moment.astimezone(UTC) - datetime.timedelta(hours=n)).astimezone(moment.tzinfo)
            return HourDeadline(due, counting)
        due, skipped = _hours_skipping(moment, n, self._hours_skipped, forward=False)
        return HourDeadline(due, counting, _skipped_text(n, skipped))

    def business_days_after(
        self, start: datetime.date, n: int, office: OfficeCalendar
    ) -> DayDeadline:
        """The ``n``-th day after ``start`` on which the office is open.

        The day of the event is excluded; every day counted is an open day, so the last day
        never needs to move. Closure days that fall on weekdays are named in ``moved``,
        since they push the deadline past the plain count of weekdays.
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


# One rule per loaded chapter, for as long as the chapter lives: a state's worth of villages
# (and each one's dated chapters) never push one another's rule, and the deadlines it has
# counted, out of a fixed-size cache.
_RULES: weakref.WeakKeyDictionary[Ordinance, CountingRule] = weakref.WeakKeyDictionary()


def rule_for(ordinance: Ordinance) -> CountingRule:
    """The counting rule a jurisdiction's ``time_counting`` setting names, around its state's
    legal holidays: one per chapter (a chapter is compared by identity), so the deadlines
    it has counted are kept for the next permit."""
    rule = _RULES.get(ordinance)
    if rule is None:
        rule = _RULES[ordinance] = _rule_of(ordinance)
    return rule


def _rule_of(ordinance: Ordinance) -> CountingRule:
    time_counting = ordinance.time_counting
    closed = ordinance.office_calendar.get("closed_on_saturdays")
    instead = time_counting.get("stands_in_for") if time_counting.get("stands_in") else None
    return CountingRule(
        ordinance.counting_rule, ordinance.holidays, time_counting["citation"], closed, instead
    )


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
