"""Every column of an audit event that its hash covers is held by the chain.

The audit record's promise (audit/models.py, DESIGN.md capability 12): each row's hash
covers the row's content and the previous row's hash, so an edit of any part of a recorded
event (who, when, which record, what was done, why, under which section, and what it was
before and after) breaks the chain at that event, and ``chain_verify`` names it.

The edits here are made the way someone with the database's rights could make them behind
the application's back: the append-only trigger is taken off (as an administrator could),
and the row is changed with a plain ``queryset.update``, never through ``event_record``.
Each edit is undone (a savepoint rolled back) before the next, so each column is judged on
its own. Runs on SQLite and on PostgreSQL (``make test-postgres``).
"""

from __future__ import annotations

import datetime
import importlib
from collections.abc import Callable, Iterator
from typing import Any

import factories
import pytest
from django.db import DatabaseError, connection, transaction

from siltfence.apps.audit.chain import chain_verify
from siltfence.apps.audit.models import AuditEvent

pytestmark = pytest.mark.django_db

append_only = importlib.import_module("siltfence.apps.audit.migrations.0002_append_only")

SPENCER, NEW_GLARUS = factories.SPENCER, factories.NEW_GLARUS

# The row's content: every column but the row's own id and the two links of the chain.
# Written out here from what an audit event records (not read from the hashing code), so a
# column left out of the hash is found, and a column added to the model without a case
# below fails ``test_every_recorded_column_has_a_tampering_case``.
NOT_CONTENT = {"id", "prev_hash", "hash"}


def _tampered(event: AuditEvent, other_user: Any) -> dict[str, Any]:
    """For each recorded column, a different value someone might put there."""
    return {
        "seq": event.seq + 10_000,
        "at": event.at + datetime.timedelta(seconds=1),
        "actor": other_user,
        "actor_label": other_user.username,
        "village": NEW_GLARUS if event.village == SPENCER else SPENCER,
        "entity": "permit" if event.entity != "permit" else "application",
        "entity_id": event.entity_id + 1000,
        "action": "application_withdraw",
        "reason": "approved by phone",
        "citation": "§ 413-99",
        "before": {**event.before, "status": "approved"},
        # The forgery that matters most: the record of what the change produced.
        "after": {**event.after, "status": "approved"},
    }


def _run(sql: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql)  # no placeholders: the trigger SQL holds a literal "%"


def _disarm() -> None:
    """Take the UPDATE trigger off, as an administrator could (migration audit 0002)."""
    if connection.vendor == "postgresql":
        # DDL on the audit table may not wait behind deferred foreign-key checks.
        _run("SET CONSTRAINTS ALL IMMEDIATE")
        _run("ALTER TABLE audit_auditevent DISABLE TRIGGER audit_event_no_update_delete")
    else:
        _run("DROP TRIGGER audit_event_no_update")


def _rearm() -> None:
    """Put the triggers back: the SQL of migration audit 0002 again."""
    if connection.vendor == "postgresql":
        _run("DROP TRIGGER IF EXISTS audit_event_no_update_delete ON audit_auditevent")
        _run("DROP TRIGGER IF EXISTS audit_event_no_truncate ON audit_auditevent")
        statements = append_only.POSTGRES
    else:
        statements = append_only.SQLITE
    for statement in statements:
        _run(statement)


@pytest.fixture
def disarmed(armed_triggers: None) -> Iterator[None]:
    """The UPDATE trigger off for the test, and back on after it."""
    _disarm()
    try:
        yield
    finally:
        _rearm()


@pytest.fixture
def recorded(people: factories.People, expect_postgres_when_asked: None) -> AuditEvent:
    """A Spencer application filed and approved through the services; the event of its
    filing (made by the applicant, with a before and an after), in the middle of the chain."""
    factories.make_application(
        applicant=people.applicant_a,
        village=SPENCER,
        state="approved",
        staff=people.staff[SPENCER],
    )
    target = AuditEvent.objects.get(action="application_submit")
    last = AuditEvent.objects.order_by("-seq").first()
    assert last is not None and 1 < target.seq < last.seq
    assert target.actor_id == people.applicant_a.pk and target.before and target.after
    assert chain_verify().ok
    return target


def _verified_after(change: Callable[[], Any]) -> Any:
    """The chain's verification with ``change`` made, the change then undone."""
    with transaction.atomic():
        change()
        result = chain_verify()
        transaction.set_rollback(True)
    return result


def test_every_recorded_column_has_a_tampering_case(people: factories.People) -> None:
    columns = {f.name for f in AuditEvent._meta.concrete_fields} - NOT_CONTENT
    event = AuditEvent(seq=1, at=datetime.datetime.now(datetime.UTC), entity_id=1)
    assert columns == set(_tampered(event, people.applicant_b))


@pytest.mark.parametrize(
    "column",
    [
        "seq",
        "at",
        "actor",
        "actor_label",
        "village",
        "entity",
        "entity_id",
        "action",
        "reason",
        "citation",
        "before",
        "after",
    ],
)
def test_an_edit_of_any_recorded_column_breaks_the_chain_at_that_event(
    column: str, recorded: AuditEvent, people: factories.People, disarmed: None
) -> None:
    value = _tampered(recorded, people.applicant_b)[column]
    assert getattr(recorded, column) != value

    def edit() -> None:
        changed = AuditEvent.objects.filter(pk=recorded.pk).update(**{column: value})
        assert changed == 1
        stored = AuditEvent.objects.get(pk=recorded.pk)
        assert getattr(stored, column) == value, f"the edit of {column} did not reach the row"

    result = _verified_after(edit)
    assert not result.ok, f"an edit of {column!r} of event #{recorded.seq} went unnoticed"
    assert result.broken_at == recorded.seq
    assert f"event #{recorded.seq} " in result.reason
    if column == "seq":
        # Moved away from its place, the event is missing where it was written.
        assert "missing" in result.reason
    else:
        assert "changed after it was written" in result.reason
    # Undone, the chain is whole again.
    assert chain_verify().ok


@pytest.mark.parametrize("link", ["prev_hash", "hash"])
def test_an_edit_of_a_link_of_the_chain_is_found_at_that_event(
    link: str, recorded: AuditEvent, disarmed: None
) -> None:
    forged = "f" * 64
    result = _verified_after(
        lambda: AuditEvent.objects.filter(pk=recorded.pk).update(**{link: forged})
    )
    assert not result.ok
    assert result.broken_at == recorded.seq
    assert f"event #{recorded.seq} " in result.reason


def test_all_the_edits_at_once_are_found_and_the_trigger_is_back_afterwards(
    recorded: AuditEvent, people: factories.People, armed_triggers: None
) -> None:
    everything = _tampered(recorded, people.applicant_b)
    del everything["seq"]
    _disarm()
    try:
        result = _verified_after(
            lambda: AuditEvent.objects.filter(pk=recorded.pk).update(**everything)
        )
    finally:
        _rearm()
    assert not result.ok and result.broken_at == recorded.seq
    # The trigger is back: the same edit is refused by the database again.
    with pytest.raises(DatabaseError), transaction.atomic():
        AuditEvent.objects.filter(pk=recorded.pk).update(after={"status": "approved"})
    assert chain_verify().ok
