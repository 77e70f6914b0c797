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
