"""Forms list their fields explicitly (no mass assignment)."""

from __future__ import annotations

import functools
from typing import Any

from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from siltfence.apps.enforcement.forms import StrictDateField
from siltfence.apps.permits.models import DocumentKind, SuretyKind

# Every date on these forms is read as YYYY-MM-DD exactly (what a date input sends), by the
# core's strict reader: never 06/01/26, 20260601 or the week date 2026-W22-1.


class RegisterForm(forms.Form):
    """Who is registering. The password is chosen after the email's link is opened, so
    an account exists only for an address its owner reads. Whether a username or an
    address is already taken is told by email, never on the page."""

    username = forms.CharField(
        max_length=150,
        validators=[UnicodeUsernameValidator()],
        help_text="Letters, digits and @ . + - _ only; at most 150 characters.",
    )
    first_name = forms.CharField(max_length=150, label="First name")
    last_name = forms.CharField(max_length=150, label="Last name")
    email = forms.EmailField(max_length=254, label="Email address")


class ChoosePasswordForm(forms.Form):
    """The last step of registering: a password, checked by the site's password rules
    against the person's own name and address."""

    password1 = forms.CharField(
        label="Password", strip=False, widget=forms.PasswordInput, max_length=4096
    )
    password2 = forms.CharField(
        label="The same password again", strip=False, widget=forms.PasswordInput, max_length=4096
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        first, second = data.get("password1"), data.get("password2")
        if first and second and first != second:
            raise forms.ValidationError("The two passwords differ.")
        if first:
            password_validation.validate_password(first, self.user)
        return data


class ApplyForm(forms.Form):
    address = forms.CharField(max_length=300, label="Site address")
    parcel_number = forms.CharField(max_length=60, required=False, label="Parcel number")
    legal_description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}), required=False, max_length=5000
    )
    description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        max_length=5000,
        label="Describe the work",
    )
    owner_name = forms.CharField(max_length=200, label="Landowner (holder of fee title)")
    owner_email = forms.EmailField(required=False, label="Landowner's email")
    building_permit_expires = StrictDateField(
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        label="Building permit expires (if any)",
        help_text="A permit runs 180 days or the building permit's length, whichever is longer.",
    )
    facts = forms.CharField(widget=forms.HiddenInput)
    jurisdiction = forms.CharField(widget=forms.HiddenInput)
    on = StrictDateField(widget=forms.HiddenInput)


class UploadForm(forms.Form):
    kind = forms.ChoiceField(
        choices=[
            (k.value, k.label)
            for k in DocumentKind
            if k not in (DocumentKind.PERMIT, DocumentKind.DISAPPROVAL_LETTER)
        ]
    )
    file = forms.FileField()


class ResponseForm(forms.Form):
    response = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), label="Your answer")


class InformationRequestForm(forms.Form):
    message = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), label="Information needed")


class DecisionForm(forms.Form):
    reasons = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}), required=False, label="Written reasons"
    )


class FeeForm(forms.Form):
    amount = forms.DecimalField(max_digits=10, decimal_places=2, min_value=0)
    paid_on = StrictDateField(widget=forms.DateInput(attrs={"type": "date"}))
    correction = forms.CharField(
        required=False,
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 2}),
        label="Why the recorded payment changes (only when one is already recorded)",
    )


class ExtendForm(forms.Form):
    days = forms.IntegerField(min_value=1, max_value=180, label="Days (at most 180)")
    added_measures = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), required=False, label="Added control measures"
    )


class CloseForm(forms.Form):
    cover_percent = forms.IntegerField(
        min_value=0, max_value=100, required=False, label="Uniform perennial cover (%)"
    )
    equivalent_measures = forms.CharField(
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        label="Or: equivalent permanent stabilization measures used (describe them)",
    )


class CloseWhenCompletedForm(CloseForm):
    """Closeout where the chapter's final stabilization also needs the work finished
    (``final_stabilization.activities_completed`` in its data)."""

    activities_completed = forms.BooleanField(
        required=False,
        label="All land-disturbing construction activities at the site are completed",
    )


class SuretyReceiveForm(forms.Form):
    """The surety an approval required, deposited: the permit is issued on receipt."""

    kind = forms.ChoiceField(choices=SuretyKind.choices)
    amount = forms.DecimalField(max_digits=12, decimal_places=2, min_value=0.01)
    issuer = forms.CharField(max_length=200, label="Issuer (surety company or bank)")
    reference = forms.CharField(max_length=100, label="Bond or letter number")
    expires_on = StrictDateField(
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        label="Expires on (a letter of credit's last day; leave empty if it does not expire)",
    )


class SuretyForm(SuretyReceiveForm):
    """A surety deposited for an issued permit (a replacement): with the day received."""

    received_on = StrictDateField(widget=forms.DateInput(attrs={"type": "date"}))
    field_order = ["kind", "amount", "issuer", "reference", "received_on", "expires_on"]


class SuretyMoveForm(forms.Form):
    amount = forms.DecimalField(
        max_digits=12,
        decimal_places=2,
        min_value=0.01,
        required=False,
        label="Amount (leave empty to release all that is left)",
    )
    on = StrictDateField(widget=forms.DateInput(attrs={"type": "date"}), label="Date")
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), required=False, max_length=2000, label="Reason"
    )


class ClosureForm(forms.Form):
    day = StrictDateField(widget=forms.DateInput(attrs={"type": "date"}))
    reason = forms.CharField(max_length=200)


class FeeScheduleForm(forms.Form):
    effective_from = StrictDateField(widget=forms.DateInput(attrs={"type": "date"}))
    amount = forms.DecimalField(max_digits=10, decimal_places=2, min_value=0)
    authority = forms.CharField(max_length=200, label="Set by (resolution or board action)")


@functools.cache
def blank(form_class: type[forms.Form]) -> SafeString:
    """The fields of an empty ``form_class`` as the pages show them. A form whose fields,
    labels and choices are fixed in its class is the same on every page that shows it
    empty, so it is made once a process (three of them were a tenth of a permit's page)."""
    return SafeString(render_to_string("web/_form.html", {"form": form_class()}))
