"""Payments with their receipts, and corrections of an application's fee.

Nothing here is ever changed or deleted once written: a payment entered wrong is
corrected by a new payment row that names it (``corrects``), with the reason, who and
when; the row it corrects stays, marked corrected by the reverse link. Only the rows not
corrected count in a total. The database holds the invariants as constraints too.
"""

from __future__ import annotations

from typing import Any, NoReturn

from django.conf import settings
from django.db import models
from django.db.models import Q

from siltfence.apps.payments.errors import RECORD_KEPT, RecordKept

# MAX_MONEY, the largest amount of money one entry may hold (a fee, a payment or a corrected
# cost), is permits': its fee schedule reads amounts to the same bound.
from siltfence.apps.permits.fee_terms import MAX_MONEY as MAX_MONEY

# The longest reason given for a correction, and the longest check number.
MAX_REASON = 500
MAX_CHECK_NUMBER = 20
MAX_PAYER = 200


class KeptQuerySet[M: models.Model](models.QuerySet[M]):
    """A queryset that refuses to delete: these rows are the village's books."""

    def delete(self) -> NoReturn:
        raise RecordKept(RECORD_KEPT)


class KeptModel(models.Model):
    objects = KeptQuerySet.as_manager()

    class Meta:
        abstract = True

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise RecordKept(RECORD_KEPT)


class PaymentMethod(models.TextChoices):
    CASH = "cash", "Cash"
    CHECK = "check", "Check"
    CARD = "card", "Card"
    TRANSFER = "transfer", "Bank transfer"


class PaymentPurpose(models.TextChoices):
    APPLICATION_FEE = "application_fee", "Application fee"
    REINSPECTION_FEE = "reinspection_fee", "Re-inspection fee"
    INVOICE = "invoice", "Costs of the village's work (invoice)"


FEE_PURPOSES = (PaymentPurpose.APPLICATION_FEE, PaymentPurpose.REINSPECTION_FEE)


class ReceiptCounter(models.Model):
    """The last receipt number a village gave in a year. A new receipt takes this row's
    lock and counts on from it, so two clerks at once never get the same number; the
    unique receipt number on ``Payment`` holds it in the database as well."""

    village = models.ForeignKey("permits.Village", on_delete=models.PROTECT, related_name="+")
    year = models.PositiveSmallIntegerField()
    last = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["village", "year"], name="one_receipt_counter_a_year")
        ]

    def __str__(self) -> str:
        return f"{self.village_id} {self.year}: {self.last}"


class Payment(KeptModel):
    """Money received, for an application's fee or for an invoice, with its receipt."""

    village = models.ForeignKey("permits.Village", on_delete=models.PROTECT, related_name="+")
    application = models.ForeignKey(
        "permits.Application",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="payments",
    )
    invoice = models.ForeignKey(
        "enforcement.Invoice",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="payments",
    )
    purpose = models.CharField(max_length=20, choices=PaymentPurpose.choices)
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    received_on = models.DateField()
    method = models.CharField(max_length=10, choices=PaymentMethod.choices)
    check_number = models.CharField(max_length=MAX_CHECK_NUMBER, blank=True, default="")
    payer = models.CharField(max_length=MAX_PAYER, blank=True, default="")
    received_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField()
    receipt_number = models.CharField(max_length=30)
    corrects = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="correction"
    )
    reason = models.CharField(max_length=MAX_REASON, blank=True, default="")

    class Meta:
        ordering = ["recorded_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["village", "receipt_number"], name="one_receipt_number_a_village"
            ),
            models.CheckConstraint(
                condition=Q(
                    application__isnull=False,
                    invoice__isnull=True,
                    purpose__in=[p.value for p in FEE_PURPOSES],
                )
                | Q(application__isnull=True, invoice__isnull=False, purpose="invoice"),
                name="payment_for_one_thing",
            ),
            models.CheckConstraint(
                condition=(Q(amount__gt=0) | Q(corrects__isnull=False, amount__gte=0))
                & Q(amount__lte=MAX_MONEY),
                name="payment_amount_in_bounds",
            ),
            models.CheckConstraint(
                condition=Q(method__in=PaymentMethod.values), name="payment_method_known"
            ),
            models.CheckConstraint(
                condition=~Q(method="check") | ~Q(check_number=""),
                name="check_payment_has_its_number",
            ),
            models.CheckConstraint(
                condition=Q(corrects__isnull=True) | ~Q(reason=""),
                name="payment_correction_has_its_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"receipt {self.receipt_number}: ${self.amount}"

    @property
    def superseded_by(self) -> Payment | None:
        """The entry that corrects this one, if any."""
        try:
            return self.correction
        except Payment.DoesNotExist:
            return None

    @property
    def method_words(self) -> str:
        if self.method == PaymentMethod.CHECK:
            return f"Check No. {self.check_number}"
        return str(self.get_method_display())


class FeeCorrection(KeptModel):
    """The application fee corrected: the figure it was, the figure it is, and why. The
    latest correction of an application is its fee; the fee worked out from the schedule
    (``Application.fee_basis``) stays on the page, marked corrected."""

    application = models.ForeignKey(
        "permits.Application", on_delete=models.PROTECT, related_name="fee_corrections"
    )
    amount_before = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    reason = models.CharField(max_length=MAX_REASON)
    corrected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    corrected_at = models.DateTimeField()

    class Meta:
        ordering = ["corrected_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(amount__gte=0, amount__lte=MAX_MONEY), name="fee_correction_in_bounds"
            ),
            models.CheckConstraint(condition=~Q(reason=""), name="fee_correction_has_its_reason"),
        ]

    def __str__(self) -> str:
        return f"fee corrected to ${self.amount}"
