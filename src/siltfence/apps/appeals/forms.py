"""Forms list their fields explicitly; the services check the rest."""

from __future__ import annotations

import datetime
from typing import Any

from django import forms

from siltfence.apps.enforcement.forms import StrictDateField, StrictDateTimeField


class AppealForm(forms.Form):
    kind = forms.ChoiceField(
        choices=[
            ("appeal", "An appeal of an order, decision or determination"),
            ("variance", "A variance"),
        ],
        label="What is asked",
    )
    appellant_name = forms.CharField(
        max_length=200, label="Who appeals (name of the person or office)"
    )
    standing = forms.ChoiceField(choices=(), label="The appellant is")
    grounds = forms.CharField(
        max_length=10000, widget=forms.Textarea(attrs={"rows": 5}), label="Grounds"
    )
    filed_on = StrictDateField(label="Filed on (YYYY-MM-DD)")

    def __init__(self, *args: Any, standings: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["standing"].choices = standings


class HearingForm(forms.Form):
    hearing_at = StrictDateTimeField(label="Hearing (date and time)")
    place = forms.CharField(max_length=200, required=False, label="Place")
    notice_given_on = StrictDateField(label="Notice given on (YYYY-MM-DD)")
    notice_to = forms.CharField(max_length=300, label="Notice given to")


class DecideForm(forms.Form):
    decision = forms.ChoiceField(
        choices=[
            ("affirm", "Affirm"),
            ("reverse", "Reverse"),
            ("modify", "Modify"),
            ("grant", "Grant the variance"),
            ("deny", "Deny the variance"),
        ],
        label="Decision",
    )
    reasons = forms.CharField(
        max_length=10000, widget=forms.Textarea(attrs={"rows": 4}), label="Reasons"
    )
    modification = forms.CharField(
        max_length=10000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        label="How the decision is modified",
    )
    retracts = forms.BooleanField(
        required=False,
        label=(
            "The modified decision lifts the stop-work order, or restores the revoked permit "
            "(the board retracts it)"
        ),
    )
    restored_until = StrictDateField(
        required=False,
        label="New last day of the restored permit, if the board sets one",
    )
    public_interest = forms.CharField(
        max_length=5000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        label="Finding: not contrary to the public interest (variance)",
    )
    special_conditions = forms.CharField(
        max_length=5000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        label="Finding: special conditions (variance)",
    )
    unnecessary_hardship = forms.CharField(
        max_length=5000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        label="Finding: unnecessary hardship (variance)",
    )
    decided_at = StrictDateTimeField(label="Decided (date and time)")

    def __init__(
        self, *args: Any, permit_last_day: datetime.date | None = None, **kwargs: Any
    ) -> None:
        """``permit_last_day``: the revoked permit's last day, when the appeal is of a
        revocation; otherwise the form has no new last day to set."""
        super().__init__(*args, **kwargs)
        if permit_last_day is None:
            del self.fields["restored_until"]
        else:
            self.fields["restored_until"].help_text = (
                f"Only for a decision that restores the permit (reverse, or modify and tick "
                f"the box above). Its period runs through {permit_last_day:%B %-d, %Y}; leave "
                "this empty to keep that day. A later day extends it, as the authority could."
            )
