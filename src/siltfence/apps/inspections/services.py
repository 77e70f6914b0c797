"""The village's inspections: the checklist from the stored control plan, recording an
inspection (with a violation when the site is not in compliance), and the round planner.
"""

from __future__ import annotations

import datetime
import hashlib
import math
import uuid
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone

from siltfence.apps.accounts.rules import is_inspector_of, is_staff_of
from siltfence.apps.audit.chain import event_record
from siltfence.apps.inspections.models import Inspection, InspectionPhoto, Result
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import Permit, PermitStatus, TimelineEvent
from siltfence.apps.permits.uploads import checked_upload
from siltfence.core.errors import SiltfenceError
from siltfence.core.ordinance.loader import load
from siltfence.core.ordinance.model import Ordinance
from siltfence.core.timeline.events import parse_moment

NOT_INSPECTOR = "permit: only the {authority} of {village} or an inspector may record an inspection"
RESULT = "result: choose in compliance or not in compliance"
ANSWER = "checklist: each item is answered good, needs work or not checked"
NOT_COMPLIANT_NEEDS = (
    "findings: say what is out of compliance (a finding of non-compliance is recorded as a "
    "violation)"
)
FUTURE = "at: {at} is in the future"
TOO_LONG = "findings: at most 5000 characters"
NOT_A_PHOTO = "photos: {name} is not a photo (a JPEG or PNG is expected)"
MAX_PHOTOS = 8

# What to look at for each kind of control measure a plan can hold, and the requirement
# of the ordinance data it carries out (its citation comes from the data).
MEASURES = {
    "silt_fence": (
        "Silt fence",
        "standing, trenched in, not torn or overtopped",
        "fences-or-bales",
    ),
    "straw_bale": ("Straw bales", "staked, butted tight, not washed out", "fences-or-bales"),
    "inlet_protection": ("Inlet protection", "in place and not clogged", "inlet-protection"),
    "sediment_basin": ("Sediment basin", "outlet working, sediment below half", "sediment-basins"),
    "sediment_trap": ("Sediment trap", "in place, not full", "sediment-basins"),
    "tracking_pad": ("Tracking pad", "stone clean; no mud on the street", "tracking"),
    "stockpile": ("Stockpile", "stabilized or surrounded; set back from roads", "stockpiles"),
    "diversion": ("Diversion", "intact and carrying water around the work", "sheet-flow-diversion"),
}
GENERAL = (
    ("plan-on-site", "A copy of the plan is kept on the site"),
    ("install-measures", "The control measures are installed as the approved plan shows"),
    ("maintain-systems", "Drainage systems and control measures are maintained"),
    ("repair-damage", "Erosion damage to adjoining surfaces and drainageways is repaired"),
)
ANSWERS = {"good", "needs_work", "not_checked"}


def _citation(ordinance: Ordinance, requirement: str) -> str:
    for item in ordinance.rules.get("requirements", []):
        if item["id"] == requirement:
            return str(item.get("citation") or "")
    for condition in ordinance.rules.get("permit_conditions", []):
        if condition["id"] == "maintain-systems":
            return str(condition["citation"])
    return ""


def checklist_for(permit: Permit) -> list[dict[str, str]]:
    """One item per control measure on the permit's latest stored plan, then the standing
    conditions every site is held to."""
    from siltfence.apps.plans.models import ControlPlan

    ordinance = load(permit.village_id)
    plan = (
        ControlPlan.objects.filter(application_id=permit.application_id)
        .order_by("-revision")
        .values_list("plan", flat=True)
        .first()
    )
    items: list[dict[str, str]] = []
    counts: dict[str, int] = {}
    features = (
        ((plan or {}).get("site") or {}).get("features", []) if isinstance(plan, dict) else []
    )
    for feature in features:
        props = feature.get("properties") or {}
        kind = props.get("kind")
        if kind not in MEASURES:
            continue
        counts[kind] = counts.get(kind, 0) + 1
        name, look, requirement = MEASURES[kind]
        ident = str(props.get("id") or props.get("name") or counts[kind])
        label = f"{name} {ident}"
        if kind == "inlet_protection" and props.get("inlet") and not props.get("id"):
            ident, label = f"at-{props['inlet']}", f"{name} at inlet {props['inlet']}"
        items.append(
            {
                "key": f"{kind}:{ident}"[:80],
                "label": label,
                "look": look,
                "citation": _citation(ordinance, requirement),
            }
        )
    conditions = {c["id"]: c for c in ordinance.rules.get("permit_conditions", [])}
    for ident, label in GENERAL:
        if ident in conditions:
            items.append(
                {
                    "key": f"condition:{ident}",
                    "label": label,
                    "look": "",
                    "citation": str(conditions[ident]["citation"]),
                }
            )
    return items


