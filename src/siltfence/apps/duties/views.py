"""The staff dashboard (duties overdue and due this week, rain per station, compliance over
time) and the page where staff see or choose a site's rain station."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.safestring import SafeString
from django.views.decorators.http import require_GET, require_POST

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import is_staff_of, village_ids
from siltfence.apps.duties import charts
from siltfence.apps.duties.models import PermitDuties
from siltfence.apps.duties.rain_applied import rain_apply
from siltfence.apps.duties.rain_events import LOOKBACK_DAYS
from siltfence.apps.duties.selectors import (
    duties_due_by,
    last_recorded_days,
    permits_ending,
    rain_recorded,
    site_station_of,
    sites_of,
    sites_reading,
    stations_by_id,
    stations_located,
    stations_serving,
    stored_duties_of,
    sureties_expiring,
)
from siltfence.apps.duties.services import due_moment
from siltfence.apps.duties.stations import (
    NEAREST_WITHIN_KM,
    site_rain_period,
    site_station_assign,
    site_station_pin,
    site_station_unpin,
    site_unrecorded,
)
from siltfence.apps.duties.templatetags.terms import terms
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import Site
from siltfence.apps.rain.selectors import runs, spans_text
from siltfence.core.ordinance.loader import load
from siltfence.core.rain.storms import threshold_on
from siltfence.presentation.paging import pk_path
from siltfence.presentation.tables import (
    CHUNK,
    Column,
    Item,
    ListQueryRefused,
    Table,
    chosen_villages,
    download,
    refuses_bad_queries,
    village_filter,
    wants_csv,
)

NAMES = {
    "start_notice": "Notice of the start of work",
    "measure_completion_notice": "Notice that a control measure is in place",
    "rain_inspection": "Inspection after rain",
    "weekly_inspection": "Weekly inspection",
    "municipal_inspection": "The village's inspection",
    "stabilization": "Stabilizing inactive ground",
}


def _staff_villages(request: HttpRequest) -> set[str]:
    villages = village_ids(request.user, Role.STAFF)
    if not villages:
        raise PermissionDenied("The dashboard is for the village's staff.")
    return villages


def _duties(
    states: Iterable[PermitDuties], now: datetime.datetime, week: datetime.datetime
) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each duty not met of ``states`` that is overdue or falls due by ``week``, with which
    of the two it is (``overdue``, ``soon``), as a row of the dashboard's lists."""
    url = pk_path("web:permit")
    for state in states:
        ordinance = load(state.village_id)
        zone = ZoneInfo(ordinance.time_zone)
        for duty in state.duties:
            if duty["status"] == "met":
                continue
            due = due_moment(str(duty["due"]), zone)
            if duty["status"] == "overdue" or due <= now:
                which = "overdue"
            elif due <= week:
                which = "soon"
            else:
                continue
            yield (
                which,
                {
                    "url": url(state.permit.pk),
                    "number": state.permit.number,
                    "address": state.permit.application.site.address,
                    "name": NAMES.get(duty["kind"], duty["kind"]),
                    "who": "the permittee" if duty["party"] == "permittee" else "the village",
                    "due": _due(str(duty["due"]), zone),
                    "because": duty["because"],
                    "citation": duty["citation"],
                    "ordinance": ordinance,
                },
            )


def _due(due: str, zone: ZoneInfo) -> str | datetime.datetime:
    """A duty's due day as is; a due time in the village's clock (shown with its zone, and
    written in the download with its offset from UTC)."""
    if "T" not in due:
        return due
    moment = datetime.datetime.fromisoformat(due)
    return (moment if moment.tzinfo else moment.replace(tzinfo=zone)).astimezone(zone)


def _explained(row: dict[str, Any], text: str) -> SafeString:
    return terms(text, row["ordinance"])


def _duties_table(name: str, label: str, testid: str) -> Table[dict[str, Any]]:
    """The dashboard's lists of duties (overdue; due this week): the same columns."""
    return Table(
        name=name,
        label=label,
        testid=testid,
        columns=(
            Column("Permit", lambda r: r["number"], link=lambda r: r["url"]),
            Column("Site", lambda r: r["address"]),
            Column("Duty", lambda r: r["name"], strong=lambda r: True),
            Column("Whose", lambda r: r["who"]),
            Column("Due", lambda r: r["due"]),
            Column("Why", lambda r: Item(r["because"], r["citation"]), markup=_explained),
        ),
    )


