"""A surety as a condition of approval and issuance, its draws and releases, and its
expiry watch: through the services, the documents and the web (decision 31).

The law, the same words in both chapters (Spencer § 413-8E(2), New Glarus § 135-7D):
"As a condition of approval and issuance of the permit, the Building Inspector [New
Glarus: Village Administrator] may require the applicant to deposit a surety bond or
irrevocable letter of credit to guarantee a good faith execution of the approved control
plan and any permit conditions."

And the period (§ 413-8E(1), § 135-7G): permits "shall be valid for a period of 180 days,
or the length of the building permit or other construction authorizations, whichever is
longer, from the date of issuance." So a permit approved subject to a surety is issued,
and its 180 days start, on the day the surety is received, not the day of approval.

Worked by hand (the day of issue is excluded; a validity period does not move off a
weekend or holiday in this program, gap permit-validity):

- Received Thursday 2026-05-14: May has 17 days left (17), June 30 (47), July 31 (78),
  August 31 (109), September 30 (139), October 31 (170), and 10 more in November (180):
  the last day is Tuesday 2026-11-10.
- Had the permit been issued at the approval, Tuesday 2026-05-05: 26 (May), 56, 87, 118,
  148, 179 (October 31), 180 on 2026-11-01. The permit must NOT say that.

The surety's money, worked by hand: $5,000.00 received; $1,000.00 drawn leaves $4,000.00;
$1,500.00 released in part leaves $2,500.00 held; the release in full is then $2,500.00.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

import factories
import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from factories import NEW_GLARUS, SPENCER, VILLAGES, People, make_application, text_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from season_helpers import pdf_text

from siltfence.apps.audit.models import AuditEvent
from siltfence.apps.permits import services
from siltfence.apps.permits.clocks import application_timeline
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import (
    Application,
    Document,
    DocumentKind,
    Permit,
    Surety,
    SuretyMovement,
    TimelineEvent,
)
from siltfence.apps.permits.selectors import surety_expiry_warning

pytestmark = pytest.mark.django_db

CHICAGO = ZoneInfo("America/Chicago")
FILED = datetime.date(2026, 5, 1)
APPROVED = ("2026-05-05", 10)
RECEIVED = datetime.date(2026, 5, 14)
# 180 days from 2026-05-14, the day of issue excluded (worked in the module's docstring).
LAST_DAY = datetime.date(2026, 11, 10)
# What the last day would be had the permit been issued at the approval (2026-05-05).
LAST_DAY_IF_ISSUED_AT_APPROVAL = datetime.date(2026, 11, 1)

SURETY_CITE = {SPENCER: "§ 413-8E(2)", NEW_GLARUS: "§ 135-7D"}
PERIOD_CITE = {SPENCER: "§ 413-8E(1)", NEW_GLARUS: "§ 135-7G"}
AUTHORITY = {SPENCER: "Building Inspector", NEW_GLARUS: "Village Administrator"}
# New Glarus § 135-7F: "Permits issued under this section may include conditions
# established by Village Administrator in addition to the requirements set forth in
# Subsection E". Spencer's chapter has no such words.
ADDED = "Sweep Second Street daily while trucks haul fill"

FUZZ = settings(
    max_examples=20,
    deadline=datetime.timedelta(seconds=3),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def at(day: str, hour: int = 9, minute: int = 0) -> datetime.datetime:
    """A moment in the villages' zone (both are in Central time)."""
    return datetime.datetime.combine(
        datetime.date.fromisoformat(day), datetime.time(hour, minute), tzinfo=CHICAGO
    )


def filed_application(people: People, village: str, address: str) -> Application:
    """An application filed on 2026-05-01 (through the services), under review."""
    return make_application(
        applicant=people.applicant_a,
        village=village,
        state="under_review",
        staff=people.staff[village],
        address=address,
        days_ago=(timezone.localdate() - FILED).days,
    )


def approve_subject_to_surety(
    application: Application, staff: Any, amount: str = "5000", conditions: list[str] | None = None
) -> None:
    result = services.application_approve(
        application=application,
        staff=staff,
        at=at(*APPROVED),
        reasons="Plan complete.",
        conditions=conditions or [],
        surety=Decimal(amount),
    )
    assert result is None


def receive(
    application: Application,
    staff: Any,
    *,
    amount: str = "5000",
    when: datetime.datetime | None = None,
    expires_on: datetime.date | None = None,
    kind: str = "letter_of_credit",
) -> Permit:
    return services.surety_receive(
        application=application,
        staff=staff,
        kind=kind,
        amount=Decimal(amount),
        issuer="Marathon County Bank",
        reference="LC-2026-14",
        at=when or at("2026-05-14", 16),
        expires_on=expires_on,
    )


def awaiting(people: People, village: str, address: str, **kwargs: Any) -> Application:
    application = filed_application(people, village, address)
    approve_subject_to_surety(application, people.staff[village], **kwargs)
    application.refresh_from_db()
    return application


def counts() -> dict[str, int]:
    """What a refused step must leave as it was."""
    return {
        "audit": AuditEvent.objects.count(),
        "permits": Permit.objects.count(),
        "sureties": Surety.objects.count(),
        "movements": SuretyMovement.objects.count(),
        "documents": Document.objects.count(),
        "events": TimelineEvent.objects.count(),
    }


