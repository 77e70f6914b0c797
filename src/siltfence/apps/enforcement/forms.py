"""Forms list their fields explicitly (no mass assignment); the services check the rest."""

from __future__ import annotations

from typing import Any

from django import forms

from siltfence.apps.enforcement.models import CostCategory, ServiceMethod, ViolatorRole
from siltfence.presentation.forms import StrictDateField, StrictDateTimeField


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class LocationMixin(forms.Form):
    latitude = forms.FloatField(
        required=False, min_value=-90, max_value=90, label="Latitude (decimal degrees)"
    )
    longitude = forms.FloatField(
        required=False, min_value=-180, max_value=180, label="Longitude (decimal degrees)"
    )


class ComplaintForm(LocationMixin):
    # The address and its hint first, then the map's latitude and longitude the hint names.
    field_order = ["address", "latitude", "longitude"]

    address = forms.CharField(
        max_length=300,
        required=False,
        label="Where is the site?",
        help_text="A street address, or pick the place on the map (or type its latitude and "
        "longitude below).",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    latitude = forms.FloatField(
        required=False,
        min_value=-90,
        max_value=90,
        label="Latitude (decimal degrees)",
        help_text="Filled in when you pick the place on the map; or type it, e.g. 44.7607.",
        widget=forms.NumberInput(attrs={"step": "any", "inputmode": "decimal"}),
    )
    longitude = forms.FloatField(
        required=False,
        min_value=-180,
        max_value=180,
        label="Longitude (decimal degrees)",
        help_text="In Wisconsin it is negative, e.g. -90.2968.",
        widget=forms.NumberInput(attrs={"step": "any", "inputmode": "decimal"}),
    )
    description = forms.CharField(
        max_length=5000,
        widget=forms.Textarea(attrs={"rows": 5}),
        label="What did you see?",
        help_text="For example: mud carried onto the street, silt fence down, a pile of soil "
        "by a storm drain.",
    )
    # A date input: a phone offers its own date picker, whatever order it shows the date in.
    seen_on = StrictDateField(
        required=False,
        label="When did you see it?",
        help_text="The date, if you know it.",
    )
    photos = forms.FileField(
        required=False,
        label="Photos (JPEG or PNG, up to 6)",
        widget=MultipleFileInput(attrs={"accept": "image/jpeg,image/png"}),
    )
    name = forms.CharField(
        max_length=200,
        required=False,
        label="Your name (kept private)",
        widget=forms.TextInput(attrs={"autocomplete": "name"}),
    )
    email = forms.CharField(
        max_length=200,
        required=False,
        label="Your email (kept private)",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    phone = forms.CharField(
        max_length=40,
        required=False,
        label="Your phone (kept private)",
        widget=forms.TelInput(attrs={"autocomplete": "tel"}),
    )


class ViolationForm(LocationMixin):
    permit = forms.CharField(
        max_length=30,
        required=False,
        label="Permit number (leave empty for a site with no permit)",
    )
    address = forms.CharField(max_length=300, required=False, label="Site address (no permit)")
    source = forms.ChoiceField(
        choices=[("inspection", "Municipal inspection"), ("observation", "Staff observation")],
        label="How it was found",
    )
    provision = forms.CharField(max_length=60, label="Section broken")
    description = forms.CharField(
        max_length=5000, widget=forms.Textarea(attrs={"rows": 4}), label="What was found"
    )
    days_from = StrictDateField(label="Violation from (YYYY-MM-DD)")
    days_to = StrictDateField(required=False, label="Violation to (empty while it continues)")
    party_name = forms.CharField(max_length=200, required=False, label="Party responsible")
    party_role = forms.ChoiceField(choices=ViolatorRole.choices, label="The party is the")
    photos = forms.FileField(
        required=False,
        label="Photos (JPEG or PNG)",
        widget=MultipleFileInput(attrs={"accept": "image/jpeg,image/png"}),
    )


class ReviewForm(forms.Form):
    finding = forms.ChoiceField(
        choices=[("found", "A violation is found"), ("dismissed", "Dismiss the report")],
        label="Review",
    )
    provision = forms.CharField(max_length=60, required=False, label="Section broken")
    permit = forms.CharField(max_length=30, required=False, label="Permit number (if any)")
    party_name = forms.CharField(max_length=200, required=False, label="Party responsible")
    party_role = forms.ChoiceField(choices=ViolatorRole.choices, label="The party is the")
    note = forms.CharField(
        max_length=5000, required=False, widget=forms.Textarea(attrs={"rows": 2}), label="Note"
    )


class StopWorkForm(forms.Form):
    grounds = forms.MultipleChoiceField(
        choices=(), widget=forms.CheckboxSelectMultiple, label="Grounds"
    )
    posted_at = StrictDateTimeField(label="Posted on the site (date and time)")
    note = forms.CharField(
        max_length=5000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        label="Internal note (not shown publicly)",
    )

    def __init__(self, *args: Any, grounds: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["grounds"]
        assert isinstance(field, forms.MultipleChoiceField)
        field.choices = grounds


class StepForm(forms.Form):
    """The date and time of a step, and its words (reasons, work, note)."""

    at = StrictDateTimeField(label="Date and time")
    text = forms.CharField(
        max_length=5000, required=False, widget=forms.Textarea(attrs={"rows": 2}), label="Words"
    )
    order = forms.ChoiceField(
        required=False,
        choices=[("stop_work_order", "Stop-work order"), ("revocation", "Revocation")],
        label="Order",
    )


class ServiceForm(forms.Form):
    """How a document was served, when, by whom and to whom (the services check the rest:
    a time to come, a time before the document was issued, a certified number that is not
    20 to 22 digits, mail with no address)."""

    method = forms.ChoiceField(choices=ServiceMethod.choices, label="How it was served")
    served_at = StrictDateTimeField(
        label="When (date and time posted, handed over, or sent)",
    )
    to = forms.ChoiceField(choices=(), label="To whom")
    to_name = forms.CharField(
        max_length=200, required=False, label="Or another person's name (not on the record)"
    )
    served_by = forms.CharField(
        max_length=200, required=False, label="Served by (leave empty: you)"
    )
    street = forms.CharField(
        max_length=200,
        required=False,
        label="Mailing address it was sent to: street",
        help_text="Needed for mail when the person has no mailing address on the record; "
        "kept on their record.",
    )
    city = forms.CharField(max_length=100, required=False, label="City")
    state = forms.CharField(max_length=2, required=False, label="State (2 letters)")
    zip_code = forms.CharField(max_length=10, required=False, label="ZIP code")
    email = forms.CharField(max_length=254, required=False, label="Email address it was sent to")
    certified_number = forms.CharField(
        max_length=40, required=False, label="Certified mail number (20 to 22 digits)"
    )
    received_on = StrictDateField(
        required=False, label="Received on (if known: return receipt, reply)"
    )
    received_how = forms.CharField(
        max_length=300, required=False, label="How you know it was received"
    )
    note = forms.CharField(
        max_length=1000, required=False, widget=forms.Textarea(attrs={"rows": 2}), label="Note"
    )

    def __init__(self, *args: Any, to_choices: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["to"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [*to_choices, ("other", "Someone else (name below)")]


class ReceivedForm(forms.Form):
    received_on = StrictDateField(label="Received on")
    received_how = forms.CharField(
        max_length=300, required=False, label="How you know it was received"
    )


class CostForm(forms.Form):
    category = forms.ChoiceField(choices=CostCategory.choices, label="Kind of cost")
    description = forms.CharField(max_length=300, label="What it was for")
    amount = forms.CharField(max_length=20, label="Amount in dollars")
    incurred_on = StrictDateField(label="Date (YYYY-MM-DD)")


class InvoiceForm(forms.Form):
    issued_on = StrictDateField(label="Invoice date (YYYY-MM-DD)")
    due_in_days = forms.IntegerField(min_value=1, max_value=365, label="Due in (days)")


class ParcelForm(forms.Form):
    parcel_number = forms.CharField(max_length=60, label="Parcel number")


class InterestRateForm(forms.Form):
    effective_from = StrictDateField(label="In force from (YYYY-MM-DD)")
    annual_percent = forms.CharField(max_length=12, label="Interest rate (% a year)")
    authority = forms.CharField(max_length=200, label="Set by (order or resolution)")


class LetterWordingForm(forms.Form):
    """The village's own words on one letter; what the chapter requires is not here."""

    kind = forms.ChoiceField(label="Letter", choices=())
    opening = forms.CharField(
        label="Opening words, after the letter's heading (leave empty for none)",
        required=False,
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    closing = forms.CharField(
        label="Closing words, before the signature: for example the office's hours and phone",
        required=False,
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def __init__(self, *args: Any, letters: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = letters  # type: ignore[attr-defined]


class ForfeitureForm(forms.Form):
    effective_from = StrictDateField(label="In force from (YYYY-MM-DD)")
    per_day_min = forms.CharField(max_length=20, label="Smallest forfeiture a day ($)")
    per_day_max = forms.CharField(max_length=20, label="Largest forfeiture a day ($)")
    authority = forms.CharField(max_length=200, label="Set by (code section or resolution)")
