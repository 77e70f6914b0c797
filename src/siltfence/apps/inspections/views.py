"""The inspector's pages: the round for this period, and the inspection form (on a phone
at the site; it works without JavaScript)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.safestring import SafeString
from django.views.decorators.http import require_GET

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import is_inspector_of, is_staff_of, village_ids
from siltfence.apps.duties.templatetags.terms import terms
from siltfence.apps.inspections.models import Result
from siltfence.apps.inspections.selectors import inspection_photos_visible_to, recent_inspections
from siltfence.apps.inspections.services import (
    MAX_PHOTOS,
    Photo,
    checklist_for,
    inspection_record,
    round_plan,
)
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.selectors import permits_visible_to
from siltfence.apps.permits.uploads import download_name
from siltfence.core.ordinance.loader import load
from siltfence.presentation.paging import pk_path
from siltfence.presentation.tables import (
    Column,
    Item,
    Table,
    chosen_villages,
    download,
    refuses_bad_queries,
    village_filter,
    wants_csv,
)

NOT_FOR_YOU = "Inspections are recorded by the village's staff and inspectors."


def _explained(row: dict[str, Any], text: str) -> SafeString:
    return terms(text, row["ordinance"])


def _stops(plan: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The round's stops in driving order, each as a row of the round's list."""
    url = pk_path("inspections:inspect")
    for number, stop in enumerate(plan, start=1):
        yield {
            **stop,
            "number": number,
            "url": url(stop["permit"].pk),
            "missed_periods": [f"{m['from']} to {m['to']}" for m in stop["missed"]],
        }


# The inspection round, on the page and in its download.
ROUND = Table[dict[str, Any]](
    name="inspection-round",
    label="the inspection round",
    testid="round",
    row_class=lambda r: "overdue" if r["overdue"] else "",
    columns=(
        Column("Stop", lambda r: r["number"]),
        Column("Site", lambda r: r["site"].address, link=lambda r: r["url"]),
        Column("Permit", lambda r: r["permit"].number),
        Column("Village", lambda r: r["ordinance"].name),
        Column("Km from the last stop", lambda r: r["leg_km"]),
        Column("Inspect by", lambda r: r["duty"]["due"]),
        Column("Overdue", lambda r: r["overdue"], strong=lambda r: r["overdue"]),
        Column(
            "What is owed",
            lambda r: Item(r["duty"]["because"], r["duty"]["citation"]),
            markup=_explained,
        ),
        Column("Missed before", lambda r: r["missed_periods"], empty="none"),
    ),
)


@login_required
@require_GET
@refuses_bad_queries
def round_view(request: HttpRequest) -> HttpResponseBase:
    yours = village_ids(request.user, Role.STAFF, Role.INSPECTOR)
    if not yours:
        raise PermissionDenied(NOT_FOR_YOU)
    villages = chosen_villages(request, yours)
    plan = round_plan(user=request.user, villages=villages, as_of=timezone.now())
    if wants_csv(request):
        return ROUND.csv(_stops(plan), villages=villages)
    names = sorted(load(v).name for v in villages)
    return render(
        request,
        "inspections/round.html",
        {
            "round": ROUND.page(_stops(plan)),
            "stops": len(plan),
            "download": download(request, ROUND, count=len(plan)),
            "village_filter": village_filter(request, yours),
            "villages": names,
            "today": timezone.localdate(),
        },
    )


@login_required
def inspect(request: HttpRequest, pk: int) -> HttpResponse:
    permit = get_object_or_404(permits_visible_to(request.user), pk=pk)
    if not (is_inspector_of(request.user, permit) or is_staff_of(request.user, permit)):
        raise PermissionDenied(NOT_FOR_YOU)
    ordinance = load(permit.village_id)
    zone = ZoneInfo(ordinance.time_zone)
    items = checklist_for(permit)
    error: ActionRefused | None = None
    values: dict[str, Any] = {}
    if request.method == "POST":
        values = {k: request.POST.get(k, "") for k in ("at", "result", "findings", "client_token")}
        answers = {
            i["key"]: request.POST.get(f"item-{n}", "not_checked") for n, i in enumerate(items)
        }
        photos = [
            Photo(f.name or "photo", f.read(), f.content_type or "")
            for f in request.FILES.getlist("photos")[: MAX_PHOTOS + 1]
        ]
        try:
            inspection = inspection_record(
                permit=permit,
                user=request.user,
                at=values["at"],
                result=values["result"],
                answers=answers,
                findings=values["findings"],
                photos=photos,
                client_token=values["client_token"],
            )
        except ActionRefused as exc:
            error = exc
        else:
            return redirect(f"/permits/{permit.pk}/inspect/?saved={inspection.pk}")
    now = timezone.now().astimezone(zone)
    return render(
        request,
        "inspections/inspect.html",
        {
            "permit": permit,
            "ordinance": ordinance,
            "items": items,
            "results": Result.choices,
            "error": error,
            "values": values,
            "now": values.get("at") or now.strftime("%Y-%m-%dT%H:%M"),
            "token": uuid.uuid4().hex,
            "saved": request.GET.get("saved", ""),
            "inspections": recent_inspections(permit),
            "max_photos": MAX_PHOTOS,
        },
        status=400 if error else 200,
    )


@login_required
@require_GET
def photo(request: HttpRequest, pk: int) -> HttpResponseBase:
    found = get_object_or_404(inspection_photos_visible_to(request.user), pk=pk)
    response = FileResponse(
        found.file.open("rb"),
        as_attachment=True,
        filename=download_name(found.original_name, found.content_type),
        content_type=found.content_type,
    )
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    return response
