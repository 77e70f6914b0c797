"""The timeline: calendars, clocks and the duties engine (events in, duties out).

Public surface:

- ``compute(jurisdiction, events, as_of=None, office_closures=None) -> Timeline``;
  ``Timeline.to_json()`` is the public contract's shape (DESIGN.md).
- ``parse_event(item, index, zone)`` and ``compute_checked(ordinance, checked, ...)``: the
  same in two steps, for a caller that reads an event many records share once.
- ``parse_as_of(text, zone)``, ``parse_office_closures(items)``: the options as the CLI
  and the API read them, with the same messages.
- ``EVENT_TYPES``: the event types and their fields.
- ``rule_for(ordinance)``, ``CountingRule``, ``OfficeCalendar``: the counting rules (gap 11),
  as the village's data and its state folder's say; the legal holidays are
  ``ordinance.holidays`` (``HolidayCalendar.in_year(year)``).
"""

from siltfence.core.timeline.counting import (
    CountingRule,
    DayDeadline,
    HourDeadline,
    OfficeCalendar,
    rule_for,
)
from siltfence.core.timeline.engine import (
    compute,
    compute_checked,
    parse_as_of,
    parse_office_closures,
)
from siltfence.core.timeline.events import EVENT_TYPES, Event, EventError, parse_event
from siltfence.core.timeline.model import Timeline

__all__ = [
    "EVENT_TYPES",
    "CountingRule",
    "DayDeadline",
    "Event",
    "EventError",
    "HourDeadline",
    "OfficeCalendar",
    "Timeline",
    "compute",
    "compute_checked",
    "parse_as_of",
    "parse_event",
    "parse_office_closures",
    "rule_for",
]