def document_text(application: Application, kind: str) -> str:
    document = application.documents.filter(kind=kind).order_by("-id").first()
    assert document is not None, f"no {kind} on {application.number}"
    return pdf_text(document.file)


def event_types(application: Application) -> list[str]:
    return list(application.timeline.order_by("at", "id").values_list("type", flat=True))


# -- 1. approval subject to a surety ---------------------------------------------------------


@pytest.mark.parametrize("village", VILLAGES)
def test_approval_subject_to_a_surety_meets_the_clock_and_issues_no_permit(
    people: People, village: str
) -> None:
    application = filed_application(people, village, "10 Surety Ln")
    conditions = [ADDED] if village == NEW_GLARUS else []
    approve_subject_to_surety(application, people.staff[village], conditions=conditions)
    application.refresh_from_db()

    assert application.status == "awaiting_surety"
    assert application.surety_required == Decimal("5000.00")
    assert application.decided_at == at(*APPROVED)
    # "As a condition of approval and issuance of the permit": no permit before the deposit.
    assert not Permit.objects.filter(application=application).exists()
    assert "application_approved" in event_types(application)
    assert "permit_issued" not in event_types(application)
    # The chapters time the decision (§ 413-8D, § 135-7C), and the approval is that decision.
    duties = application_timeline(application).to_json()["duties"]
    review = [d for d in duties if d["kind"] == "review_decision"]
    assert len(review) == 1
    assert review[0]["status"] == "met"
    assert review[0]["met_by"]["type"] == "application_approved"
    assert review[0]["met_by"]["at"].startswith("2026-05-05T10:00")

    letter = document_text(application, DocumentKind.SURETY_REQUIRED_LETTER)
    assert f"APPROVAL OF APPLICATION No. {application.number}, SUBJECT TO A SURETY" in letter
    assert "surety bond or irrevocable letter of credit of $5,000.00" in letter
    assert f"[{SURETY_CITE[village]}]" in letter
    assert f"[{PERIOD_CITE[village]}]" in letter
    assert "Decided: May 5, 2026" in letter
    if village == NEW_GLARUS:
        assert f"CONDITIONS THE PERMIT WILL CARRY [§ 135-7F]: - {ADDED}" in letter
    assert AuditEvent.objects.filter(
        entity="application", entity_id=application.pk, action="surety_required_letter_generate"
    ).exists()
    approval = AuditEvent.objects.get(
        entity="application", entity_id=application.pk, action="application_approve"
    )
    assert approval.after["status"] == "awaiting_surety"
    assert approval.after["surety_required"] == "5000.00"


@pytest.mark.parametrize("village", VILLAGES)
def test_the_applicant_and_the_staff_see_the_approval_waiting_for_the_surety(
    people: People, village: str
) -> None:
    application = awaiting(people, village, "11 Surety Ln")
    applicant = Client()
    applicant.force_login(people.applicant_a, backend=factories.ModelBackend)
    page = text_of(applicant.get(reverse("web:portal-application", args=[application.pk])))
    assert "Approved, subject to a surety." in page
    assert "$5000.00" in page and SURETY_CITE[village] in page
    assert "valid through" not in page.lower()  # no permit is shown: none was issued

    staff = Client()
    staff.force_login(people.staff[village], backend=factories.ModelBackend)
    queue = text_of(staff.get(reverse("web:staff-queue")))
    assert application.number in queue
    assert "Approved; permit issued when the surety is received" in queue
    # The decision was made in time: the clock is met, not overdue.
    assert "OVERDUE" not in queue
    detail = text_of(staff.get(reverse("web:staff-application", args=[application.pk])))
    assert "Record the surety received" in detail
    assert "subject to a surety bond or irrevocable letter of credit of $5000.00" in detail


def test_spencer_approval_with_a_surety_takes_no_added_conditions_and_writes_nothing(
    people: People,
) -> None:
    # Spencer's chapter has no § 135-7F: its Building Inspector adds no conditions.
    application = filed_application(people, SPENCER, "12 Surety Ln")
    before = counts()
    with pytest.raises(ActionRefused) as refused:
        approve_subject_to_surety(application, people.staff[SPENCER], conditions=[ADDED])
    assert refused.value.field == "conditions"
    assert counts() == before
    application.refresh_from_db()
    assert application.status == "under_review" and application.surety_required is None


@pytest.mark.parametrize("amount", ["0", "-5", "10000000.01"])
def test_an_approval_surety_of_nothing_or_too_much_is_refused_naming_the_surety(
    people: People, amount: str
) -> None:
    application = filed_application(people, SPENCER, "13 Surety Ln")
    before = counts()
    with pytest.raises(ActionRefused) as refused:
        approve_subject_to_surety(application, people.staff[SPENCER], amount=amount)
    assert refused.value.field == "surety"
    assert counts() == before
    application.refresh_from_db()
    assert application.status == "under_review"


@pytest.mark.parametrize("amount", ["0.001", "1E-400", "5000.005"])
def test_a_surety_in_fractions_of_a_cent_is_refused_not_rounded(
    people: People, amount: str
) -> None:
    # § 413-8E(2): the authority requires a surety of an amount; a surety of $0.00 is no
    # surety, and the amount the staff typed is not the one the letter would state.
    application = filed_application(people, SPENCER, "14 Surety Ln")
    before = counts()
    with pytest.raises(ActionRefused) as refused:
        approve_subject_to_surety(application, people.staff[SPENCER], amount=amount)
    assert refused.value.field == "surety"
    assert counts() == before


