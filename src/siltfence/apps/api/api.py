"""HTTP API v1: the public contract of DESIGN.md.

Bad input answers 400 with the same sentence the CLI prints, naming the field; it is
never a 500. Bodies are read by the bounded JSON reader of the core (size and nesting
checked before parsing), dates by its strict date reader.
"""

from __future__ import annotations

import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.http import HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import HttpError, ValidationError
from ninja.parser import Parser

from siltfence.apps.api.design_checks import router as design_checks_router
from siltfence.apps.api.rain import router as rain_router
from siltfence.apps.api.schemas import (
    DeterminationIn,
    DeterminationOut,
    DutiesIn,
    DutiesOut,
    ErrorOut,
    JurisdictionOut,
)
from siltfence.core.dates import DateRefused, read_date
from siltfence.core.errors import SiltfenceError
from siltfence.core.jsonread import read_json
from siltfence.core.ordinance.loader import load, load_all
from siltfence.core.ordinance.summary import jurisdiction_summary
from siltfence.core.rules import determine


class BoundedParser(Parser):
    """Request bodies through ``core.jsonread``: a body too large, nested too deep or
    holding a number no measurement has is refused before (or instead of) parsing."""

    def parse_body(self, request: HttpRequest) -> Any:
        return read_json(request.body, what="(body)")


api = NinjaAPI(
    parser=BoundedParser(),
    title="siltfence",
    version="1",
    description=(
        "Construction-site erosion control ordinances as code. Every answer cites its section."
    ),
    openapi_url="/openapi.json",
    docs_url="/docs",
)


api.add_router("", design_checks_router)
api.add_router("", rain_router)


@api.exception_handler(SiltfenceError)
def bad_input(request: HttpRequest, exc: SiltfenceError) -> HttpResponse:
    return api.create_response(request, {"detail": str(exc), "field": exc.field}, status=400)


@api.exception_handler(HttpError)
def http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    """ninja wraps a body the parser refused as "Cannot parse request body"; answer with
    the reader's own sentence instead. Every other HTTP error keeps ninja's shape."""
    if isinstance(exc.__cause__, SiltfenceError):
        return bad_input(request, exc.__cause__)
    return api.create_response(request, {"detail": str(exc)}, status=exc.status_code)


@api.exception_handler(ValidationError)
def bad_body(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    first: dict[str, Any] = exc.errors[0] if exc.errors else {}
    location = [str(p) for p in first.get("loc", []) if p not in ("body", "payload")]
    field = ".".join(location) or "(body)"
    message = first.get("msg", "is not valid")
    if first.get("type") == "extra_forbidden":
        message = "unknown field"
    elif first.get("type") == "missing":
        message = "is required"
    return api.create_response(
        request, {"detail": f"{field}: {message}", "field": field}, status=400
    )


def evaluation_date(text: str | None, jurisdiction: str) -> datetime.date:
    """The date a request asks about; today in the village's own time zone if none."""
    if text is None:
        return datetime.datetime.now(ZoneInfo(load(jurisdiction).time_zone)).date()
    try:
        return read_date(text)
    except DateRefused as exc:
        raise SiltfenceError(f"on: {exc}", field="on") from None


@api.post(
    "/v1/determinations",
    response={200: DeterminationOut, 400: ErrorOut},
    summary="Does a project need a permit, which plan, and why",
)
def post_determination(request: HttpRequest, payload: DeterminationIn) -> dict[str, Any]:
    load(payload.jurisdiction)
    on = evaluation_date(payload.on, payload.jurisdiction)
    return determine(payload.jurisdiction, payload.facts, on).to_json()


@api.post(
    "/v1/duties",
    response={200: DutiesOut, 400: ErrorOut},
    by_alias=True,
    exclude_unset=True,
    summary="A permit's duties, deadlines, allowed enforcement steps and forfeiture",
)
def post_duties(request: HttpRequest, payload: DutiesIn) -> dict[str, Any]:
    from siltfence.core.timeline import compute, parse_as_of, parse_office_closures

    ordinance = load(payload.jurisdiction)
    zone = ZoneInfo(ordinance.time_zone)
    # Now, in the village's zone, when no as_of is given: the core never reads the clock.
    when = (
        datetime.datetime.now(zone) if payload.as_of is None else parse_as_of(payload.as_of, zone)
    )
    closures: frozenset[datetime.date] | None
    if payload.office_closures is not None:
        closures = parse_office_closures(payload.office_closures)
    else:
        closures = village_closures(ordinance.id)
    events, rain_used = payload.events, None
    if payload.rain is not None:
        from siltfence.apps.api.rain import file_rains

        events, rain_used = file_rains(
            events,
            payload.rain,
            ordinance,
            when,
            station=payload.station,
            site=payload.site,
            units=payload.units,
        )
    timeline = compute(ordinance, events, when, closures).to_json()
    if rain_used is not None:
        timeline["rain"] = rain_used
    return timeline


def village_closures(village_id: str) -> frozenset[datetime.date] | None:
    """The office calendar staff keep for the village, once the village is set up;
    before that, None lets the core use the seeded Wisconsin legal holidays."""
    from siltfence.apps.permits.clocks import office_closures
    from siltfence.apps.permits.models import Village

    if not Village.objects.filter(pk=village_id).exists():
        return None
    return office_closures(village_id)


@api.get("/v1/jurisdictions", response=list[JurisdictionOut], summary="The encoded jurisdictions")
def get_jurisdictions(request: HttpRequest) -> list[dict[str, Any]]:
    return [jurisdiction_summary(o) for o in load_all()]
