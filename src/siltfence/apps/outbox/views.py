"""Staff see every email sent about their village: what, to whom, when, and what the mail
server answered when it would not take one; a message that could not be sent can be sent
again."""

from __future__ import annotations

from django.contrib import messages as flash
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import village_ids
from siltfence.apps.outbox.models import MessageStatus
from siltfence.apps.outbox.selectors import messages_visible_to
from siltfence.apps.outbox.services import message_send_again
from siltfence.apps.permits.errors import ActionRefused
from siltfence.presentation.paging import page_of, paging

SHOWN = {
    "": "All",
    MessageStatus.FAILED.value: "Not sent",
    MessageStatus.WAITING.value: "Waiting",
    MessageStatus.SENT.value: "Sent",
}


def _staff(request: HttpRequest) -> None:
    if not village_ids(request.user, Role.STAFF):
        raise PermissionDenied("This page is for village staff.")


@login_required
@require_GET
def message_list(request: HttpRequest) -> HttpResponse:
    _staff(request)
    status = str(request.GET.get("status", ""))[:10]
    if status not in SHOWN:
        status = ""
    found = messages_visible_to(request.user).select_related("permit")
    if status:
        found = found.filter(status=status)
    page = page_of(request, found)
    counts = {
        s: messages_visible_to(request.user).filter(status=s).count()
        for s in (MessageStatus.FAILED, MessageStatus.WAITING)
    }
    return render(
        request,
        "outbox/messages.html",
        {
            "shown": SHOWN,
            "status": status,
            "not_sent": counts[MessageStatus.FAILED],
            "waiting": counts[MessageStatus.WAITING],
            **paging(request, page, "the emails"),
        },
    )


@login_required
@require_POST
def message_again(request: HttpRequest, pk: int) -> HttpResponse:
    _staff(request)
    try:
        message = message_send_again(staff=request.user, message_id=pk)
    except ActionRefused as refused:
        flash.error(request, str(refused))
    else:
        flash.success(request, f"The email to {message.to_address} will be sent again now.")
    return redirect("outbox:messages")