# -- 2. receiving the surety issues the permit ------------------------------------------------


@pytest.mark.parametrize("village", VILLAGES)
def test_receiving_the_surety_issues_the_permit_whose_180_days_run_from_that_day(
    people: People, village: str
) -> None:
    conditions = [ADDED] if village == NEW_GLARUS else []
    application = awaiting(people, village, "20 Surety Ln", conditions=conditions)
    permit = receive(application, people.staff[village], amount="6000")
    application.refresh_from_db()

    assert application.status == "approved"
    assert permit.issued_on == RECEIVED
    assert permit.expires_on == LAST_DAY
    assert permit.expires_on != LAST_DAY_IF_ISSUED_AT_APPROVAL
    issued = TimelineEvent.objects.get(application=application, type="permit_issued")
    assert issued.at == at("2026-05-14", 16)
    surety = permit.sureties.get()
    assert (surety.kind, surety.amount, surety.received_on) == (
        "letter_of_credit",
        Decimal("6000.00"),
        RECEIVED,
    )
    assert surety.balance == Decimal("6000.00")
    # New Glarus § 135-7F: the conditions added at approval are on the permit.
    assert permit.added_conditions == conditions

    text = document_text(application, DocumentKind.PERMIT)
    assert "Issued: May 14, 2026" in text
    assert "Valid through: November 10, 2026" in text
    assert (
        "Surety: irrevocable letter of credit of $6,000.00, Marathon County Bank LC-2026-14, "
        f"received May 14, 2026 [{SURETY_CITE[village]}]"
    ) in text
    if village == NEW_GLARUS:
        assert f"CONDITIONS ADDED BY THE VILLAGE ADMINISTRATOR [§ 135-7F]: - {ADDED}" in text
    else:
        assert "CONDITIONS ADDED BY" not in text
    audit = AuditEvent.objects.get(
        entity="application", entity_id=application.pk, action="surety_receive"
    )
    assert audit.citation == SURETY_CITE[village]
    assert audit.after["permit"] == permit.number
    assert audit.after["surety"]["amount"] == "6000.00"


def test_a_surety_received_late_in_the_evening_issues_the_permit_on_the_villages_day(
    people: People,
) -> None:
    # 11:30 p.m. on 2026-05-14 in Spencer is 04:30 UTC on 2026-05-15: the permit is issued
    # on the village's day, and its period is the one worked out for 2026-05-14.
    application = awaiting(people, SPENCER, "21 Surety Ln")
    permit = receive(application, people.staff[SPENCER], when=at("2026-05-14", 23, 30))
    assert (permit.issued_on, permit.expires_on) == (RECEIVED, LAST_DAY)


@pytest.mark.parametrize("village", VILLAGES)
def test_a_surety_short_of_the_amount_required_is_refused_with_the_figure(
    people: People, village: str
) -> None:
    application = awaiting(people, village, "22 Surety Ln")
    before = counts()
    with pytest.raises(ActionRefused) as refused:
        receive(application, people.staff[village], amount="4999.99")
    assert refused.value.field == "amount"
    assert "$5,000.00" in str(refused.value)
    assert "$4,999.99" in str(refused.value)
    assert SURETY_CITE[village] in str(refused.value)
    assert counts() == before
    application.refresh_from_db()
    assert application.status == "awaiting_surety"
    # Exactly the amount required is enough.
    permit = receive(application, people.staff[village], amount="5000.00")
    assert permit.sureties.get().amount == Decimal("5000.00")


def test_a_second_receipt_is_refused(people: People) -> None:
    application = awaiting(people, SPENCER, "23 Surety Ln")
    receive(application, people.staff[SPENCER])
    before = counts()
    with pytest.raises(ActionRefused) as refused:
        receive(application, people.staff[SPENCER], when=at("2026-05-15", 9))
    assert refused.value.field == "application"
    assert counts() == before
    assert Permit.objects.filter(application=application).count() == 1


@pytest.mark.parametrize("state", ["under_review", "approved_without_surety", "disapproved"])
def test_a_receipt_on_an_application_not_waiting_for_a_surety_is_refused(
    people: People, state: str
) -> None:
    application = filed_application(people, SPENCER, "24 Surety Ln")
    staff = people.staff[SPENCER]
    if state == "approved_without_surety":
        services.application_approve(application=application, staff=staff, at=at(*APPROVED))
    elif state == "disapproved":
        services.application_disapprove(
            application=application, staff=staff, reasons="No inlet protection.", at=at(*APPROVED)
        )
    before = counts()
    with pytest.raises(ActionRefused) as refused:
        receive(application, staff)
    assert refused.value.field == "application"
    assert counts() == before


