"""A demo load stopped after its records committed, but before the stored duties that
follow them were written, is made whole by running it again."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from siltfence.apps.duties.models import PermitDuties
from siltfence.apps.permits.models import Permit, PermitStatus


def _stored() -> dict[int, list[tuple[str, str]]]:
    return {
        permit: [(d["kind"], d["due"]) for d in duties]
        for permit, duties in PermitDuties.objects.values_list("permit_id", "duties")
    }


@pytest.mark.django_db
def test_a_demo_run_again_stores_the_duties_a_stopped_run_left_out():
    call_command("demo_load", verbosity=0)
    stored = _stored()
    in_force = set(Permit.objects.filter(status=PermitStatus.ACTIVE).values_list("pk", flat=True))
    assert in_force and set(stored) == in_force

    # As after a load killed between an event's commit and the recompute that follows it.
    PermitDuties.objects.all().delete()
    call_command("demo_load", verbosity=0)
    assert _stored() == stored
