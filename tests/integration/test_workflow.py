"""The permit workflow through its services, with the clocks the ordinances set.

Expected dates are worked out by hand from the ordinance text and the calendar, in the
comments beside them.
"""

from __future__ import annotations

import datetime
import json
from datetime import timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from hypothesis import given, settings
from hypothesis import strategies as st

from siltfence.apps.accounts.models import Membership, Role
from siltfence.apps.audit.chain import chain_verify
from siltfence.apps.audit.models import AuditEvent
from siltfence.apps.documents.pdf import lines_to_pdf
from siltfence.apps.payments import services as payments
from siltfence.apps.permits import services
from siltfence.apps.permits.clocks import decision_due_if_filed, review_clock
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import (
    ApplicationStatus,
    DocumentKind,
    OfficeClosure,
    Permit,
    Village,
)

pytestmark = pytest.mark.django_db
CHICAGO = ZoneInfo("America/Chicago")
PDF = lines_to_pdf(["A control plan"], title="plan")


def local(*args: int) -> datetime.datetime:
    return datetime.datetime(*args, tzinfo=CHICAGO)


@pytest.fixture
def villages():
    return {v.id: v for v in services.village_sync(years=range(2026, 2028))}


@pytest.fixture
def people(villages):
    user_model = get_user_model()
    made = {}
    for name, village, role in [
        ("bi", "spencer-wi", Role.STAFF),
        ("admin", "new-glarus-wi", Role.STAFF),
        ("owner", None, None),
        ("other", None, None),
    ]:
        user = user_model.objects.create_user(name, password="x-long-password-1")
        if village:
            Membership.objects.create(user=user, village=villages[village], role=role)
        made[name] = user
    return made


def filed(villages, people, village="spencer-wi", facts=None, at=None, **extra):
    application = services.application_create(
        applicant=people["owner"],
        village=villages[village],
        address="1 Main St",
        facts=facts or {"disturbed_area": 5000},
        on=datetime.date(2026, 5, 1),
        **extra,
    )
    contents = application.determination["plan"]["contents"]
    services.application_checklist_set(
        application=application, user=people["owner"], items=list(range(len(contents)))
    )
    services.document_upload(
        application=application,
        user=people["owner"],
        kind=DocumentKind.PLAN,
        name="plan.pdf",
        content=PDF,
        claimed_type="application/pdf",
    )
    if at is not None:
        services.application_submit(application=application, user=people["owner"], at=at)
    return application


def staff_of(application, people):
    return people["bi"] if application.village_id == "spencer-wi" else people["admin"]


def test_a_spencer_application_filed_may_1_is_due_for_decision_by_june_15(villages, people):
    # § 413-8D: within 45 days of receipt. May 1 + 45 days = June 15, 2026, a Monday.
    application = filed(villages, people, at=local(2026, 5, 1, 10))
    clock = review_clock(application, as_of=local(2026, 5, 2))
    assert clock["kind"] == "review_decision"
    assert clock["due"] == "2026-06-15"
    assert clock["citation"] == "§ 413-8D"
    assert review_clock(application, as_of=local(2026, 6, 16))["status"] == "overdue"


def test_a_new_glarus_review_clock_runs_30_business_days_on_the_office_calendar(villages, people):
    # § 135-7C(1): 30 business days from Monday Nov 2, 2026. The office is closed on
    # weekends and on the legal holidays seeded from § 995.20: Nov 3 (general election),
    # Nov 11 (Veterans Day) and Nov 26 (Thanksgiving). Counting from Nov 4:
    # Nov 4-6 (3), 9-13 less the 11th (7), 16-20 (12), 23-27 less the 26th (16),
    # Nov 30-Dec 4 (21), Dec 7-11 (26), Dec 14-17 (30): due Thursday, Dec 17.
    application = filed(villages, people, "new-glarus-wi", at=local(2026, 11, 2, 9))
    assert review_clock(application, as_of=local(2026, 11, 2, 10))["due"] == "2026-12-17"
    # Staff close the office on Dec 16: one business day fewer, so the 30th is Dec 18.
    OfficeClosure.objects.create(
        village_id="new-glarus-wi", day=datetime.date(2026, 12, 16), reason="staff training"
    )
    assert review_clock(application, as_of=local(2026, 11, 2, 10))["due"] == "2026-12-18"


