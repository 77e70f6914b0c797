"""The plan map, the save and site-check endpoints, the stored plan's report and downloads.

Every view finds the application through ``applications_visible_to``: someone else's
application is a 404, whoever asks. Views stay thin: the services validate and write, the
core measures, and the existing design-check template and PDF builder show the report.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.csp import CSP
from django.views.decorators.http import require_GET, require_POST

from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import Application
from siltfence.apps.permits.selectors import applications_visible_to
from siltfence.apps.plans import errors, services
from siltfence.apps.plans.selectors import control_plan_latest
from siltfence.core.engineering.plan import COMMON_PROPERTIES, KINDS, MEASURE_KINDS, parse_plan
from siltfence.core.engineering.report import site_areas
from siltfence.core.engineering.tracking import LAND_USES
from siltfence.core.engineering.units import fmt
from siltfence.core.errors import SiltfenceError
from siltfence.core.ordinance.loader import load
from siltfence.core.quantities import ACRE_FT2
from siltfence.presentation import labels
from siltfence.presentation.plan_reports import (
    MAX_PLAN_BYTES,
    TOO_LARGE,
    linked_report,
    parse_plan_json,
)

UNITS = {"yd**3": "cu yd", "day": "days", "ft": "ft", "ft**2": "sq ft", "1": ""}
NO_PLAN = "No control plan has been saved for this application yet: draw or import it on the map."


def _application(request: HttpRequest, pk: int) -> Application:
    """The application if the signed-in person may see it; 404 otherwise (no IDOR)."""
    return get_object_or_404(applications_visible_to(request.user), pk=pk)


def starter_plan(application: Application) -> dict[str, Any]:
    """The top-level fields a new plan starts from: the application's own facts, no guesses."""
    facts = application.facts or {}
    plan: dict[str, Any] = {"jurisdiction": application.village_id}
    if facts.get("land_use") in LAND_USES:
        plan["land_use"] = facts["land_use"]
    plan["runoff_leaves_site"] = bool(facts.get("runoff_leaves_site", True))
    plan["channel_originates_on_site"] = bool(facts.get("channel_originates_on_site", False))
    if application.description:
        plan["description"] = application.description
    plan["site"] = {"type": "FeatureCollection", "features": []}
    return plan


def kinds_for_the_page() -> list[dict[str, Any]]:
    """The core's feature kinds, their geometries and properties, for the picker and legend."""
    shapes = {"Polygon": "area", "LineString": "line", "Point": "point"}
    rows = []
    for kind, spec in KINDS.items():
        rows.append(
            {
                "kind": kind,
                "label": labels.label(kind),
                "meaning": labels.say(spec.meaning),
                "measure": kind in MEASURE_KINDS,
                "geometries": list(spec.geometries),
                "shape": next(shapes[g] for g in spec.geometries if g in shapes),
                "properties": {
                    name: {
                        "type": prop.kind,
                        "unit": UNITS.get(prop.unit, prop.unit),
                        "required": prop.required,
                    }
                    for name, prop in spec.properties.items()
                },
            }
        )
    return rows


def tile_source(url: str) -> str | None:
    """The CSP source the tile images come from; None for tiles served from this site."""
    parts = urlsplit(url)
    if not parts.scheme:
        return None
    host = parts.netloc.replace("{s}", "*")
    return f"{parts.scheme}://{host}"


def _with_tile_csp(response: HttpResponse, url: str) -> HttpResponse:
    """Let the page load tile images from the configured tile server, and nothing else."""
    source = tile_source(url)
    if source is not None:
        policy = dict(settings.SECURE_CSP)
        policy["img-src"] = [*policy.get("img-src", [CSP.SELF]), source]
        response._csp_config = policy  # type: ignore[attr-defined]
    return response


def _areas(disturbed: float, at_one_time: float, on: Any, says: str) -> dict[str, Any]:
    return {
        "sentence": areas_sentence(disturbed, at_one_time, on),
        "disturbed_area_ft2": round(disturbed, 1),
        "disturbed_area_acres": round(disturbed / ACRE_FT2, 4),
        "area_disturbed_at_one_time_ft2": round(at_one_time, 1),
        "area_disturbed_at_one_time_acres": round(at_one_time / ACRE_FT2, 4),
        "says": says,
    }


