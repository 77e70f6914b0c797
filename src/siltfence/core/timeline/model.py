"""What the duties engine returns: the public contract's shapes (DESIGN.md), plus additive
fields (``met_by``, ``counting``, ``moved``, ``late``; ``permit.issued``...)."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from siltfence.core.timeline.counting import Counting, DayDeadline, HourDeadline
from siltfence.core.timeline.events import Event

DUTY_KINDS = (
    "review_decision",
    "re_review_decision",
    "start_notice",
    "measure_completion_notice",
    "rain_inspection",
    "weekly_inspection",
    "municipal_inspection",
    "stabilization",
)


def _when(value: datetime.date | datetime.datetime) -> str:
    return value.isoformat()


@dataclass(frozen=True)
class Reading:
    """A gap of the text an answer rests on: the reading taken is the village's gap note
    ``id`` (``rules.yaml`` ``gaps:``), numbered ``gap`` there."""

    id: str
    gap: int | None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id}
        if self.gap is not None:
            data["gap"] = self.gap
        return data


def readings_words(readings: tuple[Reading, ...]) -> str:
    """The readings an answer rests on, in words: "gap 13, the reading taken", "gaps 4 and
    20, the readings taken" ("" for none)."""
    numbers = [str(r.gap) for r in readings if r.gap is not None]
    if not numbers:
        return ""
    if len(numbers) == 1:
        return f"gap {numbers[0]}, the reading taken"
    return f"gaps {', '.join(numbers[:-1])} and {numbers[-1]}, the readings taken"


@dataclass
class Duty:
    kind: str
    party: str  # permittee | authority
    due: datetime.date | datetime.datetime  # a date for days, a local datetime for hours
    citation: str
    because: str
    counting: Counting | None = None
    moved: str | None = None
    met_by: Event | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    # The gaps of the text the duty rests on (the rule's ``readings:``).
    readings: tuple[Reading, ...] = ()

    @classmethod
    def by_rule(
        cls,
        rule: Mapping[str, Any],
        deadline: DayDeadline | HourDeadline,
        *,
        because: str,
        met_by: Event | None = None,
        extra: dict[str, Any] | None = None,
        readings: tuple[Reading, ...] = (),
    ) -> Duty:
        """The duty a ``duties:`` rule of the ordinance sets, due at ``deadline``."""
        return cls(
            kind=rule["kind"],
            party=rule["party"],
            due=deadline.due,
            citation=rule["citation"],
            because=because,
            counting=deadline.counting,
            moved=deadline.moved,
            met_by=met_by,
            extra=extra or {},
            readings=readings,
        )

    @property
    def in_hours(self) -> bool:
        return isinstance(self.due, datetime.datetime)

    def is_late(self) -> bool:
        if self.met_by is None:
            return False
        if isinstance(self.due, datetime.datetime):
            return self.met_by.at > self.due
        return self.met_by.day > self.due

    def status(self, as_of: datetime.datetime) -> str:
        if self.met_by is not None:
            return "met"
        if isinstance(self.due, datetime.datetime):
            return "overdue" if as_of > self.due else "open"
        return "overdue" if as_of.date() > self.due else "open"

    def to_json(self, as_of: datetime.datetime) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": self.kind,
            "party": self.party,
            "due": _when(self.due),
            "status": self.status(as_of),
            "citation": self.citation,
            "because": self.because,
        }
        if self.met_by is not None:
            data["met_by"] = self.met_by.ref()
            data["late"] = self.is_late()
        if self.counting is not None:
            data["counting"] = self.counting.to_json()
        if self.moved:
            data["moved"] = self.moved
        if self.readings:
            data["readings"] = [r.to_json() for r in self.readings]
        data.update(self.extra)
        return data

    def sort_key(self) -> tuple[datetime.date, str, int]:
        day = self.due.date() if isinstance(self.due, datetime.datetime) else self.due
        return (day, _when(self.due), DUTY_KINDS.index(self.kind))


@dataclass(frozen=True)
class Extension:
    event: Event
    days: int
    expires: datetime.date
    moved: str | None
    added_measures: tuple[str, ...] = ()
    by: str = "authority"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "at": self.event.at_json(),
            "days": self.days,
            "expires": self.expires.isoformat(),
        }
        if self.by != "authority":
            data["by"] = self.by
        if self.moved:
            data["moved"] = self.moved
        if self.added_measures:
            data["added_measures"] = list(self.added_measures)
        return data


@dataclass(frozen=True)
class Permit:
    issued: datetime.date
    expires: datetime.date
    citation: str
    because: str
    counting: Counting
    moved: str | None
    building_permit_expires: datetime.date | None
    extensions: tuple[Extension, ...]
    revoked: datetime.date | None = None

    def in_force_on(self, day: datetime.date) -> bool:
        return self.status_on(day) == "in_force"

    def status_on(self, day: datetime.date) -> str:
        """``not_yet`` before its issue, ``revoked`` from its revocation, ``expired`` after
        its last day (§ 413-8E(1), § 135-7G), else ``in_force``."""
        if day < self.issued:
            return "not_yet"
        if self.revoked is not None and day >= self.revoked:
            return "revoked"
        if day > self.expires:
            return "expired"
        return "in_force"

    def ended_on(self) -> datetime.date:
        """The last day the permit is in force (the day before a revocation)."""
        if self.revoked is not None:
            return min(self.expires, self.revoked - datetime.timedelta(days=1))
        return self.expires

    def to_json(self, as_of: datetime.datetime) -> dict[str, Any]:
        data: dict[str, Any] = {
            "expires": self.expires.isoformat(),
            "issued": self.issued.isoformat(),
            "citation": self.citation,
            "because": self.because,
            "in_force": self.in_force_on(as_of.date()),
            "status": self.status_on(as_of.date()),
            "counting": self.counting.to_json(),
            "extensions": [e.to_json() for e in self.extensions],
        }
        if self.moved:
            data["moved"] = self.moved
        if self.building_permit_expires is not None:
            data["building_permit_expires"] = self.building_permit_expires.isoformat()
        if self.revoked is not None:
            data["revoked"] = self.revoked.isoformat()
        return data