def test_an_information_request_starts_the_shorter_clock_when_the_answer_arrives(villages, people):
    application = filed(villages, people, at=local(2026, 5, 1, 10))
    services.application_information_request(
        application=application,
        staff=people["bi"],
        message="Show the stockpiles.",
        at=local(2026, 5, 20, 9),
    )
    assert application.status == ApplicationStatus.INFORMATION_REQUESTED
    services.application_information_provide(
        application=application,
        user=people["owner"],
        response="Map uploaded.",
        at=local(2026, 6, 1, 15),
    )
    # § 413-8D: within 30 days of receipt of needed information: June 1 + 30 = July 1.
    clock = review_clock(application, as_of=local(2026, 6, 2))
    assert (clock["kind"], clock["due"]) == ("re_review_decision", "2026-07-01")


def test_approval_issues_a_permit_valid_180_days_or_the_longer_building_permit(villages, people):
    short = filed(villages, people, at=local(2026, 5, 1, 10))
    permit = services.application_approve(
        application=short, staff=people["bi"], at=local(2026, 5, 1, 15)
    )
    # § 413-8E(1): 180 days from issuance, May 1 -> Oct 28, 2026 (a Wednesday).
    assert permit.expires_on == datetime.date(2026, 10, 28)
    longer = filed(
        villages,
        people,
        at=local(2026, 5, 1, 10),
        building_permit_expires=datetime.date(2027, 3, 1),
    )
    permit = services.application_approve(
        application=longer, staff=people["bi"], at=local(2026, 5, 1, 15)
    )
    assert permit.expires_on == datetime.date(2027, 3, 1)
    assert permit.application.documents.filter(kind=DocumentKind.PERMIT).count() == 1


def test_extensions_add_up_to_180_days_each_and_no_more(villages, people):
    application = filed(villages, people, at=local(2026, 5, 1, 10))
    permit = services.application_approve(
        application=application, staff=people["bi"], at=local(2026, 5, 1, 15)
    )
    with pytest.raises(ActionRefused, match="1 to 180 days"):
        services.permit_extend(
            permit=permit, staff=people["bi"], days=181, on=datetime.date(2026, 10, 1)
        )
    # Oct 28 + 180 days = April 26, 2027 (a Monday).
    services.permit_extend(
        permit=permit, staff=people["bi"], days=180, on=datetime.date(2026, 10, 1)
    )
    assert permit.expires_on == datetime.date(2027, 4, 26)
    # Repeatable: April 26 + 10 = May 6, 2027.
    services.permit_extend(
        permit=permit,
        staff=people["bi"],
        days=10,
        on=datetime.date(2027, 4, 1),
        added_measures="bales",
    )
    assert permit.expires_on == datetime.date(2027, 5, 6)
    assert [x.days for x in permit.extensions.all()] == [180, 10]


def test_a_permit_issued_in_the_afternoon_is_extended_and_closed_that_same_day(villages, people):
    # Issued at 3 p.m.; the extension and the closing are given by their day. The law
    # counts the extension from the issue (§ 413-8E(1)), so the same day is no obstacle.
    application = filed(villages, people, at=local(2026, 5, 1, 10))
    permit = services.application_approve(
        application=application, staff=people["bi"], at=local(2026, 5, 1, 15)
    )
    services.permit_extend(permit=permit, staff=people["bi"], days=30, on=datetime.date(2026, 5, 1))
    # Oct 28 + 30 days = Nov 27, 2026.
    assert permit.expires_on == datetime.date(2026, 11, 27)
    services.permit_close(
        permit=permit,
        staff=people["bi"],
        on=datetime.date(2026, 5, 1),
        cover_percent=80,
        activities_completed=True,
    )
    assert permit.status == "closed"
    assert review_clock(application) is not None  # the timeline still reads


