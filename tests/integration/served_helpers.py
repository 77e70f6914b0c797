"""Cases with parties and mailing addresses on fixed dates, for the tests of service.

The standard pattern of the independent reading (service cases S-1 to S-18): the
violation is seen on Friday 2026-05-29, the stop-work order is posted on Monday 2026-06-01,
a copy is emailed that evening (opened 06-04), mailed first class on 06-02, handed over
on 06-03, and the mailed copy is received on 06-04.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.utils import timezone
from enforcement_helpers import at
from factories import FACTS, plan_pdf

from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement.models import EnforcementDocument
from siltfence.apps.permits import services
from siltfence.apps.permits.models import DocumentKind, Permit, Village

OWNER = {
    "name": "Pat Owner",
    "email": "pat@example.org",
    "phone": "715-555-0101",
    "street": "PO Box 12",
    "city": "Wausau",
    "state": "WI",
    "zip_code": "54401",
}
LAND_USER = {
    "role": "land_user",
    "name": "Lee Builder LLC",
    "email": "lee@example.org",
    "phone": "715-555-0102",
    "street": "88 Elm St",
    "city": "Marshfield",
    "state": "WI",
    "zip_code": "54449-1234",
}
ENGINEER = {
    "role": "engineer",
    "name": "Erin Engineer",
    "street": "1 Plan Rd",
    "city": "Madison",
    "state": "WI",
    "zip_code": "53703",
}
CONTRACTOR = {"role": "contractor", "name": "Cal Contractor", "phone": "715-555-0103"}
CONTACT = {"role": "on_site_contact", "name": "Sam Foreman", "phone": "715-555-0104"}


def day(text: str) -> datetime.date:
    return datetime.date.fromisoformat(text)


def permit_with_parties(
    applicant: Any,
    staff: Any,
    village: str,
    *,
    parties: list[dict[str, str]] | None = None,
    address: str = "220 S Pacific St",
    filed: str = "2026-04-20",
    approved: str = "2026-04-22",
) -> Permit:
    """A permit through the services, its application naming the owner (the village's
    applicant role) with a mailing address, and the others given."""
    place = Village.objects.get(pk=village)
    if parties is None:
        role = "landowner" if village == "spencer-wi" else "responsible_party"
        parties = [{"role": role, **OWNER}]
    application = services.application_create(
        applicant=applicant,
        village=place,
        address=address,
        facts=FACTS[village],
        on=day(filed),
        description="service test",
        parties=parties,
    )
    contents = (application.determination.get("plan") or {}).get("contents", [])
    services.application_checklist_set(
        application=application, user=applicant, items=list(range(len(contents)))
    )
    services.document_upload(
        application=application,
        user=applicant,
        kind=DocumentKind.PLAN_STATEMENT
        if application.plan_kind == "control_plan_statement"
        else DocumentKind.PLAN,
        name="plan.pdf",
        content=plan_pdf(address),
        claimed_type="application/pdf",
    )
    services.application_submit(application=application, user=applicant, at=at(filed, 10))
    services.application_approve(application=application, staff=staff, at=at(approved, 10))
    return Permit.objects.get(application=application)


def case_of(permit: Permit, staff: Any, seen: str = "2026-05-29", to: str | None = None) -> Any:
    provision = "§ 413-7B(4)" if permit.village_id == "spencer-wi" else "§ 135-6"
    return s.violation_record(
        village=permit.village,
        recorded_by=staff,
        source="observation",
        description="No inlet protection on the street inlet.",
        provision=provision,
        days_from=day(seen),
        days_to=day(to) if to else None,
        at=at(seen, 9),
        permit=permit,
    ).case


def unpermitted_case(
    staff: Any, village: str, *, address: str, party: str = "", seen: str = "2026-05-29"
) -> Any:
    provision = "§ 413-7B(4)" if village == "spencer-wi" else "§ 135-6"
    return s.violation_record(
        village=Village.objects.get(pk=village),
        recorded_by=staff,
        source="observation",
        description="Grading with no permit.",
        provision=provision,
        days_from=day(seen),
        days_to=day(seen),
        at=at(seen, 9),
        address=address,
        party_name=party,
        party_role="land_user" if party else "unknown",
    ).case


def seen_again(case: Any, staff: Any, on: str) -> Any:
    """Activity seen going on again on ``on`` (a violation of that one day)."""
    provision = "§ 413-7B(4)" if case.village_id == "spencer-wi" else "§ 135-6"
    permit = Permit.objects.filter(application_id=case.application_id).first()
    return s.violation_record(
        village=case.village,
        recorded_by=staff,
        source="observation",
        description="Grading went on.",
        provision=provision,
        days_from=day(on),
        days_to=day(on),
        at=at(on, 16),
        permit=permit,
        address="" if permit else case.address,
    )


def document_of(action: Any) -> EnforcementDocument:
    return EnforcementDocument.objects.get(action=action)


def post(case: Any, staff: Any, when: datetime.datetime, ground: str = "conditions-not-met") -> Any:
    return s.stop_work_order_post(case=case, staff=staff, at=when, grounds=[ground])


def standard_copies(document: EnforcementDocument, staff: Any, party: Any = None) -> None:
    """The standard pattern's copies of a notice: emailed 06-01 18:00 (opened 06-04),
    mailed first class 06-02 (received 06-04), handed over 06-03."""
    to = {"party": party} if party is not None else {"to_name": "Pat Owner"}
    address = {"street": "PO Box 12", "city": "Wausau", "state": "WI", "zip_code": "54401"}
    s.document_serve(
        document=document,
        user=staff,
        method="emailed",
        at=at("2026-06-01", 18),
        email="pat@example.org",
        received_on=day("2026-06-04"),
        received_how="reply",
        **to,
    )
    s.document_serve(
        document=document,
        user=staff,
        method="mailed_first_class",
        at=at("2026-06-02", 11),
        address=address,
        received_on=day("2026-06-04"),
        **to,
    )
    s.document_serve(
        document=document, user=staff, method="handed_over", at=at("2026-06-03", 10), **to
    )


def allowed(case: Any, when: datetime.datetime) -> dict[str, dict[str, Any]]:
    from siltfence.apps.enforcement.selectors import case_timeline

    return {a["action"]: a for a in case_timeline(case, when).to_json()["allowed_actions"]}


def notes(case: Any, when: datetime.datetime) -> dict[str, str]:
    from siltfence.apps.enforcement.selectors import case_timeline

    return {n["id"]: n["says"] for n in case_timeline(case, when).to_json()["notes"]}


def now() -> datetime.datetime:
    return timezone.now()
