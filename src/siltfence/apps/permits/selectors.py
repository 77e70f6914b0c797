"""Reads, scoped to the person asking: nobody can reach another party's records by id."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import village_ids
from siltfence.apps.permits.models import Application, ApplicationStatus, Permit


def applications_visible_to(user: Any) -> QuerySet[Application]:
    if not getattr(user, "is_authenticated", False):
        return Application.objects.none()
    villages = village_ids(user, Role.STAFF, Role.INSPECTOR, Role.APPEALS_BOARD)
    return Application.objects.filter(
        Q(applicant=user) | Q(village_id__in=villages)
    ).select_related("site", "village", "applicant")


def applications_for_review(user: Any) -> QuerySet[Application]:
    """Filed applications in the villages where ``user`` is staff."""
    return Application.objects.filter(
        village_id__in=village_ids(user, Role.STAFF),
        status__in=[ApplicationStatus.UNDER_REVIEW, ApplicationStatus.INFORMATION_REQUESTED],
    ).select_related("site", "village", "applicant")


def permits_visible_to(user: Any) -> QuerySet[Permit]:
    if not getattr(user, "is_authenticated", False):
        return Permit.objects.none()
    villages = village_ids(user, Role.STAFF, Role.INSPECTOR, Role.APPEALS_BOARD)
    return Permit.objects.filter(
        Q(application__applicant=user) | Q(village_id__in=villages)
    ).select_related("application", "application__site", "village")
