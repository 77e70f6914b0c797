"""A step a member of staff takes from a page: the form read, the service called, and what
happened said at the top of the next page. A refusal is said in plain words (the field the
services name for the API is dropped); the page the step returns to is the view's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest

from siltfence.core.errors import SiltfenceError
from siltfence.presentation.forms import first_error
from siltfence.presentation.wording import plain


def step_done(request: HttpRequest, action: Callable[[], Any], success: str) -> Any:
    """Take the step; say ``success`` (formatted with what the step returned, as
    ``{done}``), or the refusal. Returns what the step returned, or None if refused."""
    try:
        done = action()
    except SiltfenceError as exc:
        messages.error(request, plain(exc))
        return None
    messages.success(request, success.format(done=done))
    return done


def form_step(
    request: HttpRequest,
    form: forms.Form,
    write: Callable[[dict[str, Any]], Any],
    success: str,
) -> Any:
    """The form's first error, or the step taken with what the form read."""
    if not form.is_valid():
        messages.error(request, first_error(form))
        return None
    return step_done(request, lambda: write(form.cleaned_data), success)
