"""Reads, scoped to the person asking: nobody can reach another party's records by id."""

from __future__ import annotations

import datetime
from typing import Any

from django.db.models import F, Q, QuerySet

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import village_ids
from siltfence.apps.permits.models import (
    Application,
    ApplicationStatus,
    Document,
    FeeSchedule,
    Permit,
    Village,
)
from siltfence.core.fees import SQ_FT, schedule_fee


def applications_visible_to(user: Any) -> QuerySet[Application]:
    if not getattr(user, "is_authenticated", False):
        return Application.objects.none()
    villages = village_ids(user, Role.STAFF, Role.INSPECTOR, Role.APPEALS_BOARD)
    return Application.objects.filter(
        Q(applicant=user) | Q(village_id__in=villages)
    ).select_related("site", "village", "applicant")


def applications_for_review(user: Any) -> QuerySet[Application]:
    """Filed applications in the villages where ``user`` is staff, the review queue's
    order: by the stored day a decision is due (so overdue first), then those whose clock
    is paused waiting for the applicant's information. Each with what a row of the queue
    shows: its number, status and stored clock, its site's address and village's name
    (not the determination, kilobytes an application)."""
    return (
        Application.objects.filter(
            village_id__in=village_ids(user, Role.STAFF),
            # An approval subject to a surety stays here until the surety issues the permit.
            status__in=[
                ApplicationStatus.UNDER_REVIEW,
                ApplicationStatus.INFORMATION_REQUESTED,
                ApplicationStatus.AWAITING_SURETY,
            ],
        )
        .select_related("site", "village")
        .only(
            "number",
            "status",
            "received_at",
            "decision_due",
            "decision_clock",
            "site__address",
            "village__name",
        )
        .order_by(F("decision_due").asc(nulls_last=True), "received_at", "pk")
    )


def permits_visible_to(user: Any) -> QuerySet[Permit]:
    if not getattr(user, "is_authenticated", False):
        return Permit.objects.none()
    villages = village_ids(user, Role.STAFF, Role.INSPECTOR, Role.APPEALS_BOARD)
    return Permit.objects.filter(
        Q(application__applicant=user) | Q(village_id__in=villages)
    ).select_related("application", "application__site", "village")


def drafts_awaiting_fee(
    user: Any, on: Any, *, limit: int
) -> tuple[list[tuple[Application, Any]], int]:
    """Drafts in the villages where ``user`` is staff that owe the application fee in
    force on ``on`` and have no payment recorded: the applicant cannot file until staff
    record it. The oldest ``limit`` of them, each with the amount due (as
    ``services.application_fee_due`` has it for a draft: from the schedule and the draft's
    disturbed area, or as staff corrected it), and how many there are. Each with what the
    list shows: its number, start, applicant's name, site and village."""
    in_force: dict[str, Any] = {}
    staff_of = village_ids(user, Role.STAFF)
    for fee in FeeSchedule.objects.filter(village_id__in=staff_of, effective_from__lte=on).order_by(
        "village_id", "-effective_from"
    ):
        in_force.setdefault(fee.village_id, fee)
    # A schedule with a base amount is owed by every draft; one charging by area alone, by
    # the drafts disturbing more than its base covers.
    owing = Q(pk__in=[])
    for village, fee in in_force.items():
        if fee.amount:
            owing |= Q(village_id=village)
        elif fee.per_area_amount:
            covered = fee.area_included * SQ_FT[fee.area_unit]
            owing |= Q(village_id=village, facts__disturbed_area__gt=float(covered))
    drafts = (
        Application.objects.filter(
            village_id__in=staff_of, status=ApplicationStatus.DRAFT, fee_paid_on__isnull=True
        )
        .filter((Q(fee_corrected=False) & owing) | Q(fee_corrected=True, fee_amount__gt=0))
        .select_related("site", "village", "applicant")
        .only(
            "number",
            "created_at",
            "facts",
            "fee_amount",
            "fee_corrected",
            "village_id",
            "site__address",
            "village__name",
            "applicant__username",
            "applicant__first_name",
            "applicant__last_name",
        )
        .order_by("created_at", "pk")
    )

    def due(application: Application) -> Any:
        if application.fee_corrected:
            return application.fee_amount
        computed = schedule_fee(in_force[application.village_id], application.facts or {})
        return computed.amount if computed is not None else None

    shown = [(a, due(a)) for a in drafts[:limit]]
    return shown, drafts.count() if len(shown) == limit else len(shown)


# A surety that expires within this many days, on a permit not closed, is flagged.
SURETY_WATCH_DAYS = 30


def surety_expiry_warning(surety: Any, permit: Any, today: datetime.date) -> str:
    if surety.expires_on is None or surety.released_on is not None or permit.status == "closed":
        return ""
    if surety.balance <= 0:
        return ""  # drawn down to nothing: there is nothing left to renew or draw on
    days = (surety.expires_on - today).days
    if days < 0:
        return (
            f"This surety expired on {surety.expires_on:%B %-d, %Y}: ask for a replacement "
            "or record why it is no longer needed."
        )
    if days <= SURETY_WATCH_DAYS:
        return (
            f"This surety expires on {surety.expires_on:%B %-d, %Y}, in {days} day"
            f"{'' if days == 1 else 's'}: draw on it, or ask for its renewal, before then."
        )
    return ""


def villages_where_staff(*, user: Any) -> QuerySet[Village]:
    """The villages where ``user`` is staff, by name."""
    return Village.objects.filter(pk__in=village_ids(user, Role.STAFF)).order_by("name")


def village_by_pk(*, village_id: str) -> Village:
    """The village ``village_id``; ``Village.DoesNotExist`` when there is none."""
    return Village.objects.get(pk=village_id)


def applications_of_applicant(*, user: Any) -> QuerySet[Application]:
    """The applicant's own applications, newest first, with their site, village and
    permit: the portal's list."""
    return (
        Application.objects.filter(applicant=user)
        .select_related("site", "village", "permit")
        .order_by("-created_at", "-pk")
    )


def documents_visible_to(*, user: Any) -> QuerySet[Document]:
    """The documents of the applications ``user`` may see (``applications_visible_to``),
    each with its application."""
    return Document.objects.filter(application__in=applications_visible_to(user)).select_related(
        "application"
    )


def application_facts_of_village(*, village: Village) -> list[Any]:
    """The facts of every application the village has received (``None`` where an
    application has none)."""
    return list(
        Application.objects.filter(village=village).values_list("determination__facts", flat=True)
    )
