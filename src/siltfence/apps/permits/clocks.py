"""The clocks of an application and its permit, computed by the core from the record.

Nothing here counts days: the timeline engine of the core does, with the village's
counting rule and its office calendar (the closure days staff keep).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import Any
from zoneinfo import ZoneInfo

from django.utils import timezone

from siltfence.apps.permits.models import Application, ApplicationStatus, OfficeClosure
from siltfence.core.ordinance.loader import load


def office_closures(village_id: str) -> frozenset[datetime.date]:
    return frozenset(
        OfficeClosure.objects.filter(village_id=village_id).values_list("day", flat=True)
    )


def closures_of(village_ids: Iterable[str]) -> dict[str, frozenset[datetime.date]]:
    """Each of these villages' office closure days, in one query."""
    found: dict[str, set[datetime.date]] = {v: set() for v in village_ids}
    for village_id, day in OfficeClosure.objects.filter(village_id__in=found).values_list(
        "village_id", "day"
    ):
        found[village_id].add(day)
    return {v: frozenset(days) for v, days in found.items()}


def application_events(application: Application) -> list[dict[str, Any]]:
    zone = load(application.village_id).time_zone
    return [event.as_contract(zone) for event in application.timeline.all()]


def application_timeline(
    application: Application,
    as_of: datetime.datetime | None = None,
    *,
    now: bool = True,
    closures: frozenset[datetime.date] | None = None,
) -> Any:
    """The core's timeline for an application: duties, permit expiry, notes.

    ``as_of`` defaults to now in the village; with ``now=False`` the core takes the
    end of the latest event's day (for what the record itself fixes, like expiry).
    A list computing many passes its village's ``closures`` (``office_closures``), read
    once, and prefetches ``timeline``: then no query is made here.
    """
    from siltfence.core.timeline import compute

    ordinance = load(application.village_id)
    if as_of is None and now:
        as_of = timezone.now().astimezone(ZoneInfo(ordinance.time_zone))
    return compute(
        ordinance,
        application_events(application),
        as_of=as_of,
        office_closures=office_closures(application.village_id) if closures is None else closures,
    )


def permit_expiry(application: Application) -> datetime.date:
    timeline = application_timeline(application, now=False)
    expires = timeline.to_json()["permit"]["expires"]
    return datetime.date.fromisoformat(expires)


def review_clock(
    application: Application, as_of: datetime.datetime | None = None
) -> dict[str, Any] | None:
    """The decision clock the application is on (review or re-review: ``current_decision``)
    with its due date and status."""
    if application.received_at is None:
        return None
    clock = current_decision(application_timeline(application, as_of).to_json()["duties"])
    if clock is not None:
        clock["waiting_since"] = waiting_since(application)
    return clock


DECISION_KINDS = ("review_decision", "re_review_decision")


def current_decision(duties: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The decision clock an application is on: the one still running, else the one met
    last. (The duties come in order of their due days, and a re-review clock can be due
    before the first clock's day: New Glarus gives 10 business days after the information
    against 30 after the filing.)"""
    decisions = [d for d in duties if d["kind"] in DECISION_KINDS]
    open_ones = [d for d in decisions if d["status"] != "met"]
    if open_ones:
        return open_ones[-1]
    if not decisions:
        return None
    return max(decisions, key=lambda d: int(d["met_by"]["index"]))


def waiting_since(application: Application) -> str | None:
    """The village date of the written request for information still unanswered, if the
    application is waiting for information (the review clock is paused meanwhile)."""
    if application.status != ApplicationStatus.INFORMATION_REQUESTED:
        return None
    request = application.information_requests.filter(received_at__isnull=True).last()
    if request is None:
        return None
    zone = ZoneInfo(load(application.village_id).time_zone)
    return request.requested_at.astimezone(zone).date().isoformat()


def decision_due_if_filed(village_id: str, at: datetime.datetime) -> dict[str, Any]:
    """ "If filed today, a decision is due by ...": the review clock for a filing at ``at``."""
    from siltfence.core.timeline import compute

    ordinance = load(village_id)
    local = at.astimezone(ZoneInfo(ordinance.time_zone))
    result = compute(
        ordinance,
        [{"type": "application_received", "at": local.isoformat()}],
        as_of=local,
        office_closures=office_closures(village_id),
    ).to_json()
    return next(d for d in result["duties"] if d["kind"] == "review_decision")
