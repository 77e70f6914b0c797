"""The printable receipt of a payment: plain lines (tested as words) laid out as a PDF by
the documents app. A receipt is made from its payment row whenever it is asked for; the
row never changes, so every copy reads the same, except that a receipt corrected since
says so (decision 43)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from django.utils import timezone

from siltfence.apps.documents.addressees import office_address_lines, office_contact
from siltfence.apps.documents.pdf import lines_to_pdf
from siltfence.apps.payments.models import Payment, PaymentPurpose
from siltfence.apps.payments.selectors import fee_paid_total, invoice_paid_total
from siltfence.apps.payments.services import cost_citation, fee_citation
from siltfence.core.fees import money
from siltfence.core.ordinance.loader import load


def _day(value: Any) -> str:
    return f"{value:%B %-d, %Y}"


def _local(moment: Any, ordinance: Any) -> Any:
    return timezone.localtime(moment, ZoneInfo(ordinance.time_zone))


def _person(user: Any) -> str:
    return str(user.get_full_name() or user.get_username())


def _what_for(payment: Payment, ordinance: Any) -> list[str]:
    if payment.purpose == PaymentPurpose.INVOICE:
        invoice = payment.invoice
        # A payment is for an invoice or for an application, never neither (the table's
        # ``payment_for_one_thing`` constraint).
        assert invoice is not None
        case = invoice.case
        owed = max(invoice.principal - invoice_paid_total(invoice), Decimal(0))
        return [
            f"For: invoice {invoice.number} of {_day(invoice.issued_on)}, the costs of the work "
            f"the village did on the land at {case.address} (case {case.number}) "
            f"[{cost_citation(ordinance)}]",
            f"Billed: {money(invoice.principal)}; paid in all, with this receipt's figures as "
            f"they count now: {money(invoice_paid_total(invoice))}; costs still owed: "
            f"{money(owed)} (any interest after {_day(invoice.due_on)} is added when paid)",
        ]
    application = payment.application
    assert application is not None  # a fee's payment (``payment_for_one_thing``)
    site = application.site.address
    if payment.purpose == PaymentPurpose.REINSPECTION_FEE:
        return [
            f"For: a re-inspection of the site of application {application.number}, {site}, at "
            "the re-inspection fee of the village's fee schedule",
        ]
    from siltfence.apps.permits.services import application_fee_due

    due = application_fee_due(application, _local(timezone.now(), ordinance).date())
    lines = [
        f"For: the application fee of application {application.number}, {site} "
        f"[{fee_citation(ordinance, payment.received_on)}]",
    ]
    corrections = list(application.fee_corrections.all())
    if corrections:
        last = corrections[-1]
        day = _day(_local(last.corrected_at, ordinance))
        lines.append(f"Fee: {money(last.amount)}, as corrected on {day}")
    elif application.fee_basis:
        lines.append(f"Fee: {application.fee_basis}")
    if due is not None:
        paid = fee_paid_total(application)
        lines.append(
            f"Paid toward the fee in all: {money(paid)}; still owed: "
            f"{money(max(due - paid, Decimal(0)))}"
        )
    return lines


def receipt_lines(payment: Payment) -> list[str]:
    ordinance = load(payment.village_id)
    contact = office_contact(ordinance, payment.village)
    head = [ordinance.name.upper(), *office_address_lines(ordinance)]
    if contact["phone"]:
        head.append(f"Phone: {contact['phone']}")
    lines = [
        *head,
        "",
        f"RECEIPT No. {payment.receipt_number}",
        "",
        f"Received on: {_day(payment.received_on)}",
        f"Received from: {payment.payer or 'not recorded'}",
        f"Amount: {money(payment.amount)}",
        f"Paid by: {payment.method_words}",
        *_what_for(payment, ordinance),
        f"Received by: {_person(payment.received_by)}, for the {ordinance.authority_title}",
    ]
    if payment.corrects is not None:
        earlier = payment.corrects
        lines += [
            "",
            f"CORRECTION. This receipt corrects receipt {earlier.receipt_number} of "
            f"{_day(earlier.received_on)} ({money(earlier.amount)}, {earlier.method_words}), "
            "which no longer counts.",
            f"Reason: {payment.reason}",
        ]
    later = payment.superseded_by
    if later is not None:
        lines += [
            "",
            f"CORRECTED. Receipt {later.receipt_number} of "
            f"{_day(_local(later.recorded_at, ordinance))} corrects this receipt: its figures "
            "count, not these.",
        ]
    lines += [
        "",
        f"Recorded {_local(payment.recorded_at, ordinance):%B %-d, %Y at %-I:%M %p}".replace(
            "AM", "a.m."
        ).replace("PM", "p.m."),
        f"{ordinance.authority_title}, {ordinance.name}",
    ]
    return lines


def receipt_pdf(payment: Payment) -> bytes:
    return lines_to_pdf(receipt_lines(payment), title=f"Receipt {payment.receipt_number}")