def areas_sentence(disturbed: float, at_one_time: float, on: Any) -> str:
    """'disturbed area 12,350 sq ft (0.2835 acre); largest area disturbed at one time ...'."""
    text = (
        f"disturbed area {fmt(disturbed, 'ft**2')} ({fmt(disturbed / ACRE_FT2, 'acre')}); "
        f"largest area disturbed at one time {fmt(at_one_time, 'ft**2')} "
        f"({fmt(at_one_time / ACRE_FT2, 'acre')})"
    )
    return text + (f", from {on.isoformat()}" if on else "")


def _refusal(exc: SiltfenceError) -> JsonResponse:
    status = 403 if isinstance(exc, ActionRefused) and exc.field == "application" else 400
    return JsonResponse(
        {"detail": str(exc), "field": exc.field, "says": labels.say(str(exc))}, status=status
    )


def _json_body(request: HttpRequest) -> Any:
    if len(request.body) > MAX_PLAN_BYTES:
        raise SiltfenceError(TOO_LARGE, field="plan")
    try:
        text = request.body.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SiltfenceError("plan: the request is not UTF-8 text", field="plan") from None
    return parse_plan_json(text)


@login_required
@require_GET
def plan_map(request: HttpRequest, pk: int) -> HttpResponse:
    application = _application(request, pk)
    ordinance = load(application.village_id)
    latest = control_plan_latest(application=application)
    refusal = services.control_plan_refusal(user=request.user, application=application)
    tile_url = getattr(settings, "SILTFENCE_TILE_URL", "")
    kinds = kinds_for_the_page()
    data = {
        "plan": latest.plan if latest else starter_plan(application),
        "revision": latest.revision if latest else None,
        "canEdit": refusal is None,
        "kinds": {k["kind"]: k for k in kinds},
        "common": [name for name in COMMON_PROPERTIES if name != "kind"],
        # Where the map opens before anything is drawn: the village centre, from its data.
        "centre": list(ordinance.map_centre),
        "tiles": {
            "url": tile_url,
            "attribution": getattr(settings, "SILTFENCE_TILE_ATTRIBUTION", ""),
        },
        "urls": {
            "save": reverse("plans:save", args=[pk]),
            "siteCheck": reverse("plans:site-check", args=[pk]),
            "report": reverse("plans:report", args=[pk]),
        },
    }
    back = (
        reverse("web:portal-application", args=[pk])
        if application.applicant_id == request.user.pk
        else reverse("web:staff-application", args=[pk])
    )
    context = {
        "application": application,
        "ordinance": ordinance,
        "latest": latest,
        "refusal": refusal,
        "kinds": kinds,
        "land_uses": LAND_USES,
        "plan": data["plan"],
        "tile_url": tile_url,
        "map_data": data,
        "back": back,
        "stated_area": _sq_ft((application.facts or {}).get("disturbed_area")),
        "latest_areas": areas_sentence(
            latest.disturbed_area_ft2, latest.area_disturbed_at_one_time_ft2, latest.at_one_time_on
        )
        if latest
        else "",
        "latest_disturbed": fmt(latest.disturbed_area_ft2, "ft**2") if latest else "",
    }
    return _with_tile_csp(render(request, "plans/map.html", context), tile_url)


@login_required
@require_POST
def plan_save(request: HttpRequest, pk: int) -> JsonResponse:
    """Save the plan sent as JSON as the next revision; 400 naming the field if it is bad."""
    application = _application(request, pk)
    try:
        saved = services.control_plan_save(
            application=application, user=request.user, plan_json=_json_body(request)
        )
    except SiltfenceError as exc:
        return _refusal(exc)
    report = services.control_plan_report(control_plan=saved)
    return JsonResponse(
        {
            "revision": saved.revision,
            "saved_at": saved.created_at.isoformat(),
            "evaluated_on": saved.evaluated_on.isoformat(),
            "at_one_time_on": saved.at_one_time_on.isoformat() if saved.at_one_time_on else None,
            "summary": saved.summary,
            "report_url": reverse("plans:report", args=[pk]),
            **_areas(
                saved.disturbed_area_ft2,
                saved.area_disturbed_at_one_time_ft2,
                saved.at_one_time_on,
                report.areas.result.says,
            ),
        }
    )


