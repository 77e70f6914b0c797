"""The timeline: calendars, clocks and the duties engine (events in, duties out).

Public surface:

- ``compute(jurisdiction, events, as_of=None, office_closures=None) -> Timeline``;
  ``Timeline.to_json()`` is the public contract's shape (DESIGN.md).
- ``parse_as_of(text, zone)``, ``parse_office_closures(items)``: the options as the CLI
  and the API read them, with the same messages.
- ``EVENT_TYPES``: the event types and their fields.
- ``WisconsinLegalHolidays`` / ``legal_holidays(year)``: § 995.20 Wis. Stats.
- ``rule_for(time_counting)``, ``OfficeCalendar``: the counting rules (gap 11).
"""

from siltfence.core.timeline.counting import (
    CountingRule,
    DayDeadline,
    HourDeadline,
    OfficeCalendar,
    WeekendsAndHolidaysRule,
    WisStats990Rule,
    rule_for,
)
from siltfence.core.timeline.engine import compute, parse_as_of, parse_office_closures
from siltfence.core.timeline.events import EVENT_TYPES, EventError
from siltfence.core.timeline.holidays_wi import WisconsinLegalHolidays, legal_holidays
from siltfence.core.timeline.model import Timeline

__all__ = [
    "EVENT_TYPES",
    "CountingRule",
    "DayDeadline",
    "EventError",
    "HourDeadline",
    "OfficeCalendar",
    "Timeline",
    "WeekendsAndHolidaysRule",
    "WisStats990Rule",
    "WisconsinLegalHolidays",
    "compute",
    "legal_holidays",
    "parse_as_of",
    "parse_office_closures",
    "rule_for",
]
