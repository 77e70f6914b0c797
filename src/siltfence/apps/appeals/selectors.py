"""Appeals visible to the person asking: the board and staff of the village, and the
person who filed (or whose permit or application it concerns)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from django.db.models import Q, QuerySet

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import village_ids
from siltfence.apps.appeals.models import Appeal, Hearing
from siltfence.apps.enforcement.models import EnforcementAction
from siltfence.apps.enforcement.selectors import cases_visible_to
from siltfence.apps.permits.models import Permit, PermitExtension


def appeals_visible_to(user: Any) -> QuerySet[Appeal]:
    if not getattr(user, "is_authenticated", False):
        return Appeal.objects.none()
    villages = village_ids(user, Role.STAFF, Role.APPEALS_BOARD, Role.INSPECTOR)
    return Appeal.objects.filter(
        Q(village_id__in=villages)
        | Q(filed_by=user)
        | Q(application__applicant=user)
        | Q(case__application__applicant=user)
    ).select_related("village", "case", "action", "application")


def docket(user: Any) -> QuerySet[Appeal]:
    """The board's and staff's docket: undecided first, by hearing date."""
    villages = village_ids(user, Role.STAFF, Role.APPEALS_BOARD)
    return (
        Appeal.objects.filter(village_id__in=villages)
        .select_related("village", "case", "action", "application")
        .order_by("status", "hearing_at", "-filed_on", "-id")
    )


def hearings_on(village_id: str, day: datetime.date, zone: str) -> list[Appeal]:
    """The village's appeals whose hearing is set on ``day`` (in the village's zone), by
    the hour of their hearing: the items of that day's agenda."""
    start = datetime.datetime.combine(day, datetime.time(0), tzinfo=ZoneInfo(zone))
    return list(
        Appeal.objects.filter(
            village_id=village_id,
            hearing_at__gte=start,
            hearing_at__lt=start + datetime.timedelta(days=1),
        )
        .select_related("village", "case", "action", "application__site")
        .order_by("hearing_at", "number")
    )


@dataclass(frozen=True)
class HearingDay:
    village_id: str
    village: str
    day: datetime.date
    count: int


def hearing_days(user: Any, *, most: int = 12) -> list[HearingDay]:
    """The days with hearings of appeals not yet decided, in the person's villages (staff
    and board), soonest first: each day's agenda."""
    from siltfence.core.ordinance.loader import load

    villages = village_ids(user, Role.STAFF, Role.APPEALS_BOARD)
    rows = (
        Appeal.objects.filter(village_id__in=villages, hearing_at__isnull=False)
        .exclude(status="decided")
        .select_related("village")
        .order_by("hearing_at")
    )
    days: dict[tuple[str, datetime.date], list[Appeal]] = {}
    for appeal in rows[:500]:
        assert appeal.hearing_at is not None
        zone = ZoneInfo(load(appeal.village_id).time_zone)
        day = appeal.hearing_at.astimezone(zone).date()
        days.setdefault((appeal.village_id, day), []).append(appeal)
    return [
        HearingDay(village_id=v, village=found[0].village.name, day=d, count=len(found))
        for (v, d), found in list(days.items())[:most]
    ]


def enforcement_actions_visible_to(*, user: Any) -> QuerySet[EnforcementAction]:
    """The steps of the cases ``user`` may see, each with its case and village: the steps
    an appeal may be filed from."""
    return EnforcementAction.objects.filter(case__in=cases_visible_to(user)).select_related(
        "case", "case__village"
    )


def permit_last_day_of_application(*, application_id: int) -> datetime.date | None:
    """The last day of the permit issued on the application; None when none was issued."""
    return (
        Permit.objects.filter(application_id=application_id)
        .values_list("expires_on", flat=True)
        .first()
    )


def hearing_sitting(*, appeal: Appeal, held_at: datetime.datetime) -> Hearing | None:
    """The appeal's sitting held at ``held_at``, with its roll, if its roll is recorded."""
    return Hearing.objects.filter(appeal=appeal, held_at=held_at).prefetch_related("roll").first()


def extension_on_appeal(*, number: str) -> PermitExtension | None:
    """The permit's extension the decision of appeal ``number`` set, if it set one."""
    return PermitExtension.objects.filter(on_appeal=number).first()
