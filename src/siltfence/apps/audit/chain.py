"""Append to the audit chain and verify it: the chain's one writer.

``event_record`` appends one event, as a change is made; ``append_many`` appends many at
once, each at the time of its own change (records written in bulk, such as a generated
county). Both link each event to the one before it under the chain head's lock, and must
run inside the transaction of the changes they record, so the changes and their record
commit together or not at all. ``chain_head`` reads where the chain ends without a lock.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, models, transaction
from django.utils import timezone

from siltfence.apps.audit.models import AuditAction, AuditEvent, ChainHead

GENESIS = "0" * 64
SYSTEM = "system"  # the actor's label of an event no signed-in person made


def _canonical(fields: dict[str, Any]) -> bytes:
    return json.dumps(fields, sort_keys=True, separators=(",", ":"), default=str).encode()


def _digest(prev_hash: str, fields: dict[str, Any]) -> str:
    return hashlib.sha256(prev_hash.encode() + _canonical(fields)).hexdigest()


def _hashed_fields(event: AuditEvent) -> dict[str, Any]:
    return {
        "seq": event.seq,
        "at": event.at.isoformat(),
        "actor_id": event.actor_id,
        "actor_label": event.actor_label,
        "village": event.village,
        "entity": event.entity,
        "entity_id": event.entity_id,
        "action": event.action,
        "reason": event.reason,
        "citation": event.citation,
        "before": event.before,
        "after": event.after,
    }


@dataclass(frozen=True)
class AuditEntry:
    """One event for ``append_many``: ``action`` (an ``AuditAction``) done to ``entity``
    ``entity_id`` at ``at`` (an aware time; stored in UTC, to the second) by the account
    ``actor_id`` named ``actor_label`` (none: the system). ``before`` and ``after`` hold
    what JSON holds; other values (a date) are stored as their text."""

    at: datetime.datetime
    entity: str
    entity_id: int
    action: str
    village: str = ""
    actor_id: int | None = None
    actor_label: str = SYSTEM
    reason: str = ""
    citation: str = ""
    before: dict[str, Any] = field(default_factory=dict)
    after: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Head:
    """Where the chain ends: how many events it holds, and the last one's hash."""

    seq: int
    hash: str


def chain_head() -> Head:
    """The chain's head as committed, read in one query without a lock (a page keyed on
    it, a checkpoint): every change moves it in the transaction that makes the change."""
    row = ChainHead.objects.filter(id=1).values_list("seq", "hash").first()
    return Head(*row) if row is not None else Head(0, GENESIS)


def _action(action: str) -> str:
    try:
        return str(AuditAction(action).value)
    except ValueError:
        raise ValueError(
            f"action: {action!r} is not an audit action; add it to AuditAction"
        ) from None


def _linked(entry: AuditEntry, seq: int, previous: str) -> AuditEvent:
    """The event of ``entry`` as number ``seq`` of the chain, after the hash ``previous``."""
    if timezone.is_naive(entry.at):
        raise ValueError(f"at: {entry.at} has no time zone; an audit event's time is aware")
    event = AuditEvent(
        seq=seq,
        at=entry.at.astimezone(datetime.UTC).replace(microsecond=0),
        actor_id=entry.actor_id,
        actor_label=entry.actor_label,
        village=entry.village,
        entity=entry.entity,
        entity_id=entry.entity_id,
        action=_action(entry.action),
        reason=entry.reason,
        citation=entry.citation,
        # As the chain reads them back: plain JSON values.
        before=json.loads(_canonical(entry.before)) if entry.before else {},
        after=json.loads(_canonical(entry.after)) if entry.after else {},
        prev_hash=previous,
    )
    event.hash = _digest(previous, _hashed_fields(event))
    return event


