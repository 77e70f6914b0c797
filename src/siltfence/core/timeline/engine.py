"""The duties engine: a permit's events in, its duties, permit term, allowed enforcement
steps, forfeiture and notes out, as of a given time.

It is a pure function of the ordinance, the events, ``as_of`` and the office calendar:
it never reads the clock (the CLI and the API pass the present time in the village's
zone when the user gives none). Duties are recomputed from the events, never edited.
"""

from __future__ import annotations

import datetime
from typing import Any
from zoneinfo import ZoneInfo

from siltfence.core.dates import DateRefused, read_date
from siltfence.core.errors import NotInForce, SiltfenceError
from siltfence.core.ordinance.loader import load
from siltfence.core.ordinance.model import Ordinance
from siltfence.core.timeline.clocks import permit_term, review_clocks
from siltfence.core.timeline.context import Context, end_of_day
from siltfence.core.timeline.counting import Counting, OfficeCalendar, rule_for
from siltfence.core.timeline.duties import (
    completion_notices,
    municipal_inspections,
    rain_inspections,
    stabilizations,
    start_notices,
    weekly_inspections,
)
from siltfence.core.timeline.enforcement import (
    allowed_actions,
    forfeiture,
    work_without_permit,
)
from siltfence.core.timeline.events import Event, EventError, parse_events, parse_moment
from siltfence.core.timeline.model import Timeline


def compute(
    jurisdiction: str | Ordinance,
    events: list[dict[str, Any]],
    as_of: datetime.datetime | None = None,
    office_closures: frozenset[datetime.date] | None = None,
) -> Timeline:
    """The timeline of a permit's record.

    ``events``: the contract's events, in any order. ``as_of``: the time the statuses
    are judged at (a naive datetime is local); by default the end of the day of the latest
    event. Events after ``as_of`` are left out, with a note. ``office_closures``: the
    office's closure days for business-day clocks, replacing the configured ones (the
    legal holidays) for this computation; weekends are always closed.
    """
    ordinance = jurisdiction if isinstance(jurisdiction, Ordinance) else load(jurisdiction)
    checked = parse_events(events, ZoneInfo(ordinance.time_zone))
    return compute_checked(ordinance, checked, as_of, office_closures)


def compute_checked(
    ordinance: Ordinance,
    checked: list[Event],
    as_of: datetime.datetime | None = None,
    office_closures: frozenset[datetime.date] | None = None,
) -> Timeline:
    """``compute`` on events already read by ``parse_event`` in the village's zone, each
    with its index in the record (the stored duties' recompute reads an event that many
    permits share once). The checks between events are made here, as ``compute`` makes
    them."""
    zone = ZoneInfo(ordinance.time_zone)
    checked = sorted(checked, key=lambda e: e.at)
    _check_in_force(ordinance, checked)
    _check_extensions(ordinance, checked)
    _check_retractions(ordinance, checked)
    _check_services(checked)
    if as_of is None:
        when = end_of_day(checked[-1].day, zone) if checked else None
    elif as_of.tzinfo is None:
        when = as_of.replace(tzinfo=zone)
    else:
        when = as_of.astimezone(zone)
    if when is None:
        raise SiltfenceError(
            "as_of: give as_of when there are no events (nothing to count from)", field="as_of"
        )
    # The sentences (gap notes, conditions) as of ``as_of``: their numbers are the
    # parameters in force that day; each duty still reads its period on its own day.
    ordinance = ordinance.on(when.date())
    rule = rule_for(ordinance)
    considered = [e for e in checked if e.at <= when]
    ctx = Context(
        ordinance=ordinance,
        rule=rule,
        office=OfficeCalendar(
            office_closures,
            citation=str(ordinance.office_calendar["citation"]),
            office=f"the {ordinance.authority_title}'s office",
            holidays=ordinance.holidays,
        ),
        zone=zone,
        as_of=when,
        events=considered,
    )
    if len(considered) < len(checked):
        left_out = sorted(e.index for e in checked if e.at > when)
        ctx.note(
            "events-after-as-of",
            f"{len(left_out)} event(s) after {when.isoformat()} were left out "
            f"(events {', '.join(str(i) for i in left_out)}): the timeline is as of that time",
            [],
        )
    _counting_notes(ctx)
    permit = ctx.permit = permit_term(ctx)
    work_without_permit(ctx)
    duties = [
        *review_clocks(ctx),
        *start_notices(ctx),
        *completion_notices(ctx),
        *rain_inspections(ctx),
        *weekly_inspections(ctx),
        *stabilizations(ctx),
        *municipal_inspections(ctx, permit),
    ]
    duties.sort(key=lambda d: d.sort_key())
    actions = allowed_actions(ctx)
    fine = forfeiture(ctx)
    if duties or permit is not None or actions:
        ctx.gap("counting-time")
    time_counting = ordinance.time_counting
    return Timeline(
        jurisdiction=ordinance.id,
        as_of=when,
        counting=Counting(rule.id, rule.citation, str(time_counting["says"]).strip()),
        permit=permit,
        duties=duties,
        allowed_actions=actions,
        forfeiture=fine,
        notes=list(ctx.notes.values()),
        changes_on=min(ctx.changes, default=None),
    )


def parse_as_of(text: str, zone: datetime.tzinfo) -> datetime.datetime:
    """``as_of`` from a CLI option or an API field: a datetime, or a date (its end)."""
    moment, has_time = parse_moment(text, "as_of", zone)  # refusals name as_of
    return moment if has_time else end_of_day(moment.date(), zone)


