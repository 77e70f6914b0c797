"""A person chooses which emails about applications, permits and appeals they receive."""

from __future__ import annotations

from django.contrib import messages as flash
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from siltfence.apps.notices.services import notice_preference_set
from siltfence.apps.permits.errors import ActionRefused


@login_required
@require_POST
def notices_choose(request: HttpRequest) -> HttpResponse:
    """The emails about applications, permits and appeals a person chose to receive."""
    try:
        notice_preference_set(
            user=request.user, receive=[str(g)[:40] for g in request.POST.getlist("notices")[:10]]
        )
    except ActionRefused as refused:
        flash.error(request, str(refused))
    else:
        flash.success(request, "Saved: the emails you get.")
    return redirect("reminders:settings")