@login_required
@require_POST
def site_check(request: HttpRequest, pk: int) -> JsonResponse:
    """Check and measure a site (an import) before it goes on the map; nothing is saved.

    The body is ``{"site": FeatureCollection}``; the site is read exactly as a saved plan's
    site is, so errors name ``plan.site.features[i]...`` the same way.
    """
    application = _application(request, pk)
    try:
        body = _json_body(request)
        if set(body) != {"site"}:
            raise SiltfenceError('plan: send {"site": a GeoJSON FeatureCollection}', field="plan")
        plan = parse_plan(
            {
                "jurisdiction": application.village_id,
                "land_use": "other",
                "runoff_leaves_site": True,
                "channel_originates_on_site": False,
                "site": body["site"],
            }
        )
    except SiltfenceError as exc:
        return _refusal(exc)
    areas = site_areas(plan)
    return JsonResponse(
        {
            "features": len(plan.features),
            **_areas(
                areas.disturbed_area_ft2,
                areas.area_disturbed_at_one_time_ft2,
                areas.at_one_time_on,
                areas.result.says,
            ),
        }
    )


def _latest_or_404(
    request: HttpRequest, application: Application
) -> tuple[Any, HttpResponse | None]:
    latest = control_plan_latest(application=application)
    if latest is None:
        response = render(
            request,
            "plans/no_plan.html",
            {"application": application, "message": NO_PLAN},
            status=404,
        )
        return None, response
    return latest, None


@login_required
@require_GET
def plan_report(request: HttpRequest, pk: int) -> HttpResponse:
    """The design-check report of the latest stored plan, on the date it was judged."""
    application = _application(request, pk)
    latest, missing = _latest_or_404(request, application)
    if missing is not None:
        return missing
    try:
        report = services.control_plan_report(control_plan=latest).to_dict()
    except SiltfenceError as exc:
        context = {"application": application, "message": errors.NO_LONGER_READS.format(exc=exc)}
        return render(request, "plans/no_plan.html", context, status=409)
    context = {
        "application": application,
        "control_plan": latest,
        "report": linked_report(report),
        "pdf_url": None,  # the page links the stored plan's PDF itself (a GET)
        "plan_text": "",
    }
    return render(request, "plans/report.html", context)


@login_required
@require_GET
def plan_report_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    from siltfence.presentation.design_pdf import report_pdf

    application = _application(request, pk)
    latest, missing = _latest_or_404(request, application)
    if missing is not None:
        return missing
    try:
        report = services.control_plan_report(control_plan=latest).to_dict()
    except SiltfenceError as exc:
        context = {"application": application, "message": errors.NO_LONGER_READS.format(exc=exc)}
        return render(request, "plans/no_plan.html", context, status=409)
    name = f"design-check-{application.number}-r{latest.revision}.pdf"
    response = HttpResponse(report_pdf(report), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_GET
def plan_geojson(request: HttpRequest, pk: int) -> HttpResponse:
    """The latest plan's site as a GeoJSON file (WGS84), for GIS or another plan."""
    application = _application(request, pk)
    latest, missing = _latest_or_404(request, application)
    if missing is not None:
        return missing
    body = json.dumps(latest.plan["site"], indent=1, ensure_ascii=False)
    response = HttpResponse(body, content_type="application/geo+json; charset=utf-8")
    name = f"{application.number}-site-r{latest.revision}.geojson"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _sq_ft(value: object) -> str | None:
    """5000.0 -> "5,000"; None stays None."""
    return None if value is None else f"{float(value):,.0f}"  # type: ignore[arg-type]
