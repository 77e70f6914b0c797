"""Each application's decision clock, stored where the lists read it.

The review queue sorts on the day a decision is due, and the applicant's list shows each
clock's state. Computed from each row's events, a list cost a query and a run of the core
per row. So the clock the core computes is kept on the application: ``decision_due``, the
day the running review or re-review clock runs out (empty when none runs), which the
queue sorts on; and ``decision_clock``, the latest decision clock (kind, due, citation,
and what met it), which the rows show.

Both are recomputed from the events, never edited by hand, in the transaction that
writes what moves them: an event that starts or meets a decision clock, or a change to
a village's office calendar (its closure days lengthen business-day clocks). After a
change to the ordinance data, ``manage.py clocks_recompute`` recomputes them
all. ``clocks.review_clock`` stays the reference: a test holds the stored clock to it
after every kind of event (docs/decisions/0021-stored-queue-dates.md).
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo

from django.db import connection, connections, transaction
from django.db.models import CharField
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from siltfence.apps.permits.clocks import closures_of, current_decision
from siltfence.apps.permits.inputs import ordinance_digest
from siltfence.apps.permits.models import (
    Application,
    ApplicationStatus,
    OfficeClosure,
    TimelineEvent,
    Village,
)
from siltfence.core.ordinance.loader import load, load_all
from siltfence.core.ordinance.model import Ordinance
from siltfence.core.timeline.clocks import DECIDED_BY

# Applications recomputed per transaction by the bulk recompute.
CHUNK = 500


def clock_event_types(ordinance: Ordinance) -> frozenset[str]:
    """The event types a decision clock of ``ordinance`` reads: those that start one
    (the ``from_event`` of each clock in the data) and those that meet it."""
    starts = {c["from_event"] for c in ordinance.rules["clocks"] if c["kind"] in DECIDED_BY}
    meets = {kind for kinds in DECIDED_BY.values() for kind in kinds}
    return frozenset(starts | meets)


@cache
def _any_clock_event_types() -> frozenset[str]:
    return frozenset().union(*(clock_event_types(o) for o in load_all()))


def contract_event(
    type: str, at: datetime.datetime, fields: Mapping[str, Any], zone: str
) -> dict[str, Any]:
    """A stored event in the public contract's shape (as ``TimelineEvent.as_contract``)."""
    local = at.astimezone(ZoneInfo(zone))
    return {"type": type, "at": local.isoformat(), **fields}


def decision_clock_of(
    village_id: str, events: list[dict[str, Any]], closures: frozenset[datetime.date]
) -> dict[str, Any]:
    """The clock ``clocks.review_clock`` picks (the running decision clock, else the one
    met last), as stored: what does not depend on the day it is read. Empty before a clock
    starts. ``events`` may be all of the application's or only the clock's own."""
    from siltfence.core.timeline import compute

    if not events:
        return {}
    duties = compute(load(village_id), events, office_closures=closures).to_json()["duties"]
    clock = current_decision(duties)
    if clock is None:
        return {}
    stored: dict[str, Any] = {
        "kind": clock["kind"],
        "due": str(clock["due"]),
        "citation": clock["citation"],
    }
    if clock.get("met_by"):
        stored["met_by"] = {"type": clock["met_by"]["type"], "at": clock["met_by"]["at"]}
        stored["late"] = bool(clock.get("late"))
    return stored


def decision_due_of(clock: Mapping[str, Any]) -> datetime.date | None:
    """The day the stored clock runs out, if it is still running."""
    if not clock or clock.get("met_by"):
        return None
    return datetime.date.fromisoformat(str(clock["due"])[:10])


def decision_clocks_recompute(
    *,
    application_ids: Iterable[int] | None = None,
    village_ids: Iterable[str] | None = None,
    jobs: int = 1,
    chunk: int = CHUNK,
) -> int:
    """Recompute and store the decision clocks of these applications (default: all),
    a chunk per transaction, each chunk's rows locked while their events are read (the
    services lock an application's row before they write its events). Returns how many
    applications were recomputed.

    With ``jobs`` > 1 on PostgreSQL the chunks are shared by that many processes, each
    with its own connection; SQLite takes one writer at a time, so it runs here."""
    applications = Application.objects.all()
    if application_ids is not None:
        applications = applications.filter(pk__in=list(application_ids))
    if village_ids is not None:
        applications = applications.filter(village_id__in=list(village_ids))
    ids = list(applications.order_by("pk").values_list("pk", flat=True))
    # Whole villages recomputed: what their clocks are now computed from, read first.
    whole = None
    if application_ids is None:
        villages = Village.objects.all()
        if village_ids is not None:
            villages = villages.filter(pk__in=list(village_ids))
        whole = {v: ordinance_digest(v) for v in villages.values_list("pk", flat=True)}
    chunks = [ids[start : start + chunk] for start in range(0, len(ids), chunk)]
    if jobs <= 1 or connection.vendor != "postgresql" or len(chunks) <= 1:
        for part in chunks:
            _recompute_in_transaction(part)
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        connections.close_all()  # a forked process must open its own connection
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
            list(pool.map(_recompute_in_transaction, chunks))
    for village_id, digest in (whole or {}).items():
        Village.objects.filter(pk=village_id).update(clocks_inputs=digest)
    return len(ids)


