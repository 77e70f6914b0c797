"""The village's books as permits and enforcement reach them, handed in by payments."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.exceptions import ImproperlyConfigured


@dataclass(frozen=True)
class Books:
    """What the apps below payments ask of the books; each is payments' own function.

    permits reads what was paid toward an application's fee and whether staff corrected
    the fee (filing needs the fee paid); it and enforcement record money received through
    ``payment_receive``, and the case page's payment step reads its form."""

    # What is recorded as paid toward an application's fee (``payments.selectors``).
    fee_paid_total: Callable[[Any], Decimal]
    # Whether staff corrected an application's fee.
    fee_corrected: Callable[[Any], bool]
    # Every correction of an application's fee, a queryset to filter.
    fee_corrections: Callable[[], Any]
    # Money received for a fee or an invoice, with its receipt (``payments.services``).
    payment_receive: Callable[..., Any]
    # The form of a payment on an invoice (``payments.forms.InvoicePaymentForm``).
    invoice_payment_form: Callable[..., Any]


_kept: list[Books] = []


def books_set(books: Books) -> None:
    """Called once, by the payments app when Django starts (``PaymentsConfig.ready``)."""
    _kept[:] = [books]


def books() -> Books:
    if not _kept:
        raise ImproperlyConfigured(
            "The payments app keeps the village's books, and it is not installed."
        )
    return _kept[0]
