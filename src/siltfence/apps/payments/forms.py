"""The forms of money received and of corrections. Each lists its fields (no mass
assignment) and reads each one as the services will, so bad input is an error on its own
field before anything is written; the services check it all again."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms

from siltfence.apps.payments.errors import ActionRefused
from siltfence.apps.payments.models import MAX_CHECK_NUMBER, MAX_PAYER, MAX_REASON, PaymentMethod
from siltfence.apps.permits.models import FeeAreaUnit
from siltfence.presentation.forms import StrictDateField

METHODS = [("", "Choose how it was paid"), *PaymentMethod.choices]


def _said(exc: ActionRefused) -> str:
    """The service's sentence without its field name: the form shows the field's label."""
    text = str(exc)
    return text.split(": ", 1)[1] if ": " in text else text


class _Reads(forms.Form):
    """Money and method read by the services' own readers, as field errors."""

    money_fields: tuple[str, ...] = ()
    nothing_allowed: tuple[str, ...] = ()

    def clean(self) -> dict[str, Any]:
        from siltfence.apps.payments.services import method_read, money_read, reason_read

        data = super().clean() or {}
        for name in self.money_fields:
            value = data.get(name)
            if name in self.errors or value in (None, ""):
                continue
            try:
                data[name] = money_read(value, name, nothing_allowed=name in self.nothing_allowed)
            except ActionRefused as exc:
                self.add_error(name, _said(exc))
        if "method" in self.fields and "method" not in self.errors and "check_number" in data:
            try:
                data["method"], data["check_number"] = method_read(
                    data.get("method"), data.get("check_number")
                )
            except ActionRefused as exc:
                self.add_error(exc.field if exc.field in self.fields else None, _said(exc))
        if "reason" in self.fields and "reason" not in self.errors:
            try:
                data["reason"] = reason_read(data.get("reason"))
            except ActionRefused as exc:
                self.add_error("reason", _said(exc))
        return data


def _amount(label: str) -> forms.CharField:
    return forms.CharField(
        max_length=20,
        label=label,
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
    )


def _method() -> forms.ChoiceField:
    return forms.ChoiceField(choices=METHODS, label="Paid by")


def _check_number() -> forms.CharField:
    return forms.CharField(
        max_length=MAX_CHECK_NUMBER,
        required=False,
        label="Check number (for a check)",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )


def _reason() -> forms.CharField:
    return forms.CharField(
        max_length=MAX_REASON,
        label=f"Why it is corrected (at most {MAX_REASON} characters)",
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class FeeForm(_Reads):
    """A fee received: the application fee, or one re-inspection."""

    money_fields = ("amount",)

    purpose = forms.ChoiceField(
        choices=[("application_fee", "Application fee"), ("reinspection_fee", "Re-inspection fee")],
        initial="application_fee",
        label="Payment of",
    )
    amount = _amount("Amount paid in dollars")
    paid_on = StrictDateField(label="Received on (YYYY-MM-DD)")
    method = _method()
    check_number = _check_number()
    payer = forms.CharField(
        max_length=MAX_PAYER,
        required=False,
        label="Received from (leave empty for the landowner on the application)",
    )


class InvoicePaymentForm(_Reads):
    money_fields = ("amount",)

    amount = _amount("Amount paid in dollars")
    paid_on = StrictDateField(label="Received on (YYYY-MM-DD)")
    method = _method()
    check_number = _check_number()


class PaymentCorrectForm(_Reads):
    """What a payment should have been, and why: a new entry, with its own receipt."""

    money_fields = ("amount",)
    nothing_allowed = ("amount",)

    amount = _amount("Amount actually received in dollars (0 if none was)")
    received_on = StrictDateField(label="Received on (YYYY-MM-DD)")
    method = _method()
    check_number = _check_number()
    reason = _reason()


class FeeCorrectForm(_Reads):
    money_fields = ("amount",)
    nothing_allowed = ("amount",)

    amount = _amount("The right fee in dollars (0 if none is owed)")
    reason = _reason()


class CostCorrectForm(_Reads):
    money_fields = ("amount",)
    nothing_allowed = ("amount",)

    amount = _amount("The right amount in dollars (0 if the cost was not incurred)")
    reason = _reason()


class FeeScheduleForm(_Reads):
    """The fee schedule the village set, from a date: a base amount, and only where the
    schedule says so an amount by area and a re-inspection fee."""

    money_fields = ("amount", "per_area_amount", "reinspection_fee")
    nothing_allowed = money_fields

    effective_from = StrictDateField(widget=forms.DateInput(attrs={"type": "date"}))
    amount = _amount("Base amount in dollars")
    per_area_amount = forms.CharField(
        max_length=20,
        required=False,
        label="Plus, in dollars, per unit of disturbed area (leave empty if the fee is flat)",
    )
    area_unit = forms.ChoiceField(
        choices=[("", "No amount by area"), *FeeAreaUnit.choices],
        required=False,
        label="Unit of area",
    )
    area_included = forms.CharField(
        max_length=20,
        required=False,
        label="Units of area the base amount covers (leave empty for none)",
    )
    reinspection_fee = forms.CharField(
        max_length=20,
        required=False,
        label="Re-inspection fee in dollars (leave empty if the village set none)",
    )
    authority = forms.CharField(max_length=200, label="Set by (resolution or board action)")

    def clean(self) -> dict[str, Any]:
        from siltfence.apps.permits.fee_terms import area_read, fee_terms_read

        data = super().clean()
        if self.errors:
            return data
        try:
            data["area_included"] = area_read(data.get("area_included"))
            terms = fee_terms_read(
                amount=data.get("amount"),
                per_area_amount=data.get("per_area_amount"),
                area_unit=data.get("area_unit"),
                area_included=data["area_included"],
                reinspection_fee=data.get("reinspection_fee"),
            )
        except ActionRefused as exc:
            self.add_error(exc.field if exc.field in self.fields else None, _said(exc))
            return data
        data.update(terms)
        return data


def money_initial(value: Decimal | None) -> str:
    return "" if value is None else f"{value:.2f}"