@pytest.mark.parametrize(
    "expires_on", [RECEIVED, RECEIVED - datetime.timedelta(days=1)], ids=["same day", "before"]
)
def test_a_surety_that_expires_on_or_before_its_receipt_is_refused(
    people: People, expires_on: datetime.date
) -> None:
    application = awaiting(people, NEW_GLARUS, "25 Surety Ln")
    before = counts()
    with pytest.raises(ActionRefused) as refused:
        receive(application, people.staff[NEW_GLARUS], expires_on=expires_on)
    assert refused.value.field == "expires_on"
    assert counts() == before
    # The day after the receipt is a day the surety outlasts it.
    permit = receive(
        application, people.staff[NEW_GLARUS], expires_on=RECEIVED + datetime.timedelta(days=1)
    )
    assert permit.sureties.get().expires_on == datetime.date(2026, 5, 15)


def test_a_receipt_dated_before_the_approval_is_refused(people: People) -> None:
    application = awaiting(people, SPENCER, "26 Surety Ln")
    before = counts()
    with pytest.raises(ActionRefused) as refused:
        receive(application, people.staff[SPENCER], when=at("2026-05-05", 9, 59))
    assert refused.value.field == "at"
    assert counts() == before


def test_a_receipt_dated_in_the_future_is_refused(people: People) -> None:
    # "from the date of issuance" (§ 413-8E(1)): a permit is issued when the surety is
    # deposited, which cannot be a day that has not come.
    application = awaiting(people, SPENCER, "29 Surety Ln")
    tomorrow = timezone.now() + datetime.timedelta(days=1)
    before = counts()
    with pytest.raises(ActionRefused):
        receive(application, people.staff[SPENCER], when=tomorrow)
    assert counts() == before


@pytest.mark.parametrize("who", ["applicant", "inspector", "board", "other village's staff"])
def test_only_the_villages_authority_records_the_surety(people: People, who: str) -> None:
    application = awaiting(people, SPENCER, "27 Surety Ln")
    user = {
        "applicant": people.applicant_a,
        "inspector": people.inspector[SPENCER],
        "board": people.board[SPENCER],
        "other village's staff": people.staff[NEW_GLARUS],
    }[who]
    before = counts()
    with pytest.raises(ActionRefused) as refused:
        receive(application, user)
    assert refused.value.field == "village"
    assert "Building Inspector" in str(refused.value)
    assert counts() == before


@pytest.mark.parametrize(
    ("kind", "field"),
    [("cash", "kind"), ("", "kind")],
)
def test_a_receipt_of_something_not_a_bond_or_letter_of_credit_is_refused(
    people: People, kind: str, field: str
) -> None:
    # "a surety bond or irrevocable letter of credit", nothing else.
    application = awaiting(people, SPENCER, "28 Surety Ln")
    before = counts()
    with pytest.raises(ActionRefused) as refused:
        receive(application, people.staff[SPENCER], kind=kind)
    assert refused.value.field == field
    assert counts() == before


@pytest.mark.parametrize(
    ("changes", "field"),
    [({"kind": "cash"}, "kind"), ({"amount": Decimal("0")}, "amount")],
    ids=["cash", "zero"],
)
def test_recording_a_replacement_surety_is_held_to_the_same_words(
    spencer: factories.Spencer, people: People, changes: dict[str, Any], field: str
) -> None:
    # § 413-8E(2): "a surety bond or irrevocable letter of credit"; a replacement recorded on
    # the permit (surety_record) is the same kind of thing as the one received at approval.
    permit = spencer.permit
    arguments = {
        "permit": permit,
        "staff": people.staff[SPENCER],
        "kind": "surety_bond",
        "amount": Decimal("5000"),
        "issuer": "Marathon County Bank",
        "reference": "B-1",
        "received_on": permit.issued_on,
        **changes,
    }
    before = Surety.objects.count()
    try:
        with pytest.raises(ActionRefused) as refused:
            services.surety_record(**arguments)
    finally:
        assert Surety.objects.count() == before
    assert refused.value.field == field


# -- 3. draws and releases ---------------------------------------------------------------------


@pytest.fixture(params=VILLAGES)
def received(request: pytest.FixtureRequest, people: People) -> tuple[Surety, Any]:
    village = request.param
    application = awaiting(people, village, "30 Surety Ln")
    permit = receive(application, people.staff[village])
    return permit.sureties.get(), people.staff[village]


