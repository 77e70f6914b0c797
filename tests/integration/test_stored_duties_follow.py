"""The stored duties of a permit (what the dashboards and the reminders read) follow its
record as soon as an event lands, not at the next daily sweep: when the permit is issued,
extended, or an enforcement step is recorded on it, its duties are recomputed once the
transaction commits, and are then exactly what a recompute from the events gives."""

from __future__ import annotations

import datetime

import factories
import pytest
from django.utils import timezone
from factories import SPENCER

from siltfence.apps.duties.models import PermitDuties
from siltfence.apps.duties.services import permit_duties_recompute
from siltfence.apps.enforcement import services as enforcement
from siltfence.apps.permits import services
from siltfence.apps.permits.models import Permit

pytestmark = pytest.mark.django_db


def stored(permit: Permit) -> PermitDuties:
    return PermitDuties.objects.get(permit=permit)


def recomputed(permit: Permit, as_of: datetime.datetime) -> list:
    permit_duties_recompute(permit_ids=[permit.pk], as_of=as_of)
    return stored(permit).duties


def test_an_issued_permit_has_its_duties_stored_when_the_approval_commits(
    people, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        application = factories.make_application(
            applicant=people.applicant_a,
            village=SPENCER,
            state="approved",
            staff=people.staff[SPENCER],
        )
    permit = application.permit
    state = stored(permit)
    # § 413-9: the village inspects a permitted site monthly from March to October.
    assert any(d["citation"] == "§ 413-9" for d in state.duties)
    assert state.duties == recomputed(permit, state.as_of)


def test_an_extension_and_a_stop_work_order_each_recompute_the_stored_duties(
    people, django_capture_on_commit_callbacks
):
    staff = people.staff[SPENCER]
    with django_capture_on_commit_callbacks(execute=True):
        application = factories.make_application(
            applicant=people.applicant_a, village=SPENCER, state="approved", staff=staff
        )
    permit = application.permit
    first = stored(permit).computed_at
    with django_capture_on_commit_callbacks(execute=True):
        services.permit_extend(permit=permit, staff=staff, days=30, on=timezone.localdate())
    extended = stored(permit)
    assert extended.computed_at > first
    assert extended.duties == recomputed(permit, extended.as_of)
    now = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        case = enforcement.violation_record(
            village=permit.village,
            recorded_by=staff,
            source="observation",
            description="Fence down along the east line.",
            provision="§ 413-7B(5)(c)",
            days_from=timezone.localdate(now),
            at=now,
            permit=permit,
        ).case
    after_violation = stored(permit).computed_at
    assert after_violation > extended.computed_at
    with django_capture_on_commit_callbacks(execute=True):
        enforcement.stop_work_order_post(
            case=case, staff=staff, at=timezone.now(), grounds=["conditions-not-met"]
        )
    assert stored(permit).computed_at > after_violation
