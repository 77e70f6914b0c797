"""A permit's record as events, checked strictly (DESIGN.md, "Events and duties").

Each event is ``{"type": ..., "at": ISO 8601 date or datetime, ...fields}``. A datetime
without an offset is local to the village; one with an offset is converted to local
time. A date alone stands for the start of that day, and ``has_time`` says so. Every
problem is a ``SiltfenceError`` whose message starts with the field path, e.g.
``events[3].at: expected an ISO 8601 date or datetime, got 'x'``.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from siltfence.core.dates import DateRefused, read_date, read_date_or_datetime
from siltfence.core.errors import SiltfenceError
from siltfence.core.quantities import UnitMismatch, to_unit


class EventError(SiltfenceError):
    """An event of the record is malformed: the message names ``events[i].field``."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}", field=path)


@dataclass(frozen=True)
class Event:
    index: int  # position in the input list, for messages and ``met_by``
    type: str
    at: datetime.datetime  # local, aware; the start of the day when only a date was given
    has_time: bool
    fields: Mapping[str, Any] = field(default_factory=dict)
    # The local day of ``at``: read by every clock, so worked out once.
    day: datetime.date = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "day", self.at.date())

    def at_json(self) -> str:
        return self.at.isoformat() if self.has_time else self.day.isoformat()

    def ref(self) -> dict[str, Any]:
        """How a duty names the event that met it."""
        ref: dict[str, Any] = {"type": self.type, "at": self.at_json(), "index": self.index}
        if "id" in self.fields:
            ref["id"] = self.fields["id"]
        return ref


# What a field holds; each parser takes (value, path, zone) and raises EventError.
Parser = Callable[[Any, str, datetime.tzinfo], Any]


def _text(value: Any, path: str, zone: datetime.tzinfo) -> str:
    if not isinstance(value, str) or not value.strip():
        raise EventError(path, f"expected text, got {_shown(value)}")
    return value.strip()


def _reasons(value: Any, path: str, zone: datetime.tzinfo) -> list[str]:
    if isinstance(value, str) and value.strip():
        return [value.strip()]
    if isinstance(value, list) and value and all(isinstance(v, str) and v.strip() for v in value):
        return [v.strip() for v in value]
    raise EventError(path, f"expected text or a list of texts, got {_shown(value)}")


def _texts(value: Any, path: str, zone: datetime.tzinfo) -> list[str]:
    if isinstance(value, list) and all(isinstance(v, str) and v.strip() for v in value):
        return [v.strip() for v in value]
    raise EventError(path, f"expected a list of texts, got {_shown(value)}")


def _bool(value: Any, path: str, zone: datetime.tzinfo) -> bool:
    if not isinstance(value, bool):
        raise EventError(path, f"expected true or false, got {_shown(value)}")
    return value


def _date(value: Any, path: str, zone: datetime.tzinfo) -> datetime.date:
    try:
        return read_date(value)
    except DateRefused as exc:
        raise EventError(path, str(exc)) from None


def _moment(value: Any, path: str, zone: datetime.tzinfo) -> tuple[datetime.datetime, bool]:
    return parse_moment(value, path, zone)


