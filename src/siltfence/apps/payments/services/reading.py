"""What a clerk typed, read strictly: an amount, a reason, how the money came, the day."""

from __future__ import annotations

import datetime
import re
from typing import Any

from django.utils import timezone

from siltfence.apps.payments import errors
from siltfence.apps.payments.errors import ActionRefused
from siltfence.apps.payments.models import MAX_CHECK_NUMBER, MAX_REASON, PaymentMethod
from siltfence.apps.permits.fee_terms import money_read as money_read

_CHECK_NUMBER = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]*")


def _text(value: Any, field: str, limit: int, too_long: str) -> str:
    text = str(value or "").strip()
    if len(text) > limit:
        raise ActionRefused(too_long.format(length=len(text)), field=field)
    if any(ord(ch) < 32 and ch not in "\n\t\r" for ch in text) or "\x7f" in text:
        raise ActionRefused(errors.CONTROL_CHARACTERS.format(field=field), field=field)
    return text


def reason_read(value: Any) -> str:
    reason = _text(value, "reason", MAX_REASON, errors.REASON_TOO_LONG)
    if not reason:
        raise ActionRefused(errors.REASON_REQUIRED, field="reason")
    return reason


def method_read(method: Any, check_number: Any) -> tuple[str, str]:
    """How the money came, and a check's number (required for a check, and only then)."""
    if method not in PaymentMethod.values:
        raise ActionRefused(errors.METHOD, field="method")
    number = str(check_number or "").strip()
    if method != PaymentMethod.CHECK:
        if number:
            raise ActionRefused(errors.CHECK_NUMBER_NOT_A_CHECK, field="check_number")
        return str(method), ""
    if not number:
        raise ActionRefused(errors.CHECK_NUMBER_REQUIRED, field="check_number")
    if len(number) > MAX_CHECK_NUMBER or not _CHECK_NUMBER.fullmatch(number):
        raise ActionRefused(errors.CHECK_NUMBER_FORM, field="check_number")
    return str(method), number.upper()


def _day_read(day: Any, *, start: datetime.date, what: str) -> datetime.date:
    if not isinstance(day, datetime.date) or isinstance(day, datetime.datetime):
        raise ActionRefused(
            "received_on: give the day the money was received, written YYYY-MM-DD",
            field="received_on",
        )
    if day > timezone.localdate() + datetime.timedelta(days=1):
        raise ActionRefused(errors.DAY_TO_COME.format(day=day.isoformat()), field="received_on")
    if day < start:
        raise ActionRefused(
            f"received_on: {day.isoformat()} is before {what} ({start.isoformat()})",
            field="received_on",
        )
    return day