@dataclass(frozen=True)
class Photo:
    name: str
    content: bytes
    content_type: str


def inspection_record(
    *,
    permit: Permit,
    user: Any,
    at: str,
    result: str,
    answers: dict[str, str],
    findings: str,
    photos: list[Photo],
    client_token: str,
    now: datetime.datetime | None = None,
) -> Inspection:
    """Record the village's inspection of a site: a ``municipal_inspection`` event, and for
    a finding of non-compliance a violation on the site's enforcement record."""
    ordinance = load(permit.village_id)
    if not (is_inspector_of(user, permit) or is_staff_of(user, permit)):
        raise ActionRefused(
            NOT_INSPECTOR.format(authority=ordinance.authority_title, village=ordinance.name),
            field="permit",
        )
    token = "".join(
        c for c in str(client_token or "") if c.isascii() and (c.isalnum() or c in "-_")
    )
    token = token[:64] or uuid.uuid4().hex
    done = Inspection.objects.filter(permit=permit, client_token=token).first()
    if done is not None:
        return done
    if permit.status != PermitStatus.ACTIVE:
        raise ActionRefused("permit: only a permit in force is inspected here", field="permit")
    if result not in Result.values:
        raise ActionRefused(RESULT, field="result")
    zone = ZoneInfo(ordinance.time_zone)
    try:
        moment, _ = parse_moment(str(at or "").strip(), "at", zone)
    except SiltfenceError as exc:
        raise ActionRefused(str(exc), field="at") from None
    if moment > (now or timezone.now()).astimezone(zone) + datetime.timedelta(minutes=5):
        raise ActionRefused(FUTURE.format(at=moment.strftime("%Y-%m-%d %H:%M")), field="at")
    findings = "".join(ch for ch in str(findings or "") if ch in "\n\t" or ch >= " ").strip()
    if len(findings) > 5000:
        raise ActionRefused(TOO_LONG, field="findings")
    items = checklist_for(permit)
    checklist = []
    for item in items:
        answer = str(answers.get(item["key"], "not_checked"))
        if answer not in ANSWERS:
            raise ActionRefused(ANSWER, field="checklist")
        checklist.append({**item, "answer": answer})
    failing = [i for i in checklist if i["answer"] == "needs_work"]
    if result == Result.NOT_COMPLIANT and not findings:
        raise ActionRefused(NOT_COMPLIANT_NEEDS, field="findings")
    if len(photos) > MAX_PHOTOS:
        raise ActionRefused(f"photos: at most {MAX_PHOTOS} photos", field="photos")
    checked = []
    for photo in photos:
        found = checked_upload(
            name=photo.name, content=photo.content, claimed_type=photo.content_type, kind="photo"
        )
        if not found.content_type.startswith("image/"):
            raise ActionRefused(NOT_A_PHOTO.format(name=found.display_name), field="photos")
        checked.append((photo, found))
    inspector_name = user.get_full_name() or user.get_username()
    said = "in compliance" if result == Result.COMPLIANT else "not in compliance"
    with transaction.atomic():
        locked = Permit.objects.select_for_update().get(pk=permit.pk)
        if Inspection.objects.filter(permit=locked, client_token=token).exists():
            return Inspection.objects.get(permit=locked, client_token=token)
        event = TimelineEvent.objects.create(
            application_id=locked.application_id,
            type="municipal_inspection",
            at=moment,
            fields={"inspector": inspector_name, "result": said},
        )
        inspection = Inspection.objects.create(
            permit=locked,
            inspector=user,
            at=moment,
            result=result,
            checklist=checklist,
            findings=findings,
            timeline_event=event,
            client_token=token,
        )
        stored_photos = []
        for photo, found in checked:
            stored = InspectionPhoto(
                inspection=inspection,
                original_name=found.display_name,
                content_type=found.content_type,
                size=len(photo.content),
                sha256=hashlib.sha256(photo.content).hexdigest(),
            )
            stored.file.save(
                f"{uuid.uuid4().hex}{found.extension}", ContentFile(photo.content), save=False
            )
            stored.save()
            stored_photos.append(stored.sha256)
        if result == Result.NOT_COMPLIANT:
            _violation(locked, user, inspection, failing, findings, moment, photos)
        event_record(
            actor=user,
            entity="permit",
            entity_id=locked.pk,
            action="municipal_inspection_record",
            village=locked.village_id,
            citation=str(ordinance.rules.get("municipal_inspections", {}).get("citation", "")),
            reason=findings[:500],
            after={
                "inspection": inspection.pk,
                "result": result,
                "needs_work": [i["key"] for i in failing],
                "photos": stored_photos,
                "violation": inspection.violation_ref,
            },
        )
    return inspection


