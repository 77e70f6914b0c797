"""Reads of the enforcement record, scoped to the person asking, and the case's timeline
as the core computes it."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from django.db.models import Prefetch, Q, QuerySet

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import village_ids
from siltfence.apps.enforcement.models import (
    EnforcementAction,
    EnforcementCase,
    EnforcementDocument,
    ForfeitureSchedule,
    InterestRate,
    Invoice,
    LetterWording,
    ServiceRecord,
    Violation,
    ViolationPhoto,
    ViolationStatus,
    WorkCost,
)
from siltfence.apps.permits.models import Party, Permit, Village
from siltfence.core.ordinance.loader import load


def cases_visible_to(user: Any) -> QuerySet[EnforcementCase]:
    """Staff, inspectors and board members see their village's cases; a permittee sees the
    cases on their own permits."""
    if not getattr(user, "is_authenticated", False):
        return EnforcementCase.objects.none()
    villages = village_ids(user, Role.STAFF, Role.INSPECTOR, Role.APPEALS_BOARD)
    return EnforcementCase.objects.filter(
        Q(village_id__in=villages) | Q(application__applicant=user)
    ).select_related("village", "application", "application__permit")


# The letters to the village's attorney: they carry the staff's notes to the attorney.
ATTORNEY_LETTERS = ("cease_and_desist_referral", "injunction_referral", "prosecution_referral")


def sees_internal_record(user: Any, village_id: str) -> bool:
    """Whether the person reads the internal part of the village's enforcement record: each
    step's internal note and the letters to the village's attorney (``ATTORNEY_LETTERS``).
    The village's staff and inspectors do. The appeals board does not: it decides an appeal
    on the record both sides can see and answer at the hearing, never on a note or a letter
    the appellant cannot read (decision 47). The party a case is against, anyone else
    signed in and the public never do, on any page, document or feed: every page that
    shows a case's steps asks this."""
    return village_id in village_ids(user, Role.STAFF, Role.INSPECTOR)


def complaints_to_review(user: Any) -> QuerySet[Violation]:
    return Violation.objects.filter(
        village_id__in=village_ids(user, Role.STAFF), status=ViolationStatus.REPORTED
    ).select_related("village")


def case_events(case: EnforcementCase, as_of: datetime.date | None = None) -> list[dict[str, Any]]:
    """The case's events in the contract shape: the permit's timeline, or the case's own.

    A continuing violation (no last day yet) runs to ``as_of``: each day a separate offense.
    """
    zone = load(case.village_id).time_zone
    if case.application_id is not None:
        rows = list(case.application.timeline.all())  # type: ignore[union-attr]
    else:
        rows = list(case.events.all())
    open_ids = set()
    if as_of is not None:
        open_ids = {
            f"violation-{pk}"
            for pk in case.violations.filter(
                status=ViolationStatus.FOUND, days_to__isnull=True
            ).values_list("pk", flat=True)
        }
    events = []
    for row in rows:
        event = row.as_contract(zone)
        if row.type == "violation" and event.get("id") in open_ids and as_of is not None:
            first = datetime.date.fromisoformat(str(event["from"]))
            event["to"] = max(first, as_of).isoformat()
        events.append(event)
    return events


def case_timeline(case: EnforcementCase, as_of: datetime.datetime) -> Any:
    """The core's timeline of the case as of ``as_of`` (allowed actions, forfeiture, notes)."""
    from siltfence.apps.permits.clocks import office_closures
    from siltfence.core.timeline import compute

    ordinance = load(case.village_id)
    local = as_of.astimezone(ZoneInfo(ordinance.time_zone))
    return compute(
        ordinance,
        case_events(case, local.date()),
        as_of=local,
        office_closures=office_closures(case.village_id),
    )


def open_stop_work_order(case: EnforcementCase) -> EnforcementAction | None:
    """The stop-work order in force: posted and neither complied with nor retracted."""
    current: EnforcementAction | None = None
    for action in case.actions.filter(kind__in=["stop_work_order", "compliance", "retraction"]):
        if action.kind == "stop_work_order":
            current = current or action
        elif action.kind == "compliance" or action.details.get("order") == "stop_work_order":
            current = None
    return current


def interest_rate_in_force(village_id: str, on: datetime.date) -> InterestRate | None:
    return (
        InterestRate.objects.filter(village_id=village_id, effective_from__lte=on)
        .order_by("-effective_from")
        .first()
    )


def forfeiture_schedule_in_force(village_id: str, on: datetime.date) -> ForfeitureSchedule | None:
    return (
        ForfeitureSchedule.objects.filter(village_id=village_id, effective_from__lte=on)
        .order_by("-effective_from")
        .first()
    )


