"""The documents follow the record: an extension writes its letter and a new permit
document (the earlier one kept, marked superseded), closeout writes its letter, and a
retraction writes a letter saying what was lifted and through which day the permit is in
force (README, "Documents and the record").

The law:

- § 413-8E(1), § 135-7G: permits "shall be valid for a period of 180 days, or the length
  of the building permit or other construction authorizations, whichever is longer, from
  the date of issuance. The [Building Inspector / Village Administrator] may extend the
  period one or more times for up to an additional 180 days."
- § 413-8E(2), § 135-7D: "As a condition of approval and issuance of the permit, the
  [authority] may require the applicant to deposit a surety bond or irrevocable letter of
  credit".
- § 135-13 (New Glarus): final stabilization is "a uniform perennial vegetative cover ...
  with a density of at least 70% of the cover ... or employment of equivalent permanent
  stabilization measures", once "all land-disturbing construction activities at the
  construction site have been completed". Spencer's chapter sets no density; its rules
  data closes a permit under § 413-6 on what the Building Inspector records.
- § 413-10D (Spencer): "The Building Inspector or the Zoning Board of Appeals upon appeal
  may retract the stop-work order or the revocation." § 135-11D (New Glarus): "The Zoning
  Board of Appeals may retract the stop-work order ... or the permit revocation": the
  Village Administrator may not.

Worked by hand (the day of issue excluded; a validity period does not move off a weekend
or holiday in this program, gap permit-validity):

- The surety is received, and the permit issued, on Thursday 2026-05-14: 17 days to the
  end of May, then 30, 31, 31, 30, 31 (170 on October 31) and 10 in November: the last day
  is Tuesday 2026-11-10.
- Extended on 2026-11-02 by 30 days: 20 days to November 30, 10 in December: the new last
  day is Thursday 2026-12-10.
- Extended again on 2026-12-01 by 30 days: 21 days to December 31, 9 in January: Saturday
  2027-01-09.
- Spencer stop-work order posted Tuesday 2026-10-20; § 413-10B gives "10 days" to comply,
  the tenth being Friday 2026-10-30, so revocation is open from 2026-10-31; it is revoked
  on 2026-11-02.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

import factories
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from factories import NEW_GLARUS, SPENCER, VILLAGES, People, make_application, text_of
from season_helpers import pdf_text

from siltfence.apps.audit.models import AuditEvent
from siltfence.apps.enforcement import services as enforcement
from siltfence.apps.enforcement.models import EnforcementAction, EnforcementDocument
from siltfence.apps.enforcement.services import ActionRefused as EnforcementRefused
from siltfence.apps.permits import services
from siltfence.apps.permits.clocks import application_timeline
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import Document, DocumentKind, Permit

pytestmark = pytest.mark.django_db

CHICAGO = ZoneInfo("America/Chicago")
ISSUED = datetime.date(2026, 5, 14)
LAST_DAY = datetime.date(2026, 11, 10)
EXTENDED_ON = datetime.date(2026, 11, 2)
LAST_DAY_AFTER_ONE = datetime.date(2026, 12, 10)
EXTENDED_AGAIN_ON = datetime.date(2026, 12, 1)
LAST_DAY_AFTER_TWO = datetime.date(2027, 1, 9)

PERIOD_CITE = {SPENCER: "§ 413-8E(1)", NEW_GLARUS: "§ 135-7G"}
SURETY_CITE = {SPENCER: "§ 413-8E(2)", NEW_GLARUS: "§ 135-7D"}
CLOSE_CITE = {SPENCER: "§ 413-6", NEW_GLARUS: "§ 135-13"}
AUTHORITY = {SPENCER: "Building Inspector", NEW_GLARUS: "Village Administrator"}
MEASURES = "A second row of silt fence on the east line"


def at(day: str, hour: int = 9, minute: int = 0) -> datetime.datetime:
    """A moment in the villages' zone (both are in Central time)."""
    return datetime.datetime.combine(
        datetime.date.fromisoformat(day), datetime.time(hour, minute), tzinfo=CHICAGO
    )