def test_draws_and_releases_keep_the_balance_and_write_the_release_letters(
    received: tuple[Surety, Any],
) -> None:
    surety, staff = received
    permit = surety.permit
    village = permit.village_id
    application = permit.application

    before = counts()
    with pytest.raises(ActionRefused) as over:
        services.surety_draw(
            surety=surety,
            staff=staff,
            amount=Decimal("5000.01"),
            on=datetime.date(2026, 6, 1),
            reason="Silt fence replaced by the village crew",
        )
    assert over.value.field == "amount"
    assert "$5,000.01" in str(over.value) and "$5,000.00" in str(over.value)
    with pytest.raises(ActionRefused) as unexplained:
        services.surety_draw(
            surety=surety,
            staff=staff,
            amount=Decimal("100"),
            on=datetime.date(2026, 6, 1),
            reason=" ",
        )
    assert unexplained.value.field == "reason"
    with pytest.raises(ActionRefused) as early:
        services.surety_draw(
            surety=surety,
            staff=staff,
            amount=Decimal("100"),
            on=datetime.date(2026, 5, 13),
            reason="Too early",
        )
    assert early.value.field == "on" and "2026-05-14" in str(early.value)
    with pytest.raises(ActionRefused) as nothing:
        services.surety_draw(
            surety=surety,
            staff=staff,
            amount=Decimal("0"),
            on=datetime.date(2026, 6, 1),
            reason="x",
        )
    assert nothing.value.field == "amount"
    assert counts() == before

    services.surety_draw(
        surety=surety,
        staff=staff,
        amount=Decimal("1000"),
        on=datetime.date(2026, 6, 1),
        reason="Silt fence replaced by the village crew",
    )
    surety.refresh_from_db()
    assert surety.balance == Decimal("4000.00")
    # A draw writes no letter; only a release does.
    assert not application.documents.filter(kind=DocumentKind.SURETY_RELEASE_LETTER).exists()
    with pytest.raises(ActionRefused) as over_balance:
        services.surety_draw(
            surety=surety,
            staff=staff,
            amount=Decimal("4000.01"),
            on=datetime.date(2026, 6, 2),
            reason="x",
        )
    assert "$4,000.01" in str(over_balance.value) and "$4,000.00" in str(over_balance.value)
    with pytest.raises(ActionRefused) as release_over:
        services.surety_release(
            surety=surety, staff=staff, amount=Decimal("4000.01"), on=datetime.date(2026, 6, 2)
        )
    assert release_over.value.field == "amount"

    services.surety_release(
        surety=surety,
        staff=staff,
        amount=Decimal("1500"),
        on=datetime.date(2026, 8, 3),
        reason="Streets paved; the street inlets no longer at risk",
    )
    surety.refresh_from_db()
    assert surety.released_on is None
    assert surety.balance == Decimal("2500.00")
    partial = document_text(application, DocumentKind.SURETY_RELEASE_LETTER)
    assert f"RELEASE OF SURETY, PERMIT No. {permit.number}" in partial
    assert "Released: August 3, 2026" in partial
    assert "Drawn on June 1, 2026: $1,000.00 (Silt fence replaced by the village crew)." in partial
    assert (
        f"The {AUTHORITY[village]} releases $1,500.00 of the surety; $2,500.00 is still held."
        in partial
    )
    assert f"[{SURETY_CITE[village]}]" in partial

    services.surety_release(surety=surety, staff=staff, on=datetime.date(2026, 11, 12))
    surety.refresh_from_db()
    assert surety.released_on == datetime.date(2026, 11, 12)
    assert surety.balance == Decimal("0.00")
    assert surety.movements.order_by("id").last().amount == Decimal("2500.00")
    whole = document_text(application, DocumentKind.SURETY_RELEASE_LETTER)
    assert f"The {AUTHORITY[village]} releases the surety in full: $2,500.00." in whole
    assert "still held" not in whole
    assert application.documents.filter(kind=DocumentKind.SURETY_RELEASE_LETTER).count() == 2

    before = counts()
    with pytest.raises(ActionRefused) as gone:
        services.surety_draw(
            surety=surety,
            staff=staff,
            amount=Decimal("1"),
            on=datetime.date(2026, 11, 13),
            reason="x",
        )
    assert gone.value.field == "surety" and "2026-11-12" in str(gone.value)
    with pytest.raises(ActionRefused):
        services.surety_release(surety=surety, staff=staff, on=datetime.date(2026, 11, 13))
    assert counts() == before

    # The audit chain: each movement, with the balance before and after.
    moves = list(
        AuditEvent.objects.filter(
            entity="permit", entity_id=permit.pk, action__startswith="surety_"
        ).order_by("seq")
    )
    assert [(e.action, e.before["balance"], e.after["balance"]) for e in moves] == [
        ("surety_draw", "5000.00", "4000.00"),
        ("surety_release", "4000.00", "2500.00"),
        ("surety_release", "2500.00", "0.00"),
    ]
    assert {e.citation for e in moves} == {SURETY_CITE[village]}
    assert moves[0].reason == "Silt fence replaced by the village crew"
    assert (
        AuditEvent.objects.filter(
            entity="application",
            entity_id=application.pk,
            action="surety_release_letter_generate",
        ).count()
        == 2
    )


def test_a_draw_in_fractions_of_a_cent_is_refused_naming_the_amount(
    received: tuple[Surety, Any],
) -> None:
    surety, staff = received
    before = counts()
    with pytest.raises(ActionRefused) as refused:
        services.surety_draw(
            surety=surety,
            staff=staff,
            amount=Decimal("0.001"),
            on=datetime.date(2026, 6, 1),
            reason="Silt fence replaced by the village crew",
        )
    assert refused.value.field == "amount"
    assert counts() == before


def test_only_the_villages_authority_draws_or_releases(
    received: tuple[Surety, Any], people: People
) -> None:
    surety, _ = received
    other = NEW_GLARUS if surety.permit.village_id == SPENCER else SPENCER
    before = counts()
    for user in (
        people.applicant_a,
        people.inspector[surety.permit.village_id],
        people.staff[other],
    ):
        with pytest.raises(ActionRefused) as refused:
            services.surety_draw(
                surety=surety,
                staff=user,
                amount=Decimal("1"),
                on=datetime.date(2026, 6, 1),
                reason="x",
            )
        assert refused.value.field == "village"
        with pytest.raises(ActionRefused):
            services.surety_release(surety=surety, staff=user, on=datetime.date(2026, 6, 1))
    assert counts() == before


