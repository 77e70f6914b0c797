"""Conflicting enforcement steps at once leave exactly one outcome (the pattern of
test_concurrency.py: each thread its own connection, released together by a barrier; the
services lock the case row, so the second finds the state changed).

Run on SQLite locally; the CI runs the same tests on PostgreSQL.
"""

from __future__ import annotations

import datetime
import threading
from collections.abc import Callable
from typing import Any

import factories
import pytest
from board_helpers import board_decides
from django.db import connections
from django.utils import timezone
from enforcement_helpers import permit_filed_on

from siltfence.apps.appeals import services as appeals
from siltfence.apps.audit.chain import chain_verify
from siltfence.apps.audit.models import AuditEvent
from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement.errors import ActionRefused
from siltfence.apps.enforcement.models import EnforcementAction, EnforcementCase
from siltfence.apps.permits.models import Permit, TimelineEvent

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = 4


def _race(*actions: Callable[[], Any]) -> list[Any]:
    barrier = threading.Barrier(len(actions), timeout=30)
    outcome: list[Any] = [None] * len(actions)

    def run(index: int, action: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            action()
            outcome[index] = "won"
        except BaseException as exc:
            outcome[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, a)) for i, a in enumerate(actions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
        assert not thread.is_alive(), "a thread hung"
    return outcome


def _case_with_order(people: factories.People, round_: int) -> EnforcementCase:
    staff = people.staff[factories.SPENCER]
    permit = permit_filed_on(
        applicant=people.applicant_a,
        village=factories.SPENCER,
        staff=staff,
        filed=(timezone.localdate() - datetime.timedelta(days=60)).isoformat(),
        address=f"{round_} Race St, Spencer",
    )
    ago = timezone.now() - datetime.timedelta(days=40)
    case = s.violation_record(
        village=permit.village,
        recorded_by=staff,
        source="observation",
        description="Fence down.",
        provision="§ 413-7B(5)(c)",
        days_from=timezone.localdate(ago),
        at=ago,
        permit=permit,
    ).case
    s.stop_work_order_post(case=case, staff=staff, at=ago, grounds=["conditions-not-met"])
    return case


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_two_staff_revoking_at_once_revoke_once(round_, villages, expect_postgres_when_asked):
    people = factories.People.create()
    second = factories.make_user("spencer-staff-2", village=factories.SPENCER, role="staff")
    case = _case_with_order(people, round_)

    def revoke(staff: Any) -> Callable[[], Any]:
        return lambda: s.permit_revoke(
            case=EnforcementCase.objects.get(pk=case.pk),
            staff=staff,
            at=timezone.now(),
            reasons="No compliance within 10 days.",
        )

    outcome = _race(revoke(people.staff[factories.SPENCER]), revoke(second))
    assert outcome.count("won") == 1, outcome
    (refusal,) = [o for o in outcome if o != "won"]
    assert isinstance(refusal, ActionRefused), refusal
    assert str(refusal) == "permit: the permit is revoked, not active"
    assert EnforcementAction.objects.filter(case=case, kind="revocation").count() == 1
    assert (
        TimelineEvent.objects.filter(
            application_id=case.application_id, type="permit_revoked"
        ).count()
        == 1
    )
    assert AuditEvent.objects.filter(action="permit_revoke", entity_id=case.pk).count() == 1
    assert chain_verify().ok


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_the_board_reversing_a_revocation_while_staff_retract_it_restores_the_permit_once(
    round_, villages, expect_postgres_when_asked
):
    people = factories.People.create()
    staff = people.staff[factories.SPENCER]
    case = _case_with_order(people, round_)
    revocation = s.permit_revoke(
        case=case,
        staff=staff,
        at=timezone.now() - datetime.timedelta(days=20),
        reasons="No compliance.",
    )
    appeal = appeals.appeal_file(
        village=case.village,
        filed_by=people.applicant_a,
        on=timezone.localdate() - datetime.timedelta(days=19),
        appellant_name="Alex Schmid",
        standing="permittee",
        grounds="Complied in time.",
        action=revocation,
    )
    appeals.appeal_hearing_schedule(
        appeal=appeal,
        user=staff,
        hearing_at=timezone.now() - datetime.timedelta(days=2),
        notice_given_on=timezone.localdate() - datetime.timedelta(days=10),
        notice_to="Alex Schmid",
    )
    outcome = _race(
        lambda: board_decides(
            appeal,
            at=timezone.now(),
            decision="reverse",
            reasons="Compliance was shown.",
        ),
        lambda: s.order_retract(
            case=EnforcementCase.objects.get(pk=case.pk),
            staff=staff,
            at=timezone.now(),
            order="revocation",
            reason="Compliance shown.",
        ),
    )
    # The decision always stands; the revocation is retracted exactly once, by whichever
    # came first, and the other finds nothing left to retract.
    assert outcome[0] == "won", outcome
    if outcome[1] != "won":
        assert isinstance(outcome[1], ActionRefused)
        assert outcome[1].field == "order"
    retractions = TimelineEvent.objects.filter(
        application_id=case.application_id, type="order_retracted"
    )
    assert retractions.count() == 1
    assert Permit.objects.get(application_id=case.application_id).status == "active"
    assert chain_verify().ok


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_revoking_while_the_permittee_appeals_the_order_records_each_once(
    round_, villages, expect_postgres_when_asked
):
    # § 413-10B lets the Building Inspector revoke after the ten days; § 413-12B lets the
    # permittee appeal the stop-work order. Neither waits for the other, so both stand;
    # at the same instant each is recorded exactly once and the record stays one chain.
    from siltfence.apps.appeals.models import Appeal

    people = factories.People.create()
    staff = people.staff[factories.SPENCER]
    case = _case_with_order(people, round_)
    order = EnforcementAction.objects.get(case=case, kind="stop_work_order")
    outcome = _race(
        lambda: s.permit_revoke(
            case=EnforcementCase.objects.get(pk=case.pk),
            staff=staff,
            at=timezone.now(),
            reasons="No compliance within 10 days.",
        ),
        lambda: appeals.appeal_file(
            village=case.village,
            filed_by=people.applicant_a,
            on=timezone.localdate(),
            appellant_name="Alex Schmid",
            standing="permittee",
            grounds="The fence was restored the day after the order.",
            action=order,
        ),
    )
    assert outcome == ["won", "won"], outcome
    assert EnforcementAction.objects.filter(case=case, kind="revocation").count() == 1
    assert Appeal.objects.filter(action=order).count() == 1
    assert Permit.objects.get(application_id=case.application_id).status == "revoked"
    assert chain_verify().ok
