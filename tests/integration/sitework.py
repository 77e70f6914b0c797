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


# The station each village's test sites (no drawing: the village's centre) read their rain
# at: the nearest with a record.
RECORDING = {"spencer-wi": "USC00475120", "new-glarus-wi": "USC00475674"}  # Marshfield, Mt Horeb


def station_with_record(*, site):
    """The site's station, once the station it should read has a day on record (a dry one,
    the day its permit was issued): a station with no record for a permit's days is never
    chosen (gap 26)."""
    from siltfence.apps.duties.stations import site_station_assign
    from siltfence.apps.rain.days import rain_days_record

    permit = Permit.objects.filter(application__site=site).order_by("-issued_on").first()
    day = permit.issued_on if permit is not None else datetime.date.today()
    rain_days_record(station_id=RECORDING[site.village_id], days={day: 0}, source="test")
    return site_station_assign(site=site)
