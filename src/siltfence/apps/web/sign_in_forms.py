"""The forms of the password step, the code step, enrolment and the reset of a person's
sign-in codes."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm

from siltfence.apps.accounts.guessing import account_wait, wait_message
from siltfence.apps.accounts.second_factor import (
    CODE_MAX_LENGTH,
    CODE_MISSING,
    CODE_NOT_DIGITS,
    REASON_MAX_LENGTH,
    REASON_REQUIRED,
    SecondFactorRefused,
    code_read,
)


class SignInForm(AuthenticationForm):
    """Django's password form, which first asks whether the account must wait after too many
    failed sign-ins (``accounts.guessing``). A try during the wait is refused before the
    password is checked, right or wrong, and is not counted anywhere."""

    account_wait = 0

    def clean(self) -> dict[str, Any]:
        self.account_wait = account_wait(self.request, self.cleaned_data.get("username"))
        if self.account_wait:
            raise forms.ValidationError(wait_message(self.account_wait), code="account_wait")
        return super().clean()


class CodeField(forms.Field):
    """What a person typed as a code, refused in one plain sentence when it is not one.

    A plain ``forms.Field`` rather than a ``CharField``: the text is read by ``code_read``
    alone (length first, then ASCII, then the shape of a code), so a NUL, a page of text or
    another script gets the same sentence as any other non-code.
    """

    def __init__(self, *, digits_only: bool = False, **kwargs: Any) -> None:
        self.digits_only = digits_only
        kwargs.setdefault("label", "Code")
        kwargs.setdefault("error_messages", {"required": CODE_MISSING})
        super().__init__(**kwargs)

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        attrs = {
            "autocomplete": "one-time-code",
            "autocapitalize": "off",
            "spellcheck": "false",
            "maxlength": str(CODE_MAX_LENGTH),
        }
        if self.digits_only:
            attrs["inputmode"] = "numeric"
        return attrs

    def to_python(self, value: Any) -> str:
        return value if isinstance(value, str) else ""

    def validate(self, value: Any) -> None:
        super().validate(value)
        try:
            kind, _ = code_read(value)
        except SecondFactorRefused as refused:
            raise forms.ValidationError(str(refused), code="invalid") from None
        if self.digits_only and kind != "authenticator":
            raise forms.ValidationError(CODE_NOT_DIGITS, code="invalid")


class CodeForm(forms.Form):
    code = CodeField(
        help_text="The 6 digits your authenticator app shows now, or one of your backup codes."
    )


class EnrolForm(forms.Form):
    code = CodeField(
        digits_only=True,
        label="Code from the app",
        help_text="The 6 digits the app shows for siltfence once the key is added.",
    )


class ResetForm(forms.Form):
    user = forms.TypedChoiceField(coerce=int, label="Person")
    reason = forms.CharField(
        max_length=REASON_MAX_LENGTH,
        label="Why (for the record)",
        help_text="For example: lost phone, reported by telephone on the day.",
        error_messages={"required": REASON_REQUIRED.format(limit=REASON_MAX_LENGTH)},
    )

    def __init__(self, *args: Any, people: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["user"].choices = [("", "Choose a person"), *people]  # type: ignore[attr-defined]