OVERDUE = _duties_table("duties-overdue", "the duties overdue", "overdue")
DUE_SOON = _duties_table("duties-due-this-week", "the duties due this week", "due-soon")
DUTY_LISTS = {"overdue": OVERDUE, "soon": DUE_SOON}
# The permits whose duties the dashboard's page reads at most; its downloads read them all.
DASHBOARD_PERMITS = 500
NOT_A_LIST = "list: choose overdue or soon; {shown} is not one of the dashboard's lists"


@login_required
@require_GET
@refuses_bad_queries
def dashboard(request: HttpRequest) -> HttpResponseBase:
    yours = _staff_villages(request)
    villages = chosen_villages(request, yours)
    now = timezone.now()
    week = now + datetime.timedelta(days=7)
    due = duties_due_by(villages, week)
    if wants_csv(request):
        asked = str(request.GET.get("list", "")).strip()
        if asked not in DUTY_LISTS:
            shown = repr(asked if len(asked) <= 20 else asked[:20] + "...")
            raise ListQueryRefused(NOT_A_LIST.format(shown=shown), field="list")
        every = _duties(due.iterator(chunk_size=CHUNK), now, week)
        chosen = (row for which, row in every if which == asked)
        return DUTY_LISTS[asked].csv(chosen, villages=villages)
    states = list(due[: DASHBOARD_PERMITS + 1])
    overdue: list[dict[str, Any]] = []
    soon: list[dict[str, Any]] = []
    for which, row in _duties(states[:DASHBOARD_PERMITS], now, week):
        (overdue if which == "overdue" else soon).append(row)
    return render(
        request,
        "duties/dashboard.html",
        {
            "overdue": OVERDUE.page(overdue),
            "overdue_count": len(overdue),
            "overdue_download": download(request, OVERDUE, list="overdue"),
            "soon": DUE_SOON.page(soon),
            "soon_count": len(soon),
            "soon_download": download(request, DUE_SOON, list="soon"),
            "cut_short": len(states) > DASHBOARD_PERMITS,
            "dashboard_permits": DASHBOARD_PERMITS,
            "village_filter": village_filter(request, yours),
            "rain": _rain_charts(villages, timezone.localdate()),
            "compliance": _compliance_chart(villages, now),
            "villages": sorted(load(v).name for v in villages),
            **_watch(villages, timezone.localdate()),
        },
    )


def _watch(villages: set[str], today: datetime.date) -> dict[str, Any]:
    """Permits whose last day is within 30 days (an extension can only be granted while a
    permit runs), and sureties that expire within 30 days, or have, on permits not closed."""
    ending = permits_ending(villages, today)[:200]
    sureties = sureties_expiring(villages, today)[:200]
    return {
        "ending": [{"permit": p, "days": (p.expires_on - today).days} for p in ending],
        "sureties_expiring": [
            {"surety": s, "days": (s.expires_on - today).days}
            for s in sureties
            # Every one has its day (``expires_on__lte``); the test is for the type checker.
            if s.expires_on is not None and s.balance > 0
        ],
    }


# More days than this with no record at a station serving sites, and staff are warned.
STALE_DAYS = 3


