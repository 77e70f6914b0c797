"""Each permit's stored duties: computed from its events by the core and stored, after
every event written on it (``event_saved``), and for every permit whose stored duties are
out of date (``duties_recompute_all``, the daily sweep). Every write is one transaction.

Where a site draws its rain from is ``duties.stations``; the rain sweep that writes rain
onto permits is ``duties.rain_events``; rain just recorded reaches the permits through
``duties.rain_applied``; a station's days go into the rain record by ``rain.days``.
"""

from __future__ import annotations

import datetime
import functools
import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from django.db import connection, transaction
from django.utils import timezone

from siltfence.apps.duties.models import PermitDuties
from siltfence.apps.permits.clocks import closures_of
from siltfence.apps.permits.inputs import ordinance_digest
from siltfence.apps.permits.models import (
    Permit,
    PermitStatus,
    TimelineEvent,
)
from siltfence.core.ordinance.loader import load
from siltfence.core.timeline import Timeline

RECOMPUTE_CHUNK = 2000
# A permit's last day is told this many days ahead: an extension must be granted while the
# period runs (an expired permit cannot be extended, § 413-8E(1), § 135-7G), and a village
# office may need weeks to decide one. The reminders tell it, and the staff's dashboard
# lists the permits ending within it.
EXPIRY_NOTICE_DAYS = 30


def due_moment(due: str, zone: ZoneInfo) -> datetime.datetime:
    """A duty's due as the moment it runs out: a date is due through the end of that day.
    The stored duties, the staff's dashboard and the reminders all read a due this way."""
    if "T" in due:
        return datetime.datetime.fromisoformat(due)
    day = datetime.date.fromisoformat(due) + datetime.timedelta(days=1)
    return datetime.datetime.combine(day, datetime.time(0), tzinfo=zone)


def permit_duties_recompute(
    *, permit_ids: Iterable[int], as_of: datetime.datetime | None = None
) -> int:
    """Recompute and store the duties of these permits only, from their events.

    Reads the permits' events in chunks (a query per chunk, not per permit), runs the
    core's engine on each permit, and writes the results back in bulk, each with what it
    was computed from (``inputs``) and when it next changes by itself (``recompute_by``).

    An event many permits share (a station's rain, a self-inspection written for every
    site at once) is read and checked once per chunk: the engine's own check
    (``parse_event``) of the stored type, moment and fields, kept by its place in the
    record and its village, and handed to ``compute_checked``."""
    from django.db.models import TextField
    from django.db.models.functions import Cast

    from siltfence.core.timeline import Event, compute_checked, parse_event

    ids = sorted(set(permit_ids))
    moment = as_of or timezone.now()
    count = 0
    closures: dict[str, frozenset[datetime.date]] = {}
    for start in range(0, len(ids), RECOMPUTE_CHUNK):
        chunk = ids[start : start + RECOMPUTE_CHUNK]
        permits = list(
            Permit.objects.filter(pk__in=chunk).values_list("pk", "application_id", "village_id")
        )
        village_of = {a: v for _, a, v in permits}
        events: dict[int, list[Event]] = defaultdict(list)
        last_ids: dict[int, int] = {}
        zones = {v: ZoneInfo(load(v).time_zone) for v in village_of.values()}
        closures.update(closures_of([v for v in zones if v not in closures]))
        rows = (
            TimelineEvent.objects.filter(application_id__in=list(village_of))
            .order_by("application_id", "at", "id")
            # The fields as the database's text: the key an event shared is found by.
            .annotate(text=Cast("fields", TextField()))
            .values_list("application_id", "id", "type", "at", "text")
        )
        seen: dict[tuple[str, int, str, datetime.datetime, str], Event] = {}
        for application_id, pk, kind, at, text in rows:
            record = events[application_id]
            village_id = village_of[application_id]
            key = (village_id, len(record), kind, at, text)
            event = seen.get(key)
            if event is None:
                # The stored moment goes to the core as it is, with no round trip through
                # text.
                item = {"type": kind, "at": at, **json.loads(text)}
                event = seen[key] = parse_event(item, len(record), zones[village_id])
            record.append(event)
            last_ids[application_id] = max(pk, last_ids.get(application_id, 0))
        states = []
        for pk, application_id, village_id in permits:
            zone = zones[village_id]
            timeline = compute_checked(
                load(village_id),
                events[application_id],
                as_of=moment.astimezone(zone),
                office_closures=closures[village_id],
            )
            inputs = _inputs(
                _rules_digest(village_id, closures[village_id]),
                len(events[application_id]),
                last_ids.get(application_id, 0),
            )
            states.append(_state(pk, village_id, timeline, zone, moment, inputs))
        _duties_store(states)
        count += len(states)
    return count


