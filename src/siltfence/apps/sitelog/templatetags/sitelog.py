"""The permit page's panel of the permittee's own duties and standing conditions."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()

# Conditions the duties engine counts as duties; the others stand for the whole permit.
COUNTED = {"start-notice", "completion-notice", "inspect-after-rain"}

DUTY_NAMES = {
    "start_notice": "Tell the village work is starting",
    "measure_completion_notice": "Tell the village a control measure is in place",
    "rain_inspection": "Inspect the control measures after rain",
    "weekly_inspection": "Inspect the control measures this week",
    "stabilization": "Stabilize ground left inactive",
}

CLOSED_BY = {
    "self_inspection": "the inspection logged",
    "start_notice_given": "the notice given",
    "measure_completion_notice_given": "the notice given",
    "area_stabilized": "the ground stabilized",
}

LOG_KIND = {
    "start_notice": "start_notice_given",
    "measure_completion_notice": "measure_completion_notice_given",
    "rain_inspection": "self_inspection",
    "weekly_inspection": "self_inspection",
    "stabilization": "area_stabilized",
}


@register.inclusion_tag("sitelog/_permittee_duties.html", takes_context=True)
def permittee_duties(context: Any, permit: Any, duties: list[dict[str, Any]]) -> dict[str, Any]:
    from siltfence.core.ordinance.loader import load

    ordinance = load(permit.village_id)
    mine = []
    for duty in duties:
        if duty.get("party") != "permittee":
            continue
        met_by = duty.get("met_by") or {}
        mine.append(
            {
                **duty,
                "name": DUTY_NAMES.get(duty["kind"], duty["kind"].replace("_", " ").capitalize()),
                "closed_by": CLOSED_BY.get(str(met_by.get("type")), "a record"),
                "closed_on": str(met_by.get("at", ""))[:16].replace("T", " "),
                "log_kind": LOG_KIND.get(duty["kind"], "self_inspection"),
            }
        )
    mine.sort(
        key=lambda d: ({"overdue": 0, "running": 1}.get(d.get("state", ""), 2), str(d["due"]))
    )
    standing = [c for c in ordinance.rules.get("permit_conditions", []) if c["id"] not in COUNTED]
    from siltfence.apps.duties.models import SiteStation
    from siltfence.apps.permits.models import Site

    site = permit.application.site
    if Site.rain.is_cached(site):  # the page read it with the permit (select_related)
        station = getattr(site, "rain", None)
    else:
        station = SiteStation.objects.filter(site=site).select_related("station").first()
    request = context.get("request")
    user = getattr(request, "user", None)
    return {
        "permit": permit,
        "duties": mine,
        "standing": standing,
        "added": list(permit.added_conditions or []),
        "added_citation": (ordinance.rules["permit"].get("added_conditions") or {}).get(
            "citation", ""
        ),
        "is_permittee": bool(user and permit.application.applicant_id == user.pk),
        "authority": ordinance.authority_title,
        "station": station,
        "unrecorded": "" if station is None else _unrecorded(site, station.station_id),
        "ordinance": ordinance,
    }


def _unrecorded(site: Any, station_id: str) -> str:
    from siltfence.apps.duties.stations import site_unrecorded

    return site_unrecorded(site, station_id)
