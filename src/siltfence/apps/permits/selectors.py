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


def drafts_awaiting_fee(user: Any, on: Any) -> list[tuple[Application, Any]]:
    """Drafts in the villages where ``user`` is staff that owe the application fee in
    force on ``on`` and have no payment recorded: the applicant cannot file until staff
    record it. Each with the amount due."""
    from siltfence.apps.permits.services import application_fee_due

    drafts = Application.objects.filter(
        village_id__in=village_ids(user, Role.STAFF),
        status=ApplicationStatus.DRAFT,
        fee_paid_on__isnull=True,
    ).select_related("site", "village", "applicant")
    owing = [(a, application_fee_due(a, on)) for a in drafts]
    return [(a, amount) for a, amount in owing if amount is not None]


def permits_in_force_for(user: Any, *roles: Role) -> QuerySet[Permit]:
    """Active permits in the villages where ``user`` holds one of ``roles``."""
    return (
        Permit.objects.filter(village_id__in=village_ids(user, *roles), status="active")
        .select_related("application", "application__site", "village")
        .order_by("expires_on")
    )
