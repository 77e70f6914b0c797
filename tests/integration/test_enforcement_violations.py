"""Violations: found by the village, reported by the public, reviewed by staff."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from enforcement_helpers import at, permit_filed_on
from factories import NEW_GLARUS, SPENCER, People, plan_pdf

from siltfence.apps.audit.models import AuditEvent
from siltfence.apps.enforcement import errors
from siltfence.apps.enforcement.models import Violation, ViolationPhoto
from siltfence.apps.enforcement.services import (
    ActionRefused,
    Photo,
    complaint_file,
    violation_record,
    violation_review,
)
from siltfence.apps.permits.models import TimelineEvent

pytestmark = pytest.mark.django_db

PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"
    b"\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00"
    b"\x00\x00\x00IEND\xaeB`\x82"
)


@pytest.fixture
def spencer_permit(people: People) -> Any:
    return permit_filed_on(
        applicant=people.applicant_a,
        village=SPENCER,
        staff=people.staff[SPENCER],
        filed="2026-06-01",
        address="12 Park St, Spencer",
    )


def test_an_inspector_records_a_violation_on_a_permit_with_its_section_and_photo(
    people: People, spencer_permit: Any
) -> None:
    violation = violation_record(
        village=spencer_permit.village,
        recorded_by=people.inspector[SPENCER],
        source="inspection",
        description="Silt fence down along the east lot line.",
        provision="413-7B(5)(c)",
        days_from=datetime.date(2026, 7, 1),
        at=at("2026-07-01", 10),
        permit=spencer_permit,
        party_name="Acme Grading",
        party_role="subcontractor",
        photos=[Photo("fence.png", PNG, "image/png")],
    )
    assert violation.provision == "§ 413-7B(5)(c)"
    assert violation.provision_heading == "Applicability and requirements"
    assert violation.case.application_id == spencer_permit.application_id
    event = TimelineEvent.objects.get(application=spencer_permit.application, type="violation")
    assert event.fields == {
        "id": f"violation-{violation.pk}",
        "from": "2026-07-01",
        "to": "2026-07-01",
    }
    assert ViolationPhoto.objects.get(violation=violation).content_type == "image/png"
    assert AuditEvent.objects.filter(
        action="violation_record", entity_id=violation.case_id
    ).exists()


def test_a_photo_downloads_under_the_type_found_in_it_not_the_name_it_came_with(
    people: People, spencer_permit: Any
) -> None:
    from django.test import Client

    violation = violation_record(
        village=spencer_permit.village,
        recorded_by=people.inspector[SPENCER],
        source="inspection",
        description="Silt fence down along the east lot line.",
        provision="413-7B(5)(c)",
        days_from=datetime.date(2026, 7, 1),
        at=at("2026-07-01", 10),
        permit=spencer_permit,
        photos=[Photo("a.png.html", PNG, "image/png")],
    )
    photo = ViolationPhoto.objects.get(violation=violation)
    client = Client()
    client.force_login(people.staff[SPENCER])
    response = client.get(f"/enforcement/photos/{photo.pk}/")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert response["Content-Disposition"] == 'attachment; filename="a.png.png"'


def test_a_violation_at_a_site_with_no_permit_binds_any_person(
    people: People, villages: Any
) -> None:
    violation = violation_record(
        village=villages[NEW_GLARUS],
        recorded_by=people.staff[NEW_GLARUS],
        source="observation",
        description="Hauler tracking mud onto 2nd St.",
        provision="§ 135-11",
        days_from=datetime.date(2026, 7, 2),
        days_to=datetime.date(2026, 7, 3),
        at=at("2026-07-03"),
        address="400 2nd St, New Glarus",
        party_name="Dirt Movers LLC",
        party_role="hauler",
    )
    assert violation.case.application_id is None
    assert list(violation.case.events.values_list("type", "fields")) == [
        ("violation", {"id": f"violation-{violation.pk}", "from": "2026-07-02", "to": "2026-07-03"})
    ]


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        (
            {"provision": "§ 999-1"},
            "provision",
            "provision: § 999-1 is not a section of Village of Spencer Ch. 413",
        ),
        ({"provision": ""}, "provision", errors.PROVISION_REQUIRED.format(example="§ 413-10A")),
        ({"description": "  "}, "description", errors.DESCRIPTION_REQUIRED),
        (
            {"days_to": datetime.date(2026, 6, 30)},
            "days_to",
            "days to: the violation cannot end (2026-06-30) before it begins (2026-07-01)",
        ),
        (
            {"days_from": datetime.date(2026, 7, 2)},
            "days_from",
            "days from: a violation cannot begin after the day it is recorded (2026-07-01)",
        ),
        (
            {"source": "complaint"},
            "source",
            "source: choose one of municipal inspection, staff observation",
        ),
        (
            {"photos": [Photo("plan.pdf", plan_pdf("x"), "application/pdf")]},
            "photos",
            errors.PHOTO_TYPE.format(name="plan.pdf"),
        ),
    ],
)
def test_a_violation_with_bad_input_is_refused_naming_the_field_and_nothing_is_written(
    people: People, villages: Any, changes: dict[str, Any], field: str, message: str
) -> None:
    values: dict[str, Any] = {
        "village": villages[SPENCER],
        "recorded_by": people.staff[SPENCER],
        "source": "observation",
        "description": "Inlet unprotected.",
        "provision": "§ 413-7B(4)",
        "days_from": datetime.date(2026, 7, 1),
        "at": at("2026-07-01"),
        "address": "5 Main St, Spencer",
        **changes,
    }
    with pytest.raises(ActionRefused) as refused:
        violation_record(**values)
    assert refused.value.field == field
    assert str(refused.value) == message
    assert not Violation.objects.exists()


def test_an_applicant_or_another_villages_staff_cannot_record_a_violation(
    people: People, villages: Any
) -> None:
    for who in (people.applicant_a, people.staff[NEW_GLARUS], people.board[SPENCER]):
        with pytest.raises(ActionRefused) as refused:
            violation_record(
                village=villages[SPENCER],
                recorded_by=who,
                source="observation",
                description="x",
                provision="§ 413-7",
                days_from=datetime.date(2026, 7, 1),
                at=at("2026-07-01"),
                address="5 Main St",
            )
        assert refused.value.field == "village"


def test_a_public_complaint_waits_for_review_and_a_finding_puts_it_on_the_record(
    people: People, villages: Any
) -> None:
    complaint = complaint_file(
        village=villages[SPENCER],
        description="Mud all over the street by the new houses.",
        at=at("2026-07-01", 8),
        latitude=44.7573,
        longitude=-90.2966,
        name="Pat Neighbor",
        email="pat@example.org",
    )
    assert (complaint.status, complaint.source, complaint.case_id) == (
        "reported",
        "complaint",
        None,
    )
    found = violation_review(
        violation=complaint,
        staff=people.staff[SPENCER],
        at=at("2026-07-01", 11),
        found=True,
        provision="§ 413-7B(3)",
        note="Seen on site; tracking onto Park St.",
    )
    assert found.status == "found"
    assert found.case.events.get().fields["from"] == "2026-07-01"
    with pytest.raises(ActionRefused) as again:
        violation_review(
            violation=found, staff=people.staff[SPENCER], at=at("2026-07-02"), found=False
        )
    assert again.value.field == "violation"


def test_a_complaint_needs_a_way_to_reach_the_complainant(villages: Any) -> None:
    with pytest.raises(ActionRefused) as refused:
        complaint_file(
            village=villages[SPENCER], description="Mud.", at=at("2026-07-01"), address="1 Main St"
        )
    assert str(refused.value) == errors.CONTACT_REQUIRED
    assert refused.value.field == "contact"
