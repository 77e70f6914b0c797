"""Two conflicting transitions cannot both win (DESIGN.md, "Reliability and security rules").

Approve and disapprove race on one application under review, each from its own thread
with its own database connection, released together by a barrier. The services lock the
row (PostgreSQL: SELECT ... FOR UPDATE; SQLite: the IMMEDIATE transaction), so the
second one finds the status changed and is refused with nothing written.
"""

from __future__ import annotations

import os
import threading
from typing import Any

import factories
import pytest
from django.db import connection, connections
from django.utils import timezone

from siltfence.apps.audit.chain import chain_verify
from siltfence.apps.audit.models import AuditEvent
from siltfence.apps.permits import errors, services
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import Application, ApplicationStatus, Permit

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = 10
DECISIONS = ("application_approve", "application_disapprove")


def _race(application_pk: int, staff: Any) -> dict[str, Any]:
    """Run approve and disapprove at once; each thread's outcome: "won" or the exception."""
    barrier = threading.Barrier(2, timeout=30)
    outcome: dict[str, Any] = {}

    def approve() -> None:
        services.application_approve(
            application=Application.objects.get(pk=application_pk),
            staff=staff,
            at=timezone.now(),
            reasons="plan meets the chapter",
        )

    def disapprove() -> None:
        services.application_disapprove(
            application=Application.objects.get(pk=application_pk),
            staff=staff,
            reasons="no inlet protection",
            at=timezone.now(),
        )

    def run(name: str, action: Any) -> None:
        try:
            barrier.wait()
            action()
            outcome[name] = "won"
        except BaseException as exc:
            outcome[name] = exc
        finally:
            connections.close_all()  # this thread's own connection

    threads = [
        threading.Thread(target=run, args=("approved", approve)),
        threading.Thread(target=run, args=("disapproved", disapprove)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
        assert not thread.is_alive(), "a decision thread hung"
    return outcome


def test_the_suite_runs_on_postgresql_when_database_url_names_it():
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        assert connection.vendor == "postgresql"
    else:
        assert connection.vendor in ("sqlite", "postgresql")


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_approve_and_disapprove_at_once_exactly_one_wins(
    round_, people, expect_postgres_when_asked
):
    staff = people.staff[factories.SPENCER]
    application = factories.make_application(
        applicant=people.applicant_a,
        village=factories.SPENCER,
        state="under_review",
        address=f"{round_} Race St, Spencer",
    )

    outcome = _race(application.pk, staff)

    winners = [name for name, result in outcome.items() if result == "won"]
    losers = {name: result for name, result in outcome.items() if result != "won"}
    assert len(winners) == 1, f"exactly one decision must win, got {outcome!r}"
    (winner,) = winners
    ((loser, refusal),) = losers.items()
    assert isinstance(refusal, ActionRefused), f"the {loser} thread failed with {refusal!r}"
    assert refusal.field == "status"
    assert str(refusal) == errors.NOT_UNDER_REVIEW.format(status=winner)

    application.refresh_from_db()
    assert application.status == winner
    decisions = AuditEvent.objects.filter(
        entity="application", entity_id=application.pk, action__in=DECISIONS
    )
    assert decisions.count() == 1
    assert decisions.get().action == f"application_{winner.removesuffix('d')}"
    permits = Permit.objects.filter(application=application).count()
    assert permits == (1 if winner == ApplicationStatus.APPROVED else 0)
    assert (
        application.timeline.filter(
            type__in=["application_approved", "application_disapproved"]
        ).count()
        == 1
    )
    assert chain_verify().ok