def event_saved(sender: Any, instance: TimelineEvent, created: bool, **kwargs: Any) -> None:
    """Every event written through the model (every service's) has its permit's stored
    duties follow once it commits. Events written in bulk (the rain sweep, the scale
    generator) are recomputed by those who write them, and caught by the daily sweep."""
    if created and not kwargs.get("raw"):
        permit_duties_on_commit(application_id=instance.application_id)


def permit_duties_on_commit(*, application_id: int) -> None:
    """Once the transaction that recorded an event on this application commits, recompute
    the stored duties of its permit in force (if it has one), so the dashboards and the
    reminders follow the record at once, not at the next daily sweep. A failure here is
    logged and left to the sweep: the event itself is already committed."""

    def recompute() -> None:
        ids = list(
            Permit.objects.filter(
                application_id=application_id, status=PermitStatus.ACTIVE
            ).values_list("pk", flat=True)
        )
        if ids:
            permit_duties_recompute(permit_ids=ids)

    transaction.on_commit(recompute, robust=True)


def duties_recompute_all(
    *,
    village_ids: Sequence[str] | None = None,
    jobs: int = 1,
    as_of: datetime.datetime | None = None,
    chunk: int = RECOMPUTE_CHUNK,
    everything: bool = False,
) -> RecomputeResult:
    """Bring the stored duties of every active permit (of these villages) up to date, as
    after a change to the ordinance data, the office calendar or the code, which no event
    announces.

    Only the permits whose stored duties are out of date are computed (``stale_permit_ids``):
    an ordinance edit in one village recomputes that village's permits, not the county's.
    ``everything`` recomputes them all. With ``jobs`` > 1 on PostgreSQL the permits are
    split into chunks computed by that many processes, each with its own connection;
    SQLite takes one writer at a time, so it runs in this process whatever ``jobs`` says."""
    moment = as_of or timezone.now()
    active = active_permit_ids(village_ids)
    ids = active if everything else stale_permit_ids(moment, village_ids)
    if jobs <= 1 or connection.vendor != "postgresql" or len(ids) <= chunk:
        done = permit_duties_recompute(permit_ids=ids, as_of=moment)
        return RecomputeResult(in_force=len(active), recomputed=done)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from django.db import connections

    chunks = [ids[i : i + chunk] for i in range(0, len(ids), chunk)]
    connections.close_all()  # a forked process must open its own connection
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        done = sum(pool.map(_recompute_chunk, chunks, [moment] * len(chunks)))
    return RecomputeResult(in_force=len(active), recomputed=done)


@dataclass(frozen=True)
class RecomputeResult:
    in_force: int  # active permits looked at
    recomputed: int  # of them, the ones whose stored duties were out of date


def stale_permit_ids(
    moment: datetime.datetime, village_ids: Sequence[str] | None = None
) -> list[int]:
    """The active permits whose stored duties are out of date at ``moment``: none stored;
    stored from other inputs (the ordinance data, the office calendar, the code, or the
    permit's events, counted with the last one's id); or due to change by themselves by
    now (``recompute_by``), including an event dated after the moment they were computed
    for. Three queries, whatever the number of permits: the events are counted per
    application in the database."""
    from django.db.models import Count, Max

    permits = Permit.objects.filter(status=PermitStatus.ACTIVE)
    if village_ids is not None:
        permits = permits.filter(village_id__in=village_ids)
    rows = list(
        permits.values_list(
            "pk",
            "application_id",
            "village_id",
            "duty_state__inputs",
            "duty_state__as_of",
            "duty_state__recompute_by",
        )
    )
    marks = {
        a: (n, last, latest)
        for a, n, last, latest in TimelineEvent.objects.filter(
            application_id__in=permits.values("application_id")
        )
        .values("application_id")
        .annotate(n=Count("id"), last=Max("id"), latest=Max("at"))
        .values_list("application_id", "n", "last", "latest")
    }
    closures = closures_of(sorted({v for _, _, v, _, _, _ in rows}))
    stale = []
    for pk, application_id, village_id, inputs, as_of, recompute_by in rows:
        n, last, latest = marks.get(application_id, (0, 0, None))
        expected = _inputs(_rules_digest(village_id, closures[village_id]), n, last)
        if (
            inputs != expected
            or as_of is None
            or (recompute_by is not None and recompute_by <= moment)
            or (latest is not None and latest > as_of and latest <= moment)
        ):
            stale.append(pk)
    return sorted(stale)