def _choice(value: Any, path: str, words: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in words:
        raise EventError(path, f"expected one of {', '.join(words)}, got {_shown(value)}")
    return value


ORDERS = ("stop_work_order", "revocation")
RETRACTED_BY = ("authority", "appeals_board")


def _order(value: Any, path: str, zone: datetime.tzinfo) -> str:
    return _choice(value, path, ORDERS)


def _retracted_by(value: Any, path: str, zone: datetime.tzinfo) -> str:
    return _choice(value, path, RETRACTED_BY)


# How a notice reached the person it is for (a ``served`` event): posted on the site,
# handed over, mailed (the moment it was sent) or emailed (the moment it was sent).
SERVICE_METHODS = ("posted_on_site", "handed_over", "mailed", "emailed")


def _service_method(value: Any, path: str, zone: datetime.tzinfo) -> str:
    return _choice(value, path, SERVICE_METHODS)


def _inches(value: Any, path: str, zone: datetime.tzinfo) -> float:
    try:
        return to_unit(value, "inch")
    except UnitMismatch as exc:
        raise EventError(path, f"expected a number of inches, 0 or more ({exc})") from None


def _whole_days(value: Any, path: str, zone: datetime.tzinfo) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise EventError(path, f"expected a whole number of days, got {_shown(value)}")
    if isinstance(value, float) and (not math.isfinite(value) or not value.is_integer()):
        raise EventError(path, f"expected a whole number of days, got {_shown(value)}")
    return int(value)


@dataclass(frozen=True)
class FieldSpec:
    parse: Parser
    required: bool = True


REQ = True
OPT = False

EVENT_TYPES: Mapping[str, Mapping[str, FieldSpec]] = {
    "application_received": {},
    "information_requested": {},
    "information_received": {},
    "application_approved": {},
    "application_disapproved": {"reasons": FieldSpec(_reasons, OPT)},
    "permit_issued": {"building_permit_expires": FieldSpec(_date, OPT)},
    "permit_extended": {
        "days": FieldSpec(_whole_days),
        "added_measures": FieldSpec(_texts, OPT),
        # Who extended: the authority (the default), or the appeals board when its decision
        # restores a revoked permit and sets its period (decision 38).
        "by": FieldSpec(_retracted_by, OPT),
    },
    "work_planned": {"start": FieldSpec(_moment)},
    "work_started": {},
    "start_notice_given": {},
    "measure_installed": {"measure": FieldSpec(_text), "description": FieldSpec(_text, OPT)},
    "measure_completion_notice_given": {"measure": FieldSpec(_text)},
    "rain": {
        "inches": FieldSpec(_inches),
        "ended_at": FieldSpec(_moment, OPT),
        "runoff": FieldSpec(_bool, OPT),
        "station": FieldSpec(_text, OPT),
    },
    "self_inspection": {"inspector": FieldSpec(_text), "phase": FieldSpec(_text)},
    "municipal_inspection": {"inspector": FieldSpec(_text), "result": FieldSpec(_text)},
    "area_inactive": {"area": FieldSpec(_text)},
    "area_stabilized": {"area": FieldSpec(_text)},
    # ``counts_from_service``: the notice counts from its service as recorded by ``served``
    # events naming its ``id`` (decision 46); without it, from the event's own ``at``.
    "stop_work_order_posted": {"counts_from_service": FieldSpec(_bool, OPT)},
    "compliance_achieved": {},
    "permit_revoked": {},
    "notice_of_intent_issued": {"counts_from_service": FieldSpec(_bool, OPT)},
    "final_stabilization": {},
    "violation": {"from": FieldSpec(_date), "to": FieldSpec(_date)},
    # Additive to the contract: unpaid costs of village work, the precondition of
    # certifying them to the tax roll (§ 413-10E, § 135-11E).
    "costs_unpaid": {},
    # The authority told a party working without a permit to stop (§ 135-11C).
    "notified_to_cease": {"counts_from_service": FieldSpec(_bool, OPT)},
    # Additive: a notice served on a person: ``of`` the id of the notice's event, ``method``
    # how, ``at`` when (posted, handed over, or sent), ``received`` the day a mailed or
    # emailed notice is shown to have reached the person, ``service`` the service record's
    # id (a later event of the same ``service`` adds its received day).
    "served": {
        "of": FieldSpec(_text),
        "method": FieldSpec(_service_method),
        "received": FieldSpec(_date, OPT),
        "service": FieldSpec(_text, OPT),
    },
    # A stop-work order or a revocation retracted (§ 413-10D, § 135-11D).
    "order_retracted": {"order": FieldSpec(_order), "by": FieldSpec(_retracted_by)},
    # Steps taken, so that a step is not offered again: the request to the attorney for a
    # cease-and-desist order (§ 413-10C, § 135-11C), the village's work begun on the land
    # (§ 413-10E, § 135-11E), and unpaid costs certified to the tax roll (``id``: the
    # costs_unpaid event's id, the invoice).
    "cease_and_desist_requested": {},
    "village_work_begun": {},
    "special_assessment_certified": {},
}
COMMON_FIELDS = {"type", "at", "id"}


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:37] + "...")
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    return {"list": "a list", "dict": "an object"}.get(type(value).__name__, type(value).__name__)


