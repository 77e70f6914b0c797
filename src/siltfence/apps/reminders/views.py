"""Each person's reminder settings and calendar addresses, and the feeds themselves (at a
secret address that needs no login, since calendar programs cannot sign in)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from siltfence.apps.notices.selectors import notice_choices
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.selectors import permits_visible_to
from siltfence.apps.reminders.selectors import (
    calendar_feed_at,
    calendar_feeds_of,
    permits_in_force_visible_to,
    preference_of,
)
from siltfence.apps.reminders.services import (
    calendar_feed_create,
    calendar_feed_revoke,
    calendar_ics,
    preference_set,
)


@login_required
def settings_view(request: HttpRequest) -> HttpResponse:
    error = None
    if request.method == "POST":
        try:
            preference_set(
                user=request.user,
                due_soon=request.POST.get("due_soon") == "on",
                overdue=request.POST.get("overdue") == "on",
                days_ahead=request.POST.get("days_ahead", ""),
            )
        except ActionRefused as exc:
            error = exc
        else:
            return redirect("reminders:settings")
    feeds = calendar_feeds_of(request.user)
    return render(
        request,
        "reminders/settings.html",
        {
            "pref": preference_of(request.user),
            "notices": notice_choices(request.user),
            "feeds": feeds,
            "permits": permits_in_force_visible_to(request.user)[:200],
            "error": error,
            "base": request.build_absolute_uri("/")[:-1],
        },
        status=400 if error else 200,
    )


@login_required
@require_POST
def feed_new(request: HttpRequest) -> HttpResponse:
    permit = None
    raw = request.POST.get("permit", "")
    if raw:
        if not raw.isdecimal():
            raise Http404
        permit = get_object_or_404(permits_visible_to(request.user), pk=int(raw))
    calendar_feed_create(user=request.user, permit=permit)
    return redirect("reminders:settings")


@login_required
@require_POST
def feed_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        calendar_feed_revoke(user=request.user, feed_id=pk)
    except ActionRefused:
        raise Http404 from None
    return redirect("reminders:settings")


@require_GET
def feed(request: HttpRequest, token: str) -> HttpResponse:
    item = calendar_feed_at(token)
    if item is None or not item.user.is_active:
        raise Http404
    response = HttpResponse(calendar_ics(item), content_type="text/calendar; charset=utf-8")
    response["Cache-Control"] = "private, no-store"
    return response