def forfeiture_summary(case: EnforcementCase, as_of: datetime.datetime) -> dict[str, Any] | None:
    """The forfeiture the core counts (each violation, each day, a separate offense), with
    the amounts the chapter sets, or the amounts the village entered where the chapter
    sends elsewhere (Spencer § 1-3), or a plain "not entered"."""
    timeline = case_timeline(case, as_of).to_json()
    fine = timeline.get("forfeiture")
    if not fine:
        return None
    summary: dict[str, Any] = dict(fine)
    summary["source"] = "chapter"
    if fine.get("min_per_day") is None:
        first = datetime.date.fromisoformat(fine["first_day"])
        entered = forfeiture_schedule_in_force(case.village_id, first)
        if entered is None:
            summary["source"] = "not_entered"
        else:
            offenses = Decimal(fine["offenses"])
            summary.update(
                source="entered",
                min_per_day=entered.per_day_min,
                max_per_day=entered.per_day_max,
                min=entered.per_day_min * offenses,
                max=entered.per_day_max * offenses,
                authority=entered.authority,
            )
    return summary


def case_with_everything(case_id: int, user: Any) -> EnforcementCase:
    """One case the person may see (404 otherwise), with what its page shows."""
    from django.shortcuts import get_object_or_404

    return get_object_or_404(
        cases_visible_to(user).prefetch_related(
            Prefetch("violations", queryset=Violation.objects.prefetch_related("photos")),
            "actions",
            "actions__documents__services",
            "documents",
            # Each cost with the entry it corrects and the one correcting it (decision 43).
            Prefetch(
                "costs",
                queryset=WorkCost.objects.select_related("corrects", "correction", "invoice"),
            ),
            "invoices",
        ),
        pk=case_id,
    )


# Reads the enforcement pages make, each scoped as its page was (decision 51: views read
# through selectors).


def villages_by_name() -> QuerySet[Village]:
    """Every village, by name: the public complaint form's choice of village."""
    return Village.objects.order_by("name")


def permit_numbered(*, village_id: str, number: str) -> Permit | None:
    """The village's permit with that number; None when the village has none."""
    return Permit.objects.filter(village_id=village_id, number=number).first()


def permit_of_application(*, application_id: int) -> Permit | None:
    """The permit issued on the application, if one was."""
    return Permit.objects.filter(application_id=application_id).first()


def party_of_application(*, party_id: int, application_id: int) -> Party | None:
    """A party named on the application; None for anyone else's."""
    return Party.objects.filter(pk=party_id, application_id=application_id).first()


def violations_reviewable_by(*, user: Any) -> QuerySet[Violation]:
    """The violations of the villages where ``user`` is staff, who review them."""
    return Violation.objects.filter(village_id__in=village_ids(user, Role.STAFF))


def violation_photos_visible_to(*, user: Any) -> QuerySet[ViolationPhoto]:
    """The photos of the violations of the villages where ``user`` is staff, inspector or
    on the appeals board."""
    villages = village_ids(user, Role.STAFF, Role.INSPECTOR, Role.APPEALS_BOARD)
    return ViolationPhoto.objects.filter(violation__village_id__in=villages)


def enforcement_documents_visible_to(*, user: Any) -> QuerySet[EnforcementDocument]:
    """The documents of the cases ``user`` may see (``cases_visible_to``)."""
    return EnforcementDocument.objects.filter(case__in=cases_visible_to(user))


def enforcement_documents_with_service_visible_to(*, user: Any) -> QuerySet[EnforcementDocument]:
    """The documents of the cases ``user`` may see, with their case, step, application and
    service records: what the service pages show."""
    return (
        EnforcementDocument.objects.filter(case__in=cases_visible_to(user))
        .select_related("case", "action", "case__application")
        .prefetch_related("services")
    )


def service_records_visible_to(*, user: Any) -> QuerySet[ServiceRecord]:
    """The service records of the documents of the cases ``user`` may see."""
    return ServiceRecord.objects.filter(document__case__in=cases_visible_to(user)).select_related(
        "document", "document__case"
    )


def invoices_visible_to(*, user: Any) -> QuerySet[Invoice]:
    """The bills of the cases ``user`` may see, each with its case."""
    return Invoice.objects.filter(case__in=cases_visible_to(user)).select_related("case")


def letter_wordings_of(*, village: Village) -> QuerySet[LetterWording]:
    """The village's own words for its letters, by kind."""
    return LetterWording.objects.filter(village=village).order_by("kind")