def test_nothing_on_a_permit_is_dated_before_its_issue(villages, people):
    application = filed(villages, people, at=local(2026, 5, 1, 10))
    permit = services.application_approve(
        application=application, staff=people["bi"], at=local(2026, 5, 1, 15)
    )
    before = datetime.date(2026, 4, 30)
    for step in (
        lambda: services.permit_extend(permit=permit, staff=people["bi"], days=30, on=before),
        lambda: services.permit_close(
            permit=permit,
            staff=people["bi"],
            on=before,
            cover_percent=80,
            activities_completed=True,
        ),
    ):
        with pytest.raises(ActionRefused) as refused:
            step()
        assert refused.value.field == "on"
        assert str(refused.value) == (
            "on: the permit was issued on 2026-05-01; nothing on it can be dated 2026-04-30"
        )
    permit.refresh_from_db()
    assert (permit.status, permit.expires_on) == ("active", datetime.date(2026, 10, 28))


def test_a_disapproval_needs_written_reasons_and_produces_the_letter(villages, people):
    application = filed(villages, people, at=local(2026, 5, 1, 10))
    with pytest.raises(ActionRefused, match="reasons in writing"):
        services.application_disapprove(
            application=application, staff=people["bi"], reasons=" ", at=local(2026, 5, 2)
        )
    assert application.status == ApplicationStatus.UNDER_REVIEW
    services.application_disapprove(
        application=application,
        staff=people["bi"],
        reasons="No inlet protection.",
        at=local(2026, 5, 2),
    )
    assert application.status == ApplicationStatus.DISAPPROVED
    assert application.documents.filter(kind=DocumentKind.DISAPPROVAL_LETTER).count() == 1


def test_a_decided_application_cannot_be_decided_again(villages, people):
    application = filed(villages, people, at=local(2026, 5, 1, 10))
    services.application_approve(application=application, staff=people["bi"], at=local(2026, 5, 2))
    with pytest.raises(ActionRefused, match="not under review"):
        services.application_disapprove(
            application=application, staff=people["bi"], reasons="late", at=local(2026, 5, 3)
        )
    assert Permit.objects.filter(application=application).count() == 1


def test_an_incomplete_application_is_refused_with_what_is_missing(villages, people):
    application = services.application_create(
        applicant=people["owner"],
        village=villages["spencer-wi"],
        address="2 Main St",
        facts={"disturbed_area": "2 acre"},
        on=datetime.date(2026, 5, 1),
    )
    with pytest.raises(ActionRefused) as refused:
        services.application_submit(
            application=application, user=people["owner"], at=local(2026, 5, 1, 9)
        )
    # Over one acre: the control plan of § 413-8B; its site map item is § 413-8B(1).
    assert "§ 413-8B(1)" in str(refused.value)
    assert "upload the control plan" in str(refused.value)
    assert application.status == ApplicationStatus.DRAFT


def test_a_fee_set_by_the_village_must_be_paid_before_filing(villages, people):
    services.fee_schedule_set(
        village=villages["spencer-wi"],
        staff=people["bi"],
        effective_from=datetime.date(2026, 1, 1),
        amount=Decimal("75.00"),
        authority="Board resolution 2026-1",
    )
    application = filed(villages, people)
    assert application.fee_amount == Decimal("75.00")
    with pytest.raises(ActionRefused, match=r"\$75.00"):
        services.application_submit(
            application=application, user=people["owner"], at=local(2026, 5, 1, 9)
        )
    payments.payment_receive(
        application=application,
        staff=people["bi"],
        received_on=datetime.date(2026, 5, 1),
        amount=Decimal("75.00"),
        method="cash",
    )
    services.application_submit(
        application=application, user=people["owner"], at=local(2026, 5, 1, 9)
    )
    assert application.status == ApplicationStatus.UNDER_REVIEW