# -- 4. the expiry watch -----------------------------------------------------------------------


def test_the_expiry_watch_flags_thirty_days_ahead_and_after_expiry_only_while_held(
    people: People,
) -> None:
    # A letter of credit whose last day is Thursday 2026-12-31 (decision 31: the permit page
    # flags one "that expires within 30 days, or has expired, while the permit is not closed").
    application = awaiting(people, SPENCER, "40 Surety Ln")
    expires = datetime.date(2026, 12, 31)
    permit = receive(application, people.staff[SPENCER], expires_on=expires)
    surety = permit.sureties.get()

    def warning(today: datetime.date) -> str:
        return surety_expiry_warning(surety, permit, today)

    assert warning(datetime.date(2026, 11, 30)) == ""  # 31 days ahead
    thirty = warning(datetime.date(2026, 12, 1))
    assert "December 31, 2026" in thirty and "in 30 days" in thirty
    assert "in 1 day:" in warning(datetime.date(2026, 12, 30))
    assert "in 0 days" in warning(expires)
    after = warning(datetime.date(2027, 1, 1))
    assert "expired on December 31, 2026" in after

    # Released: nothing left to watch.
    services.surety_release(
        surety=surety, staff=people.staff[SPENCER], on=datetime.date(2026, 12, 1)
    )
    surety.refresh_from_db()
    assert surety_expiry_warning(surety, permit, datetime.date(2026, 12, 1)) == ""
    assert surety_expiry_warning(surety, permit, datetime.date(2027, 1, 1)) == ""


def test_the_expiry_watch_is_silent_once_the_permit_is_closed(people: People) -> None:
    application = awaiting(people, SPENCER, "41 Surety Ln")
    permit = receive(application, people.staff[SPENCER], expires_on=datetime.date(2026, 12, 31))
    surety = permit.sureties.get()
    assert surety_expiry_warning(surety, permit, datetime.date(2026, 12, 15)) != ""
    services.permit_close(
        permit=permit, staff=people.staff[SPENCER], on=datetime.date(2026, 11, 5), cover_percent=90
    )
    permit.refresh_from_db()
    assert surety_expiry_warning(surety, permit, datetime.date(2026, 12, 15)) == ""
    assert surety_expiry_warning(surety, permit, datetime.date(2027, 1, 1)) == ""


def test_a_surety_without_a_last_day_is_never_flagged(people: People) -> None:
    application = awaiting(people, NEW_GLARUS, "42 Surety Ln")
    permit = receive(application, people.staff[NEW_GLARUS], kind="surety_bond")
    surety = permit.sureties.get()
    assert surety_expiry_warning(surety, permit, datetime.date(2030, 1, 1)) == ""


# -- 6. the web --------------------------------------------------------------------------------


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user, backend=factories.ModelBackend)
    return client


def _messages(response: Any) -> list[str]:
    """The messages this response queued. The test client follows no redirect, so the
    messages are not shown, and would come back on the next request: they are dropped
    from the client's cookie once read."""
    shown = [str(m) for m in get_messages(response.wsgi_request)]
    client = response.client
    client.cookies.pop("messages", None)
    return shown


def _approve(client: Client, application: Application, surety: str, **extra: str) -> Any:
    return client.post(
        reverse("web:staff-approve", args=[application.pk]),
        {
            "reasons": "Plan complete.",
            "conditions": "",
            "surety": surety,
            "confirm": "yes",
            **extra,
        },
    )


@pytest.mark.parametrize(
    ("typed", "amount"),
    [
        ("5,000", Decimal("5000.00")),
        ("$5000.00", Decimal("5000.00")),
        (" 12,500.50 ", Decimal("12500.50")),
    ],
)
def test_the_approve_form_reads_a_surety_in_dollars(
    people: People, typed: str, amount: Decimal
) -> None:
    application = filed_application(people, SPENCER, "50 Web Ln")
    response = _approve(_client(people.staff[SPENCER]), application, typed)
    assert response.status_code == 302
    assert _messages(response) == [
        "Approved, subject to the surety. The permit will be issued when it is received."
    ]
    application.refresh_from_db()
    assert application.status == "awaiting_surety"
    assert application.surety_required == amount
    assert not Permit.objects.filter(application=application).exists()
    assert application.documents.filter(kind=DocumentKind.SURETY_REQUIRED_LETTER).count() == 1


@pytest.mark.parametrize("typed", ["abc", "NaN", "sNaN", "Infinity", "1e400", "-5", "0", "5 000"])
def test_a_bad_surety_on_the_approve_form_names_the_surety_and_changes_nothing(
    people: People, typed: str
) -> None:
    application = filed_application(people, SPENCER, "51 Web Ln")
    before = counts()
    response = _approve(_client(people.staff[SPENCER]), application, typed)
    assert response.status_code == 302
    shown = _messages(response)
    assert len(shown) == 1 and "surety" in shown[0].lower(), shown
    assert counts() == before
    application.refresh_from_db()
    assert application.status == "under_review" and application.decided_at is None


def test_an_empty_surety_on_the_approve_form_issues_the_permit_at_once(people: People) -> None:
    application = filed_application(people, NEW_GLARUS, "52 Web Ln")
    response = _approve(_client(people.staff[NEW_GLARUS]), application, "")
    assert _messages(response) == ["Approved. The permit was issued."]
    application.refresh_from_db()
    assert application.status == "approved" and application.surety_required is None
    assert Permit.objects.filter(application=application).exists()