def _inputs(rules: str, events: int, last_event: int) -> str:
    return f"{rules}:{events}:{last_event}"


@functools.lru_cache(maxsize=256)
def _rules_digest(village_id: str, closures: frozenset[datetime.date]) -> str:
    """One digest of a village's ordinance data, the code and its office calendar: what its
    permits' duties are computed from, but for their events."""
    import hashlib

    digest = hashlib.sha256(ordinance_digest(village_id).encode())
    digest.update(",".join(sorted(d.isoformat() for d in closures)).encode())
    return digest.hexdigest()[:24]


def _recompute_chunk(ids: list[int], moment: datetime.datetime) -> int:
    return permit_duties_recompute(permit_ids=ids, as_of=moment)


# The columns of a stored duties row, in the order ``_state`` gives them.
STORED_COLUMNS = (
    "permit_id",
    "village_id",
    "computed_at",
    "as_of",
    "next_due",
    "open_count",
    "overdue_count",
    "duties",
    "recompute_by",
    "inputs",
)


def _duties_store(states: list[tuple[Any, ...]]) -> None:
    """Replace these permits' stored duties (rows of ``STORED_COLUMNS``), in one
    transaction. On PostgreSQL the rows go in by COPY: a bulk INSERT would quote every duty
    list's JSON on the client first, which costs more than computing it. They are kept as
    plain rows until then: making a model for each was a twentieth of the recompute."""
    with transaction.atomic():
        PermitDuties.objects.filter(permit_id__in=[s[0] for s in states]).delete()
        if connection.vendor != "postgresql":
            PermitDuties.objects.bulk_create(
                [PermitDuties(**dict(zip(STORED_COLUMNS, s, strict=True))) for s in states],
                batch_size=1000,
            )
            return
        table = PermitDuties._meta.db_table
        duties = STORED_COLUMNS.index("duties")
        with connection.cursor() as cursor:
            raw = cursor.cursor  # psycopg's own cursor: Django's wrapper has no copy()
            with raw.copy(f"COPY {table} ({', '.join(STORED_COLUMNS)}) FROM STDIN") as copy:
                for s in states:
                    text = json.dumps(s[duties])
                    copy.write_row((*s[:duties], text, *s[duties + 1 :]))


def _state(
    pk: int,
    village_id: str,
    timeline: Timeline,
    zone: ZoneInfo,
    moment: datetime.datetime,
    inputs: str,
) -> tuple[Any, ...]:
    """A permit's stored duties as a row of ``STORED_COLUMNS``."""
    # The duties alone, as the timeline's output gives them, less the review clocks (the
    # queue's, stored on the application): the rest of the output is not stored.
    duties = [
        d.to_json(timeline.as_of)
        for d in timeline.duties
        if d.kind not in ("review_decision", "re_review_decision")
    ]
    open_ones = [d for d in duties if d["status"] != "met"]
    # When something next changes without an event: the earliest duty still open falls
    # due, or a new inspection period begins.
    dues = [due_moment(str(d["due"]), zone) for d in open_ones if d["status"] == "open"]
    next_due = min(dues) if dues else None
    changes = [] if next_due is None else [next_due]
    if timeline.changes_on is not None:
        changes.append(datetime.datetime.combine(timeline.changes_on, datetime.time(0), zone))
    return (
        pk,
        village_id,
        timezone.now(),
        moment,
        next_due,
        sum(1 for d in open_ones if d["status"] == "open"),
        sum(1 for d in open_ones if d["status"] == "overdue"),
        duties,
        min(changes) if changes else None,
        inputs,
    )


def active_permit_ids(village_ids: Sequence[str] | None = None) -> list[int]:
    permits = Permit.objects.filter(status=PermitStatus.ACTIVE)
    if village_ids is not None:
        permits = permits.filter(village_id__in=village_ids)
    return list(permits.values_list("pk", flat=True))
