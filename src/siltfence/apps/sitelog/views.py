"""The site log on a phone: the form (works without JavaScript; a small script keeps a
draft through a lost connection), the entries, and their photos."""

from __future__ import annotations

import uuid
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.auth.decorators import login_required
from django.http import FileResponse, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET

from siltfence.apps.accounts.rules import is_applicant_of
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.selectors import permits_visible_to
from siltfence.apps.permits.uploads import download_name
from siltfence.apps.sitelog.models import EntryKind
from siltfence.apps.sitelog.selectors import (
    duties_met_by_entry,
    entries_without_permit,
    log_entries,
    site_log_photos_visible_to,
)
from siltfence.apps.sitelog.services import MAX_PHOTOS, Photo, entry_kinds, site_log_record
from siltfence.apps.sitelog.templatetags.sitelog import DUTY_NAMES
from siltfence.core.ordinance.loader import load

FIELDS = ("inspector", "phase", "findings", "repairs", "measure", "area", "evidence")


@login_required
def site_log(request: HttpRequest, pk: int) -> HttpResponse:
    permit = get_object_or_404(permits_visible_to(request.user), pk=pk)
    ordinance = load(permit.village_id)
    zone = ZoneInfo(ordinance.time_zone)
    can_write = is_applicant_of(request.user, permit) and permit.status == "active"
    error: ActionRefused | None = None
    values: dict[str, Any] = {}
    if request.method == "POST":
        if not can_write:
            return render(request, "sitelog/refused.html", {"permit": permit}, status=403)
        values = {k: request.POST.get(k, "") for k in (*FIELDS, "kind", "at", "client_token")}
        photos = [
            Photo(f.name or "photo", f.read(), f.content_type or "")
            for f in request.FILES.getlist("photos")[: MAX_PHOTOS + 1]
        ]
        try:
            entry = site_log_record(
                permit=permit,
                user=request.user,
                kind=values["kind"],
                at=values["at"],
                data=values,
                photos=photos,
                client_token=values["client_token"],
            )
        except ActionRefused as exc:
            error = exc
        else:
            return redirect(f"/permits/{permit.pk}/log/?saved={entry.pk}#entry-{entry.pk}")
    entries = log_entries(permit)
    kinds = entry_kinds(ordinance)
    now = timezone.now().astimezone(zone)
    # Entries dated after the permit's last day: work without a permit (§ 413-8A,
    # § 135-7A), flagged on each. Read only once the last day has passed.
    late = entries_without_permit(permit) if now.date() > permit.expires_on else []
    return render(
        request,
        "sitelog/log.html",
        {
            "permit": permit,
            "ordinance": ordinance,
            "entries": entries,
            "kinds": kinds,
            "no_runoff_offered": EntryKind.NO_RUNOFF in dict(kinds),
            "can_write": can_write,
            "error": error,
            "values": values,
            "chosen": values.get("kind") or request.GET.get("kind") or "self_inspection",
            "now": values.get("at") or now.strftime("%Y-%m-%dT%H:%M"),
            "token": uuid.uuid4().hex,
            "saved": request.GET.get("saved", ""),
            "met": _met_by_entry(permit, request.GET.get("saved", ""), ordinance.time_zone),
            "max_photos": MAX_PHOTOS,
            "without_permit": {e.pk for e in late},
            "saved_without_permit": any(str(e.pk) == request.GET.get("saved") for e in late),
            "required": ordinance.rules["permit"]["required"],
        },
        status=400 if error else 200,
    )


@login_required
@require_GET
def photo(request: HttpRequest, pk: int) -> HttpResponseBase:
    found = get_object_or_404(site_log_photos_visible_to(request.user), pk=pk)
    response = FileResponse(
        found.file.open("rb"),
        as_attachment=True,
        filename=download_name(found.original_name, found.content_type),
        content_type=found.content_type,
    )
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    return response


def _met_by_entry(permit: Any, saved: str, zone: str) -> list[dict[str, Any]]:
    """The duties the saved entry met, in words ("met on ..., late by 2 days"): the page
    says so only when it did (an inspection made while the rain still fell meets none)."""
    from siltfence.presentation.wording import duty_words

    if not saved.isdecimal():
        return []
    return [
        {**duty_words(d, zone=zone), "name": DUTY_NAMES.get(d["kind"], d["kind"])}
        for d in duties_met_by_entry(permit, int(saved))
    ]