def _locked_head(writer: str) -> ChainHead:
    """The head row, locked until the caller's transaction ends, so the chain never forks."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError(f"{writer} must run inside the change's transaction")
    head, _ = ChainHead.objects.select_for_update().get_or_create(id=1)
    return head


def event_record(
    *,
    actor: Any,
    entity: str,
    entity_id: int,
    action: str,
    village: str = "",
    reason: str = "",
    citation: str = "",
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> AuditEvent:
    """Append one event, now. Call inside the transaction of the change it records."""
    head = _locked_head("event_record")
    label = SYSTEM
    actor_id = None
    if actor is not None and getattr(actor, "is_authenticated", False):
        label = actor.get_username()
        actor_id = actor.pk
    entry = AuditEntry(
        at=timezone.now(),
        entity=entity,
        entity_id=entity_id,
        action=action,
        village=village,
        actor_id=actor_id,
        actor_label=label,
        reason=reason,
        citation=citation,
        before=before or {},
        after=after or {},
    )
    event = _linked(entry, head.seq + 1, head.hash)
    event.save(force_insert=True)
    ChainHead.objects.filter(id=1).update(seq=event.seq, hash=event.hash)
    return event


def append_many(entries: Iterable[AuditEntry]) -> int:
    """Append ``entries`` in the order given, each linked to the one before it as
    ``event_record`` links one, in one write (COPY on PostgreSQL). Call last in the
    transaction of the changes they record: the chain's head stays locked until it
    commits. An entry that is not one (an action outside ``AuditAction``, a time with no
    zone) raises ValueError before anything is written. Returns how many were appended."""
    head = _locked_head("append_many")
    seq, previous = head.seq, head.hash
    events = []
    for entry in entries:
        seq += 1
        event = _linked(entry, seq, previous)
        events.append(event)
        previous = event.hash
    if not events:
        return 0
    _insert(events)
    ChainHead.objects.filter(id=1).update(seq=seq, hash=previous)
    return len(events)


def _insert(events: list[AuditEvent]) -> None:
    if connection.vendor != "postgresql":
        AuditEvent.objects.bulk_create(events)
        return
    fields = [f for f in AuditEvent._meta.concrete_fields if not f.primary_key]
    quote = connection.ops.quote_name
    names: list[str] = []
    for f in fields:
        assert f.column is not None  # a concrete field has its column
        names.append(quote(f.column))
    columns = ", ".join(names)
    json_at = [isinstance(f, models.JSONField) for f in fields]
    copy_sql = f"COPY {quote(AuditEvent._meta.db_table)} ({columns}) FROM STDIN"
    with connection.cursor() as cursor, cursor.copy(copy_sql) as copy:
        for event in events:
            row = [getattr(event, f.attname) for f in fields]
            copy.write_row([json.dumps(v) if j else v for v, j in zip(row, json_at, strict=True)])


def change_record(
    subject: Any,
    *,
    entity: str,
    snapshot: dict[str, Any],
    actor: Any,
    action: str,
    citation: str,
    reason: str = "",
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> AuditEvent:
    """Append the change of ``subject``, a row of a village (an enforcement case, an
    appeal): ``after`` is what it is now (``snapshot``), with ``after`` added to it."""
    return event_record(
        actor=actor,
        entity=entity,
        entity_id=subject.pk,
        action=action,
        village=subject.village_id,
        reason=reason,
        citation=citation,
        before=before,
        after={**snapshot, **(after or {})},
    )


@dataclass(frozen=True)
class Verification:
    ok: bool
    checked: int
    broken_at: int | None = None
    reason: str = ""


def chain_verify(keep: set[int] | None = None, kept: dict[int, str] | None = None) -> Verification:
    """Walk the chain from the start; report the first event whose link is broken.

    ``keep``: sequence numbers whose hashes are copied into ``kept`` on the way (to hold
    the chain against its checkpoints, see ``anchor``).
    """
    previous = GENESIS
    expected_seq = 1
    checked = 0
    for event in AuditEvent.objects.order_by("seq").iterator(chunk_size=2000):
        if event.seq != expected_seq:
            return Verification(False, checked, expected_seq, f"event #{expected_seq} is missing")
        if event.prev_hash != previous:
            return Verification(
                False, checked, event.seq, f"event #{event.seq} does not link to the one before it"
            )
        if _digest(previous, _hashed_fields(event)) != event.hash:
            return Verification(
                False, checked, event.seq, f"event #{event.seq} was changed after it was written"
            )
        previous = event.hash
        if keep and kept is not None and event.seq in keep:
            kept[event.seq] = event.hash
        expected_seq += 1
        checked += 1
    head = ChainHead.objects.filter(id=1).first()
    if head is not None and head.seq != checked:
        return Verification(
            False, checked, checked + 1, f"the chain ends at #{checked} but #{head.seq} was written"
        )
    return Verification(True, checked)
