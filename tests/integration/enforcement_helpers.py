"""Permits and cases on fixed dates for the enforcement and appeals tests."""

from __future__ import annotations

import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.utils import timezone
from factories import make_application

from siltfence.apps.permits.models import Permit

CHICAGO = ZoneInfo("America/Chicago")


def at(day: str, hour: int = 9, minute: int = 0) -> datetime.datetime:
    """A moment in the villages' zone (both are in Central time)."""
    return datetime.datetime.combine(
        datetime.date.fromisoformat(day), datetime.time(hour, minute), tzinfo=CHICAGO
    )


def permit_filed_on(
    *, applicant: Any, village: str, staff: Any, filed: str, address: str
) -> Permit:
    """A permit whose application was filed on ``filed`` (approved two days later)."""
    day = datetime.date.fromisoformat(filed)
    days_ago = (timezone.localdate() - day).days
    application = make_application(
        applicant=applicant,
        village=village,
        state="approved",
        staff=staff,
        address=address,
        days_ago=days_ago,
    )
    return Permit.objects.get(application=application)


def spencer_case_with_a_violation(people: Any) -> Any:
    """Applicant A's Spencer permit at 12 Park St (filed June 1, 2026) and a violation found
    on July 1 at 9 a.m., the inlet unprotected (§ 413-7B(4)): its case, no order yet."""
    from siltfence.apps.enforcement import services

    staff = people.staff["spencer-wi"]
    permit = permit_filed_on(
        applicant=people.applicant_a,
        village="spencer-wi",
        staff=staff,
        filed="2026-06-01",
        address="12 Park St, Spencer",
    )
    return services.violation_record(
        village=permit.village,
        recorded_by=staff,
        source="observation",
        description="No inlet protection on the street inlet.",
        provision="§ 413-7B(4)",
        days_from=datetime.date(2026, 7, 1),
        at=at("2026-07-01", 9),
        permit=permit,
    ).case