def test_a_project_the_chapter_does_not_cover_cannot_apply(villages, people):
    with pytest.raises(ActionRefused, match="does not apply"):
        services.application_create(
            applicant=people["owner"],
            village=villages["spencer-wi"],
            address="3 Main St",
            facts={"disturbed_area": 3999},
            on=datetime.date(2026, 5, 1),
        )


def test_new_glarus_closes_a_permit_only_at_70_percent_perennial_cover(villages, people):
    application = filed(villages, people, "new-glarus-wi", at=local(2026, 5, 1, 10))
    permit = services.application_approve(
        application=application, staff=people["admin"], at=local(2026, 5, 4)
    )
    with pytest.raises(ActionRefused, match="at least 70%"):
        services.permit_close(
            permit=permit,
            staff=people["admin"],
            on=datetime.date(2026, 9, 1),
            cover_percent=69,
            activities_completed=True,
        )
    services.permit_close(
        permit=permit,
        staff=people["admin"],
        on=datetime.date(2026, 9, 1),
        cover_percent=70,
        activities_completed=True,
    )
    assert permit.status == "closed"


def test_new_glarus_closes_on_equivalent_permanent_stabilization_measures(villages, people):
    # § 135-13 "final stabilization": 70% perennial cover "or employment of equivalent
    # permanent stabilization measures".
    application = filed(villages, people, "new-glarus-wi", at=local(2026, 5, 1, 10))
    permit = services.application_approve(
        application=application, staff=people["admin"], at=local(2026, 5, 4)
    )
    services.permit_close(
        permit=permit,
        staff=people["admin"],
        on=datetime.date(2026, 9, 1),
        cover_percent=40,
        equivalent_measures="Riprap on the slope and a paved lot in place of seeding",
        activities_completed=True,
    )
    assert permit.status == "closed"
    assert permit.final_stabilization_measures.startswith("Riprap on the slope")
    entry = AuditEvent.objects.filter(action="permit_close").latest("pk")
    assert entry.citation == "§ 135-13"
    assert "equivalent permanent stabilization measures: Riprap" in entry.reason


def test_closing_with_neither_cover_nor_measures_is_refused_naming_the_field(villages, people):
    application = filed(villages, people, "new-glarus-wi", at=local(2026, 5, 1, 10))
    permit = services.application_approve(
        application=application, staff=people["admin"], at=local(2026, 5, 4)
    )
    with pytest.raises(ActionRefused, match=r"^cover: record the perennial cover") as refused:
        services.permit_close(
            permit=permit,
            staff=people["admin"],
            on=datetime.date(2026, 9, 1),
            cover_percent=None,
            activities_completed=True,
        )
    assert refused.value.field == "cover"
    permit.refresh_from_db()
    assert permit.status == "active"


def test_a_spencer_permit_closes_with_no_cover_threshold_citing_section_413_6(villages, people):
    application = filed(villages, people, at=local(2026, 5, 1, 10))
    permit = services.application_approve(
        application=application, staff=people["bi"], at=local(2026, 5, 4)
    )
    services.permit_close(
        permit=permit,
        staff=people["bi"],
        on=datetime.date(2026, 9, 1),
        cover_percent=20,
        activities_completed=True,
    )
    assert AuditEvent.objects.filter(action="permit_close").latest("pk").citation == "§ 413-6"


def test_new_glarus_administrator_may_add_conditions_to_the_permit(villages, people):
    # § 135-7F: "Permits ... may include conditions established by Village Administrator".
    application = filed(villages, people, "new-glarus-wi", at=local(2026, 5, 1, 10))
    permit = services.application_approve(
        application=application,
        staff=people["admin"],
        at=local(2026, 5, 4),
        conditions=["Sweep Second Street daily", "  "],
    )
    assert permit.added_conditions == ["Sweep Second Street daily"]


