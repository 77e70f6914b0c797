"""Enforcement steps the authority may take, from when, and the forfeiture accrued.

The steps, their preconditions, waiting periods and citations come from
``enforcement.actions`` in ``rules.yaml``; how each waiting period is read is here, with
the words it reads (docs/decisions/0006-enforcement-waiting-periods.md):

- Spencer § 413-10B, C: the permittee (or the landowner with no permit) has "within 10
  days" to comply or cease. That is a period to act, counted by the village's rule (the
  last day moves off a Sunday or legal holiday); the power arises the day after its last
  day: ``cure``.
- Spencer § 413-10E: "Ten days after posting a stop-work order, the Building Inspector may
  issue a notice of intent": from the 10th day after the posting, ``after``.
- Spencer § 413-10E: "may go on the land and commence the work after 14 days from issuing
  the notice of intent": once 14 whole days have passed, the 15th day, ``after_whole``.
- New Glarus § 135-11B, C, E: no waiting period; each step is open from the day of its
  precondition event. § 135-11B: "does not cease activity as required in a stop-work order
  ... or fails to comply with the erosion and sediment control plan or permit conditions":
  a recorded violation of a permit opens revocation without any stop-work order. § 135-11C:
  "where no permit has been issued, does not cease the activity after being notified": a
  notice to cease (``notified_to_cease``) opens the referral.

An action is never offered before its precondition event has happened: village work
needs a notice of intent, certification needs unpaid costs, revocation needs a permit.
When several rules give the same action (New Glarus § 135-11B, C), the earliest wins.

Retraction (§ 413-10D, § 135-11D): an ``order_retracted`` event ends a stop-work order as
compliance does, or undoes a revocation, from that moment on.

Service (docs/decisions/0046-notices-count-from-their-service.md): a notice whose event
says ``counts_from_service`` counts from its service as the ``served`` events record it,
read by ``counted_from``; until it is served, no step runs from it, and a note says so.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Mapping
from typing import Any

from siltfence.core.timeline.clocks import revoked_on
from siltfence.core.timeline.context import Context
from siltfence.core.timeline.counting import Counting
from siltfence.core.timeline.events import Event
from siltfence.core.timeline.model import (
    AllowedAction,
    Forfeiture,
    RunsFrom,
    ViolationDays,
    readings_words,
)

WAIT_READING = {
    "revoke_permit": "cure",
    "request_cease_and_desist": "cure",
    "issue_notice_of_intent": "after",
    "begin_village_work": "after_whole",
    "certify_special_assessment": "after",
}
STOP_WORK_ACTIONS = ("revoke_permit", "request_cease_and_desist", "issue_notice_of_intent")


# How a notice that counts from its service is read (decision 46):
# - a stop-work order from its posting on the site: both chapters name posting ("Ten days
#   after posting", "a stop-work order posted"); a copy mailed, handed over or emailed
#   does not move it;
# - a notice of intent from its issuing "to" the person: the first time it was handed
#   over, posted on the site or mailed (sent); an email alone is not taken as issuing it
#   (gap ``notice-issued``);
# - a notice to cease from when the party was told ("after being notified", § 135-11C):
#   handed over, that moment; mailed or emailed, the day it is shown to have been
#   received (gap ``being-notified``).
COUNTED_BY = {
    "stop_work_order_posted": ("posted_on_site",),
    "notice_of_intent_issued": ("handed_over", "posted_on_site", "mailed"),
    "notified_to_cease": ("handed_over",),
}
COUNTED_ON_RECEIPT = {"notified_to_cease": ("mailed", "emailed")}
SERVICE_WORDS = {
    "posted_on_site": "posted on the site",
    "handed_over": "handed over",
    "mailed": "mailed",
    "emailed": "emailed",
}
NOTICE_WORDS = {
    "stop_work_order_posted": "stop work order",
    "notice_of_intent_issued": "notice of intent",
    "notified_to_cease": "notice to cease",
}


def services_of(ctx: Context, notice: Event) -> list[dict[str, Any]]:
    """The services of ``notice`` recorded by ``served`` events up to ``as_of``: each with
    its method, moment and, once recorded, the day it was received (a later event of the
    same ``service`` adds it)."""
    ident = notice.fields.get("id")
    if ident is None:
        return []
    found: dict[str, dict[str, Any]] = {}
    for event in ctx.of("served"):
        if event.fields["of"] != ident:
            continue
        key = event.fields.get("service") or f"event-{event.index}"
        record = found.setdefault(
            key, {"method": event.fields["method"], "event": event, "received": None}
        )
        received = event.fields.get("received")
        if received is not None and received <= ctx.as_of.date():
            record["received"] = received
    return list(found.values())


def counted_from(ctx: Context, notice: Event) -> Event | None:
    """The moment ``notice`` counts from: its own ``at`` unless it counts from its service;
    then the first service the reading counts (``COUNTED_BY``, ``COUNTED_ON_RECEIPT``), as
    an event of the notice's type at that moment with ``served`` naming how; None while it
    has none."""
    if not notice.fields.get("counts_from_service"):
        return notice
    moments: list[tuple[datetime.datetime, bool, str]] = []
    for service in services_of(ctx, notice):
        event, method = service["event"], service["method"]
        if method in COUNTED_BY.get(notice.type, ()):
            moments.append((event.at, event.has_time, method))
        elif method in COUNTED_ON_RECEIPT.get(notice.type, ()) and service["received"]:
            day = service["received"]
            midnight = datetime.datetime.combine(day, datetime.time(0), tzinfo=ctx.zone)
            moments.append((midnight, False, f"{method}_received"))
    if not moments:
        return None
    at, has_time, how = min(moments, key=lambda m: m[0])
    return Event(notice.index, notice.type, at, has_time, {**notice.fields, "served": how})


def _served_words(how: str) -> str:
    if how.endswith("_received"):
        return f"{SERVICE_WORDS[how.removesuffix('_received')]} and received"
    return SERVICE_WORDS[how]


def _not_served(ctx: Context, notice: Event, citation: str) -> None:
    """Say that ``notice`` is on the record but not served the way its reading counts."""
    what = NOTICE_WORDS[notice.type]
    services = services_of(ctx, notice)
    had = ", ".join(
        sorted({_served_words(s["method"]) + " " + s["event"].day.isoformat() for s in services})
    )
    if notice.type == "stop_work_order_posted":
        says = (
            f"The {what} of {notice.day.isoformat()} is not recorded as posted on the site; "
            "its waiting periods run from its posting"
        )
    elif notice.type == "notice_of_intent_issued":
        says = (
            f"The {what} of {notice.day.isoformat()} is not yet recorded as issued to the "
            "person (handed over, posted on the site or mailed); the wait for the village's "
            "work runs from then"
        )
        ctx.gap("notice-issued")
    else:
        says = (
            f"The {what} of {notice.day.isoformat()} has not been shown to reach the party "
            "(handed over, or mailed or emailed and received); the party is notified from "
            "then"
        )
        ctx.gap("being-notified")
    if had:
        says += f" (recorded: {had})"
    ctx.note(f"{notice.type}-not-served", says, [citation])


def _citation_of(ctx: Context, after_event: str, action: str | None = None) -> str:
    for rule in ctx.ordinance.rules["enforcement"]["actions"]:
        if rule["after_event"] == after_event and (action is None or rule["action"] == action):
            return str(rule["citation"])
    return str(ctx.ordinance.rules["enforcement"]["stop_work_order"]["citation"])


def allowed_actions(ctx: Context) -> list[AllowedAction]:
    actions_rules = ctx.ordinance.rules["enforcement"]["actions"]
    posted = _open_stop_work_order(ctx)
    order = counted_from(ctx, posted) if posted is not None else None
    if posted is not None and order is None:
        _not_served(ctx, posted, ctx.ordinance.rules["enforcement"]["stop_work_order"]["citation"])
    _entry_without_permit(ctx)
    result: list[AllowedAction] = []
    for rule in actions_rules:
        action = rule["action"]
        anchor: Event | None
        if rule["after_event"] == "stop_work_order_posted":
            anchor = order
            if anchor is not None and rule.get("requires_disobedience"):
                anchor = _disobeyed(ctx, anchor)
        elif rule["after_event"] == "notice_of_intent_issued":
            # Village work follows a notice issued under the stop-work order still open,
            # counted from its issuing to the person.
            notices = ctx.after(posted, "notice_of_intent_issued") if posted is not None else []
            anchor = _notice_of_intent(ctx, notices, actions_rules, order, rule["citation"])
        elif rule["after_event"] == "violation":
            # A violation recorded while a permit is in force: the first since the permit.
            found = [v for v in ctx.of("violation") if _in_force(ctx, v.day)]
            anchor = found[0] if found else None
        else:
            # The latest event not yet acted on (each unpaid invoice is certified once).
            found = [e for e in ctx.of(rule["after_event"]) if not _taken(ctx, action, e)]
            anchor = found[-1] if found else None
            if anchor is not None:
                given = counted_from(ctx, anchor)
                if given is None:
                    _not_served(ctx, anchor, rule["citation"])
                anchor = given
            if anchor is not None and rule.get("requires_disobedience"):
                anchor = _disobeyed(ctx, anchor)
        if anchor is None:
            continue
        # "where no permit has been issued" (§ 413-10C, § 135-11C) and the permit to revoke
        # (§ 413-10B, § 135-11B) are tested on the day of the anchoring event and again on
        # the day of the action: an expired or revoked permit is no permit, and a permit
        # issued since closes the no-permit steps.
        needs = rule.get("requires_permit")
        has_permit = _in_force(ctx, anchor.day) and _in_force(ctx, ctx.as_of.date())
        no_permit = not _in_force(ctx, anchor.day) and not _in_force(ctx, ctx.as_of.date())
        if needs is True and not has_permit:
            continue
        if needs is False and not no_permit:
            continue
        if action == "revoke_permit" and revoked_on(ctx) is not None:
            continue  # already revoked, and not retracted
        if _taken(ctx, action, anchor):
            continue
        result.append(_action(ctx, rule, anchor))
    earliest: dict[str, AllowedAction] = {}
    for allowed in sorted(result, key=lambda a: a.start):
        earliest.setdefault(allowed.action, allowed)
    return sorted(earliest.values(), key=lambda a: (a.start, a.action))


def _notice_of_intent(
    ctx: Context,
    notices: list[Event],
    rules: list[Mapping[str, Any]],
    order: Event | None,
    citation: str,
) -> Event | None:
    """The notice of intent the village's work runs from: the first issued under the open
    order, counted from its issuing, that the chapter allowed when it was issued. A notice
    issued before the chapter allows it is not a notice of intent: the work does not run
    from it (S-8 of the independent reading: it would let the village shorten the person's
    time); a notice not yet issued to the person is not either."""
    if order is None:
        return None
    for notice in notices:
        counted = counted_from(ctx, notice)
        if counted is None:
            _not_served(ctx, notice, citation)
            continue
        if _early(ctx, counted, rules, order):
            continue
        if counted.fields.get("counts_from_service"):
            ctx.gap("notice-issued")
        return counted
    return None


def _early(ctx: Context, notice: Event, rules: list[Mapping[str, Any]], order: Event) -> bool:
    """A notice of intent issued before the first day the chapter allows it after the
    order (Spencer § 413-10E "Ten days after posting"), noted."""
    for rule in rules:
        if rule["action"] == "issue_notice_of_intent" and "wait" in rule:
            earliest = _action(ctx, rule, order).start
            if notice.day < earliest:
                ctx.note(
                    "notice-of-intent-early",
                    f"The notice of intent was issued {notice.day.isoformat()}, before "
                    f"{earliest.isoformat()}, the first day the chapter allows it after the "
                    f"stop-work order of {order.day.isoformat()}: it is not a notice the "
                    "chapter allows, and the village's work does not run from it; a notice "
                    f"issued from {earliest.isoformat()} on is",
                    [rule["citation"]],
                )
                return True
    return False


def work_without_permit(ctx: Context) -> None:
    """§ 413-8A, § 135-7A: no one may commence the regulated activity "without receiving
    prior approval ... and a permit". Work recorded while no permit is in force (none
    issued yet, or the permit expired or was revoked) is work without a permit: the
    timeline says so, and the permit's conditions (the permittee's notices and
    inspections) do not bind it; what binds every site still does."""
    required = ctx.ordinance.rules["permit"]["required"]
    citations = [required["citation"]] + [
        duty["citation"] for duty in ctx.ordinance.rules.get("site_duties", [])
    ]
    permit = ctx.permit
    for event in ctx.of("work_started", "measure_installed"):
        status = "none" if permit is None else permit.status_on(event.day)
        if status == "in_force":
            continue
        what = "work started" if event.type == "work_started" else "a measure installed"
        ctx.note(
            "work-without-permit",
            f"{what.capitalize()} on {event.day.isoformat()} with {_no_permit(permit, status)}: "
            f"work without a permit ({required['citation']}: {required['says']}). The "
            "permit's conditions bind a permittee only; what binds every site still does",
            citations,
        )
        return
    if permit is None:
        return
    status = permit.status_on(ctx.as_of.date())
    final = [f for f in ctx.of("final_stabilization") if f.day >= permit.issued]
    if status in ("expired", "revoked") and not final:
        ended = (
            f"was revoked {permit.revoked.isoformat()}"
            if status == "revoked" and permit.revoked is not None
            else f"expired: its last day was {permit.expires.isoformat()}"
        )
        ctx.note(
            "permit-ended-before-stabilization",
            f"The permit {ended}, and final stabilization is not recorded: land disturbing "
            f"work on the site after that is work without a permit ({required['citation']})",
            citations,
        )


def _no_permit(permit: Any, status: str) -> str:
    if permit is None or status == "not_yet":
        return "no permit issued yet"
    if status == "revoked":
        return f"no permit in force (revoked {permit.revoked.isoformat()})"
    return f"no permit in force (its last day was {permit.expires.isoformat()})"


# The event that records each step once taken; a step taken since its anchoring event is
# not offered again (a second notice of intent under the same order, village work begun
# twice, a debt certified twice).
TAKEN_BY = {
    "issue_notice_of_intent": "notice_of_intent_issued",
    "request_cease_and_desist": "cease_and_desist_requested",
    "begin_village_work": "village_work_begun",
    "certify_special_assessment": "special_assessment_certified",
}


def _taken(ctx: Context, action: str, anchor: Event) -> bool:
    taken_by = TAKEN_BY.get(action)
    if taken_by is None:
        return False
    taken = ctx.after(anchor, taken_by)
    if action == "certify_special_assessment" and "id" in anchor.fields:
        return any(e.fields.get("id") == anchor.fields["id"] for e in taken)
    if action == "issue_notice_of_intent":
        # A notice issued too early is no notice: the step is still open (S-8).
        rules = ctx.ordinance.rules["enforcement"]["actions"]
        return any(not _early(ctx, counted_from(ctx, e) or e, rules, anchor) for e in taken)
    return bool(taken)


def _in_force(ctx: Context, day: datetime.date) -> bool:
    return ctx.permit is not None and ctx.permit.in_force_on(day)


def _disobeyed(ctx: Context, given: Event) -> Event | None:
    """The first sign that an order or a notice was disobeyed (§ 135-11B "does not cease
    activity as required in a stop-work order"; § 135-11C "does not cease the activity
    after being notified", "violates a stop-work order"): a violation whose days begin
    after the day it was given. The violation that led to it, found on or before that day,
    is not one: giving the order or the notice alone opens nothing."""
    for violation in ctx.of("violation"):
        if violation.fields["from"] > given.day:
            return violation
        if violation.fields["to"] >= given.day:
            # Seen on the day it was given, or going on through it: not read as disobeying
            # it (gap ``disobeyed-same-day``).
            ctx.gap("disobeyed-same-day")
    return None


def _entry_without_permit(ctx: Context) -> None:
    """§ 413-9, § 135-10 (gap 9): where work runs without a permit, entry on the land is its
    own question; say so wherever an order, a notice or a violation (a complaint about an
    unpermitted site, for one) meets a site with no permit."""
    for event in ctx.of("stop_work_order_posted", "notified_to_cease", "violation"):
        if not _in_force(ctx, event.day):
            entry = ctx.ordinance.rules["enforcement"]["entry_without_permit"]
            ctx.note("entry-without-permit", entry["says"], [entry["citation"]])
            if "gap" in entry:
                ctx.gap(entry["gap"])
            return


def _open_stop_work_order(ctx: Context) -> Event | None:
    """The stop-work order posted and not yet complied with, as of ``as_of``.

    A second posting while one is open does not restart the waiting periods.
    """
    current: Event | None = None
    for event in ctx.of("stop_work_order_posted", "compliance_achieved", "order_retracted"):
        if event.type == "order_retracted" and event.fields["order"] != "stop_work_order":
            continue
        if event.type == "stop_work_order_posted":
            if current is None:
                current = event
            else:
                ctx.note(
                    "stop-work-order-reposted",
                    f"A stop-work order was posted again on {event.day.isoformat()} while the "
                    f"one of {current.day.isoformat()} was still open; the waiting periods run "
                    "from the first posting",
                    [ctx.ordinance.rules["enforcement"]["stop_work_order"]["citation"]],
                )
        else:
            current = None
    return current


def _what(anchor: Event) -> str:
    """The anchoring event in words: "stop work order posted", "notice of intent mailed"."""
    how = anchor.fields.get("served")
    if how is None or anchor.type == "stop_work_order_posted":
        return anchor.type.replace("_", " ")
    return f"{NOTICE_WORDS[anchor.type]} {_served_words(str(how))}"


def _runs_from(anchor: Event) -> RunsFrom:
    ident = anchor.fields.get("id")
    how = anchor.fields.get("served")
    return RunsFrom(
        anchor.type,
        anchor.day,
        str(ident) if ident is not None else None,
        str(how) if how is not None else None,
    )


def _action(ctx: Context, rule: Mapping[str, Any], anchor: Event) -> AllowedAction:
    allowed = _action_counted(ctx, rule, anchor)
    return dataclasses.replace(
        allowed, runs_from=_runs_from(anchor), readings=ctx.readings(rule, anchor.day)
    )


def _action_counted(ctx: Context, rule: Mapping[str, Any], anchor: Event) -> AllowedAction:
    action = rule["action"]
    what = _what(anchor)
    if "wait" not in rule:
        return AllowedAction(
            action,
            anchor.day,
            rule["citation"],
            f"{what} {anchor.day.isoformat()}; no waiting period: {rule['says']}",
        )
    n = ctx.whole(rule["wait"], anchor.day)
    reading = WAIT_READING[action]
    if reading == "cure":
        ctx.gap("ten-days-from")
        deadline = ctx.rule.days_after(anchor.day, n)
        start = deadline.due + datetime.timedelta(days=1)
        # From what the days run is the rule's ``readings:`` (Spencer, gap 21).
        taken = readings_words(ctx.readings(rule, anchor.day))
        because = (
            f"{what} {anchor.day.isoformat()}; the {n} days to comply end "
            f"{deadline.due.isoformat()}{f' ({taken})' if taken else ''}, so the power "
            f"arises the next day: {rule['says']}"
        )
        return AllowedAction(
            action, start, rule["citation"], because, deadline.counting, deadline.moved
        )
    days = n if reading == "after" else n + 1
    start = anchor.day + datetime.timedelta(days=days)
    counting = Counting(
        ctx.rule.id,
        ctx.rule.citation,
        (
            f"{n} days after the event, the day of the event excluded: the power arises on the "
            f"{n}th day; a waiting period sets no last day to act, so nothing moves"
            if reading == "after"
            else f"after {n} whole days from the event, the day of the event excluded: the "
            f"power arises on day {n + 1}; a waiting period sets no last day to act, so "
            "nothing moves"
        ),
    )
    because = f"{what} {anchor.day.isoformat()}; {rule['says']}"
    return AllowedAction(action, start, rule["citation"], because, counting)


def forfeiture(ctx: Context) -> Forfeiture | None:
    """Spencer § 413-10E: "subject to a forfeiture as provided in § 1-3. Each day a violation
    exists shall constitute a separate offense." New Glarus § 135-11F: "a forfeiture of not
    less than $100 nor more than $500 and the costs of prosecution for each violation. Each
    day a violation exists or continues shall constitute a separate offense."

    Each violation is counted on its own: two violations on the same three days are six
    offenses. A violation's days run from its ``from`` to its ``to``, and stop at the first
    compliance recorded on or after its first day: the violation existed on the day of
    compliance until it was complied with, and on no day after (decision 6)."""
    violations = ctx.of("violation")
    if not violations:
        return None
    rule = ctx.ordinance.rules["enforcement"]["forfeiture"]
    compliance = [c.day for c in ctx.of("compliance_achieved")]
    counted: list[ViolationDays] = []
    for violation in violations:
        first, last = violation.fields["from"], violation.fields["to"]
        ended = next((day for day in compliance if day >= first), None)
        if ended is not None and ended < last:
            last = ended
        counted.append(ViolationDays(violation, first, last, ended if ended == last else None))
    days = sorted({d for v in counted for d in v.days()})
    low = ctx.param(rule["min"], days[0])
    high = ctx.param(rule["max"], days[0])
    if low.value is None or high.value is None:
        # The amounts live outside the chapter (Spencer: Code Ch. 1 § 1-3, gap 6); a clerk
        # enters them. The days are still counted.
        ctx.gap("forfeiture-amount")
    return Forfeiture(
        days=len(days),
        per_day_min=low.value if isinstance(low.value, float) else None,
        per_day_max=high.value if isinstance(high.value, float) else None,
        plus_costs=rule["plus_costs"],
        citation=rule["citation"],
        violation_days=tuple(days),
        violations=tuple(counted),
    )