def _rain_charts(villages: set[str], today: datetime.date) -> list[dict[str, Any]]:
    # The 30 days to yesterday: no station has recorded today's rain yet.
    start = today - datetime.timedelta(days=30)
    days = [start + datetime.timedelta(days=i) for i in range(30)]
    served = stations_serving(villages)
    readings = rain_recorded(served, start, today)
    stations = stations_by_id(served)
    last_recorded = last_recorded_days(served)
    result = []
    for station_id in sorted(served):
        station = stations[station_id]
        lines = []
        for village_id in sorted(served[station_id]):
            ordinance = load(village_id)
            threshold = threshold_on(ordinance, today)
            lines.append(
                (
                    float(threshold.value),  # type: ignore[arg-type]
                    f"{float(threshold.value):g} in: {ordinance.name} {threshold.citation}",  # type: ignore[arg-type]
                )
            )
        recorded = readings.get(station_id, {})
        amounts = [recorded.get(d, 0) / 254 for d in days]
        missing = [d for d in days if d not in recorded]
        last = last_recorded.get(station_id)
        result.append(
            {
                "station": station,
                "sites": sites_reading(station_id),
                "total": round(sum(amounts), 2),
                "recorded": len(days) - len(missing),
                "unrecorded": spans_text(runs(missing)),
                "last": last,
                # Staff are warned once a station serving sites has no record for more
                # than STALE_DAYS days to yesterday: its sites' rain is unknown, not dry.
                "stale": last is None or (today - last).days > STALE_DAYS + 1,
                "svg": charts.rain_chart(
                    title=f"Daily rain at {station.name or station.id}, 30 days to yesterday",
                    days=days,
                    inches=amounts,
                    lines=lines,
                ),
            }
        )
    return result


def _compliance_chart(villages: set[str], now: datetime.datetime) -> Any:
    """Share of the permittees' duties that fell due in each of the last six months and
    were met on time."""
    months = []
    today = timezone.localdate(now)
    first = today.replace(day=1)
    for back in range(5, -1, -1):
        year, month = first.year, first.month - back
        while month <= 0:
            year, month = year - 1, month + 12
        months.append(datetime.date(year, month, 1))
    tally = {m: [0, 0] for m in months}
    for duties in stored_duties_of(villages):
        for duty in duties:
            if duty["party"] != "permittee":
                continue
            due = datetime.date.fromisoformat(str(duty["due"])[:10])
            key = due.replace(day=1)
            if key not in tally or due > today:
                continue
            tally[key][1] += 1
            if duty["status"] == "met" and not duty.get("late"):
                tally[key][0] += 1
    bars = [(m.strftime("%b %Y"), tally[m][0], tally[m][1]) for m in months]
    return {
        "svg": charts.share_chart(title="Share of duties met on time, by month due", bars=bars),
        "bars": bars,
    }


@login_required
def site_station(request: HttpRequest, pk: int) -> HttpResponse:
    site = get_object_or_404(sites_of(_staff_villages(request)), pk=pk)
    error = None
    if request.method == "POST":
        try:
            site_station_pin(
                site=site,
                staff=request.user,
                station_id=request.POST.get("station", ""),
                reason=request.POST.get("reason", ""),
            )
        except ActionRefused as exc:
            error = exc
        else:
            # The station chosen applies at once: its rain during the permit lands now.
            start, end = site_rain_period(site)
            rain_apply(stations=[request.POST.get("station", "")], first=start, last=end)
            return redirect("duties:site-station", pk=site.pk)
    link = site_station_of(site)
    if link is None:
        link = site_station_assign(site=site)
    return render(
        request,
        "duties/site_station.html",
        {
            "site": site,
            "link": link,
            "period": site_rain_period(site),
            "within_km": NEAREST_WITHIN_KM,
            "unrecorded": "" if link is None else site_unrecorded(site, link.station_id),
            "rains": [] if link is None else _station_rains(site, link.station_id),
            "stations": stations_located(),
            "error": error,
            "can_pin": is_staff_of(request.user, site),
        },
        status=400 if error else 200,
    )


@login_required
@require_POST
def unpin(request: HttpRequest, pk: int) -> HttpResponse:
    site = get_object_or_404(sites_of(_staff_villages(request)), pk=pk)
    site_station_unpin(site=site, staff=request.user)
    return redirect("duties:site-station", pk=site.pk)


def _station_rains(site: Site, station_id: str) -> list[dict[str, Any]]:
    """The station's rains over the site's period, each with whether it meets the
    village's rule and why (the web's view of ``siltfence rain storms``), newest first."""
    from siltfence.apps.rain.services import station_days
    from siltfence.core.rain.storms import storm_summaries

    start, end = site_rain_period(site)
    ordinance = load(site.village_id)
    days = station_days(station_id, start - datetime.timedelta(days=LOOKBACK_DAYS), end)
    found = storm_summaries(days, ordinance, start, end, ZoneInfo(ordinance.time_zone))
    return [r for r in reversed(found) if r["mm"] > 0]