def issued_permit(people: People, village: str, address: str) -> Permit:
    """Filed 2026-05-01, approved 2026-05-05 subject to a $5,000 letter of credit, which is
    received (and the permit issued) on 2026-05-14."""
    application = make_application(
        applicant=people.applicant_a,
        village=village,
        state="under_review",
        staff=people.staff[village],
        address=address,
        days_ago=(timezone.localdate() - datetime.date(2026, 5, 1)).days,
    )
    services.application_approve(
        application=application,
        staff=people.staff[village],
        at=at("2026-05-05", 10),
        surety=Decimal("5000"),
    )
    permit = services.surety_receive(
        application=application,
        staff=people.staff[village],
        kind="letter_of_credit",
        amount=Decimal("5000"),
        issuer="Marathon County Bank",
        reference="LC-2026-14",
        at=at("2026-05-14", 16),
    )
    assert (permit.issued_on, permit.expires_on) == (ISSUED, LAST_DAY)
    return permit


def permit_documents(permit: Permit) -> list[Document]:
    return list(
        Document.objects.filter(application=permit.application, kind=DocumentKind.PERMIT).order_by(
            "id"
        )
    )


def latest_text(permit: Permit, kind: str) -> str:
    document = permit.application.documents.filter(kind=kind).order_by("-id").first()
    assert document is not None, f"no {kind} for permit {permit.number}"
    return pdf_text(document.file)


# -- extension ---------------------------------------------------------------------------------


@pytest.mark.parametrize("village", VILLAGES)
def test_an_extension_writes_its_letter_and_a_new_permit_document_superseding_the_first(
    people: People, village: str
) -> None:
    permit = issued_permit(people, village, "60 Record Rd")
    (first,) = permit_documents(permit)
    assert first.superseded_by is None

    services.permit_extend(
        permit=permit,
        staff=people.staff[village],
        days=30,
        on=EXTENDED_ON,
        added_measures=MEASURES,
    )
    permit.refresh_from_db()
    # "extend the period ... for up to an additional 180 days": from the last day, not from
    # the day the extension is granted.
    assert permit.expires_on == LAST_DAY_AFTER_ONE

    earlier, later = permit_documents(permit)
    assert earlier.pk == first.pk
    assert earlier.superseded_by_id == later.pk
    assert later.superseded_by is None
    # The earlier document is kept as it was issued.
    old = pdf_text(earlier.file)
    assert "Valid through: November 10, 2026" in old
    assert "Extended on" not in old
    new = pdf_text(later.file)
    assert f"PERMIT No. {permit.number}" in new
    assert "Issued: May 14, 2026" in new
    assert "Valid through: December 10, 2026" in new
    assert (
        "Extended on November 2, 2026 by 30 days, from November 10, 2026 to December 10, 2026 "
        f"[{PERIOD_CITE[village]}]; added control measures: {MEASURES}"
    ) in new
    # The surety stays on the permit's face.
    assert "letter of credit of $5,000.00" in new and f"[{SURETY_CITE[village]}]" in new

    letter = latest_text(permit, DocumentKind.EXTENSION_LETTER)
    assert f"EXTENSION OF PERMIT No. {permit.number}" in letter
    assert "Extended: November 2, 2026" in letter
    assert (
        f"The {AUTHORITY[village]} extends this permit by 30 days [{PERIOD_CITE[village]}]. "
        "It was valid through November 10, 2026; it is now valid through December 10, 2026."
    ) in letter
    assert f"a condition of the extension [{PERIOD_CITE[village]}]: {MEASURES}" in letter

    actions = list(
        AuditEvent.objects.filter(entity="application", entity_id=permit.application_id)
        .filter(action__in=["permit_generate", "extension_letter_generate"])
        .order_by("seq")
        .values_list("action", "after__document")
    )
    assert actions == [
        ("permit_generate", first.pk),
        ("extension_letter_generate", permit.application.documents.get(kind="extension_letter").pk),
        ("permit_generate", later.pk),
    ]


