"""Reads of the money received: the totals that count (entries not corrected), the fee an
application owes with how it was worked out, and each ledger as a page shows it."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Q, QuerySet, Sum

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import village_ids
from siltfence.apps.enforcement.models import WorkCost
from siltfence.apps.enforcement.selectors import cases_visible_to
from siltfence.apps.payments.models import FeeCorrection, Payment, PaymentPurpose
from siltfence.core.fees import FeeComputed, schedule_fee

ZERO = Decimal("0.00")


def _total(payments: QuerySet[Payment]) -> Decimal:
    total = payments.filter(correction__isnull=True).aggregate(total=Sum("amount"))["total"]
    return Decimal(total or ZERO).quantize(Decimal("0.01"))


def fee_paid_total(application: Any) -> Decimal:
    """What is recorded as paid toward the application fee: each payment not corrected."""
    return _total(
        Payment.objects.filter(application=application, purpose=PaymentPurpose.APPLICATION_FEE)
    )


def invoice_paid_total(invoice: Any) -> Decimal:
    return _total(Payment.objects.filter(invoice=invoice))


def last_paid_on(payments: QuerySet[Payment]) -> datetime.date | None:
    """The day of the latest payment that counts (not corrected, more than $0)."""
    latest = (
        payments.filter(correction__isnull=True, amount__gt=0)
        .order_by("-received_on")
        .values_list("received_on", flat=True)
        .first()
    )
    return latest


def fee_corrected(application: Any) -> bool:
    return FeeCorrection.objects.filter(application=application).exists()


def fee_of_draft(application: Any, on: datetime.date) -> FeeComputed | None:
    """The fee a draft owes from the schedule in force on ``on``, with its sum in words."""
    from siltfence.apps.permits.services.village import fee_in_force

    return schedule_fee(fee_in_force(application.village_id, on), application.facts or {})


def payments_received(villages: Any, year: int) -> QuerySet[Payment]:
    """The payments that count (none a later entry corrected) received in ``villages``
    during ``year``, for an application's fee or an invoice, each with what it paid for:
    ``reference`` (the application's or the invoice's number), ``address`` (the site),
    ``record`` (the application's or the case's id) and ``village_name``."""
    from django.db.models import F
    from django.db.models.functions import Coalesce

    return (
        Payment.objects.filter(
            village_id__in=villages, received_on__year=year, correction__isnull=True
        )
        .order_by()
        .annotate(
            reference=Coalesce(F("application__number"), F("invoice__number")),
            address=Coalesce(F("application__site__address"), F("invoice__case__address")),
            record=Coalesce(F("application_id"), F("invoice__case_id")),
            village_name=F("village__name"),
        )
    )


def payments_visible_to(user: Any) -> QuerySet[Payment]:
    """The payments a person may see: every one of the villages where they are an official
    (staff, inspector, appeals board: they read the records), and those for their own
    application (or for the bill of their own permit's case). Only staff write."""
    if not getattr(user, "is_authenticated", False):
        return Payment.objects.none()
    officials = village_ids(user, Role.STAFF, Role.INSPECTOR, Role.APPEALS_BOARD)
    return Payment.objects.filter(
        Q(village_id__in=officials)
        | Q(application__applicant=user)
        | Q(invoice__case__application__applicant=user)
    ).select_related("village", "application", "invoice", "received_by", "corrects")


@dataclass(frozen=True)
class FeeLedger:
    """An application's fee and the money received for it, as its page shows them."""

    due: Decimal | None
    basis: str
    corrections: list[FeeCorrection]
    payments: list[Payment]
    paid: Decimal

    @property
    def owed(self) -> Decimal:
        return max((self.due or ZERO) - self.paid, ZERO)


def fee_ledger(application: Any, on: datetime.date) -> FeeLedger:
    from siltfence.apps.permits.services import application_fee_due

    corrections = list(
        FeeCorrection.objects.filter(application=application).select_related("corrected_by")
    )
    basis = application.fee_basis
    if application.status == "draft":
        computed = fee_of_draft(application, on)
        basis = computed.words if computed else ""
    payments = list(
        Payment.objects.filter(application=application)
        .select_related("received_by", "corrects", "correction")
        .order_by("recorded_at", "id")
    )
    return FeeLedger(
        due=application_fee_due(application, on),
        basis=basis,
        corrections=corrections,
        payments=payments,
        paid=fee_paid_total(application),
    )


def work_costs_visible_to(*, user: Any) -> QuerySet[WorkCost]:
    """The costs of village work of the cases ``user`` may see, each with its case."""
    return WorkCost.objects.filter(case__in=cases_visible_to(user)).select_related("case")
