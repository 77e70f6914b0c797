"""Forms list their fields explicitly; the services check the rest."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django import forms

from siltfence.presentation.forms import StrictDateField, StrictDateTimeField


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
        field = self.fields["standing"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = standings


class HearingForm(forms.Form):
    hearing_at = StrictDateTimeField(label="Hearing (date and time)")
    place = forms.CharField(max_length=200, required=False, label="Place")
    notice_given_on = StrictDateField(label="Notice given on (YYYY-MM-DD)")
    notice_to = forms.CharField(max_length=300, label="Notice given to")


class MotionForm(forms.Form):
    """A motion put to the board at a sitting with a quorum, and each seated member's vote:
    one row per member, For / Against / Abstained. The services check the rest (who sits,
    the votes the village's rule needs, the decision's own terms)."""

    kind = forms.ChoiceField(choices=(), label="The motion")
    reasons = forms.CharField(
        max_length=10000,
        widget=forms.Textarea(attrs={"rows": 4}),
        label="Grounds stated in the motion",
    )
    modification = forms.CharField(
        max_length=10000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        label="How the decision is modified (a motion to modify)",
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
    voted_at = StrictDateTimeField(label="Voted (date and time)")

    def __init__(
        self,
        *args: Any,
        seated: Sequence[Any] = (),
        variance: bool = False,
        permit_last_day: datetime.date | None = None,
        **kwargs: Any,
    ) -> None:
        """``seated``: the roll lines of the members who sit (each has ``person_id``,
        ``name``, ``seat``). ``permit_last_day``: the revoked permit's last day, when the
        appeal is of a revocation; otherwise the form has no new last day to set."""
        super().__init__(*args, **kwargs)
        kinds = (
            [("grant", "Grant the variance"), ("deny", "Deny the variance")]
            if variance
            else [("reverse", "Reverse"), ("modify", "Modify"), ("affirm", "Affirm")]
        )
        kind = self.fields["kind"]
        assert isinstance(kind, forms.ChoiceField)
        kind.choices = kinds
        if variance:
            for name in ("modification", "retracts", "restored_until"):
                del self.fields[name]
        else:
            for name in ("public_interest", "special_conditions", "unnecessary_hardship"):
                del self.fields[name]
            if permit_last_day is None:
                del self.fields["restored_until"]
            else:
                self.fields["restored_until"].help_text = (
                    f"Only for a decision that restores the permit (reverse, or modify and tick "
                    f"the box above). Its period runs through {permit_last_day:%B %-d, %Y}; "
                    "leave this empty to keep that day. A later day extends it, as the "
                    "authority could."
                )
        self.seated = list(seated)
        for line in self.seated:
            self.fields[f"vote_{line.person_id}"] = forms.ChoiceField(
                choices=VOTE_CHOICES,
                widget=forms.RadioSelect,
                label=f"{line.name} ({seat_words(line.seat)})",
            )

    def motion_fields(self) -> list[forms.BoundField]:
        return [f for f in self.visible_fields() if not f.name.startswith("vote_")]

    def vote_rows(self) -> list[forms.BoundField]:
        return [self[f"vote_{line.person_id}"] for line in self.seated]

    def votes(self) -> list[tuple[int, str]]:
        data = self.cleaned_data
        return [(line.person_id, data[f"vote_{line.person_id}"]) for line in self.seated]


VOTE_CHOICES = [("for", "For"), ("against", "Against"), ("abstain", "Abstain")]
PRESENCE_CHOICES = [("present", "Present"), ("absent", "Absent"), ("recused", "Recused")]


def seat_words(seat: str) -> str:
    return seat.replace("_", " ")


class RollForm(forms.Form):
    """The roll of a hearing: one row per member and alternate whose term covers its day,
    present, absent or recused (refused to vote because of an interest, with the reason)."""

    def __init__(self, *args: Any, roster: Sequence[Any] = (), **kwargs: Any) -> None:
        """``roster``: the board's memberships on the hearing's day (``board_roster``)."""
        super().__init__(*args, **kwargs)
        self.roster = list(roster)
        for membership in self.roster:
            person = membership.user_id
            name = membership.user.get_full_name() or membership.user.get_username()
            self.fields[f"status_{person}"] = forms.ChoiceField(
                choices=PRESENCE_CHOICES,
                widget=forms.RadioSelect,
                label=f"{name} ({seat_words(membership.board_seat)})",
            )
            self.fields[f"reason_{person}"] = forms.CharField(
                max_length=300,
                required=False,
                label=f"If {name} is recused: the interest",
            )

    def rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"status_{m.user_id}"], self[f"reason_{m.user_id}"]) for m in self.roster]

    def calls(self) -> list[tuple[int, str, str]]:
        data = self.cleaned_data
        return [
            (m.user_id, data[f"status_{m.user_id}"], data[f"reason_{m.user_id}"])
            for m in self.roster
        ]


class CloseForm(forms.Form):
    decided_at = StrictDateTimeField(label="Recorded as decided (date and time)")
    note = forms.CharField(
        max_length=2000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        label="A note for the written decision (optional)",
    )
