"""What the staff's, the inspector's and the board's pages read, where a page reads across
apps (a permit with its cases and emails) or reads a village's own lists. Each function
states the rows it reads; the page only shapes them."""

from __future__ import annotations

import datetime
from collections.abc import Collection
from typing import TYPE_CHECKING, Any, TypedDict

from django.db.models import Count, Exists, F, OuterRef, Prefetch, QuerySet

from siltfence.apps.enforcement.models import EnforcementCase
from siltfence.apps.outbox.models import Message
from siltfence.apps.permits.models import (
    Application,
    ApplicationStatus,
    Document,
    DocumentKind,
    FeeSchedule,
    OfficeClosure,
    Permit,
    PermitExtension,
    PermitStatus,
    PlanAmendment,
    Surety,
    Village,
)
from siltfence.apps.permits.selectors import permits_visible_to

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

# The documents the village issued on a permit's record, listed on the permit page.
LETTER_KINDS = [
    DocumentKind.PERMIT,
    DocumentKind.DISAPPROVAL_LETTER,
    DocumentKind.SURETY_REQUIRED_LETTER,
    DocumentKind.EXTENSION_LETTER,
    DocumentKind.CLOSEOUT_LETTER,
    DocumentKind.SURETY_RELEASE_LETTER,
]


def villages_by_name(ids: Collection[str]) -> QuerySet[Village]:
    return Village.objects.filter(pk__in=ids).order_by("name")


class ExtensionCount(TypedDict):
    """What ``permits_not_closed`` adds to each permit."""

    extension_count: int


class PermitPageLists(TypedDict):
    """What ``permit_for_page`` adds to the permit: whether it has each list."""

    with_extensions: bool
    with_sureties: bool
    with_amendments: bool
    with_cases: bool
    with_emails: bool


def permits_not_closed(
    user: Any, villages: Collection[str]
) -> QuerySet[WithAnnotations[Permit, ExtensionCount]]:
    """The permits in force the person may see in ``villages``, but their own (a
    permittee who is also an official finds theirs in the portal), soonest last day first,
    each with its number of extensions (``extension_count``)."""
    return (
        permits_visible_to(user)
        .filter(status=PermitStatus.ACTIVE, village_id__in=villages)
        .exclude(application__applicant=user)
        .annotate(extension_count=Count("extensions"))
        .order_by("expires_on", "pk")
    )


def permit_for_page(user: Any) -> QuerySet[WithAnnotations[Permit, PermitPageLists]]:
    """A permit the person may see, with what its page lists: its letters, and whether it
    has extensions, sureties, amendments, enforcement cases and emails. Most permits have
    none of these, so each list is read only where the permit has one (one query in all
    when it has none)."""
    return (
        permits_visible_to(user)
        .select_related("application__site__rain__station")
        # Not shown: the determination (kilobytes) and the facts it was made from.
        .defer("application__determination", "application__facts")
        .prefetch_related(
            Prefetch(
                "application__documents",
                queryset=Document.objects.filter(kind__in=LETTER_KINDS),
                to_attr="letters",
            ),
        )
        .annotate(
            with_extensions=Exists(PermitExtension.objects.filter(permit=OuterRef("pk"))),
            with_sureties=Exists(Surety.objects.filter(permit=OuterRef("pk"))),
            with_amendments=Exists(PlanAmendment.objects.filter(permit=OuterRef("pk"))),
            with_cases=Exists(
                EnforcementCase.objects.filter(application=OuterRef("application_id"))
            ),
            with_emails=Exists(Message.objects.filter(permit=OuterRef("pk"))),
        )
    )


def closures_from(village: Village, day: datetime.date) -> QuerySet[OfficeClosure]:
    """The days the village's office is closed, from ``day`` on."""
    return OfficeClosure.objects.filter(village=village, day__gte=day)


def fee_schedules(village: Village) -> QuerySet[FeeSchedule]:
    return FeeSchedule.objects.filter(village=village)


def permits_in_force(villages: Collection[str], today: datetime.date) -> QuerySet[Permit]:
    """The permits in force in ``villages``: active and not past their last day (an expired
    permit is no permit), soonest last day first, each with its events, read once for a
    page, so the duties shown are worked out from everything recorded."""
    return (
        Permit.objects.filter(
            village_id__in=villages, status=PermitStatus.ACTIVE, expires_on__gte=today
        )
        .select_related("village", "application__site")
        .defer("application__determination", "application__facts")
        .prefetch_related("application__timeline")
        .order_by("expires_on", "pk")
    )


def applications_under_review(villages: Collection[str]) -> QuerySet[Application]:
    """The applications under review or waiting for information in ``villages``, the
    soonest decision first, with only what the inspector's list shows."""
    return (
        Application.objects.filter(
            village_id__in=villages,
            status__in=[ApplicationStatus.UNDER_REVIEW, ApplicationStatus.INFORMATION_REQUESTED],
        )
        .select_related("site")
        .only(
            "number",
            "status",
            "village_id",
            "received_at",
            "decision_due",
            "decision_clock",
            "site__address",
        )
        .order_by(F("decision_due").asc(nulls_last=True), "pk")
    )


def applications_decided(villages: Collection[str]) -> QuerySet[Application]:
    """The applications decided in ``villages`` (approved, awaiting a surety, disapproved),
    the latest decision first: what the appeals board may be asked about."""
    return (
        Application.objects.filter(
            village_id__in=villages,
            status__in=[
                ApplicationStatus.APPROVED,
                ApplicationStatus.AWAITING_SURETY,
                ApplicationStatus.DISAPPROVED,
            ],
        )
        .select_related("village", "site")
        .only(
            "number",
            "status",
            "decided_at",
            "decision_reasons",
            "village__name",
            "site__address",
        )
        .order_by(F("decided_at").desc(nulls_last=True), "-pk")
    )


def latest_permits(villages: Collection[str], count: int) -> QuerySet[Permit]:
    """The ``count`` permits issued last in ``villages``."""
    return (
        Permit.objects.filter(village_id__in=villages)
        .select_related("application__site")
        .only("number", "status", "issued_on", "expires_on", "application__site__address")
        .order_by("-issued_on", "-pk")[:count]
    )
