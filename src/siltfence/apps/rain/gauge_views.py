"""The staff pages of the village's own rain gauge: add one, and enter its days by hand."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import village_ids
from siltfence.apps.rain.forms import GaugeForm, ReadingForm
from siltfence.apps.rain.gauges import (
    LATITUDES,
    LONGITUDES,
    MOST_INCHES,
    gauge_for,
    inches_words,
    place_words,
    rain_gauge_add,
    rain_gauge_reading_record,
    village_gauges,
)
from siltfence.apps.rain.selectors import permits_served, recent_rain_days, village_names
from siltfence.core.errors import SiltfenceError
from siltfence.core.ordinance.loader import load
from siltfence.core.ordinance.sentences import day_words
from siltfence.presentation.wording import plain

# The days a gauge's page lists, newest first.
RECENT_DAYS = 14


def _refused(form: forms.Form, exc: SiltfenceError) -> None:
    """A service's refusal under the field it names (or above the form)."""
    form.add_error(exc.field if exc.field in form.fields else None, plain(exc))


@login_required
@require_http_methods(["GET", "POST"])
def gauges_page(request: HttpRequest) -> HttpResponse:
    """The village's gauges, and the form that adds one (its staff only)."""
    villages = village_ids(request.user, Role.STAFF)
    if not villages:
        raise PermissionDenied
    names = village_names(villages=villages)
    choices = sorted(((str(k), str(v)) for k, v in names.items()), key=lambda kv: kv[1])
    form = GaugeForm(request.POST if request.method == "POST" else None, villages=choices)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                gauge = rain_gauge_add(
                    actor=request.user,
                    village_id=data["village"],
                    name=data["name"],
                    latitude=data["latitude"],
                    longitude=data["longitude"],
                )
            except SiltfenceError as exc:
                _refused(form, exc)
            else:
                messages.success(
                    request,
                    f"{gauge.name} is added as the rain station {gauge.id}. Enter its days "
                    "below, one at a time, or upload its logger's file on the import page "
                    "with that station ID.",
                )
                return redirect("rain:gauge", station_id=gauge.pk)
        status = 400
    return render(
        request,
        "rain/gauges.html",
        {
            "form": form,
            "gauges": village_gauges(villages),
            "villages": names,
            "box": {"lat": LATITUDES, "lon": LONGITUDES},
        },
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def gauge_page(request: HttpRequest, station_id: str) -> HttpResponse:
    """One gauge: enter a day's rain, the days entered last, and the permits that read
    their rain here. A gauge of another village is no page for this user."""
    gauge = gauge_for(request.user, station_id)
    if gauge is None:
        raise Http404
    zone = ZoneInfo(load(str(gauge.village_id)).time_zone)
    today = timezone.now().astimezone(zone).date()  # the request's day on the village's clock
    data = request.POST if request.method == "POST" else None
    form = ReadingForm(data, initial={"day": today.isoformat()})
    status = 200
    if request.method == "POST":
        if form.is_valid():
            cleaned = form.cleaned_data
            try:
                reading = rain_gauge_reading_record(
                    actor=request.user,
                    station_id=gauge.pk,
                    day=cleaned["day"],
                    inches=cleaned["inches"],
                    reason=cleaned["reason"],
                    today=today,
                )
            except SiltfenceError as exc:
                _refused(form, exc)
            else:
                was = (
                    ""
                    if reading.before is None
                    else f" (corrected from {inches_words(reading.before)} in)"
                )
                messages.success(
                    request,
                    f"{inches_words(reading.tenths)} in recorded for {day_words(reading.day)}"
                    f"{was}. On the permits: {reading.applied}",
                )
                return redirect("rain:gauge", station_id=gauge.pk)
        status = 400
    recent = [
        {"day": day, "inches": None if tenths is None else inches_words(tenths)}
        for day, tenths in recent_rain_days(station=gauge, most=RECENT_DAYS)
    ]
    return render(
        request,
        "rain/gauge.html",
        {
            "gauge": gauge,
            "place": place_words(gauge.latitude, gauge.longitude),
            "form": form,
            "recent": recent,
            "served": permits_served([gauge.pk], village_ids(request.user, Role.STAFF)),
            "most": MOST_INCHES,
        },
        status=status,
    )