def test_a_second_extension_chains_the_superseded_documents(people: People) -> None:
    permit = issued_permit(people, SPENCER, "61 Record Rd")
    staff = people.staff[SPENCER]
    services.permit_extend(permit=permit, staff=staff, days=30, on=EXTENDED_ON)
    services.permit_extend(permit=permit, staff=staff, days=30, on=EXTENDED_AGAIN_ON)
    permit.refresh_from_db()
    assert permit.expires_on == LAST_DAY_AFTER_TWO

    one, two, three = permit_documents(permit)
    assert (one.superseded_by_id, two.superseded_by_id, three.superseded_by_id) == (
        two.pk,
        three.pk,
        None,
    )
    text = pdf_text(three.file)
    assert "Valid through: January 9, 2027" in text
    assert (
        "Extended on November 2, 2026 by 30 days, from November 10, 2026 to December 10, 2026"
        in text
    )
    assert (
        "Extended on December 1, 2026 by 30 days, from December 10, 2026 to January 9, 2027" in text
    )
    assert "added control measures" not in text
    assert permit.application.documents.filter(kind=DocumentKind.EXTENSION_LETTER).count() == 2
    second = latest_text(permit, DocumentKind.EXTENSION_LETTER)
    assert "It was valid through December 10, 2026; it is now valid through January 9, 2027." in (
        second
    )

    # The permit page lists them all, the two earlier permit documents marked.
    client = Client()
    client.force_login(staff, backend=factories.ModelBackend)
    page = text_of(client.get(reverse("web:permit", args=[permit.pk])))
    assert page.count("superseded by a later permit document") == 2
    assert page.count("Extension letter") == 2
    assert "Approval subject to a surety" in page


@pytest.mark.parametrize(
    ("days", "on"),
    [(181, EXTENDED_ON), (0, EXTENDED_ON), (30, datetime.date(2026, 11, 11))],
    ids=["181 days", "0 days", "after the last day"],
)
def test_a_refused_extension_writes_no_document(
    people: People, days: int, on: datetime.date
) -> None:
    # "for up to an additional 180 days"; and a period that has ended is no longer there to
    # extend (its last day was 2026-11-10).
    permit = issued_permit(people, NEW_GLARUS, "62 Record Rd")
    documents, audit = Document.objects.count(), AuditEvent.objects.count()
    with pytest.raises(ActionRefused):
        services.permit_extend(permit=permit, staff=people.staff[NEW_GLARUS], days=days, on=on)
    assert (Document.objects.count(), AuditEvent.objects.count()) == (documents, audit)
    permit.refresh_from_db()
    assert permit.expires_on == LAST_DAY


def test_an_extension_on_the_last_day_itself_is_granted(people: People) -> None:
    permit = issued_permit(people, SPENCER, "63 Record Rd")
    services.permit_extend(permit=permit, staff=people.staff[SPENCER], days=180, on=LAST_DAY)
    permit.refresh_from_db()
    # 2026-11-10 + 180: 20 (November), 51 (December), 82 (January), 110 (February), 141
    # (March), 171 (April), and 9 in May: 2027-05-09.
    assert permit.expires_on == datetime.date(2027, 5, 9)
    assert "Valid through: May 9, 2027" in latest_text(permit, DocumentKind.PERMIT)


# -- closeout ----------------------------------------------------------------------------------


@pytest.mark.parametrize("village", VILLAGES)
def test_closing_the_permit_writes_the_closeout_letter_with_the_section_and_the_cover(
    people: People, village: str
) -> None:
    permit = issued_permit(people, village, "70 Record Rd")
    services.permit_close(
        permit=permit,
        staff=people.staff[village],
        on=datetime.date(2026, 11, 5),
        cover_percent=85,
        activities_completed=True,
    )
    permit.refresh_from_db()
    assert permit.status == "closed"
    text = latest_text(permit, DocumentKind.CLOSEOUT_LETTER)
    assert f"CLOSEOUT OF PERMIT No. {permit.number}" in text
    assert "Closed: November 5, 2026" in text
    assert (
        f"The {AUTHORITY[village]} closes this permit at final stabilization "
        f"[{CLOSE_CITE[village]}]."
    ) in text
    assert "Perennial cover found: 85%." in text
    if village == NEW_GLARUS:
        assert (
            "Recorded: all land-disturbing construction activities at the construction site "
            "have been completed."
        ) in text
    # The letter of credit is still held: closing is not releasing it.
    assert (
        "The surety is not released by this letter; its release is written separately "
        f"[{SURETY_CITE[village]}]."
    ) in text
    assert AuditEvent.objects.filter(
        entity="application", entity_id=permit.application_id, action="closeout_letter_generate"
    ).exists()


