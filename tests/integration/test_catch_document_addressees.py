"""Who a generated document is addressed to, and what it lists, from real records.

The golden-snapshot tests of the documents (test_documents.py, test_enforcement_documents.py)
lay them out from stand-ins whose ``.filter()`` returns everything whatever it is asked, so
they cannot see which rows a document picks. Here the records are real rows, made through
the services, and the documents are the ones the services store.

- A referral to the village attorney (§ 413-10C/E/F, § 135-11C/F/G) lists the violations on
  the site's record: those the village found. A report the village dismissed after review,
  or one still waiting for review, is not a finding (decision 16: "A public complaint is a
  report, not a finding") and is not put before the attorney.
- The permit names its permittee, and the disapproval letter is written to the person it
  decides against: the landowner, the land user or the responsible party (fee title holder)
  named on the application (documents/text.py), or else the applicant who filed it. The
  engineer who prepared the plan, or a contractor, is never the addressee.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.utils import timezone
from enforcement_helpers import at, permit_filed_on
from factories import FACTS, NEW_GLARUS, SPENCER, People, make_user, plan_pdf
from season_helpers import pdf_text

from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement.documents import lines_for
from siltfence.apps.enforcement.models import EnforcementDocument, Violation, ViolationStatus
from siltfence.apps.permits import services
from siltfence.apps.permits.models import Application, DocumentKind, Permit, Village

pytestmark = pytest.mark.django_db

FOUND = "No inlet protection on the street inlet."
DISMISSED = "DISMISSED-REPORT mud on the road"
WAITING = "WAITING-REPORT dust from the lot"


# -- referrals: the violations found, and nothing else -------------------------------------


def _reports_on(case: Any, village: Village, address: str, staff: Any) -> None:
    """Two public reports about the same site, kept on its case: one the village dismissed
    after review, one still waiting for review. (A dismissed report reaches no case through
    the services today; the referral must not depend on that.)"""
    dismissed = s.complaint_file(
        village=village,
        description=DISMISSED,
        at=at("2026-07-01", 8),
        address=address,
        email="pat@example.org",
    )
    s.violation_review(
        violation=dismissed,
        staff=staff,
        at=at("2026-07-01", 8, 30),
        found=False,
        note="Nothing seen on the road.",
    )
    waiting = s.complaint_file(
        village=village,
        description=WAITING,
        at=at("2026-07-01", 8, 45),
        address=address,
        email="sam@example.org",
    )
    Violation.objects.filter(pk__in=[dismissed.pk, waiting.pk]).update(case=case)
    statuses = dict(case.violations.values_list("description", "status"))
    assert statuses == {
        FOUND: ViolationStatus.FOUND,
        DISMISSED: ViolationStatus.DISMISSED,
        WAITING: ViolationStatus.REPORTED,
    }


def _letter(action: Any) -> tuple[str, str]:
    """The referral as stored with the case (the PDF's words), and as laid out now."""
    stored = EnforcementDocument.objects.get(action=action)
    lines = lines_for(case=action.case, action=action, kind=stored.kind)
    return pdf_text(stored.file), "\n".join(lines)


def _assert_only_the_finding(text: str) -> None:
    assert "VIOLATIONS ON THE RECORD" in text
    assert FOUND in text
    assert DISMISSED not in text, "a dismissed report was put before the attorney"
    assert WAITING not in text, "a report not yet reviewed was put before the attorney"


def test_a_spencer_referral_lists_the_violation_found_and_not_the_dismissed_report(
    people: People,
) -> None:
    staff = people.staff[SPENCER]
    address = "12 Park St, Spencer"
    permit = permit_filed_on(
        applicant=people.applicant_a,
        village=SPENCER,
        staff=staff,
        filed="2026-06-01",
        address=address,
    )
    case = s.violation_record(
        village=permit.village,
        recorded_by=staff,
        source="observation",
        description=FOUND,
        provision="§ 413-7B(4)",
        days_from=datetime.date(2026, 7, 1),
        days_to=datetime.date(2026, 7, 3),
        at=at("2026-07-01", 9),
        permit=permit,
    ).case
    _reports_on(case, permit.village, address, staff)
    for refer in (s.prosecution_refer, s.injunction_refer):
        action = refer(case=case, staff=staff, at=at("2026-07-06", 12))
        stored, laid_out = _letter(action)
        assert "To: Village Attorney" in stored
        _assert_only_the_finding(stored)
        _assert_only_the_finding(laid_out)
    # The forfeiture counts the days of the violation found: July 1 to 3, three offenses.
    prosecution = case.actions.get(kind="prosecution_referral")
    assert (prosecution.details["days"], prosecution.details["offenses"]) == (3, 3)


def test_a_new_glarus_cease_and_desist_request_lists_only_the_violations_found(
    people: People, villages: Any
) -> None:
    staff = people.staff[NEW_GLARUS]
    village = villages[NEW_GLARUS]
    address = "9 Railroad St, New Glarus"
    case = s.violation_record(
        village=village,
        recorded_by=staff,
        source="observation",
        description=FOUND,
        provision="§ 135-6",
        days_from=datetime.date(2026, 7, 1),
        at=at("2026-07-01", 9),
        address=address,
    ).case
    _reports_on(case, village, address, staff)
    s.notice_to_cease_give(case=case, staff=staff, at=at("2026-07-01", 13))
    s.violation_record(
        village=village,
        recorded_by=staff,
        source="observation",
        description="Grading went on the next day.",
        provision="§ 135-6",
        days_from=datetime.date(2026, 7, 2),
        at=at("2026-07-02", 9),
        address=address,
    )
    action = s.cease_and_desist_refer(case=case, staff=staff, at=at("2026-07-02", 14))
    stored, laid_out = _letter(action)
    for text in (stored, laid_out):
        _assert_only_the_finding(text)
        assert "Grading went on the next day." in text


# -- the permit and the disapproval letter: to the owner or the applicant ---------------------


def _filed(applicant: Any, village: str, parties: list[dict[str, str]], address: str) -> Any:
    """An application filed through the services, with the parties in the order given."""
    place = Village.objects.get(pk=village)
    filed = timezone.now() - datetime.timedelta(days=10)
    application = services.application_create(
        applicant=applicant,
        village=place,
        address=address,
        facts=FACTS[village],
        on=timezone.localdate(filed),
        description="addressee test",
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
    services.application_submit(application=application, user=applicant, at=filed)
    return application


def _document_text(application: Application, kind: str) -> str:
    document = application.documents.get(kind=kind)
    return pdf_text(document.file)


ENGINEER = {"role": "engineer", "name": "Erin Engineer"}
CONTRACTOR = {"role": "contractor", "name": "Cal Contractor"}


@pytest.mark.parametrize("village", [SPENCER, NEW_GLARUS])
@pytest.mark.parametrize(
    ("role", "name"),
    [
        ("landowner", "Lee Landowner"),
        ("land_user", "Uma Landuser"),
        ("responsible_party", "Ray Titleholder"),
    ],
)
def test_the_permit_and_the_disapproval_go_to_the_owner_not_the_engineer(
    people: People, village: str, role: str, name: str
) -> None:
    applicant = make_user("dana-filer")
    staff = people.staff[village]
    # The engineer and the contractor are named first, so the owner is not simply the
    # first party on the application.
    parties = [ENGINEER, CONTRACTOR, {"role": role, "name": name}]
    approved = _filed(applicant, village, parties, "1 Owner St")
    services.application_approve(application=approved, staff=staff, at=timezone.now())
    permit = Permit.objects.get(application=approved)
    permit_text = _document_text(approved, DocumentKind.PERMIT)
    assert f": {name} Site: 1 Owner St" in permit_text, permit_text[:400]
    refused = _filed(applicant, village, parties, "2 Owner St")
    services.application_disapprove(
        application=refused, staff=staff, reasons="No inlet protection.", at=timezone.now()
    )
    letter = _document_text(refused, DocumentKind.DISAPPROVAL_LETTER)
    assert f"To: {name} Site: 2 Owner St" in letter, letter[:400]
    for text in (permit_text, letter):
        assert "Erin Engineer" not in text and "Cal Contractor" not in text
        assert "Dana Tester" not in text
    assert permit.number in permit_text


@pytest.mark.parametrize("village", [SPENCER, NEW_GLARUS])
def test_with_no_owner_named_the_documents_go_to_the_applicant_not_the_engineer(
    people: People, village: str
) -> None:
    applicant = make_user("dana-filer")  # Dana Tester
    staff = people.staff[village]
    approved = _filed(applicant, village, [ENGINEER, CONTRACTOR], "3 Owner St")
    services.application_approve(application=approved, staff=staff, at=timezone.now())
    refused = _filed(applicant, village, [ENGINEER], "4 Owner St")
    services.application_disapprove(
        application=refused, staff=staff, reasons="No inlet protection.", at=timezone.now()
    )
    permit_text = _document_text(approved, DocumentKind.PERMIT)
    letter = _document_text(refused, DocumentKind.DISAPPROVAL_LETTER)
    assert ": Dana Tester Site: 3 Owner St" in permit_text, permit_text[:400]
    assert "To: Dana Tester Site: 4 Owner St" in letter, letter[:400]
    for text in (permit_text, letter):
        assert "Erin Engineer" not in text and "Cal Contractor" not in text