def test_the_surety_received_on_the_web_issues_the_permit_today(people: People) -> None:
    application = awaiting(people, NEW_GLARUS, "53 Web Ln")
    client = _client(people.staff[NEW_GLARUS])
    url = reverse("web:staff-surety-receive", args=[application.pk])
    form = {
        "kind": "letter_of_credit",
        "amount": "4999.99",
        "issuer": "Bank of New Glarus",
        "reference": "LC-9",
        "expires_on": "",
    }
    before = counts()
    short = client.post(url, form)
    assert short.status_code == 302
    (message,) = _messages(short)
    assert "$5,000.00" in message and "§ 135-7D" in message
    assert counts() == before

    today = timezone.localdate()
    expires = today + datetime.timedelta(days=10)
    response = client.post(url, {**form, "amount": "5000", "expires_on": expires.isoformat()})
    assert _messages(response) == ["Surety recorded. The permit was issued."]
    permit = Permit.objects.get(application=application)
    # Issued the day it is received; the last day 180 days after, the day of issue excluded.
    assert permit.issued_on == today
    assert permit.expires_on == today + datetime.timedelta(days=180)

    # The permit page: the surety, what is held, and the flagged last day of the letter.
    page = text_of(client.get(reverse("web:permit", args=[permit.pk])))
    assert "Irrevocable letter of credit of $5000.00, Bank of New Glarus (LC-9)" in page
    assert "Held: $5000.00" in page
    assert f"This surety expires on {expires:%B %-d, %Y}, in 10 days" in page

    surety = permit.sureties.get()
    move = reverse("web:permit-surety-move", args=[permit.pk, surety.pk])
    before = counts()
    bogus = client.post(move, {"move": "withdraw", "amount": "100", "on": today.isoformat()})
    assert _messages(bogus) == ["move: choose to record a draw or a release"]
    no_move = client.post(move, {"amount": "100", "on": today.isoformat()})
    assert _messages(no_move) == ["move: choose to record a draw or a release"]
    assert counts() == before

    drawn = client.post(
        move,
        {"move": "draw", "amount": "1,200", "on": today.isoformat(), "reason": "Fence"},
    )
    assert len(_messages(drawn)) == 1 and counts() == before  # "1,200" is not a number here
    drawn = client.post(
        move, {"move": "draw", "amount": "1200", "on": today.isoformat(), "reason": "Fence"}
    )
    assert _messages(drawn) == ["Draw on the surety recorded."]
    released = client.post(
        move, {"move": "release", "amount": "800", "on": today.isoformat(), "reason": ""}
    )
    assert _messages(released) == ["Surety released. The letter was generated."]
    surety.refresh_from_db()
    assert surety.balance == Decimal("3000.00") and surety.released_on is None
    page = text_of(client.get(reverse("web:permit", args=[permit.pk])))
    assert "Held: $3000.00" in page
    assert "Surety release letter" in page

    released = client.post(move, {"move": "release", "amount": "", "on": today.isoformat()})
    assert _messages(released) == ["Surety released. The letter was generated."]
    surety.refresh_from_db()
    assert surety.released_on == today and surety.balance == Decimal("0.00")
    page = text_of(client.get(reverse("web:permit", args=[permit.pk])))
    assert "Released in full" in page
    assert "This surety expires on" not in page


def test_a_draw_on_the_web_without_an_amount_is_refused_naming_the_amount(
    people: People,
) -> None:
    application = awaiting(people, SPENCER, "54 Web Ln")
    permit = receive(application, people.staff[SPENCER])
    surety = permit.sureties.get()
    before = counts()
    response = _client(people.staff[SPENCER]).post(
        reverse("web:permit-surety-move", args=[permit.pk, surety.pk]),
        {"move": "draw", "amount": "", "on": "2026-06-01", "reason": "Fence"},
    )
    assert _messages(response) == ["amount: give the amount drawn"]
    assert counts() == before


# -- 6, continued. hostile input: never a 500, never a half-written record ---------------

HOSTILE = st.one_of(
    st.text(max_size=40),
    st.from_regex(r"[-+$ ]?[0-9,]{0,9}(\.[0-9]{0,3})?([eE][-+]?[0-9]{1,4})?", fullmatch=True),
    st.sampled_from(
        [
            "",
            " ",
            "\x00",
            "5,000",
            "$5000.00",
            "abc",
            "NaN",
            "-NaN",
            "sNaN",
            "Infinity",
            "-Infinity",
            "1e400",
            "1e-400",
            "-5",
            "0",
            "9" * 400,
            "10000000",
            "10000000.01",
            "$$5",
            "5e3",
            "٥٠٠٠",
            "<script>x</script>",
        ]
    ),
)


class Fresh:
    """A new application in the wanted state whenever the last one was used up."""

    def __init__(self, people: People, village: str, state: str) -> None:
        self.people, self.village, self.state, self.made = people, village, state, 0
        self.current: Application | None = None

    def get(self) -> Application:
        if self.current is not None:
            self.current.refresh_from_db()
        if self.current is None or self.current.status != self.state:
            self.made += 1
            address = f"{self.made} Fuzz St"
            self.current = (
                awaiting(self.people, self.village, address)
                if self.state == "awaiting_surety"
                else filed_application(self.people, self.village, address)
            )
        return self.current