def test_a_new_glarus_closeout_on_equivalent_measures_names_them(people: People) -> None:
    permit = issued_permit(people, NEW_GLARUS, "71 Record Rd")
    surety = permit.sureties.get()
    services.surety_release(
        surety=surety, staff=people.staff[NEW_GLARUS], on=datetime.date(2026, 11, 4)
    )
    services.permit_close(
        permit=permit,
        staff=people.staff[NEW_GLARUS],
        on=datetime.date(2026, 11, 5),
        cover_percent=None,
        equivalent_measures="Rock mulch on the slope",
        activities_completed=True,
    )
    text = latest_text(permit, DocumentKind.CLOSEOUT_LETTER)
    assert "[§ 135-13]" in text
    assert "Equivalent permanent stabilization measures: Rock mulch on the slope." in text
    assert "Perennial cover found" not in text
    # Released in full before the closing: nothing left to say about it.
    assert "The surety is not released" not in text


def test_a_new_glarus_closeout_short_of_70_percent_is_refused_and_writes_nothing(
    people: People,
) -> None:
    # § 135-13: "a density of at least 70% of the cover"; 69% with no equivalent measures
    # is not final stabilization.
    permit = issued_permit(people, NEW_GLARUS, "72 Record Rd")
    documents = Document.objects.count()
    with pytest.raises(ActionRefused) as refused:
        services.permit_close(
            permit=permit,
            staff=people.staff[NEW_GLARUS],
            on=datetime.date(2026, 11, 5),
            cover_percent=69,
            activities_completed=True,
        )
    assert refused.value.field == "cover" and "70" in str(refused.value)
    assert Document.objects.count() == documents
    permit.refresh_from_db()
    assert permit.status == "active"


# -- retraction --------------------------------------------------------------------------------


def spencer_revoked(people: People, address: str) -> tuple[Any, Permit]:
    """A Spencer permit (last day 2026-11-10) under a stop-work order of 2026-10-20,
    revoked on 2026-11-02."""
    permit = issued_permit(people, SPENCER, address)
    staff = people.staff[SPENCER]
    case = enforcement.violation_record(
        village=permit.village,
        recorded_by=staff,
        source="observation",
        description="No inlet protection on the street inlet.",
        provision="§ 413-7B(4)",
        days_from=datetime.date(2026, 10, 19),
        at=at("2026-10-19"),
        permit=permit,
    ).case
    enforcement.stop_work_order_post(
        case=case, staff=staff, at=at("2026-10-20", 10), grounds=["conditions-not-met"]
    )
    enforcement.permit_revoke(
        case=case, staff=staff, at=at("2026-11-02"), reasons="No compliance within 10 days."
    )
    permit.refresh_from_db()
    assert permit.status == "revoked"
    return case, permit


def retraction_text(case: Any) -> str:
    document = EnforcementDocument.objects.filter(case=case, kind="retraction").get()
    return pdf_text(document.file)