def test_spencer_has_no_power_to_add_permit_conditions_so_approval_refuses_them(villages, people):
    application = filed(villages, people, at=local(2026, 5, 1, 10))
    with pytest.raises(ActionRefused, match=r"^conditions: the chapter gives the Building"):
        services.application_approve(
            application=application,
            staff=people["bi"],
            at=local(2026, 5, 4),
            conditions=["Sweep the street daily"],
        )
    assert not Permit.objects.filter(application=application).exists()


def test_staff_of_one_village_cannot_act_in_the_other(villages, people):
    application = filed(villages, people, "new-glarus-wi", at=local(2026, 5, 1, 10))
    with pytest.raises(ActionRefused, match="Village Administrator of Village of New Glarus"):
        services.application_approve(
            application=application, staff=people["bi"], at=local(2026, 5, 2)
        )
    with pytest.raises(ActionRefused, match="your own applications"):
        services.application_submit(
            application=application, user=people["other"], at=local(2026, 5, 2)
        )


def test_plan_amendments_use_each_villages_triggers_and_need_written_permission(villages, people):
    application = filed(villages, people, "new-glarus-wi", at=local(2026, 5, 1, 10))
    permit = services.application_approve(
        application=application, staff=people["admin"], at=local(2026, 5, 4)
    )
    with pytest.raises(
        ActionRefused, match="design_change, plan_ineffective, administrator_notice"
    ):
        services.plan_amendment_request(
            permit=permit,
            user=people["owner"],
            trigger="modification",
            description="x",
            on=datetime.date(2026, 6, 1),
        )
    amendment = services.plan_amendment_request(
        permit=permit,
        user=people["owner"],
        trigger="design_change",
        description="Move the pond",
        on=datetime.date(2026, 6, 1),
    )
    with pytest.raises(ActionRefused, match="reasons"):
        services.plan_amendment_decide(
            amendment=amendment,
            staff=people["admin"],
            approve=False,
            reasons="",
            on=datetime.date(2026, 6, 2),
        )
    services.plan_amendment_decide(
        amendment=amendment,
        staff=people["admin"],
        approve=True,
        reasons="ok",
        on=datetime.date(2026, 6, 2),
    )
    assert amendment.status == "approved"


def test_the_applicant_sees_the_decision_date_before_filing(villages):
    # Filing on Friday, May 1, 2026 in Spencer: 45 days later is Monday, June 15.
    due = decision_due_if_filed("spencer-wi", local(2026, 5, 1, 8))
    assert (due["due"], due["citation"]) == ("2026-06-15", "§ 413-8D")


def test_every_change_is_in_the_audit_chain_and_the_chain_verifies(villages, people):
    before = AuditEvent.objects.count()
    application = filed(villages, people, at=local(2026, 5, 1, 10))
    services.application_approve(application=application, staff=people["bi"], at=local(2026, 5, 2))
    actions = list(
        AuditEvent.objects.filter(seq__gt=before).order_by("seq").values_list("action", flat=True)
    )
    assert actions == [
        "application_create",
        "application_checklist_set",
        "document_upload",
        "application_submit",
        "application_approve",
        "permit_generate",
    ]
    approve = AuditEvent.objects.get(action="application_approve")
    assert approve.actor == people["bi"]
    assert approve.citation == "§ 413-8D"  # "shall approve the plan ... and issue a permit"
    assert approve.before["status"] == "under_review" and approve.after["status"] == "approved"
    assert chain_verify().ok


