"""The home pages of the officials who see but do not decide applications: the inspector's
permits in force with what is due on each site, and the appeals board's docket."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import village_ids
from siltfence.apps.permits.clocks import application_timeline, office_closures
from siltfence.apps.permits.models import (
    Permit,
)
from siltfence.apps.web.selectors import (
    applications_decided,
    applications_under_review,
    latest_permits,
    permits_in_force,
    villages_by_name,
)
from siltfence.apps.web.staff_views import (
    stored_clock_words,
)
from siltfence.core.ordinance.loader import load
from siltfence.presentation.labels import label
from siltfence.presentation.paging import page_of, paging, pk_path
from siltfence.presentation.tables import (
    CHUNK,
    Column,
    Item,
    Table,
    chosen_villages,
    download,
    refuses_bad_queries,
    village_filter,
    wants_csv,
)
from siltfence.presentation.wording import duty_words

# The inspector's home works out each permit's duties as the page is served, so a page
# holds fewer permits than the other lists.
INSPECTOR_PAGE = 25


# The appeals board's home: its decisions a page at a time, and the latest permits.
BOARD_PAGE = 25


BOARD_LATEST_PERMITS = 10


def _village_names(ids: set[str]) -> list[str]:
    return [v.name for v in villages_by_name(ids)]


def _inspector_row(
    permit: Permit, closures: dict[str, Any], url: Callable[[int], str]
) -> dict[str, Any]:
    """A permit in force with what is due on its site now: the open and overdue duties its
    timeline works out, overdue first."""
    zone = load(permit.village_id).time_zone
    timeline = application_timeline(permit.application, closures=closures[permit.village_id])
    duties = [
        duty_words(d, zone=zone)
        for d in timeline.to_json()["duties"]
        if d["status"] in ("open", "overdue")
    ]
    duties.sort(key=lambda d: (d["state"] != "overdue", str(d["due"])))
    return {
        "url": url(permit.pk),
        "number": permit.number,
        "village": permit.village.name,
        "address": permit.application.site.address,
        "expires_on": permit.expires_on,
        "due": [
            Item(f"{label(d['kind'])} ({label(d['party'])}): {d['label']}", d["citation"])
            for d in duties
        ],
    }


# The inspector's permits in force, on the page and in its download.
INSPECTOR_PERMITS = Table[dict[str, Any]](
    name="permits-in-force",
    label="the permits in force",
    testid="inspector-permits",
    columns=(
        Column("Permit", lambda r: r["number"], link=lambda r: r["url"]),
        Column("Village", lambda r: r["village"]),
        Column("Site", lambda r: r["address"]),
        Column("Valid through", lambda r: r["expires_on"]),
        Column("What is due", lambda r: r["due"], empty="Nothing due now."),
    ),
)


@login_required
@require_GET
@refuses_bad_queries
def inspector_home(request: HttpRequest) -> HttpResponseBase:
    """The inspector's work: permits in force in their village(s), each with what is due
    on the site (the duties the timeline computes, overdue first), and the applications
    under review, which they may read."""
    yours = village_ids(request.user, Role.INSPECTOR)
    if not yours:
        raise PermissionDenied("This page is for the village's inspectors.")
    villages = chosen_villages(request, yours)
    # A page of permits at a time, each with its events read in one query for the page,
    # so the duties shown are worked out now, from everything recorded up to this moment.
    in_force = permits_in_force(villages, timezone.localdate())
    closures = {village: office_closures(village) for village in villages}
    url = pk_path("web:permit")
    if wants_csv(request):
        every = in_force.iterator(chunk_size=CHUNK)
        lines = (_inspector_row(p, closures, url) for p in every)
        return INSPECTOR_PERMITS.csv(lines, villages=villages)
    page = page_of(request, in_force, per_page=INSPECTOR_PAGE)
    rows = [_inspector_row(permit, closures, url) for permit in page.object_list]
    filed = applications_under_review(villages)
    return render(
        request,
        "web/inspector_home.html",
        {
            "villages": _village_names(villages),
            "permits": INSPECTOR_PERMITS.page(rows),
            "has_rows": bool(rows),
            "download": download(request, INSPECTOR_PERMITS, count=page.paginator.count),
            "village_filter": village_filter(request, yours),
            "filed": [{"application": a, "clock": stored_clock_words(a)} for a in filed],
            "also_board": bool(village_ids(request.user, Role.APPEALS_BOARD)),
            **paging(request, page, "the permits in force"),
        },
    )


@login_required
@require_GET
def appeals_home(request: HttpRequest) -> HttpResponse:
    """The appeals board's docket, and the decisions and permits it may be asked about."""
    villages = village_ids(request.user, Role.APPEALS_BOARD)
    if not villages:
        raise PermissionDenied("This page is for the village's appeals board.")
    boards = []
    for village in villages_by_name(villages):
        ordinance = load(village.id)
        boards.append(
            {"village": village, "ordinance": ordinance, "appeals": ordinance.rules["appeals"]}
        )
    page = page_of(request, applications_decided(villages), per_page=BOARD_PAGE)
    decided = [{"application": a, "zone": load(a.village_id).time_zone} for a in page.object_list]
    # The latest permits; every one is in the public register, searchable by village.
    latest = latest_permits(villages, BOARD_LATEST_PERMITS)
    return render(
        request,
        "web/appeals_home.html",
        {
            "boards": boards,
            "decided": decided,
            "permits": list(latest),
            "also_inspector": bool(village_ids(request.user, Role.INSPECTOR)),
            **paging(request, page, "the decisions"),
        },
    )
