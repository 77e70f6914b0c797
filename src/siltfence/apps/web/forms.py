"""Forms list their fields explicitly (no mass assignment)."""

from __future__ import annotations

import functools
from typing import Any

from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from siltfence.apps.permits.models import DocumentKind, SuretyKind
from siltfence.apps.permits.services.village import HOURS_MAX
from siltfence.core.mailing import EMAIL_MAX, PHONE_MAX
from siltfence.presentation.forms import StrictDateField

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
    owner_name = forms.CharField(
        max_length=200, required=False, label="Landowner (holder of fee title)"
    )
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

    # Who the notices go to (decision 46): the owner and the party who answers for the work
    # with their mailing addresses, the contractor, and someone to call on the site.
    village_holds_land = forms.BooleanField(
        required=False,
        label="The village itself holds this land (work in the village's right-of-way)",
    )
    owner_phone = forms.CharField(max_length=40, required=False, label="Landowner's phone")
    owner_street = forms.CharField(max_length=200, required=False, label="Mailing address: street")
    owner_city = forms.CharField(max_length=100, required=False, label="City")
    owner_state = forms.CharField(max_length=2, required=False, label="State (2 letters)")
    owner_zip = forms.CharField(max_length=10, required=False, label="ZIP code")
    permittee_name = forms.CharField(
        max_length=200,
        required=False,
        label="Responsible party, if not the landowner",
        help_text="The person or firm who answers for the work: a land user, a tenant, a "
        "utility or a contractor under contract. Needed when the village holds the land.",
    )
    permittee_email = forms.EmailField(required=False, label="Their email")
    permittee_phone = forms.CharField(max_length=40, required=False, label="Their phone")
    permittee_street = forms.CharField(
        max_length=200, required=False, label="Mailing address: street"
    )
    permittee_city = forms.CharField(max_length=100, required=False, label="City")
    permittee_state = forms.CharField(max_length=2, required=False, label="State (2 letters)")
    permittee_zip = forms.CharField(max_length=10, required=False, label="ZIP code")
    contractor_name = forms.CharField(max_length=200, required=False, label="Contractor")
    contractor_phone = forms.CharField(max_length=40, required=False, label="Contractor's phone")
    contractor_email = forms.EmailField(required=False, label="Contractor's email")
    contact_name = forms.CharField(max_length=200, required=False, label="On-site contact: name")
    contact_phone = forms.CharField(
        max_length=40,
        required=False,
        label="On-site contact: phone",
        help_text="A number someone answers on the site, e.g. 608-555-0100.",
    )

    # The parts of the page, each a fieldset (apply.html).
    GROUPS = (
        (
            "The site and the work",
            (
                "address",
                "parcel_number",
                "legal_description",
                "description",
                "building_permit_expires",
            ),
        ),
        (
            "Who holds the land",
            (
                "village_holds_land",
                "owner_name",
                "owner_email",
                "owner_phone",
                "owner_street",
                "owner_city",
                "owner_state",
                "owner_zip",
            ),
        ),
        (
            "Who answers for the work",
            (
                "permittee_name",
                "permittee_email",
                "permittee_phone",
                "permittee_street",
                "permittee_city",
                "permittee_state",
                "permittee_zip",
            ),
        ),
        (
            "Contractor and on-site contact",
            (
                "contractor_name",
                "contractor_phone",
                "contractor_email",
                "contact_name",
                "contact_phone",
            ),
        ),
    )
    # Where a refusal of the service about ``parties[i].<part>`` is shown.
    PARTS = {
        "name": "name",
        "email": "email",
        "phone": "phone",
        "street": "street",
        "city": "city",
        "state": "state",
        "zip_code": "zip",
    }

    def __init__(self, *args: Any, owner_label: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if owner_label:
            self.fields["owner_name"].label = owner_label
            self.fields[
                "permittee_name"
            ].label = f"Responsible party, if not the {owner_label.split(' (')[0].lower()}"

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("village_holds_land") and not data.get("owner_name"):
            self.add_error("owner_name", "give the name of the holder of the land")
        if data.get("village_holds_land") and not data.get("permittee_name"):
            self.add_error(
                "permittee_name",
                "the village holds the land: name the person or firm who answers for the work",
            )
        if data.get("contact_name") and not data.get("contact_phone"):
            self.add_error("contact_phone", "give a phone number someone answers on the site")
        return data

    def groups(self) -> list[tuple[str, list[Any]]]:
        return [(title, [self[name] for name in names]) for title, names in self.GROUPS]

    def parties(self, owner_role: str, village_name: str) -> list[tuple[str, dict[str, str]]]:
        """The parties typed, each with the prefix of its fields: the owner (or the
        village), the responsible party, the contractor and the on-site contact."""
        data = self.cleaned_data

        def address(prefix: str) -> dict[str, str]:
            return {
                "street": data.get(f"{prefix}_street", ""),
                "city": data.get(f"{prefix}_city", ""),
                "state": data.get(f"{prefix}_state", ""),
                "zip_code": data.get(f"{prefix}_zip", ""),
            }

        found: list[tuple[str, dict[str, str]]] = []
        if data.get("village_holds_land"):
            found.append(("village", {"role": "village", "name": village_name}))
        else:
            found.append(
                (
                    "owner",
                    {
                        "role": owner_role,
                        "name": data["owner_name"],
                        "email": data.get("owner_email", ""),
                        "phone": data.get("owner_phone", ""),
                        **address("owner"),
                    },
                )
            )
        if data.get("permittee_name"):
            found.append(
                (
                    "permittee",
                    {
                        "role": "land_user",
                        "name": data["permittee_name"],
                        "email": data.get("permittee_email", ""),
                        "phone": data.get("permittee_phone", ""),
                        **address("permittee"),
                    },
                )
            )
        if data.get("contractor_name"):
            found.append(
                (
                    "contractor",
                    {
                        "role": "contractor",
                        "name": data["contractor_name"],
                        "email": data.get("contractor_email", ""),
                        "phone": data.get("contractor_phone", ""),
                    },
                )
            )
        if data.get("contact_name"):
            found.append(
                (
                    "contact",
                    {
                        "role": "on_site_contact",
                        "name": data["contact_name"],
                        "phone": data.get("contact_phone", ""),
                    },
                )
            )
        return found


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


class OfficeContactForm(forms.Form):
    """The office's phone, email and hours as the notices print them; each one left empty
    prints what the village's data gives."""

    phone = forms.CharField(
        max_length=PHONE_MAX,
        required=False,
        label="Phone",
        widget=forms.TextInput(attrs={"type": "tel", "autocomplete": "tel"}),
    )
    email = forms.CharField(
        max_length=EMAIL_MAX,
        required=False,
        label="Email",
        widget=forms.TextInput(attrs={"type": "email", "autocomplete": "email"}),
    )
    hours = forms.CharField(
        max_length=HOURS_MAX,
        required=False,
        label="Office hours",
        help_text="For example: Monday to Friday, 8 am to 4:30 pm",
    )


class ClosureForm(forms.Form):
    day = StrictDateField(widget=forms.DateInput(attrs={"type": "date"}))
    reason = forms.CharField(max_length=200)


@functools.cache
def blank(form_class: type[forms.Form]) -> SafeString:
    """The fields of an empty ``form_class`` as the pages show them. A form whose fields,
    labels and choices are fixed in its class is the same on every page that shows it
    empty, so it is made once a process (three of them were a tenth of a permit's page)."""
    return SafeString(render_to_string("web/_form.html", {"form": form_class()}))