@pytest.mark.parametrize(
    "name, content, claimed, message",
    [
        ("plan.pdf", b"<html><script>alert(1)</script></html>", "application/pdf", "contents are"),
        ("plan.png", PDF, "image/png", "claims to be image/png"),
        ("plan.exe", b"MZ\x90\x00", "application/x-msdownload", "upload a PDF"),
        ("empty.pdf", b"", "application/pdf", "is empty"),
    ],
)
def test_uploads_are_checked_by_their_real_type(villages, people, name, content, claimed, message):
    application = filed(villages, people)
    count = application.documents.count()
    with pytest.raises(ActionRefused, match=message):
        services.document_upload(
            application=application,
            user=people["owner"],
            kind="other",
            name=name,
            content=content,
            claimed_type=claimed,
        )
    assert application.documents.count() == count


def test_a_geojson_site_outside_wisconsin_is_refused_naming_the_problem(villages, people):
    application = filed(villages, people)
    outside = {
        "type": "Polygon",
        "coordinates": [[[-100, 40], [-99.9, 40], [-99.9, 40.1], [-100, 40]]],
    }
    with pytest.raises(Exception, match="Wisconsin"):
        services.document_upload(
            application=application,
            user=people["owner"],
            kind="geojson",
            name="site.geojson",
            content=json.dumps(outside).encode(),
            claimed_type="application/geo+json",
        )
    inside = {
        "type": "Polygon",
        "coordinates": [[[-90.3, 44.75], [-90.299, 44.75], [-90.299, 44.751], [-90.3, 44.75]]],
    }
    document = services.document_upload(
        application=application,
        user=people["owner"],
        kind="geojson",
        name="site.geojson",
        content=json.dumps(inside).encode(),
        claimed_type="application/geo+json",
    )
    assert document.file.name.endswith(".geojson") and "site" not in document.file.name


def test_the_uploads_limit_is_enforced(villages, people, settings):
    application = filed(villages, people)
    settings.SILTFENCE_UPLOAD_MAX_BYTES = 100
    with pytest.raises(ActionRefused, match="the limit is 100 bytes"):
        services.document_upload(
            application=application,
            user=people["owner"],
            kind="plan",
            name="big.pdf",
            content=PDF,
            claimed_type="application/pdf",
        )


def test_village_records_are_created_once(villages):
    again = services.village_sync(years=range(2026, 2028))
    assert sorted(v.id for v in again) == ["new-glarus-wi", "spencer-wi"]
    assert Village.objects.count() == 2
    # Spencer counts calendar days, so no office calendar is seeded for it.
    assert not OfficeClosure.objects.filter(village_id="spencer-wi").exists()
    assert OfficeClosure.objects.filter(
        village_id="new-glarus-wi", day=datetime.date(2026, 11, 26)
    ).exists()


def test_the_duties_api_counts_on_the_office_calendar_staff_keep(villages, people, client):
    # As in the review-clock test above: 30 business days from Nov 2, 2026 end Dec 17 on
    # the seeded calendar, and Dec 18 once staff close the office on Dec 16.
    body = {
        "jurisdiction": "new-glarus-wi",
        "events": [{"type": "application_received", "at": "2026-11-02T09:00"}],
        "as_of": "2026-11-02T10:00",
    }

    def due() -> str:
        response = client.post(
            "/api/v1/duties", data=json.dumps(body), content_type="application/json"
        )
        assert response.status_code == 200, response.content
        return next(d["due"] for d in response.json()["duties"] if d["kind"] == "review_decision")

    assert due() == "2026-12-17"
    services.office_closure_add(
        village=villages["new-glarus-wi"],
        staff=people["admin"],
        day=datetime.date(2026, 12, 16),
        reason="staff training",
    )
    assert due() == "2026-12-18"
    # office_closures in the request replaces the calendar: weekends only ends Dec 14.
    body["office_closures"] = []
    assert due() == "2026-12-14"


def test_the_plan_checklist_is_frozen_once_the_application_is_filed(villages, people):
    application = filed(villages, people, at=local(2026, 5, 1, 10))
    ticked = list(application.checklist)
    with pytest.raises(ActionRefused, match="only in a draft"):
        services.application_checklist_set(application=application, user=people["owner"], items=[])
    application.refresh_from_db()
    assert application.checklist == ticked