@pytest.mark.parametrize(
    "when",
    [at("2026-11-03", 9), at("2026-11-10", 23, 30)],
    ids=["a week before the last day", "late on the last day"],
)
def test_a_revocation_retracted_before_the_period_ends_keeps_the_same_last_day(
    people: People, when: datetime.datetime
) -> None:
    case, permit = spencer_revoked(people, "80 Record Rd")
    action = enforcement.order_retract(
        case=case,
        staff=people.staff[SPENCER],
        at=when,
        order="revocation",
        reason="Inlet protection now in place.",
    )
    permit.refresh_from_db()
    assert permit.status == "active"
    # Retracting the revocation does not give back the days it stood.
    assert permit.expires_on == LAST_DAY
    assert application_timeline(permit.application).to_json()["permit"]["expires"] == (
        LAST_DAY.isoformat()
    )

    document = EnforcementDocument.objects.get(case=case, kind="retraction")
    assert document.action_id == action.pk
    text = pdf_text(document.file)
    assert "RETRACTION OF REVOCATION OF PERMIT" in text
    assert (
        f"The revocation of permit {permit.number} is retracted by the Building Inspector "
        "[§ 413-10D]."
    ) in text
    assert (
        "The permit is in force again, with all its conditions, through November 10, 2026. "
        "Its period is not lengthened by the time it was revoked; the Building Inspector may "
        "extend it [§ 413-8E(1)]."
    ) in text
    assert "period ended" not in text
    assert "REASONS: Inlet protection now in place." in text
    assert AuditEvent.objects.filter(
        entity="enforcement_case", entity_id=case.pk, action="retraction_generate"
    ).exists()


def test_a_revocation_retracted_after_the_last_day_says_the_period_ended(
    people: People,
) -> None:
    # Half past midnight on 2026-11-11 in Spencer: the day after the last day.
    case, permit = spencer_revoked(people, "81 Record Rd")
    enforcement.order_retract(
        case=case,
        staff=people.staff[SPENCER],
        at=at("2026-11-11", 0, 30),
        order="revocation",
        reason="Decided on the record.",
    )
    text = retraction_text(case)
    assert (
        "The permit's period ended on November 10, 2026: work on the site needs a new permit."
    ) in text
    assert "in force again" not in text
    permit.refresh_from_db()
    assert permit.expires_on == LAST_DAY


def test_a_stop_work_order_retracted_lets_work_resume(people: People) -> None:
    permit = issued_permit(people, SPENCER, "82 Record Rd")
    staff = people.staff[SPENCER]
    case = enforcement.violation_record(
        village=permit.village,
        recorded_by=staff,
        source="observation",
        description="Tracking onto Park St.",
        provision="§ 413-7B(4)",
        days_from=datetime.date(2026, 10, 19),
        at=at("2026-10-19"),
        permit=permit,
    ).case
    enforcement.stop_work_order_post(
        case=case, staff=staff, at=at("2026-10-20", 10), grounds=["conditions-not-met"]
    )
    enforcement.order_retract(
        case=case, staff=staff, at=at("2026-10-22"), order="stop_work_order", reason=""
    )
    text = retraction_text(case)
    assert "RETRACTION OF STOP-WORK ORDER" in text
    assert (
        "The stop-work order on this site is retracted by the Building Inspector [§ 413-10D]."
    ) in text
    assert "Work may resume under the permit and its approved plan." in text


def test_the_new_glarus_administrator_may_not_retract_and_no_letter_is_written(
    people: People,
) -> None:
    # § 135-11D: only "The Zoning Board of Appeals may retract".
    permit = issued_permit(people, NEW_GLARUS, "83 Record Rd")
    staff = people.staff[NEW_GLARUS]
    case = enforcement.violation_record(
        village=permit.village,
        recorded_by=staff,
        source="observation",
        description="Silt fence down on the east line.",
        provision="§ 135-11",
        days_from=datetime.date(2026, 10, 19),
        at=at("2026-10-19"),
        permit=permit,
    ).case
    enforcement.stop_work_order_post(
        case=case, staff=staff, at=at("2026-10-20", 10), grounds=["conditions-not-met"]
    )
    actions = EnforcementAction.objects.count()
    with pytest.raises(EnforcementRefused) as refused:
        enforcement.order_retract(
            case=case, staff=staff, at=at("2026-10-22"), order="stop_work_order", reason="x"
        )
    assert "§ 135-11D" in str(refused.value)
    assert EnforcementAction.objects.count() == actions
    assert not EnforcementDocument.objects.filter(case=case, kind="retraction").exists()