def parse_office_closures(items: Any) -> frozenset[datetime.date]:
    """``office_closures`` from the CLI (split at commas) or the API: dates YYYY-MM-DD."""
    if not isinstance(items, list | tuple):
        raise SiltfenceError(
            "office_closures: expected a list of dates written YYYY-MM-DD", field="office_closures"
        )
    days = set()
    for index, item in enumerate(items):
        try:
            days.add(read_date(item))
        except DateRefused as exc:
            raise SiltfenceError(
                f"office_closures[{index}]: {exc}", field=f"office_closures[{index}]"
            ) from None
    return frozenset(days)


def _check_in_force(ordinance: Ordinance, events: list[Any]) -> None:
    if not events:
        return
    first = events[0]
    try:
        ordinance.version_on(first.day)
    except NotInForce as exc:
        message = str(exc).removeprefix("on: ")
        raise SiltfenceError(
            f"events[{first.index}].at: {message}", field=f"events[{first.index}].at"
        ) from None


def _check_extensions(ordinance: Ordinance, events: list[Any]) -> None:
    """Each extension is "for up to an additional 180 days" (§ 413-8E(1), § 135-7G), and
    extends a permit that was issued."""
    rules = ordinance.rules["permit"]
    issued = False
    for event in events:
        if event.type == "permit_issued":
            issued = True
        if event.type != "permit_extended":
            continue
        where = f"events[{event.index}]"
        cap = ordinance.parameter(rules["extension_max"], event.day)
        limit = int(cap.value) if isinstance(cap.value, float) else None
        days = event.fields["days"]
        if days <= 0 or (limit is not None and days > limit):
            raise EventError(
                f"{where}.days",
                f"an extension is from 1 to {limit} days ({cap.citation}: "
                f'"{cap.text}"); got {days}',
            )
        if not issued:
            raise EventError(
                f"{where}.type",
                "a permit_extended event needs an earlier permit_issued; there is no permit "
                "to extend",
            )
        if event.fields.get("by") == "appeals_board" and not _board_restores(events, event):
            raise EventError(
                f"{where}.by",
                f"the {ordinance.appeals_body['title']} sets a permit's period only in the "
                "decision that restores it: an order_retracted of the revocation by the "
                "appeals board at the same moment comes before this extension",
            )


def _board_restores(events: list[Any], extension: Any) -> bool:
    """Whether the appeals board's retraction of the revocation, at the extension's moment,
    comes before it: the decision that restores the permit and sets its period."""
    return any(
        e.type == "order_retracted"
        and e.fields["order"] == "revocation"
        and e.fields["by"] == "appeals_board"
        and e.at == extension.at
        and e.index < extension.index
        for e in events
    )


# The notices a ``served`` event may name: the events whose moment may count from service.
SERVED_NOTICES = ("stop_work_order_posted", "notice_of_intent_issued", "notified_to_cease")


def _check_services(events: list[Any]) -> None:
    """A ``served`` event names a notice of the record by its id, and is not served before
    the notice was given."""
    notices = {e.fields["id"]: e for e in events if e.type in SERVED_NOTICES and "id" in e.fields}
    for event in events:
        if event.type != "served":
            continue
        where = f"events[{event.index}]"
        notice = notices.get(event.fields["of"])
        if notice is None:
            raise EventError(
                f"{where}.of",
                f"names no notice of this record: {event.fields['of']!r}; give the id of a "
                f"{', '.join(SERVED_NOTICES)} event",
            )
        if event.at < notice.at and (event.has_time and notice.has_time):
            raise EventError(
                f"{where}.at",
                f"the notice is served ({event.at.isoformat()}) before it was given "
                f"({notice.at.isoformat()})",
            )
        if event.day < notice.day:
            raise EventError(
                f"{where}.at",
                f"the notice is served ({event.day.isoformat()}) before it was given "
                f"({notice.day.isoformat()})",
            )


def _check_retractions(ordinance: Ordinance, events: list[Any]) -> None:
    """Only those the chapter names may retract an order (§ 413-10D: the Building Inspector
    or the Zoning Board of Appeals upon appeal; § 135-11D: the Zoning Board of Appeals), and
    only an order that was given."""
    retraction = ordinance.rules["enforcement"]["retraction"]
    titles = {
        "authority": ordinance.authority["title"],
        "appeals_board": ordinance.appeals_body["title"],
    }
    given = {"stop_work_order": False, "revocation": False}
    for event in events:
        if event.type == "stop_work_order_posted":
            given["stop_work_order"] = True
        elif event.type == "permit_revoked":
            given["revocation"] = True
        if event.type != "order_retracted":
            continue
        where = f"events[{event.index}]"
        by = event.fields["by"]
        if by not in retraction["by"]:
            allowed = " or ".join(f"the {titles[b]}" for b in retraction["by"])
            raise EventError(
                f"{where}.by",
                f"only {allowed} may retract an order ({retraction['citation']}); "
                f"got the {titles[by]}",
            )
        order = event.fields["order"]
        if not given[order]:
            what = "stop-work order" if order == "stop_work_order" else "revocation"
            raise EventError(f"{where}.order", f"there is no earlier {what} to retract")


def _counting_notes(ctx: Context) -> None:
    counting = ctx.ordinance.time_counting
    says = " ".join(str(counting["says"]).split())
    if counting.get("stands_in"):
        says += (
            " This is the state rule standing in for the village's own Ch. 1, which is not in hand."
        )
    ctx.note("counting-rule", says, [str(counting["citation"]), ctx.ordinance.holidays.citation])
