"""What the forms of several apps share: dates typed exactly as the core reads them, a
form's first error in one line, and a time typed on a form placed in the village's zone.

Forms list their fields explicitly (no mass assignment); the services check the rest.
"""

from __future__ import annotations

import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django import forms

from siltfence.core.dates import DateRefused, read_date, read_date_or_datetime
from siltfence.core.ordinance.loader import load

DATE = forms.DateInput(attrs={"type": "date"})
DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"})


class StrictDateField(forms.CharField):
    """A date typed as YYYY-MM-DD exactly (the core's strict reader)."""

    widget = DATE

    def to_python(self, value: Any) -> datetime.date | None:  # type: ignore[override]
        text = super().to_python(value)
        if not text:
            return None
        try:
            return read_date(text)
        except DateRefused as exc:
            raise forms.ValidationError(str(exc)) from None


class StrictDateTimeField(forms.CharField):
    """A date and time typed as YYYY-MM-DDTHH:MM (local to the village)."""

    widget = DATETIME

    def to_python(self, value: Any) -> datetime.datetime | None:  # type: ignore[override]
        text = super().to_python(value)
        if not text:
            return None
        try:
            read, has_time = read_date_or_datetime(text)
        except DateRefused as exc:
            raise forms.ValidationError(str(exc)) from None
        if not has_time or not isinstance(read, datetime.datetime):
            raise forms.ValidationError("give a date and a time, e.g. 2026-07-01T10:30")
        return read


def first_error(form: forms.Form) -> str:
    """The first error of a form as "Label: message"."""
    for name, errors in form.errors.items():
        label = form.fields[name].label if name in form.fields else "Form"
        return f"{label}: {errors[0]}"
    return "The form has an error"


def village_time(value: datetime.datetime, village_id: str) -> datetime.datetime:
    """A time typed on a form, without a zone, read as the village's local time (its
    ordinance data's time zone)."""
    if value.tzinfo is None:
        return value.replace(tzinfo=ZoneInfo(load(village_id).time_zone))
    return value
