"""Appeals visible to the person asking: the board and staff of the village, and the
person who filed (or whose permit or application it concerns)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import village_ids
from siltfence.apps.appeals.models import Appeal


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
