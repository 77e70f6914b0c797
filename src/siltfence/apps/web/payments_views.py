"""The payments the village recorded in a year: application fees, and payments on the
invoices for the village's work, on one list for the village's staff, with its CSV."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from decimal import Decimal

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Sum
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import render
from django.views.decorators.http import require_GET

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import village_ids
from siltfence.apps.payments.models import Payment, PaymentPurpose
from siltfence.apps.payments.selectors import payments_received
from siltfence.presentation.paging import page_of, paging, pk_path
from siltfence.presentation.tables import (
    CHUNK,
    Column,
    ListQueryRefused,
    Table,
    chosen_villages,
    download,
    refuses_bad_queries,
    village_choices,
    wants_csv,
)
from siltfence.presentation.today import village_today

NOT_STAFF = "The payments received are for the village's staff."
FIRST_YEAR = 1990
LAST_YEAR = 2100
YEAR_DIGITS = re.compile(r"[0-9]{4}")
NOT_A_YEAR = (
    "year: give the year as four digits from {first} to {last}, like {example}; {shown} is not one"
)
KINDS = {
    PaymentPurpose.APPLICATION_FEE: "Application fee",
    PaymentPurpose.REINSPECTION_FEE: "Re-inspection fee",
    PaymentPurpose.INVOICE: "Invoice for the village's work",
}


@functools.cache
def _pages() -> dict[bool, Callable[[int], str]]:
    """The path of an application's page and of a case's, reversed once, when first asked
    (not at import, before the URLs are loaded)."""
    return {False: pk_path("web:staff-application"), True: pk_path("enforcement:case")}


def _link(payment: Payment) -> str:
    """The page of what the payment was for: the application, or the invoice's case."""
    is_invoice = payment.purpose == PaymentPurpose.INVOICE
    return _pages()[is_invoice](payment.record)  # type: ignore[attr-defined]


# The payments received, on the page and in its download: one row a receipt.
PAYMENTS = Table[Payment](
    name="payments",
    label="the payments received",
    testid="payments",
    columns=(
        Column("Paid on", lambda p: p.received_on),
        Column("Receipt", lambda p: p.receipt_number),
        Column("Payment of", lambda p: KINDS[PaymentPurpose(p.purpose)]),
        Column("Number", lambda p: p.reference, link=_link),  # type: ignore[attr-defined]
        Column("Village", lambda p: p.village_name),  # type: ignore[attr-defined]
        Column("Site", lambda p: p.address),  # type: ignore[attr-defined]
        Column("Paid by", lambda p: p.method_words),
        Column("Amount paid", lambda p: p.amount),
    ),
)


def _year(request: HttpRequest, example: int) -> int:
    asked = str(request.GET.get("year", "")).strip()
    if asked == "":
        return example
    if YEAR_DIGITS.fullmatch(asked) and FIRST_YEAR <= int(asked) <= LAST_YEAR:
        return int(asked)
    shown = repr(asked if len(asked) <= 20 else asked[:20] + "...")
    raise ListQueryRefused(
        NOT_A_YEAR.format(first=FIRST_YEAR, last=LAST_YEAR, example=example, shown=shown),
        field="year",
    )


@login_required
@require_GET
@refuses_bad_queries
def payments(request: HttpRequest) -> HttpResponseBase:
    """Fees and invoice payments recorded in the chosen year (this year in the village,
    unless another is asked for), newest first, in the villages where the person is staff
    (or the one chosen)."""
    staff_of = village_ids(request.user, Role.STAFF)
    if not staff_of:
        raise PermissionDenied(NOT_STAFF)
    villages = chosen_villages(request, staff_of)
    year = _year(request, village_today(sorted(villages)[0]).year)
    received = payments_received(villages, year).order_by("-received_on", "-receipt_number")
    if wants_csv(request):
        every = received.iterator(chunk_size=CHUNK)
        return PAYMENTS.csv(every, villages=villages)
    page = page_of(request, received)
    total = received.aggregate(total=Sum("amount"))["total"] or Decimal(0)
    return render(
        request,
        "web/staff_payments.html",
        {
            "payments": PAYMENTS.page(page.object_list),
            "has_rows": bool(page.object_list),
            "download": download(request, PAYMENTS, count=page.paginator.count),
            "choices": village_choices(staff_of),
            "chosen": str(request.GET.get("village", "")).strip(),
            "year": year,
            "first_year": FIRST_YEAR,
            "last_year": LAST_YEAR,
            "total": total,
            **paging(request, page, "the payments received"),
        },
    )
