"""The audit record: every state change as an append-only, hash-chained event.

Each row records the actor, the time (UTC), what changed (before and after), why, and
the section of the ordinance that allowed it. ``hash`` covers the row's content and the
previous row's hash, so editing or deleting any row breaks every link after it, and
``siltfence audit verify`` finds the first broken one. UPDATE and DELETE are refused by
triggers in the database itself (see the migration), on SQLite and PostgreSQL alike.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class AuditEvent(models.Model):
    seq = models.BigIntegerField(unique=True)
    at = models.DateTimeField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    actor_label = models.CharField(max_length=200)
    village = models.CharField(max_length=40, blank=True)
    entity = models.CharField(max_length=40)  # "application", "permit", ...
    entity_id = models.BigIntegerField()
    action = models.CharField(max_length=60)  # "application_approve", ...
    reason = models.TextField(blank=True)
    citation = models.CharField(max_length=200, blank=True)
    before = models.JSONField(default=dict)
    after = models.JSONField(default=dict)
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64, unique=True)

    class Meta:
        ordering = ["seq"]
        indexes = [models.Index(fields=["entity", "entity_id", "seq"])]

    def __str__(self) -> str:
        return f"#{self.seq} {self.action} {self.entity} {self.entity_id}"


class ChainHead(models.Model):
    """One row, locked while an event is appended, so the chain never forks."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    seq = models.BigIntegerField(default=0)
    hash = models.CharField(max_length=64, default="0" * 64)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=models.Q(id=1), name="chain_head_single_row")
        ]

    def __str__(self) -> str:
        return f"chain head #{self.seq}"