def _violation(
    permit: Permit,
    user: Any,
    inspection: Inspection,
    failing: list[dict[str, str]],
    findings: str,
    moment: datetime.datetime,
    photos: list[Photo],
) -> None:
    """A finding of non-compliance goes on the enforcement record as a violation."""
    from siltfence.apps.enforcement.services import Photo as EnforcementPhoto
    from siltfence.apps.enforcement.services import violation_record

    ordinance = load(permit.village_id)
    provision = next((i["citation"] for i in failing if i["citation"]), "")
    if not provision:
        grounds = ordinance.rules["enforcement"]["stop_work_order"]["grounds"]
        provision = next(
            (g["citation"] for g in grounds if g["id"] == "conditions-not-met"),
            grounds[-1]["citation"],
        )
    listed = "; ".join(f"{i['label']}: needs work" for i in failing)
    violation = violation_record(
        village=permit.village,
        recorded_by=user,
        source="inspection",
        description=(findings + (f" ({listed})" if listed else ""))[:2000],
        days_from=moment.date(),
        at=moment,
        provision=provision,
        permit=permit,
        photos=[EnforcementPhoto(p.name, p.content, p.content_type) for p in photos],
    )
    inspection.violation_ref = f"violation {violation.pk}"
    inspection.save(update_fields=["violation_ref"])


# -- the round planner -----------------------------------------------------------------


def _km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Great-circle distance (haversine); good enough to order a round of stops."""
    lat1, lon1, lat2, lon2 = map(math.radians, (*a, *b))
    h = (
        math.sin((lat2 - lat1) / 2) ** 2
        + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    )
    return 6371.0 * 2 * math.asin(math.sqrt(h))


def nearest_neighbour_order(
    start: tuple[float, float], stops: list[tuple[Any, tuple[float, float]]]
) -> list[tuple[Any, float]]:
    """Stops in nearest-neighbour order from ``start``, each with the leg's km."""
    left = list(stops)
    here = start
    ordered = []
    while left:
        index = min(range(len(left)), key=lambda i: (_km(here, left[i][1]), i))
        item, point = left.pop(index)
        ordered.append((item, _km(here, point)))
        here = point
    return ordered


def round_plan(*, user: Any, villages: set[str], as_of: datetime.datetime) -> list[dict[str, Any]]:
    """The permits whose village inspection is owed in the period running at ``as_of``,
    overdue ones first, each group in nearest-neighbour driving order from the village's
    centre. A site inspected as often as the period needs leaves the round; a period that
    ended without it stays on the record as missed, and is named on the stop, but does not
    put the site at the top of every later round."""
    from siltfence.apps.duties.models import PermitDuties, SiteStation

    states = (
        PermitDuties.objects.filter(village_id__in=villages, permit__status=PermitStatus.ACTIVE)
        .select_related("permit__application__site")
        .order_by("permit_id")
    )
    points = {
        s.site_id: (s.latitude, s.longitude)
        for s in SiteStation.objects.filter(site__village_id__in=villages)
    }
    rows = []
    today = as_of.date().isoformat()
    for state in states:
        periods = [d for d in state.duties if d["kind"] == "municipal_inspection"]
        running = [d for d in periods if d["period"]["from"] <= today <= d["period"]["to"]]
        owed = [d for d in running if d["status"] != "met"]
        if not owed:
            continue
        duty = owed[0]
        missed = [d for d in periods if d["status"] != "met" and d["period"]["to"] < today]
        site = state.permit.application.site
        centre = load(state.village_id).map_centre
        rows.append(
            {
                "permit": state.permit,
                "site": site,
                "duty": duty,
                "overdue": duty["status"] == "overdue",
                "missed": [d["period"] for d in missed],
                "point": points.get(site.pk, centre),
                "village": state.village_id,
                "ordinance": load(state.village_id),
            }
        )
    plan = []
    for overdue in (True, False):
        group = [r for r in rows if r["overdue"] is overdue]
        if not group:
            continue
        start = load(group[0]["village"]).map_centre
        for row, leg in nearest_neighbour_order(start, [(r, r["point"]) for r in group]):
            plan.append({**row, "leg_km": round(leg, 1)})
    return plan
