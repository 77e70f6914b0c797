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
from siltfence.apps.payments import services as payments
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


def test_twenty_fee_recordings_at_once_by_two_clerks_record_one_payment(
    people, expect_postgres_when_asked
):
    import datetime
    from decimal import Decimal

    from siltfence.apps.permits.models import Village

    services.fee_schedule_set(
        village=Village.objects.get(pk=factories.SPENCER),
        staff=people.staff[factories.SPENCER],
        effective_from=datetime.date(2026, 1, 1),
        amount=Decimal("75.00"),
        authority="Village Board resolution 2026-4",
    )
    application = factories.make_application(
        applicant=people.applicant_a, village=factories.SPENCER, state="draft"
    )
    clerks = [people.staff[factories.SPENCER], factories.make_user("second-clerk")]
    from siltfence.apps.accounts.models import Membership, Role

    Membership.objects.create(user=clerks[1], village_id=factories.SPENCER, role=Role.STAFF)
    barrier = threading.Barrier(20, timeout=60)
    outcomes: list[Any] = []

    def record(index: int) -> None:
        try:
            barrier.wait()
            payments.payment_receive(
                application=Application.objects.get(pk=application.pk),
                staff=clerks[index % 2],
                received_on=timezone.localdate(),
                amount=Decimal(75),
                method="cash",
            )
            outcomes.append("recorded")
        except BaseException as exc:
            outcomes.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=record, args=(i,)) for i in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
        assert not thread.is_alive()
    assert outcomes.count("recorded") == 1, outcomes
    refused = [o for o in outcomes if o != "recorded"]
    assert all(isinstance(o, ActionRefused) and o.field == "amount" for o in refused), refused
    assert all("is paid in full" in str(o) for o in refused)
    events = AuditEvent.objects.filter(
        entity="application", entity_id=application.pk, action="fee_payment_record"
    )
    assert events.count() == 1
    application.refresh_from_db()
    assert application.fee_amount == Decimal(events.get().after["amount"])


def test_ten_appeals_of_one_order_at_once_by_its_permittee_file_one(
    people, expect_postgres_when_asked
):
    import datetime

    from enforcement_helpers import at, permit_filed_on

    from siltfence.apps.appeals import services as appeals
    from siltfence.apps.appeals.models import Appeal
    from siltfence.apps.enforcement import services as enforcement

    village = factories.SPENCER
    permit = permit_filed_on(
        applicant=people.applicant_a,
        village=village,
        staff=people.staff[village],
        filed="2026-06-01",
        address="300 2nd St",
    )
    case = enforcement.violation_record(
        village=permit.village,
        recorded_by=people.staff[village],
        source="observation",
        description="Fence down.",
        provision="§ 413-7B(4)",
        days_from=datetime.date(2026, 7, 1),
        at=at("2026-07-01"),
        permit=permit,
    ).case
    order = enforcement.stop_work_order_post(
        case=case,
        staff=people.staff[village],
        at=at("2026-07-01", 10),
        grounds=["plan-not-followed"],
    )
    barrier = threading.Barrier(10, timeout=60)
    outcomes: list[Any] = []

    def file() -> None:
        try:
            barrier.wait()
            appeals.appeal_file(
                village=order.case.village,
                filed_by=people.applicant_a,
                on=datetime.date(2026, 7, 2),
                appellant_name="Alex Schmid",
                standing="permittee",
                grounds="The fence was up.",
                action=order,
            )
            outcomes.append("filed")
        except BaseException as exc:
            outcomes.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=file) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
        assert not thread.is_alive()
    assert outcomes.count("filed") == 1, outcomes
    refused = [o for o in outcomes if o != "filed"]
    assert all(isinstance(o, ActionRefused) and "already filed" in str(o) for o in refused)
    assert Appeal.objects.filter(action=order).count() == 1
