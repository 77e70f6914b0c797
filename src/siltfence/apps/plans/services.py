"""Every change to control plans: ``control_plan_save``.

A save never edits a revision: it checks the whole plan with the core
(``review_plan``: strict reading, geometry checks, areas in EPSG:3071), then adds the next
revision with the areas the core measured, and appends the change to the audit chain, in
one transaction holding the application's row lock.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
from typing import Any
from zoneinfo import ZoneInfo

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from siltfence.apps.accounts.rules import is_applicant_of, is_staff_of
from siltfence.apps.audit.chain import event_record
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import Application, ApplicationStatus
from siltfence.apps.permits.services import application_facts_update
from siltfence.apps.plans import errors
from siltfence.apps.plans.models import ControlPlan
from siltfence.core.dates import DateRefused, read_date
from siltfence.core.engineering.report import PlanReport, review_plan
from siltfence.core.ordinance.loader import load

# Who may change the plan, by status. An applicant edits while the plan is theirs to
# change: before filing, and when the authority asks for information. Staff may correct
# it while it is under review. After a decision a change is a plan amendment.
APPLICANT_STATUSES = {ApplicationStatus.DRAFT, ApplicationStatus.INFORMATION_REQUESTED}
STAFF_STATUSES = {*APPLICANT_STATUSES, ApplicationStatus.UNDER_REVIEW}


def plan_evaluation_date(application: Application, plan_json: Any) -> datetime.date:
    """The plan's own ``on``, else today in the village's time zone (as the web form does)."""
    if isinstance(plan_json, dict) and isinstance(plan_json.get("on"), str):
        try:
            return read_date(plan_json["on"])
        except DateRefused:
            pass  # review_plan names the field
    zone = ZoneInfo(load(application.village_id).time_zone)
    return timezone.now().astimezone(zone).date()


def control_plan_check(*, application: Application, plan_json: Any) -> PlanReport:
    """Review a plan for this application without saving it; raises naming the field."""
    if not isinstance(plan_json, dict):
        raise ActionRefused(errors.NOT_AN_OBJECT, field="plan")
    given = plan_json.get("jurisdiction")
    if given != application.village_id:
        raise ActionRefused(
            errors.WRONG_JURISDICTION.format(village=application.village_id, given=given),
            field="plan.jurisdiction",
        )
    return review_plan(plan_json, on=plan_evaluation_date(application, plan_json))


def _may_change(user: Any, application: Application) -> None:
    ordinance = load(application.village_id)
    staff = is_staff_of(user, application)
    if not staff and not is_applicant_of(user, application):
        raise ActionRefused(
            errors.NOT_ALLOWED.format(authority=ordinance.authority_title), field="application"
        )
    allowed = STAFF_STATUSES if staff else APPLICANT_STATUSES
    if application.status in allowed:
        return
    if application.status in (ApplicationStatus.APPROVED, ApplicationStatus.DISAPPROVED):
        raise ActionRefused(
            errors.DECIDED.format(
                status=application.get_status_display().lower(),
                citation=load(application.village_id).rules["permit"]["amendment_citation"],
            ),
            field="status",
        )
    raise ActionRefused(
        errors.NOT_ALLOWED.format(authority=ordinance.authority_title), field="application"
    )


def control_plan_refusal(*, user: Any, application: Application) -> ActionRefused | None:
    """Why ``user`` may not change this application's plan now, or None if they may."""
    try:
        _may_change(user, application)
    except ActionRefused as exc:
        return exc
    return None


def control_plan_report(*, control_plan: ControlPlan) -> PlanReport:
    """The design-check report of a stored revision, judged on the date it was saved."""
    return review_plan(control_plan.plan, on=control_plan.evaluated_on)


def _sha256(plan_json: Any) -> str:
    canonical = json.dumps(plan_json, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def control_plan_save(*, application: Application, user: Any, plan_json: Any) -> ControlPlan:
    """Add the next revision of the application's control plan.

    Refused (``ActionRefused`` or the core's ``EngineeringInputError``, each naming the
    field) unless ``user`` may change the plan in the application's status and the plan
    reads and measures cleanly. Nothing is written on refusal.
    """
    _may_change(user, application)  # cheap: refuse before the geometry work
    report = control_plan_check(application=application, plan_json=plan_json)
    areas = report.areas
    with transaction.atomic():
        locked = Application.objects.select_for_update().get(pk=application.pk)
        _may_change(user, locked)  # the status may have changed since
        last = locked.control_plans.aggregate(last=Max("revision"))["last"] or 0
        saved = ControlPlan.objects.create(
            application=locked,
            revision=last + 1,
            plan=plan_json,
            plan_sha256=_sha256(plan_json),
            disturbed_area_ft2=areas.disturbed_area_ft2,
            area_disturbed_at_one_time_ft2=areas.area_disturbed_at_one_time_ft2,
            at_one_time_on=areas.at_one_time_on,
            evaluated_on=report.evaluated_on,
            summary=report.summary,
            created_by=user,
        )
        event_record(
            actor=user,
            entity="application",
            entity_id=locked.pk,
            action="control_plan_save",
            village=locked.village_id,
            # The section that requires the plan: the report's checklist, else the filing's.
            citation=report.checklist.citation
            or (locked.determination.get("plan") or {}).get("citation", ""),
            before={"control_plan_revision": last or None},
            after={
                "control_plan": saved.pk,
                "control_plan_revision": saved.revision,
                "plan_sha256": saved.plan_sha256,
                "features": len(plan_json["site"].get("features") or []),
                "disturbed_area_ft2": round(saved.disturbed_area_ft2, 1),
                "area_disturbed_at_one_time_ft2": round(saved.area_disturbed_at_one_time_ft2, 1),
                "evaluated_on": saved.evaluated_on.isoformat(),
            },
        )
        if locked.status == ApplicationStatus.DRAFT and saved.disturbed_area_ft2 > 0:
            _facts_from_geometry(locked, user, saved, report)
    application.refresh_from_db()
    return saved


def _facts_from_geometry(
    locked: Application, user: Any, saved: ControlPlan, report: PlanReport
) -> None:
    """Geometry feeds the determination: a draft's typed areas give way to the measured
    ones. A drawing the chapter would not cover (yet) leaves the filing's facts as they
    were; the map page shows both figures."""
    # A refusal comes before anything is written, so suppressing it leaves no trace.
    with contextlib.suppress(ActionRefused):
        application_facts_update(
            application=locked,
            user=user,
            facts={
                **locked.facts,
                "disturbed_area": round(saved.disturbed_area_ft2, 1),
                "area_disturbed_at_one_time": round(saved.area_disturbed_at_one_time_ft2, 1),
            },
            on=report.evaluated_on,
            reason=f"areas measured on control plan revision {saved.revision}",
        )
