"""What every part of the duties engine reads: the ordinance, the counting rule, the
checked events up to ``as_of``, and the notes collected along the way."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from siltfence.core.ordinance.model import Ordinance, ParameterValue
from siltfence.core.timeline.counting import CountingRule, OfficeCalendar
from siltfence.core.timeline.events import Event
from siltfence.core.timeline.model import Note, Permit, Reading


@dataclass
class Context:
    ordinance: Ordinance
    rule: CountingRule
    office: OfficeCalendar
    zone: datetime.tzinfo
    as_of: datetime.datetime
    events: list[Event]  # checked, sorted by time, none after as_of
    notes: dict[str, Note] = field(default_factory=dict)
    # Days after as_of on which the duties change with no new event (a new inspection
    # period begins); a status turning overdue is read from the duties' own dues.
    changes: list[datetime.date] = field(default_factory=list)
    # The permit's term, once worked out (``clocks.permit_term``); None: no permit issued.
    permit: Permit | None = None
    _by_type: dict[tuple[str, ...], list[Event]] = field(default_factory=dict, repr=False)
    _readings: dict[tuple[int, int], tuple[Reading, ...]] = field(default_factory=dict, repr=False)

    # -- events ---------------------------------------------------------------------

    def of(self, *types: str) -> list[Event]:
        """The events of these types, in time order (a new list each call)."""
        found = self._by_type.get(types)
        if found is None:
            found = self._by_type[types] = [e for e in self.events if e.type in types]
        return list(found)

    def after(self, anchor: Event, *types: str) -> list[Event]:
        """Events of ``types`` at or after ``anchor``.

        A date alone says nothing about the hour, so an event on the anchor's own day
        counts as after it unless both carry times and say otherwise.
        """
        return [
            e for e in self.events if e.type in types and e is not anchor and not_before(e, anchor)
        ]

    def binds(self, rule: Mapping[str, Any], *days: datetime.date) -> bool:
        """A duty of ``rule`` can arise on ``days``: always, unless the rule is a condition
        of the permit (``condition_of_permit``), which binds only while a permit is in
        force on one of them (§ 413-8E(3), § 135-7E: "All permits shall require the
        permittee to ...")."""
        if not rule.get("condition_of_permit"):
            return True
        return self.permit is not None and any(self.permit.in_force_on(d) for d in days)

    # -- the ordinance --------------------------------------------------------------

    def param(self, name: str, on: datetime.date) -> ParameterValue:
        return self.ordinance.parameter(name, on)

    def whole(self, name: str, on: datetime.date) -> int:
        value = self.param(name, on).value
        assert isinstance(value, float), f"parameter {name} is not a number"
        return int(value)

    def duty_rule(self, kind: str) -> Mapping[str, Any] | None:
        for rule in self.ordinance.rules["duties"]:
            if rule["kind"] == kind:
                return rule  # type: ignore[no-any-return]
        return None

    def condition_text(self, citation: str) -> str | None:
        """The permit condition's words for a citation (``permit_conditions`` in rules)."""
        for condition in self.ordinance.rules["permit_conditions"]:
            if condition["citation"] == citation:
                says: str = condition["says"]
                return says[0].lower() + says[1:]
        return None

    def authority(self) -> str:
        return str(self.ordinance.authority_title)

    def measure_word(self) -> str:
        """ "control measure" (Spencer) or "BMP" (New Glarus, "best management practice (BMP)")."""
        word = str(self.ordinance.words.get("control_measure", "control measure"))
        if "(" in word and word.endswith(")"):
            return word[word.index("(") + 1 : -1]
        return word

    # -- notes ----------------------------------------------------------------------

    def note(self, id: str, says: str, citations: Iterable[str], gap: int | None = None) -> None:
        if id not in self.notes:
            self.notes[id] = Note(id, says, tuple(citations), gap)

    def gap(self, id: str, on: datetime.date | None = None) -> Mapping[str, Any] | None:
        """Show the jurisdiction's gap ``id`` (from ``rules.yaml``), if it has one: its
        numbers as of ``on`` (the day the rule it explains was read), else as of as_of.
        Returns the gap note, or None where the jurisdiction has none of that id."""
        rule = self.ordinance.gaps_on(on).get(id)
        if rule is not None:
            self.note(rule["id"], rule["says"], rule["citations"], rule.get("number"))
        return rule

    def readings(
        self, rule: Mapping[str, Any], on: datetime.date | None = None
    ) -> tuple[Reading, ...]:
        """The gaps of the text an answer of ``rule`` rests on (its ``readings:``, gap ids
        of ``rules.yaml``), each with its number as of ``on``, shown among the notes too."""
        # Kept for the gap notes in force on ``on``: a weekly duty asks for every week.
        gaps = self.ordinance.gaps_on(on)
        key = (id(rule), id(gaps))
        found = self._readings.get(key)
        if found is None:
            readings = []
            for gap_id in rule.get("readings", ()):
                gap = self.gap(gap_id, on)
                readings.append(Reading(gap_id, None if gap is None else gap.get("number")))
            found = self._readings[key] = tuple(readings)
        return found


def not_before(event: Event, anchor: Event) -> bool:
    if event.day != anchor.day:
        return event.day > anchor.day
    if event.has_time and anchor.has_time:
        return event.at >= anchor.at
    return True


def end_of_day(day: datetime.date, zone: datetime.tzinfo) -> datetime.datetime:
    return datetime.datetime.combine(day, datetime.time(23, 59, 59), tzinfo=zone)


def next_midnight(day: datetime.date, zone: datetime.tzinfo) -> datetime.datetime:
    return datetime.datetime.combine(
        day + datetime.timedelta(days=1), datetime.time(0), tzinfo=zone
    )


def moment_label(event: Event) -> str:
    if event.has_time:
        return f"{event.at.strftime('%A')} {event.day.isoformat()} {event.at.strftime('%H:%M')}"
    return event.day.isoformat()