def test_staff_close_a_new_glarus_permit_on_equivalent_measures_from_the_permit_page(
    client, villages, people
):
    application = filed(villages, people, "new-glarus-wi", at=local(2026, 5, 1, 10))
    permit = services.application_approve(
        application=application, staff=people["admin"], at=local(2026, 5, 4)
    )
    client.force_login(people["admin"])
    page = client.get(f"/permits/{permit.pk}/").content.decode()
    assert "equivalent permanent stabilization measures" in page
    client.post(
        f"/permits/{permit.pk}/close",
        {
            "cover_percent": "",
            "equivalent_measures": "Paved lot and riprap",
            "activities_completed": "on",
            "confirm": "yes",
        },
    )
    permit.refresh_from_db()
    assert permit.status == "closed"
    shown = client.get(f"/permits/{permit.pk}/").content.decode()
    assert "equivalent permanent stabilization measures: Paved lot and riprap" in shown


@settings(deadline=timedelta(milliseconds=500), max_examples=80)
@given(st.lists(st.text(max_size=1200), max_size=25))
def test_any_added_conditions_are_taken_or_refused_naming_the_field(conditions):
    from siltfence.apps.permits.services.review import _added_conditions
    from siltfence.core.ordinance.loader import load

    try:
        kept = _added_conditions(load("new-glarus-wi"), conditions)
    except ActionRefused as exc:
        assert exc.field == "conditions"
    else:
        assert all(c.strip() and len(c) <= 1000 for c in kept)
        assert len(kept) <= 20


@pytest.mark.parametrize(
    "measures",
    ["x" * 2001, "Riprap\x00", "__import__('os')" * 200, '{"a": ' * 500],
)
def test_hostile_stabilization_measures_are_refused_and_the_permit_stays_open(
    villages, people, measures
):
    application = filed(villages, people, "new-glarus-wi", at=local(2026, 5, 1, 10))
    permit = services.application_approve(
        application=application, staff=people["admin"], at=local(2026, 5, 4)
    )
    with pytest.raises(ActionRefused) as refused:
        services.permit_close(
            permit=permit,
            staff=people["admin"],
            on=datetime.date(2026, 9, 1),
            cover_percent=None,
            equivalent_measures=measures,
            activities_completed=True,
        )
    assert refused.value.field == "measures"
    permit.refresh_from_db()
    assert permit.status == "active"


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"description": "x" * 5001}, "description"),
        ({"legal_description": "L" * 3_000_000}, "legal_description"),
        ({"description": "a\x00b"}, "description"),
        # Filed 2026-05-01: a building permit that ended the day before authorises nothing,
        # and one said to end in 1900 or past ten years (3,660 days) is a mistake.
        ({"building_permit_expires": datetime.date(2026, 4, 30)}, "building_permit_expires"),
        ({"building_permit_expires": datetime.date(1900, 1, 1)}, "building_permit_expires"),
        ({"building_permit_expires": datetime.date(2036, 5, 9)}, "building_permit_expires"),
    ],
)
def test_an_application_beyond_its_bounds_is_refused_naming_the_field(
    villages, people, extra, field
):
    from siltfence.apps.permits.models import Application

    with pytest.raises(services.ActionRefused) as refused:
        filed(villages, people, **extra)
    assert refused.value.field == field
    assert not Application.objects.exists()


@pytest.mark.parametrize(
    "extra",
    [
        {"description": "x" * 5000, "legal_description": "L" * 5000},
        {"building_permit_expires": datetime.date(2026, 5, 1)},
        # 3,660 days after 2026-05-01 (ten years of 3,653 days, with three Feb 29ths, + 7).
        {"building_permit_expires": datetime.date(2036, 5, 8)},
    ],
)
def test_an_application_at_its_bounds_is_accepted(villages, people, extra):
    assert filed(villages, people, **extra).status == "draft"
