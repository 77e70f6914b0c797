"""The people page's forms list their fields explicitly; the services check the rest."""

from __future__ import annotations

from typing import Any

from django import forms

from siltfence.apps.accounts.models import BoardSeat, Role
from siltfence.apps.people.services import EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, REASON_MAX_LENGTH
from siltfence.presentation.forms import StrictDateField

TERM_HINT = "Needed for an appeals board member; optional for the others."
SEAT_HINT = (
    "For an appeals board member: a member (the chair among them), or an alternate, who sits "
    "only in place of a member absent or recused. Others are members."
)


class AddForm(forms.Form):
    person = forms.CharField(
        required=False,
        max_length=EMAIL_MAX_LENGTH,
        label="Existing account: username or email",
        help_text="Leave empty to make a new account with the fields below.",
    )
    username = forms.CharField(
        required=False, max_length=NAME_MAX_LENGTH, label="New account: username"
    )
    first_name = forms.CharField(
        required=False, max_length=NAME_MAX_LENGTH, label="New account: first name"
    )
    last_name = forms.CharField(
        required=False, max_length=NAME_MAX_LENGTH, label="New account: last name"
    )
    email = forms.CharField(
        required=False,
        max_length=EMAIL_MAX_LENGTH,
        label="New account: email",
        help_text="A link to choose a password is sent to it.",
    )
    role = forms.ChoiceField(choices=[("", "Choose a role"), *Role.choices], label="Role")
    term_start = StrictDateField(required=False, label="Term: first day", help_text=TERM_HINT)
    term_end = StrictDateField(required=False, label="Term: last day", help_text=TERM_HINT)
    board_seat = forms.ChoiceField(
        choices=BoardSeat.choices,
        initial=BoardSeat.MEMBER,
        required=False,
        label="Board seat",
        help_text=SEAT_HINT,
    )


class TermForm(forms.Form):
    term_start = StrictDateField(required=False, label="Term: first day")
    term_end = StrictDateField(required=False, label="Term: last day")
    board_seat = forms.ChoiceField(
        choices=BoardSeat.choices, required=False, label="Board seat", help_text=SEAT_HINT
    )
    reason = forms.CharField(
        required=False, max_length=REASON_MAX_LENGTH, label="Why (for the record, optional)"
    )


class EndForm(forms.Form):
    reason = forms.CharField(
        required=False, max_length=REASON_MAX_LENGTH, label="Why (for the record, optional)"
    )
    confirm_self = forms.BooleanField(
        required=False, label="Yes, I remove my own role (I lose this access at once)"
    )

    def __init__(self, *args: Any, yourself: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not yourself:  # the box is asked only of someone removing their own role
            del self.fields["confirm_self"]