def decision_clocks_refresh() -> list[str]:
    """Recompute the stored decision clocks of every village whose ordinance data or code
    changed since they were computed (events and closure days move them as they happen).
    Returns those villages."""
    stale = [
        village_id
        for village_id, stored in Village.objects.values_list("pk", "clocks_inputs")
        if stored != ordinance_digest(village_id)
    ]
    if stale:
        decision_clocks_recompute(village_ids=stale)
    return stale


def _recompute_in_transaction(ids: list[int]) -> int:
    with transaction.atomic():
        _recompute_chunk(ids)
    return len(ids)


def _recompute_chunk(ids: list[int]) -> None:
    rows = list(
        Application.objects.select_for_update()
        .filter(pk__in=ids)
        .order_by("pk")
        .only("pk", "village_id", "decision_due", "decision_clock")
    )
    villages = {a.village_id for a in rows}
    ordinances = {v: load(v) for v in villages}
    types = {v: clock_event_types(o) for v, o in ordinances.items()}
    village_of = {a.pk: a.village_id for a in rows}
    events: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for application_id, kind, at, fields in (
        TimelineEvent.objects.filter(
            application_id__in=ids, type__in=frozenset().union(*types.values())
        )
        .order_by("application_id", "at", "id")
        .values_list("application_id", "type", "at", "fields")
    ):
        village = village_of[application_id]
        if kind in types[village]:  # each village's own clock events, as one at a time
            zone = ordinances[village].time_zone
            events[application_id].append(contract_event(kind, at, fields, zone))
    closures = closures_of(villages)
    changed = []
    for application in rows:
        clock = decision_clock_of(
            application.village_id, events[application.pk], closures[application.village_id]
        )
        due = decision_due_of(clock)
        if clock != application.decision_clock or due != application.decision_due:
            application.decision_clock, application.decision_due = clock, due
            changed.append(application)
    Application.objects.bulk_update(changed, ["decision_clock", "decision_due"])


def decision_clock_store(application: Application) -> None:
    """Recompute one application's stored clock from its events, and keep the values on
    the instance too. Call inside the transaction that wrote the event."""
    ordinance = load(application.village_id)
    events = [
        contract_event(kind, at, fields, ordinance.time_zone)
        for kind, at, fields in TimelineEvent.objects.filter(
            application_id=application.pk, type__in=clock_event_types(ordinance)
        )
        .order_by("at", "id")
        .values_list("type", "at", "fields")
    ]
    closures = closures_of([application.village_id])[application.village_id]
    clock = decision_clock_of(application.village_id, events, closures)
    due = decision_due_of(clock)
    Application.objects.filter(pk=application.pk).update(decision_clock=clock, decision_due=due)
    application.decision_clock, application.decision_due = clock, due


# -- reading: the stored clock in the shape of ``clocks.review_clock`` -------------------


def stored_review_clock(
    application: Application, as_of: datetime.datetime | None = None
) -> dict[str, Any] | None:
    """What ``clocks.review_clock`` returns, from the stored clock: no events are read.

    ``status`` is judged on the village's day of ``as_of`` (default: now), as the core
    judges it; ``waiting_since`` is the day information was requested, while the
    application waits for it."""
    clock = application.decision_clock
    if application.received_at is None or not clock:
        return None
    zone = ZoneInfo(load(application.village_id).time_zone)
    today = (as_of or datetime.datetime.now(datetime.UTC)).astimezone(zone).date()
    met_by = clock.get("met_by")
    if met_by:
        status = "met"
    else:
        due = decision_due_of(clock)
        status = "overdue" if due is not None and today > due else "open"
    shown: dict[str, Any] = {
        "kind": clock["kind"],
        "party": "authority",
        "due": clock["due"],
        "status": status,
        "citation": clock["citation"],
    }
    if met_by:
        shown["met_by"] = dict(met_by)
        shown["late"] = bool(clock.get("late"))
    waiting = (
        application.status == ApplicationStatus.INFORMATION_REQUESTED
        and met_by is not None
        and met_by.get("type") == "information_requested"
    )
    shown["waiting_since"] = str(met_by["at"])[:10] if waiting and met_by else None
    return shown


# -- what moves a stored clock -------------------------------------------------------------


def event_saved(sender: Any, instance: TimelineEvent, created: bool, **kwargs: Any) -> None:
    """An event that starts or meets a decision clock recomputes its application's."""
    if kwargs.get("raw") or not created or instance.type not in _any_clock_event_types():
        return
    if TimelineEvent.application.is_cached(instance):
        application = instance.application
    else:
        application = Application.objects.only("pk", "village_id").get(pk=instance.application_id)
    if instance.type in clock_event_types(load(application.village_id)):
        decision_clock_store(application)


def closure_changed(sender: Any, instance: OfficeClosure, **kwargs: Any) -> None:
    """A closure day added or removed moves the business-day clocks that span it: those
    of the village whose stored clock is due on or after that day."""
    if kwargs.get("raw"):
        return
    affected = (
        Application.objects.filter(village_id=instance.village_id)
        .annotate(clock_due=Cast(KT("decision_clock__due"), CharField()))
        .filter(clock_due__gte=instance.day.isoformat())
        .values_list("pk", flat=True)
    )
    ids = list(affected)
    if ids:
        decision_clocks_recompute(application_ids=ids)
