"""Permits on fixed dates for the tests of the sweep, the site log, reminders and the
village's inspections: every step goes through the real services."""

from __future__ import annotations

import datetime
from zoneinfo import ZoneInfo

from factories import FACTS, plan_pdf

from siltfence.apps.permits import services
from siltfence.apps.permits.models import DocumentKind, Permit, Village

CHICAGO = ZoneInfo("America/Chicago")


def local(*args: int) -> datetime.datetime:
    return datetime.datetime(*args, tzinfo=CHICAGO)


def permit_issued(
    *,
    applicant,
    staff,
    village: str,
    filed: datetime.datetime,
    address: str = "220 S Pacific St",
    approved: datetime.datetime | None = None,
    plan: dict | None = None,
) -> Permit:
    """An application filed at ``filed`` and approved two days later (or at ``approved``)."""
    place = Village.objects.get(pk=village)
    application = services.application_create(
        applicant=applicant,
        village=place,
        address=address,
        facts=FACTS[village],
        on=filed.astimezone(CHICAGO).date(),
        description="test project",
        parties=[{"role": "landowner", "name": "Alex Schmid"}],
    )
    if plan is not None:
        from siltfence.apps.plans.services import control_plan_save

        control_plan_save(application=application, user=applicant, plan_json=plan)
        application.refresh_from_db()
    contents = (application.determination.get("plan") or {}).get("contents", [])
    services.application_checklist_set(
        application=application, user=applicant, items=list(range(len(contents)))
    )
    services.document_upload(
        application=application,
        user=applicant,
        kind=DocumentKind.PLAN
        if application.plan_kind != "control_plan_statement"
        else DocumentKind.PLAN_STATEMENT,
        name="plan.pdf",
        content=plan_pdf(address),
        claimed_type="application/pdf",
    )
    services.application_submit(application=application, user=applicant, at=filed)
    return services.application_approve(
        application=application,
        staff=staff,
        at=approved or filed + datetime.timedelta(days=2),
    )
