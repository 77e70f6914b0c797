"""Demo enforcement records, through the services: in Spencer a violation with a
stop-work order and a notice of intent, the order under appeal by the permittee with its
hearing held and nothing yet recorded of it (the board's chair, or the Building Inspector,
records the roll and the votes); in New Glarus a stop-work order under appeal with its
hearing set, and a public report waiting for review. Idempotent."""

from __future__ import annotations

import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils import timezone

from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement.models import EnforcementAction, EnforcementCase
from siltfence.apps.enforcement.selectors import open_stop_work_order
from siltfence.apps.permits.models import Permit, Village
from siltfence.core.ordinance.loader import load


@transaction.atomic
def enforcement_demo_load(villages: dict[str, Village], users: dict[str, Any]) -> bool:
    if EnforcementCase.objects.exists():
        return False
    from siltfence.apps.appeals.services import appeal_file, appeal_hearing_schedule

    now = timezone.now()
    ago = lambda days: now - datetime.timedelta(days=days)  # noqa: E731

    def day_ago(days: int, village: str) -> datetime.date:
        """The village's own calendar day that many days ago (in the evening the day in
        UTC is already tomorrow's)."""
        return ago(days).astimezone(ZoneInfo(load(village).time_zone)).date()

    spencer_staff = users["spencer-building-inspector"]
    permit = (
        Permit.objects.filter(village_id="spencer-wi", status="active")
        .order_by("issued_on")
        .first()
    )
    if permit is not None:
        violation = s.violation_record(
            village=villages["spencer-wi"],
            recorded_by=users["spencer-field-inspector"],
            source="inspection",
            description="Silt fence down along the east lot line; sediment in the street gutter.",
            provision="§ 413-7B(5)(c)",
            days_from=day_ago(14, "spencer-wi"),
            at=ago(14),
            permit=permit,
            party_name="Becker Excavating",
            party_role="subcontractor",
        )
        case = violation.case
        s.stop_work_order_post(
            case=case, staff=spencer_staff, at=ago(13), grounds=["plan-not-followed"]
        )
        s.notice_of_intent_issue(
            case=case,
            staff=spencer_staff,
            at=ago(3),
            work="Reset and re-trench 200 feet of silt fence on the east line; sweep the street.",
        )
    ng_staff = users["newglarus-administrator"]
    ng_permit = (
        Permit.objects.filter(village_id="new-glarus-wi", status="active")
        .order_by("-issued_on")
        .first()
    )
    if ng_permit is not None:
        case = s.violation_record(
            village=villages["new-glarus-wi"],
            recorded_by=ng_staff,
            source="observation",
            description="Stockpile against the storm inlet on 2nd St, no barrier.",
            provision="§ 135-11",
            days_from=day_ago(6, "new-glarus-wi"),
            days_to=day_ago(5, "new-glarus-wi"),
            at=ago(5),
            permit=ng_permit,
        ).case
        order = s.stop_work_order_post(
            case=case, staff=ng_staff, at=ago(5), grounds=["conditions-not-met"]
        )
        appeal = appeal_file(
            village=villages["new-glarus-wi"],
            filed_by=ng_staff,
            on=day_ago(3, "new-glarus-wi"),
            appellant_name=ng_permit.application.applicant.get_full_name(),
            standing="aggrieved_person",
            grounds="The stockpile was moved the same afternoon; the barrier was in place.",
            action=order,
        )
        appeal_hearing_schedule(
            appeal=appeal,
            user=ng_staff,
            hearing_at=now + datetime.timedelta(days=10),
            notice_given_on=day_ago(2, "new-glarus-wi"),
            notice_to=f"{appeal.appellant_name}; the Village Administrator",
            place="Village Hall, 319 2nd St",
        )
    s.complaint_file(
        village=villages["new-glarus-wi"],
        description="Muddy water running from the new lots into the creek after the rain.",
        at=ago(1),
        address="Swiss Valley Subdivision, New Glarus",
        name="A neighbour",
        phone="608-555-0100",
    )
    return True


@transaction.atomic
def heard_appeal_demo_load(users: dict[str, Any]) -> bool:
    """Spencer's stop-work order appealed by the permittee, the hearing held yesterday at
    6 p.m. in the village and its roll not yet recorded, so the board can be seen deciding
    as a board: who sits, each motion and each vote. Added once (also beside a demo loaded
    before it), and only while the order is in force and Spencer has no appeal."""
    from siltfence.apps.appeals.models import Appeal
    from siltfence.apps.appeals.services import appeal_file, appeal_hearing_schedule

    village = "spencer-wi"
    if Appeal.objects.filter(village_id=village).exists():
        return False
    order = (
        EnforcementAction.objects.filter(
            case__village_id=village, case__application__isnull=False, kind="stop_work_order"
        )
        .select_related("case__village", "case__application__applicant")
        .order_by("at")
        .first()
    )
    if order is None or open_stop_work_order(order.case) != order:
        return False
    zone = ZoneInfo(load(village).time_zone)
    posted = order.at.astimezone(zone).date()
    heard = timezone.now().astimezone(zone).date() - datetime.timedelta(days=1)
    if heard <= posted:
        return False
    filed = min(posted + datetime.timedelta(days=2), heard)
    permittee = order.case.application.applicant
    appeal = appeal_file(
        village=order.case.village,
        filed_by=permittee,
        on=filed,
        appellant_name=permittee.get_full_name(),
        standing="permittee",
        grounds=(
            "The silt fence on the east line was reset the morning the order was posted; "
            "the sediment in the gutter came from the street work next door."
        ),
        action=order,
    )
    appeal_hearing_schedule(
        appeal=appeal,
        user=users["spencer-building-inspector"],
        hearing_at=datetime.datetime.combine(heard, datetime.time(18), tzinfo=zone),
        notice_given_on=max(filed, heard - datetime.timedelta(days=7)),
        notice_to=f"{appeal.appellant_name}; the Building Inspector",
        place="Village Hall",
    )
    return True