@pytest.fixture
def under_review(people: People) -> Fresh:
    """Kept across a test's examples (hypothesis runs them all in one test)."""
    return Fresh(people, SPENCER, "under_review")


@pytest.fixture
def waiting(people: People) -> Fresh:
    return Fresh(people, NEW_GLARUS, "awaiting_surety")


@FUZZ
@given(typed=HOSTILE)
def test_the_approve_forms_surety_never_errs_nor_half_writes(
    people: People, under_review: Fresh, typed: str
) -> None:
    application = under_review.get()
    before = counts()
    response = _approve(_client(people.staff[SPENCER]), application, typed.replace("\x00", ""))
    assert response.status_code == 302
    shown = _messages(response)
    assert len(shown) == 1, shown
    application.refresh_from_db()
    letters = application.documents.filter(kind=DocumentKind.SURETY_REQUIRED_LETTER).count()
    permits = Permit.objects.filter(application=application).count()
    if application.status == "under_review":
        assert "surety" in shown[0].lower(), shown
        assert counts() == before
    elif application.status == "awaiting_surety":
        assert shown[0].startswith("Approved, subject to the surety.")
        assert application.surety_required is not None and (letters, permits) == (1, 0)
        assert "permit_issued" not in event_types(application)
    else:
        assert application.status == "approved"
        assert shown == ["Approved. The permit was issued."]
        assert application.surety_required is None and (letters, permits) == (0, 1)


@FUZZ
@given(
    kind=st.one_of(st.sampled_from(["letter_of_credit", "surety_bond"]), st.text(max_size=20)),
    amount=HOSTILE,
    issuer=st.text(max_size=210),
    reference=st.text(max_size=110),
    expires_on=st.one_of(st.just(""), st.dates().map(str), st.text(max_size=12)),
)
def test_the_surety_receive_form_never_errs_nor_half_writes(
    people: People,
    waiting: Fresh,
    kind: str,
    amount: str,
    issuer: str,
    reference: str,
    expires_on: str,
) -> None:
    application = waiting.get()
    before = counts()
    data = {
        "kind": kind,
        "amount": amount,
        "issuer": issuer,
        "reference": reference,
        "expires_on": expires_on,
    }
    response = _client(people.staff[NEW_GLARUS]).post(
        reverse("web:staff-surety-receive", args=[application.pk]),
        {k: v.replace("\x00", "") for k, v in data.items()},
    )
    assert response.status_code == 302
    shown = _messages(response)
    assert len(shown) == 1, shown
    application.refresh_from_db()
    if application.status == "awaiting_surety":
        assert counts() == before
    else:
        assert shown == ["Surety recorded. The permit was issued."]
        assert application.status == "approved"
        permit = Permit.objects.get(application=application)
        surety = permit.sureties.get()
        assert surety.amount >= application.surety_required
        assert surety.expires_on is None or surety.expires_on > permit.issued_on
        assert permit.issued_on == timezone.localdate()
        assert application.documents.filter(kind=DocumentKind.PERMIT).count() == 1
        assert event_types(application).count("permit_issued") == 1


@pytest.fixture
def issued(people: People) -> Permit:
    return receive(awaiting(people, SPENCER, "1 Move St"), people.staff[SPENCER])


@FUZZ
@given(
    move=st.one_of(st.sampled_from(["draw", "release"]), st.text(max_size=10)),
    amount=HOSTILE,
    on=st.one_of(st.dates().map(str), st.text(max_size=12)),
    reason=st.text(max_size=60),
)
def test_the_surety_move_form_never_errs_nor_half_writes(
    people: People, issued: Permit, move: str, amount: str, on: str, reason: str
) -> None:
    permit = issued
    # A surety released in full, or drawn down to nothing, is used up: take a new one.
    surety = permit.sureties.filter(released_on=None).order_by("-id").first()
    if surety is None or surety.balance == 0:
        surety = services.surety_record(
            permit=permit,
            staff=people.staff[SPENCER],
            kind="surety_bond",
            amount=Decimal("5000"),
            issuer="Marathon County Bank",
            reference="B-2",
            received_on=RECEIVED,
        )
    before, balance = counts(), surety.balance
    response = _client(people.staff[SPENCER]).post(
        reverse("web:permit-surety-move", args=[permit.pk, surety.pk]),
        {"move": move, "amount": amount, "on": on, "reason": reason.replace("\x00", "")},
    )
    assert response.status_code == 302
    shown = _messages(response)
    assert len(shown) == 1, shown
    surety.refresh_from_db()
    after = counts()
    if after["movements"] == before["movements"]:
        assert after == before and surety.balance == balance
        return
    assert after["movements"] == before["movements"] + 1
    movement = surety.movements.order_by("-id").first()
    assert movement.kind == move and Decimal(0) < movement.amount <= balance
    assert surety.balance == balance - movement.amount >= 0
    assert movement.on >= surety.received_on
    assert (surety.released_on is not None) is (move == "release" and surety.balance == 0)
    letters = after["documents"] - before["documents"]
    assert letters == (1 if move == "release" else 0)