@dataclass(frozen=True)
class AllowedAction:
    action: str
    start: datetime.date  # "from" in the contract
    citation: str
    because: str
    counting: Counting | None = None
    moved: str | None = None
    # What the step runs from (additive): the event, the day it counts from, and how the
    # notice was served when it counts from its service ("posted_on_site", "mailed", ...).
    runs_from: RunsFrom | None = None
    # The gaps of the text the step rests on (the rule's ``readings:``).
    readings: tuple[Reading, ...] = ()

    def to_json(self, as_of: datetime.datetime) -> dict[str, Any]:
        data: dict[str, Any] = {
            "action": self.action,
            "from": self.start.isoformat(),
            "citation": self.citation,
            "because": self.because,
            "available": as_of.date() >= self.start,
        }
        if self.counting is not None:
            data["counting"] = self.counting.to_json()
        if self.moved:
            data["moved"] = self.moved
        if self.runs_from is not None:
            data["runs_from"] = self.runs_from.to_json()
        if self.readings:
            data["readings"] = [r.to_json() for r in self.readings]
        return data


@dataclass(frozen=True)
class RunsFrom:
    """The event a step's wait runs from, the day it counts from, and how it was served."""

    event: str
    day: datetime.date
    id: str | None = None
    served: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"event": self.event, "day": self.day.isoformat()}
        if self.id is not None:
            data["id"] = self.id
        if self.served is not None:
            data["served"] = self.served
        return data


@dataclass(frozen=True)
class ViolationDays:
    """The days one violation existed, ``first`` to ``last`` inclusive, and the compliance
    day that ended it, if one did."""

    event: Event
    first: datetime.date
    last: datetime.date
    ended_by_compliance: datetime.date | None

    def count(self) -> int:
        return (self.last - self.first).days + 1

    def days(self) -> list[datetime.date]:
        return [self.first + datetime.timedelta(days=i) for i in range(self.count())]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "event": self.event.ref(),
            "from": self.first.isoformat(),
            "to": self.last.isoformat(),
            "offenses": self.count(),
        }
        if self.ended_by_compliance is not None:
            data["compliance"] = self.ended_by_compliance.isoformat()
        return data


@dataclass(frozen=True)
class Forfeiture:
    days: int  # distinct days on which any violation existed
    per_day_min: float | None
    per_day_max: float | None
    plus_costs: bool | None  # None: set outside the chapter and not in hand
    citation: str
    violation_days: tuple[datetime.date, ...]
    violations: tuple[ViolationDays, ...] = ()

    @property
    def offenses(self) -> int:
        """Each violation, each day it exists, is a separate offense (decision 6)."""
        return sum(v.count() for v in self.violations)

    def to_json(self) -> dict[str, Any]:
        def total(per_offense: float | None) -> float | int | None:
            if per_offense is None:
                return None
            amount = per_offense * self.offenses
            return int(amount) if float(amount).is_integer() else amount

        def plain(value: float | None) -> float | int | None:
            if value is None:
                return None
            return int(value) if float(value).is_integer() else value

        # The contract's example ("days": 10, "min": 1000, "max": 5000) gives min and max
        # over all the offenses; the per-offense amounts are additive fields.
        data: dict[str, Any] = {
            "days": self.days,
            "offenses": self.offenses,
            "min": total(self.per_day_min),
            "max": total(self.per_day_max),
            "plus_costs": self.plus_costs,
            "citation": self.citation,
            "min_total": total(self.per_day_min),
            "max_total": total(self.per_day_max),
            "min_per_day": plain(self.per_day_min),
            "max_per_day": plain(self.per_day_max),
            "each_day_a_separate_offense": True,
            "violations": [v.to_json() for v in self.violations],
        }
        data["first_day"] = self.violation_days[0].isoformat()
        data["last_day"] = self.violation_days[-1].isoformat()
        return data


@dataclass(frozen=True)
class Note:
    id: str
    says: str
    citations: tuple[str, ...]
    gap: int | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "says": self.says, "citations": list(self.citations)}
        if self.gap is not None:
            data["gap"] = self.gap
        return data


@dataclass
class Timeline:
    jurisdiction: str
    as_of: datetime.datetime
    counting: Counting
    permit: Permit | None
    duties: list[Duty]
    allowed_actions: list[AllowedAction]
    forfeiture: Forfeiture | None
    notes: list[Note]
    # The first day after as_of on which the duties change with no new event, other than
    # an open duty falling due (a new inspection period); None if there is none. A store
    # of computed duties recomputes by then. Not part of the public output.
    changes_on: datetime.date | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "permit": None if self.permit is None else self.permit.to_json(self.as_of),
            "duties": [d.to_json(self.as_of) for d in self.duties],
            "allowed_actions": [a.to_json(self.as_of) for a in self.allowed_actions],
            "forfeiture": None if self.forfeiture is None else self.forfeiture.to_json(),
            "notes": [n.to_json() for n in self.notes],
            "jurisdiction": self.jurisdiction,
            "as_of": self.as_of.isoformat(),
            "counting": self.counting.to_json(),
        }
