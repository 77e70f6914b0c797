"""Append to the audit chain and verify it.

``event_record`` must run inside the transaction that makes the change it records, so
the change and its record commit together or not at all.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from siltfence.apps.audit.models import AuditEvent, ChainHead

GENESIS = "0" * 64


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
    """Append one event. Call inside the transaction of the change it records."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("event_record must run inside the change's transaction")
    head, _ = ChainHead.objects.select_for_update().get_or_create(id=1)
    label = "system"
    actor_id = None
    if actor is not None and getattr(actor, "is_authenticated", False):
        label = actor.get_username()
        actor_id = actor.pk
    event = AuditEvent(
        seq=head.seq + 1,
        at=timezone.now().replace(microsecond=0),
        actor_id=actor_id,
        actor_label=label,
        village=village,
        entity=entity,
        entity_id=entity_id,
        action=action,
        reason=reason,
        citation=citation,
        before=json.loads(_canonical(before or {})),
        after=json.loads(_canonical(after or {})),
        prev_hash=head.hash,
    )
    event.hash = _digest(head.hash, _hashed_fields(event))
    event.save(force_insert=True)
    ChainHead.objects.filter(id=1).update(seq=event.seq, hash=event.hash)
    return event


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