def parse_moment(value: Any, path: str, zone: datetime.tzinfo) -> tuple[datetime.datetime, bool]:
    """A date (YYYY-MM-DD) or a datetime (YYYY-MM-DDTHH:MM[:SS][offset], read by
    ``siltfence.core.dates``) as a local aware datetime, and whether it had a time.

    Moments are kept to the whole second (a fraction is dropped): a day ends at 23:59:59,
    and an act at 23:59:59.5 is on that day, not after it.

    An aware ``datetime`` object is taken as it is: the apps layer stores every event's
    moment as one and hands it over without a round trip through text (JSON, and so any
    input from outside, cannot produce one)."""
    if isinstance(value, datetime.datetime) and value.tzinfo is not None:
        return value.astimezone(zone).replace(microsecond=0), True
    try:
        read, has_time = read_date_or_datetime(value)
    except DateRefused as exc:
        raise EventError(path, str(exc)) from None
    if not isinstance(read, datetime.datetime) or not has_time:
        return datetime.datetime.combine(read, datetime.time(0), tzinfo=zone), False
    moment = read
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=zone)
    return moment.astimezone(zone).replace(microsecond=0), True


def parse_events(raw: Any, zone: datetime.tzinfo) -> list[Event]:
    """The events checked and sorted by time (stably: equal times keep their order)."""
    if not isinstance(raw, list):
        raise SiltfenceError(
            f"events: expected a list of events, got {_shown(raw)}", field="events"
        )
    events = [parse_event(item, index, zone) for index, item in enumerate(raw)]
    return sorted(events, key=lambda e: e.at)


def parse_event(item: Any, index: int, zone: datetime.tzinfo) -> Event:
    """One event of a record, checked: ``index`` is its place in the record's list, which
    the messages and ``met_by`` name."""
    where = f"events[{index}]"
    if not isinstance(item, dict):
        raise EventError(where, f"expected an object with type and at, got {_shown(item)}")
    kind = item.get("type")
    if kind is None:
        raise EventError(f"{where}.type", "is required")
    if not isinstance(kind, str) or kind not in EVENT_TYPES:
        raise EventError(
            f"{where}.type",
            f"unknown event type {_shown(kind)}; expected one of {', '.join(EVENT_TYPES)}",
        )
    specs = EVENT_TYPES[kind]
    for key in item:
        if key not in COMMON_FIELDS and key not in specs:
            allowed = ", ".join(["at", "id", *specs]) if specs else "at, id"
            raise EventError(
                f"{where}.{key}", f"unknown field for a {kind} event; expected {allowed}"
            )
    if "at" not in item:
        raise EventError(f"{where}.at", "is required")
    at, has_time = parse_moment(item["at"], f"{where}.at", zone)
    fields: dict[str, Any] = {}
    if "id" in item:
        fields["id"] = _text(item["id"], f"{where}.id", zone)
    for key, spec in specs.items():
        if key not in item:
            if spec.required:
                raise EventError(f"{where}.{key}", f"is required for a {kind} event")
            continue
        fields[key] = spec.parse(item[key], f"{where}.{key}", zone)
    if kind == "violation" and fields["to"] < fields["from"]:
        raise EventError(
            f"{where}.to",
            f"the violation ends ({fields['to']}) before it begins ({fields['from']})",
        )
    if kind == "served" and "received" in fields:
        if fields["method"] not in ("mailed", "emailed"):
            raise EventError(
                f"{where}.received",
                f"a received day is for a notice mailed or emailed, not {fields['method']}",
            )
        if fields["received"] < at.date():
            raise EventError(
                f"{where}.received",
                f"the notice was received ({fields['received']}) before it was sent "
                f"({at.date().isoformat()})",
            )
    if kind == "rain" and "ended_at" in fields and fields["ended_at"][0] < at:
        raise EventError(
            f"{where}.ended_at",
            f"the rain ends ({fields['ended_at'][0].isoformat()}) before its at ({at.isoformat()})",
        )
    return Event(index, kind, at, has_time, fields)
