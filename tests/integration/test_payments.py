"""Fees and payments: receipts, corrections, and fee schedules beyond one flat amount.

Neither chapter states its fee (Spencer § 413-8A: "pay an application fee"; New Glarus
§ 135-9: "established by the Village Administrator, upon approval of the Village Board"),
so every amount here is one a test sets as the village would. The figures are worked out
by hand in the comments. Money received gets a receipt number unique in the village and
the year; a fee, a cost of village work (§ 413-10E, § 135-11E) or a payment entered wrong
is corrected by a new entry with its reason, never changed or deleted, and the totals and
an invoice's balance follow the correction. Only the village's own staff write any of it.
"""

from __future__ import annotations

import datetime
import threading
from decimal import Decimal
from typing import Any

import factories
import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connections, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from enforcement_helpers import at, permit_filed_on
from factories import NEW_GLARUS, SPENCER, text_of
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from siltfence.apps.audit.chain import chain_verify
from siltfence.apps.audit.models import AuditEvent
from siltfence.apps.enforcement import services as enforcement
from siltfence.apps.enforcement.documents import invoice_lines
from siltfence.apps.enforcement.models import Invoice, WorkCost
from siltfence.apps.payments import errors
from siltfence.apps.payments import services as payments
from siltfence.apps.payments.errors import ActionRefused, RecordKept
from siltfence.apps.payments.forms import (
    CostCorrectForm,
    FeeCorrectForm,
    FeeForm,
    FeeScheduleForm,
    PaymentCorrectForm,
)
from siltfence.apps.payments.models import FeeCorrection, Payment, ReceiptCounter
from siltfence.apps.payments.receipts import receipt_lines
from siltfence.apps.permits import services
from siltfence.apps.permits.models import Application, FeeSchedule, Village
from siltfence.core.fees import fee_compute
from siltfence.core.ordinance.loader import load

pytestmark = pytest.mark.django_db

NOV_30 = datetime.date(2026, 11, 30)
DEC_1 = datetime.date(2026, 12, 1)
JAN_1 = datetime.date(2026, 1, 1)


# -- helpers ------------------------------------------------------------------------------------


def schedule(people: factories.People, village: str = SPENCER, **terms: Any) -> FeeSchedule:
    return services.fee_schedule_set(
        village=Village.objects.get(pk=village),
        staff=people.staff[village],
        effective_from=terms.pop("effective_from", JAN_1),
        authority=terms.pop("authority", "Village Board resolution 2026-4"),
        **terms,
    )


def draft(people: factories.People, village: str = SPENCER, **facts: Any) -> Application:
    return factories.make_application(
        applicant=people.applicant_a,
        village=village,
        state="draft",
        facts=facts or factories.FACTS[village],
        address="12 Fence Rd",
    )


def pay(application: Application, staff: Any, amount: str, **more: Any) -> Payment:
    return payments.payment_receive(
        staff=staff,
        application=application,
        amount=amount,
        received_on=more.pop("received_on", NOV_30),
        method=more.pop("method", "cash"),
        **more,
    )


def invoiced_case(people: factories.People, village: str = SPENCER) -> tuple[Any, Invoice]:
    """Village work on a permit's site with two costs, billed on 2026-08-01 for $1,500.50
    ($1,250.50 + $250.00), due 30 days later."""
    staff = people.staff[village]
    permit = permit_filed_on(
        applicant=people.applicant_a,
        village=village,
        staff=staff,
        filed="2026-06-01",
        address="12 Park St",
    )
    provision = "§ 413-7B(4)" if village == SPENCER else "§ 135-5A"
    case = enforcement.violation_record(
        village=permit.village,
        recorded_by=staff,
        source="observation",
        description="Silt fence down along the street",
        provision=provision,
        days_from=datetime.date(2026, 7, 1),
        at=at("2026-07-01"),
        permit=permit,
    ).case
    enforcement.stop_work_order_post(
        case=case, staff=staff, at=at("2026-07-01", 10), grounds=["conditions-not-met"]
    )
    enforcement.notice_of_intent_issue(
        case=case, staff=staff, at=at("2026-07-11"), work="Reset the fence"
    )
    enforcement.village_work_begin(case=case, staff=staff, at=at("2026-07-26"))
    for category, description, amount in (
        ("contracts", "Fence contractor", "1250.50"),
        ("labour", "Public works crew, 5 hours", "250.00"),
    ):
        enforcement.work_cost_record(
            case=case,
            staff=staff,
            category=category,
            description=description,
            amount=amount,
            incurred_on=datetime.date(2026, 7, 27),
        )
    invoice = enforcement.invoice_issue(case=case, staff=staff, on=datetime.date(2026, 8, 1))
    return case, invoice


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user, backend=factories.ModelBackend)
    return client


def flash(response: Any) -> list[str]:
    from django.contrib.messages import get_messages

    return [str(m) for m in get_messages(response.wsgi_request)]


# -- 3. fee schedules beyond one flat amount --------------------------------------------------


def test_150_dollars_plus_50_an_acre_for_2_3_acres_is_265_dollars(people):
    schedule(people, amount="150", per_area_amount="50", area_unit="acre")
    application = draft(people, disturbed_area="2.3 acre", land_use="residential")
    # 150 + 50 × 2.3 = 150 + 115 = 265
    assert services.application_fee_due(application, DEC_1) == Decimal("265.00")
    assert application.fee_amount == Decimal("265.00")
    assert application.fee_basis == "$150.00 + $50.00 per acre × 2.3 acres = $265.00"


@pytest.mark.parametrize(
    ("sq_ft", "due", "words"),
    [
        # The base covers the first 4,000 sq ft: nothing more at 4,000 sq ft exactly.
        (4000, "100.00", "$100.00 for the first 4,000 sq ft (4,000 sq ft disturbed) = $100.00"),
        # One square foot beyond: 100 + 10 × 1/1,000 = 100.01
        (
            4001,
            "100.01",
            "$100.00 for the first 4,000 sq ft + $10.00 per 1,000 sq ft × 1 sq ft beyond it "
            "(4,001 sq ft disturbed) = $100.01",
        ),
        # 100 + 10 × 5,500/1,000 = 155
        (
            9500,
            "155.00",
            "$100.00 for the first 4,000 sq ft + $10.00 per 1,000 sq ft × 5,500 sq ft beyond it "
            "(9,500 sq ft disturbed) = $155.00",
        ),
    ],
    ids=["at-the-boundary", "one-sq-ft-beyond", "well-beyond"],
)
def test_an_area_the_base_covers_charges_only_what_lies_beyond_it(people, sq_ft, due, words):
    schedule(people, amount="100", per_area_amount="10", area_unit="1000_sq_ft", area_included="4")
    application = draft(people, disturbed_area=sq_ft, land_use="residential")
    assert services.application_fee_due(application, DEC_1) == Decimal(due)
    assert application.fee_basis == words


@pytest.mark.parametrize(
    ("sq_ft", "cents"),
    [
        # $0.05 per 1,000 sq ft × 100 sq ft = $0.005: half a cent rounds up to $0.01 (a
        # banker's rounding would give $0.00).
        ("100", "0.01"),
        # × 99.99 sq ft = $0.0049995: under half a cent, $0.00.
        ("99.99", "0.00"),
        # × 300 sq ft = $0.015 -> $0.02 (half up; a banker's rounding agrees here).
        ("300", "0.02"),
        # × 500 sq ft = $0.025 -> $0.03 half up (a banker's rounding gives $0.02).
        ("500", "0.03"),
    ],
)
def test_the_fee_is_rounded_to_the_cent_half_up(sq_ft, cents):
    fee = fee_compute(
        base=Decimal("0.00"),
        per_area=Decimal("0.05"),
        unit="1000_sq_ft",
        included=Decimal(0),
        area_sq_ft=Decimal(sq_ft),
    )
    assert fee.amount == Decimal(cents)


def test_a_schedule_applies_from_its_date_and_not_the_day_before(people):
    schedule(people, amount="75", effective_from=JAN_1)
    schedule(people, amount="100", effective_from=datetime.date(2026, 6, 1))
    application = draft(people)
    assert services.application_fee_due(application, datetime.date(2026, 5, 31)) == Decimal("75")
    assert services.application_fee_due(application, datetime.date(2026, 6, 1)) == Decimal("100")


def test_a_flat_fee_says_it_is_flat_and_a_new_glarus_fee_cites_135_9(people):
    schedule(people, NEW_GLARUS, amount="80", reinspection_fee="35")
    application = draft(people, NEW_GLARUS)
    assert application.fee_basis == "a flat fee of $80.00"
    event = AuditEvent.objects.filter(action="fee_schedule_set", village=NEW_GLARUS).last()
    assert event.citation == "§ 135-9"
    assert event.after["reinspection_fee"] == "35.00"


def test_the_filing_fixes_the_fee_worked_out_on_the_filing_day(people):
    schedule(people, amount="150", per_area_amount="50", area_unit="acre")
    application = draft(people, disturbed_area="2.3 acre", land_use="residential")
    pay(application, people.staff[SPENCER], "265.00", received_on=DEC_1)
    services.application_submit(
        application=application, user=people.applicant_a, at=at("2026-12-02")
    )
    application.refresh_from_db()
    assert application.status == "under_review"
    assert application.fee_amount == Decimal("265.00")
    # A later schedule changes nothing for a filed application.
    schedule(people, amount="500", effective_from=datetime.date(2026, 12, 2))
    assert services.application_fee_due(application, datetime.date(2026, 12, 3)) == Decimal(
        "265.00"
    )


@pytest.mark.parametrize(
    ("terms", "field"),
    [
        ({"amount": "-1"}, "amount"),
        ({"amount": "1000000.01"}, "amount"),
        ({"amount": "75", "per_area_amount": "50"}, "area_unit"),
        ({"amount": "75", "area_unit": "acre"}, "per_area_amount"),
        ({"amount": "75", "area_included": "2"}, "area_included"),
        ({"amount": "75", "reinspection_fee": "٣٥"}, "reinspection_fee"),
        ({"amount": "75", "area_unit": "hectare", "per_area_amount": "5"}, "area_unit"),
    ],
)
def test_a_fee_schedule_out_of_bounds_is_refused_naming_its_field(people, terms, field):
    with pytest.raises(ActionRefused) as refused:
        schedule(people, **terms)
    assert refused.value.field == field
    assert not FeeSchedule.objects.exists()
    form = FeeScheduleForm(
        data={"effective_from": "2026-01-01", "authority": "Res. 2026-4", **terms}
    )
    assert not form.is_valid() and list(form.errors) == [field]


def test_the_settings_page_sets_a_schedule_by_area_and_shows_it(people):
    client = signed_in(people.staff[SPENCER])
    response = client.post(
        reverse("web:village-fee", args=[SPENCER]),
        {
            "effective_from": "2026-01-01",
            "amount": "150",
            "per_area_amount": "50",
            "area_unit": "acre",
            "area_included": "1",
            "reinspection_fee": "40",
            "authority": "Res. 2026-4",
        },
    )
    assert response.status_code == 302
    fee = FeeSchedule.objects.get(village_id=SPENCER)
    assert (fee.amount, fee.per_area_amount, fee.area_included, fee.reinspection_fee) == (
        Decimal("150"),
        Decimal("50"),
        Decimal("1"),
        Decimal("40"),
    )
    page = text_of(client.get(reverse("web:village-settings", args=[SPENCER])))
    assert (
        "From Jan. 1, 2026: $150.00 for the first 1 acre, plus $50.00 per acre beyond; "
        "re-inspection $40.00 (Res. 2026-4)" in page
    )


# -- 1. payments and their receipts ---------------------------------------------------------


def test_receipts_are_numbered_on_in_the_village_and_year_and_never_shared(people):
    schedule(people, amount="75")
    schedule(people, NEW_GLARUS, amount="80")
    first, second = draft(people), draft(people)
    glarus = draft(people, NEW_GLARUS)
    staff = people.staff[SPENCER]
    assert pay(first, staff, "75").receipt_number == "SP-R-2026-0001"
    assert pay(second, staff, "75").receipt_number == "SP-R-2026-0002"
    assert pay(glarus, people.staff[NEW_GLARUS], "80").receipt_number == "NG-R-2026-0001"
    assert ReceiptCounter.objects.get(village_id=SPENCER, year=2026).last == 2
    # The database refuses a second receipt with a number already given.
    with pytest.raises(IntegrityError), transaction.atomic():
        Payment.objects.create(
            village_id=SPENCER,
            application=first,
            purpose="application_fee",
            amount=Decimal("1"),
            received_on=NOV_30,
            method="cash",
            received_by=staff,
            recorded_at=datetime.datetime(2026, 11, 30, 12, tzinfo=datetime.UTC),
            receipt_number="SP-R-2026-0001",
        )


def test_a_payment_received_last_year_is_numbered_in_last_year(people):
    schedule(people, amount="75", effective_from=datetime.date(2025, 1, 1))
    application = draft(people)
    staff = people.staff[SPENCER]
    assert pay(
        application, staff, "25", received_on=datetime.date(2025, 12, 31)
    ).receipt_number == ("SP-R-2025-0001")
    assert pay(application, staff, "25", received_on=JAN_1).receipt_number == "SP-R-2026-0001"


def test_a_check_needs_its_number_and_only_a_check_has_one(people):
    schedule(people, amount="75")
    application = draft(people)
    staff = people.staff[SPENCER]
    for method, number, message in (
        ("check", "", errors.CHECK_NUMBER_REQUIRED),
        ("check", "12 34", errors.CHECK_NUMBER_FORM),
        ("cash", "1042", errors.CHECK_NUMBER_NOT_A_CHECK),
    ):
        with pytest.raises(ActionRefused) as refused:
            pay(application, staff, "75", method=method, check_number=number)
        assert (refused.value.field, str(refused.value)) == ("check_number", message)
    with pytest.raises(ActionRefused) as refused:
        pay(application, staff, "75", method="barter")
    assert refused.value.field == "method"
    assert not Payment.objects.exists()
    payment = pay(application, staff, "75", method="check", check_number="1042")
    assert payment.method_words == "Check No. 1042"


def test_a_payment_is_at_most_what_is_still_owed_and_nothing_when_no_fee_is_due(people):
    application = draft(people)
    staff = people.staff[SPENCER]
    with pytest.raises(ActionRefused, match="no application fee is due"):
        pay(application, staff, "75")
    schedule(people, amount="75")
    pay(application, staff, "50")
    with pytest.raises(ActionRefused) as refused:
        pay(application, staff, "25.01")
    assert str(refused.value) == (
        "amount: $25.01 is more than the $25.00 still owed on the application fee of $75.00"
    )
    pay(application, staff, "25", method="card")
    with pytest.raises(ActionRefused, match=r"paid in full \(\$75\.00 recorded\)"):
        pay(application, staff, "0.01")
    application.refresh_from_db()
    assert application.fee_paid_on == NOV_30


def test_a_re_inspection_is_paid_at_the_fee_the_schedule_sets(people):
    application = draft(people)
    staff = people.staff[SPENCER]
    with pytest.raises(ActionRefused, match="sets no re-inspection fee"):
        pay(application, staff, "40", purpose="reinspection_fee")
    schedule(people, amount="75", reinspection_fee="40")
    with pytest.raises(ActionRefused, match=r"re-inspection fee in force on 2026-11-30 is \$40"):
        pay(application, staff, "39.99", purpose="reinspection_fee")
    pay(application, staff, "40", purpose="reinspection_fee")
    pay(application, staff, "40", purpose="reinspection_fee")
    # Re-inspections do not count toward the application fee.
    assert services.application_missing(application, on=DEC_1)[-1] == (
        "the application fee of $75.00, paid to the village and recorded by its staff"
    )


def test_a_receipt_names_the_village_the_money_and_the_section_of_the_fee(people):
    # The office as the village's data gives it (jurisdiction.yaml: the Municipal Building
    # at 105 Park Street, and the clerk's telephone).
    schedule(people, amount="150", per_area_amount="50", area_unit="acre")
    application = draft(people, disturbed_area="2.3 acre", land_use="residential")
    payment = pay(application, people.staff[SPENCER], "265", method="check", check_number="1042")
    lines = receipt_lines(payment)
    assert lines[:8] == [
        "VILLAGE OF SPENCER",
        "Village of Spencer, Municipal Building",
        "105 Park Street",
        "Spencer, WI 54479",
        "Phone: 715-659-5423",
        "",
        "RECEIPT No. SP-R-2026-0001",
        "",
    ]
    assert "Received on: November 30, 2026" in lines
    assert "Received from: Alex Schmid" in lines
    assert "Amount: $265.00" in lines
    assert "Paid by: Check No. 1042" in lines
    assert (
        f"For: the application fee of application {application.number}, 12 Fence Rd [§ 413-8A]"
        in lines
    )
    assert "Fee: $150.00 + $50.00 per acre × 2.3 acres = $265.00" in lines
    assert "Paid toward the fee in all: $265.00; still owed: $0.00" in lines
    assert lines[-1] == "Building Inspector, Village of Spencer"
    response = signed_in(people.staff[SPENCER]).get(reverse("payments:receipt", args=[payment.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")


def test_an_invoice_receipt_cites_the_cost_section_in_each_village(people):
    for village, section in ((SPENCER, "§ 413-10E"), (NEW_GLARUS, "§ 135-11E")):
        _case, invoice = invoiced_case(people, village)
        payments.payment_receive(
            invoice=invoice,
            staff=people.staff[village],
            amount="500",
            received_on=datetime.date(2026, 8, 15),
            method="transfer",
        )
        payment = invoice.payments.get()
        lines = receipt_lines(payment)
        (line,) = [x for x in lines if x.startswith("For: invoice")]
        assert line.endswith(f"[{section}]"), line
        assert "Paid by: Bank transfer" in lines
        assert (
            "Billed: $1,500.50; paid in all, with this receipt's figures as they count now: "
            "$500.00; costs still owed: $1,000.50 (any interest after August 31, 2026 is added "
            "when paid)"
        ) in lines
        event = AuditEvent.objects.filter(action="payment_record", village=village).last()
        assert event.citation == section


def test_two_clerks_recording_at_once_never_share_a_receipt_number(
    transactional_db, people, expect_postgres_when_asked
):
    schedule(people, amount="75")
    clerk = factories.make_user("second-clerk", village=SPENCER, role=factories.Role.STAFF)
    clerks = [people.staff[SPENCER], clerk]
    drafts = [draft(people) for _ in range(6)]
    barrier = threading.Barrier(len(drafts), timeout=60)
    outcomes: list[Any] = []

    def record(index: int) -> None:
        try:
            barrier.wait()
            payment = pay(
                Application.objects.get(pk=drafts[index].pk),
                get_user_model().objects.get(pk=clerks[index % 2].pk),
                "75",
            )
            outcomes.append(payment.receipt_number)
        except BaseException as exc:
            outcomes.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=record, args=(i,)) for i in range(len(drafts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
        assert not thread.is_alive()
    assert sorted(outcomes) == [f"SP-R-2026-{n:04d}" for n in range(1, 7)], outcomes
    assert chain_verify().ok


# -- 2. corrections ----------------------------------------------------------------------------


def test_a_payment_entered_wrong_is_corrected_by_a_new_entry_and_the_old_one_stays(people):
    schedule(people, amount="75")
    application = draft(people)
    staff = people.staff[SPENCER]
    wrong = pay(application, staff, "57", method="check", check_number="1042")
    with pytest.raises(ActionRefused) as refused:
        payments.payment_correct(payment=wrong, staff=staff, reason="", amount="75")
    assert str(refused.value) == errors.REASON_REQUIRED
    with pytest.raises(ActionRefused) as refused:
        payments.payment_correct(payment=wrong, staff=staff, reason="x" * 501, amount="75")
    assert refused.value.field == "reason"
    right = payments.payment_correct(
        payment=wrong, staff=staff, reason="y" * 499 + "z", amount="75"
    )
    assert (right.receipt_number, right.corrects, right.amount) == (
        "SP-R-2026-0002",
        wrong,
        Decimal("75.00"),
    )
    assert (right.method, right.check_number) == ("check", "1042")
    wrong.refresh_from_db()
    assert wrong.amount == Decimal("57.00") and wrong.superseded_by == right
    # The total counts the correction, not the entry it corrects: 75, not 57 + 75.
    application.refresh_from_db()
    assert application.fee_paid == Decimal("75.00")
    assert services.application_missing(application, on=DEC_1) == []
    with pytest.raises(ActionRefused, match="already corrected by receipt SP-R-2026-0002"):
        payments.payment_correct(payment=wrong, staff=staff, reason="again", amount="70")
    event = AuditEvent.objects.get(action="fee_payment_correct")
    assert (event.reason, event.citation, event.actor_id) == ("y" * 499 + "z", "§ 413-8A", staff.pk)
    assert event.after["corrects"]["receipt"] == "SP-R-2026-0001"
    corrected = receipt_lines(wrong)
    assert "CORRECTED. Receipt SP-R-2026-0002 of" in " ".join(corrected)
    assert any(
        line.startswith("CORRECTION. This receipt corrects receipt SP-R-2026-0001")
        for line in receipt_lines(right)
    )


def test_a_payment_never_received_is_corrected_to_nothing(people):
    schedule(people, amount="75")
    application = draft(people)
    staff = people.staff[SPENCER]
    bounced = pay(application, staff, "75", method="check", check_number="77")
    payments.payment_correct(payment=bounced, staff=staff, reason="Check returned", amount="0")
    application.refresh_from_db()
    assert application.fee_paid_on is None
    assert services.application_missing(application, on=DEC_1)[-1].startswith(
        "the application fee of $75.00"
    )
    with pytest.raises(ActionRefused) as refused:
        payments.payment_correct(payment=bounced.superseded_by, staff=staff, reason="x", amount="0")
    assert str(refused.value) == errors.NOTHING_CHANGES


def test_a_fee_corrected_keeps_the_figure_it_replaces_and_counts_the_new_one(people):
    schedule(people, amount="150", per_area_amount="50", area_unit="acre")
    application = draft(people, disturbed_area="2.3 acre", land_use="residential")
    staff = people.staff[SPENCER]
    pay(application, staff, "200")
    with pytest.raises(ActionRefused) as refused:
        payments.application_fee_correct(
            application=application, staff=staff, amount="199.99", reason="Area was 1.3 acres"
        )
    assert str(refused.value) == errors.FEE_BELOW_PAID.format(paid=Decimal("200.00"))
    correction = payments.application_fee_correct(
        application=application, staff=staff, amount="215", reason="Area was 1.3 acres"
    )
    assert (correction.amount_before, correction.amount) == (Decimal("265.00"), Decimal("215.00"))
    # 215 now, whatever the schedule says for the draft, and 15 still owed.
    assert services.application_fee_due(application, DEC_1) == Decimal("215.00")
    assert services.application_missing(application, on=DEC_1)[-1] == (
        "the rest of the application fee: $215.00 is due and $200.00 was recorded as paid, "
        "so $15.00 is still owed"
    )
    page = text_of(signed_in(staff).get(reverse("web:staff-application", args=[application.pk])))
    assert "Application fee: $215.00" in page
    assert (
        "Worked out from the village's fee schedule, since corrected: "
        "$150.00 + $50.00 per acre × 2.3 acres = $265.00" in page
    )
    assert "fee of $265.00 corrected to $215.00" in page and "Area was 1.3 acres" in page


@pytest.mark.django_db(transaction=True)
def test_the_application_keeps_what_is_paid_and_whether_corrected_and_the_migration_fills_it(
    people,
):
    """Filing reads what is paid from the application: the payments app writes it with each
    payment and correction, and the migration fills it for payments recorded before."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    schedule(people, amount="75")
    staff = people.staff[SPENCER]
    two = draft(people)
    pay(two, staff, "50")
    pay(two, staff, "20")
    corrected = draft(people)
    wrong = pay(corrected, staff, "57")
    payments.payment_correct(payment=wrong, staff=staff, reason="Keyed 57 for 75", amount="75")
    fee_fixed = draft(people)
    payments.application_fee_correct(
        application=fee_fixed, staff=staff, amount="100", reason="Larger area"
    )
    untouched = draft(people)
    expected = {
        two.pk: (Decimal("70.00"), False),
        corrected.pk: (Decimal("75.00"), False),
        fee_fixed.pk: (Decimal("0.00"), True),
        untouched.pk: (Decimal("0.00"), False),
    }

    def kept() -> dict[int, tuple[Decimal, bool]]:
        rows = Application.objects.filter(pk__in=expected)
        return {
            pk: (paid, fixed)
            for pk, paid, fixed in rows.values_list("pk", "fee_paid", "fee_corrected")
        }

    assert kept() == expected
    Application.objects.update(fee_paid=0, fee_corrected=False)
    executor = MigrationExecutor(connection)
    executor.migrate([("payments", "0001_initial")])
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert kept() == expected


def test_a_cost_corrected_moves_the_invoice_total_and_its_balance(people):
    case, invoice = invoiced_case(people)
    staff = people.staff[SPENCER]
    contractor = case.costs.get(description="Fence contractor")
    payments.payment_receive(
        invoice=invoice,
        staff=staff,
        amount="300",
        received_on=datetime.date(2026, 8, 15),
        method="cash",
    )
    # 1,250.50 entered for 1,025.50: the bill is 1,025.50 + 250.00 = 1,275.50.
    fixed = payments.work_cost_correct(
        cost=contractor, staff=staff, amount="1025.50", reason="Typed 1250.50 for 1025.50"
    )
    invoice.refresh_from_db()
    assert invoice.principal == Decimal("1275.50")
    assert invoice.paid_amount == Decimal("300.00")
    assert fixed.invoice == invoice and fixed.corrects == contractor
    contractor.refresh_from_db()
    assert contractor.amount == Decimal("1250.50") and contractor.correction == fixed
    # The bill's lines list the costs that count.
    lines = invoice_lines(ordinance=load(SPENCER), case=case, invoice=invoice)
    assert (
        "- July 27, 2026, contracts: Fence contractor: $1,025.50 "
        "(corrected from $1,250.50: Typed 1250.50 for 1025.50)" in lines
    )
    assert "Total due: $1,275.50" in lines
    # Interest, where a rate was set, runs on what is owed now: no rate here, so none.
    assert enforcement.interest_due(invoice, datetime.date(2026, 10, 1)) == Decimal("0.00")
    page = text_of(signed_in(staff).get(reverse("enforcement:case", args=[case.pk])))
    assert "Corrected to $1025.50: this entry no longer counts." in page
    assert "Corrects the entry of $1250.50. Why: “Typed 1250.50 for 1025.50”" in page
    event = AuditEvent.objects.get(action="work_cost_correct")
    assert (event.before["principal"], event.after["principal"]) == ("1500.50", "1275.50")
    assert event.citation == "§ 413-10E"


# -- a bill corrected after it was sent (gap 35, § 413-10E: the costs "shall be billed";
# only "the amount due" not paid goes on the tax rolls). Worked by an independent reading:
# the bill of $1,500.50 issued August 1, due August 31 (a 30-day term).


def _bill_text(case: Any, invoice: Invoice) -> list[str]:
    invoice.refresh_from_db()
    return invoice_lines(ordinance=load(SPENCER), case=case, invoice=invoice)


def test_a_bill_corrected_to_less_is_sent_again_and_keeps_its_due_day(people):
    from siltfence.apps.enforcement.models import EnforcementDocument
    from siltfence.apps.outbox.models import Message

    case, invoice = invoiced_case(people)
    crew = case.costs.get(description="Public works crew, 5 hours")
    payments.work_cost_correct(
        cost=crew, staff=people.staff[SPENCER], amount="200", reason="Four hours, not five"
    )
    lines = _bill_text(case, invoice)
    # $1,250.50 + $200.00, still due August 31.
    assert (invoice.principal, invoice.due_on) == (Decimal("1450.50"), datetime.date(2026, 8, 31))
    assert f"CORRECTED INVOICE No. {invoice.number} FOR WORK PERFORMED BY THE VILLAGE" in lines
    today = timezone.localdate()
    assert (
        f"Corrected: {today:%B} {today.day}, {today.year}. This invoice replaces the one "
        "issued August 1, 2026; each cost corrected says what it was and why." in lines
    )
    assert (
        "- July 27, 2026, labour: Public works crew, 5 hours: $200.00 "
        "(corrected from $250.00: Four hours, not five)" in lines
    )
    assert "Amount due: $1,450.50, by August 31, 2026." in lines
    # The bill sent first stays on the record beside the corrected one.
    bills = EnforcementDocument.objects.filter(case=case, kind="invoice")
    assert bills.count() == 2
    (told,) = Message.objects.filter(to_address=people.applicant_a.email, kind="work_cost_correct")
    assert told.subject == "Cost of the village's work corrected at 12 Park St"
    assert "Four hours, not five" in told.body


def test_a_bill_corrected_to_more_is_billed_anew_and_cannot_be_charged_before_its_new_due_day(
    people,
):
    case, invoice = invoiced_case(people)
    staff = people.staff[SPENCER]
    crew = case.costs.get(description="Public works crew, 5 hours")
    payments.work_cost_correct(cost=crew, staff=staff, amount="400", reason="Eight hours")
    due = timezone.localdate() + datetime.timedelta(days=30)
    lines = _bill_text(case, invoice)
    assert (invoice.principal, invoice.due_on) == (Decimal("1650.50"), due)
    assert f"Amount due: $1,650.50, by {due:%B} {due.day}, {due.year}." in lines
    # September 1, past the first due day: the $150.00 was never billed by then.
    with pytest.raises(enforcement.ActionRefused) as refused:
        enforcement.costs_unpaid_record(invoice=invoice, staff=staff, at=at("2026-09-01"))
    assert refused.value.field == "date"
    event = AuditEvent.objects.get(action="work_cost_correct")
    assert (event.before["due_on"], event.after["due_on"]) == ("2026-08-31", due.isoformat())


def test_a_bill_whose_costs_are_recorded_unpaid_bills_a_cost_found_higher_anew(people):
    case, invoice = invoiced_case(people)
    staff = people.staff[SPENCER]
    enforcement.costs_unpaid_record(invoice=invoice, staff=staff, at=at("2026-09-01"))
    crew = case.costs.get(description="Public works crew, 5 hours")
    with pytest.raises(ActionRefused) as refused:
        payments.work_cost_correct(cost=crew, staff=staff, amount="400", reason="Eight hours")
    assert str(refused.value) == errors.COST_RAISED_AFTER_UNPAID.format(number=invoice.number)
    invoice.refresh_from_db()
    assert (invoice.principal, invoice.due_on) == (Decimal("1500.50"), datetime.date(2026, 8, 31))
    # Lower is still a correction of the bill, due as before.
    payments.work_cost_correct(cost=crew, staff=staff, amount="200", reason="Four hours")
    invoice.refresh_from_db()
    assert (invoice.principal, invoice.due_on) == (Decimal("1450.50"), datetime.date(2026, 8, 31))


def test_a_cost_may_not_fall_below_what_was_paid_nor_be_corrected_once_certified(people):
    case, invoice = invoiced_case(people)
    staff = people.staff[SPENCER]
    payments.payment_receive(
        invoice=invoice,
        staff=staff,
        amount="1400",
        received_on=datetime.date(2026, 8, 15),
        method="cash",
    )
    contractor = case.costs.get(description="Fence contractor")
    # 1,500.50 - 1,250.50 + 1,149.99 = 1,399.99 < 1,400 paid
    with pytest.raises(ActionRefused) as refused:
        payments.work_cost_correct(cost=contractor, staff=staff, amount="1149.99", reason="x")
    assert str(refused.value) == errors.COST_BELOW_PAID.format(
        number=invoice.number, total=Decimal("1399.99"), paid=Decimal("1400.00")
    )
    payments.work_cost_correct(cost=contractor, staff=staff, amount="1150", reason="x")
    invoice.refresh_from_db()
    assert invoice.principal == Decimal("1400.00")
    Invoice.objects.filter(pk=invoice.pk).update(certified_on=datetime.date(2026, 10, 1))
    labour = case.costs.get(description__startswith="Public works")
    with pytest.raises(ActionRefused) as refused:
        payments.work_cost_correct(cost=labour, staff=staff, amount="200", reason="x")
    assert refused.value.field == "cost"


def test_a_cost_corrected_to_nothing_before_billing_is_not_billed(people):
    staff = people.staff[SPENCER]
    case, _invoice = invoiced_case(people)
    enforcement.work_cost_record(
        case=case,
        staff=staff,
        category="equipment",
        description="Skid steer, entered twice",
        amount="300",
        incurred_on=datetime.date(2026, 7, 28),
    )
    enforcement.work_cost_record(
        case=case,
        staff=staff,
        category="materials",
        description="Silt fence, 200 ft",
        amount="120",
        incurred_on=datetime.date(2026, 7, 28),
    )
    twice = case.costs.get(description="Skid steer, entered twice")
    payments.work_cost_correct(cost=twice, staff=staff, amount="0", reason="Entered twice")
    second = enforcement.invoice_issue(case=case, staff=staff, on=datetime.date(2026, 8, 2))
    assert second.principal == Decimal("120.00")
    assert list(second.costs.values_list("description", flat=True)) == ["Silt fence, 200 ft"]


def test_an_invoice_payment_corrected_moves_the_balance(people):
    _case, invoice = invoiced_case(people)
    staff = people.staff[SPENCER]
    payments.payment_receive(
        invoice=invoice,
        staff=staff,
        amount="500",
        received_on=datetime.date(2026, 8, 15),
        method="cash",
    )
    payment = invoice.payments.get()
    payments.payment_correct(payment=payment, staff=staff, reason="It was $50", amount="50")
    invoice.refresh_from_db()
    assert invoice.paid_amount == Decimal("50.00")
    assert invoice.paid_on == datetime.date(2026, 8, 15)
    event = AuditEvent.objects.get(action="payment_correct")
    assert (event.entity, event.citation, event.reason) == (
        "enforcement_case",
        "§ 413-10E",
        "It was $50",
    )


# -- nothing deleted ---------------------------------------------------------------------------


def test_payments_and_corrections_are_never_deleted(people, admin_client):
    schedule(people, amount="75")
    application = draft(people)
    staff = people.staff[SPENCER]
    payment = pay(application, staff, "75")
    correction = payments.application_fee_correct(
        application=application, staff=staff, amount="80", reason="Board set $80"
    )
    for row in (payment, correction):
        with pytest.raises(RecordKept):
            row.delete()
        with pytest.raises(RecordKept):
            type(row).objects.all().delete()
    for model in (Payment, FeeCorrection, ReceiptCounter, WorkCost, Invoice, FeeSchedule):
        model_admin = admin.site._registry.get(model)
        assert model_admin is None or not model_admin.has_delete_permission(None), model
    delete = reverse("admin:payments_payment_delete", args=[payment.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert Payment.objects.filter(pk=payment.pk).exists()
    from siltfence.apps.payments import urls

    assert not [p for p in urls.urlpatterns if "delete" in str(p.pattern) + p.name]


# -- who may ----------------------------------------------------------------------------------


def _wrong_people(people: factories.People) -> dict[str, Any]:
    return {
        "the other village's staff": people.staff[NEW_GLARUS],
        "the applicant": people.applicant_a,
        "the village's inspector": people.inspector[SPENCER],
    }


def test_only_the_village_s_own_staff_record_or_correct_in_the_service_itself(people):
    case, invoice = invoiced_case(people)
    schedule(people, amount="75")
    application = draft(people)
    staff = people.staff[SPENCER]
    payment = pay(application, staff, "50")
    cost = case.costs.first()
    village = Village.objects.get(pk=SPENCER)
    writes = {
        "a fee payment": lambda who: pay(application, who, "25"),
        "an invoice payment": lambda who: payments.payment_receive(
            invoice=invoice,
            staff=who,
            amount="5",
            received_on=datetime.date(2026, 8, 15),
            method="cash",
        ),
        "a payment correction": lambda who: payments.payment_correct(
            payment=payment, staff=who, reason="x", amount="40"
        ),
        "a fee correction": lambda who: payments.application_fee_correct(
            application=application, staff=who, amount="60", reason="x"
        ),
        "a cost correction": lambda who: payments.work_cost_correct(
            cost=cost, staff=who, amount="1", reason="x"
        ),
        "the village office's contact": lambda who: services.village_office_set(
            village=village, staff=who, phone="715-555-0100"
        ),
        "a fee schedule": lambda who: services.fee_schedule_set(
            village=village, staff=who, effective_from=DEC_1, amount="1", authority="x"
        ),
    }
    counts = (Payment.objects.count(), FeeCorrection.objects.count(), WorkCost.objects.count())
    events = AuditEvent.objects.count()
    for what, write in writes.items():
        for who_words, who in _wrong_people(people).items():
            with pytest.raises(ActionRefused) as refused:
                write(who)
            assert refused.value.field == "village", f"{what} by {who_words}"
    assert (
        Payment.objects.count(),
        FeeCorrection.objects.count(),
        WorkCost.objects.count(),
    ) == counts
    assert AuditEvent.objects.count() == events


def test_the_pages_refuse_others_and_hide_others_receipts(people):
    schedule(people, amount="75")
    application = draft(people)
    payment = pay(application, people.staff[SPENCER], "75")
    correct = reverse("payments:payment-correct", args=[payment.pk])
    fee = reverse("payments:fee-correct", args=[application.pk])
    data = {"amount": "70", "received_on": "2026-11-30", "method": "cash", "reason": "x"}
    other = signed_in(people.staff[NEW_GLARUS])
    assert other.post(correct, data).status_code == 404
    assert other.post(fee, {"amount": "1", "reason": "x"}).status_code == 404
    owner = signed_in(people.applicant_a)
    assert owner.post(correct, data).status_code == 403
    inspector = signed_in(people.inspector[SPENCER])
    assert inspector.post(correct, data).status_code == 403
    assert inspector.get(reverse("payments:receipt", args=[payment.pk])).status_code == 200
    assert owner.get(reverse("payments:receipt", args=[payment.pk])).status_code == 200
    stranger = signed_in(people.applicant_b)
    assert stranger.get(reverse("payments:receipt", args=[payment.pk])).status_code == 404
    assert Client().get(reverse("payments:receipt", args=[payment.pk])).status_code == 302
    assert not Payment.objects.filter(corrects=payment).exists()
    portal = text_of(owner.get(reverse("web:portal-application", args=[application.pk])))
    assert "Receipt SP-R-2026-0001 : $75.00, received Nov. 30, 2026" in portal


def test_staff_record_a_check_on_the_application_page_and_see_its_receipt(people):
    schedule(people, amount="75")
    application = draft(people)
    client = signed_in(people.staff[SPENCER])
    response = client.post(
        reverse("payments:fee-payment", args=[application.pk]),
        {
            "amount": "75.00",
            "paid_on": "2026-11-30",
            "method": "check",
            "purpose": "application_fee",
        },
    )
    assert flash(response) == [
        "Check number (for a check): a payment by check needs the check's number"
    ]
    assert not Payment.objects.exists()
    client.post(
        reverse("payments:fee-payment", args=[application.pk]),
        {
            "amount": "75.00",
            "paid_on": "2026-11-30",
            "method": "check",
            "check_number": "1042",
            "purpose": "application_fee",
        },
    )
    page = text_of(client.get(reverse("web:staff-application", args=[application.pk])))
    assert (
        "Receipt SP-R-2026-0001: $75.00, application fee, received Nov. 30, 2026, Check No. 1042"
        in page
    )
    assert "Paid toward the fee: $75.00; still owed: $0.00" in page


# -- bad input ---------------------------------------------------------------------------------

BAD_AMOUNTS = ["-5", "1000000.01", "1,000,001", "٣٠٠", "1e3", "NaN", "12.345", "", "0", "$", "1,00"]


@pytest.mark.parametrize("typed", BAD_AMOUNTS)
def test_a_bad_amount_is_refused_naming_the_amount(people, typed):
    schedule(people, amount="1000000")
    application = draft(people)
    with pytest.raises(ActionRefused) as refused:
        pay(application, people.staff[SPENCER], typed)
    assert refused.value.field == "amount"
    form = FeeForm(
        data={
            "purpose": "application_fee",
            "amount": typed,
            "paid_on": "2026-11-30",
            "method": "cash",
        }
    )
    assert not form.is_valid() and list(form.errors) == ["amount"]


@pytest.mark.parametrize(
    ("typed", "amount"),
    [("0.01", "0.01"), ("1000000", "1000000.00"), ("1,000,000.00", "1000000.00"), ("$75", "75.00")],
)
def test_the_smallest_and_largest_amounts_are_taken(typed, amount):
    assert payments.money_read(typed) == Decimal(amount)


def test_nothing_is_an_amount_only_for_a_correction():
    with pytest.raises(ActionRefused):
        payments.money_read("0")
    assert payments.money_read("0", nothing_allowed=True) == Decimal("0.00")
    assert not CostCorrectForm(data={"amount": "-0.01", "reason": "x"}).is_valid()
    assert CostCorrectForm(data={"amount": "0", "reason": "x"}).is_valid()


FUZZ = settings(
    max_examples=60,
    deadline=datetime.timedelta(seconds=2),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
typed = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=600),
    st.decimals(allow_nan=True, allow_infinity=True).map(str),
    st.sampled_from(
        [
            "",
            " ",
            "\x00",
            "-0",
            "0.00",
            "1e-2",
            "٣٥",
            "１２",
            "9" * 30,
            "1,2,3",
            "$1,000.5",
            "x" * 501,
        ]
    ),
)
FIELDS = {
    FeeForm: ["purpose", "amount", "paid_on", "method", "check_number", "payer"],
    PaymentCorrectForm: ["amount", "received_on", "method", "check_number", "reason"],
    FeeCorrectForm: ["amount", "reason"],
    CostCorrectForm: ["amount", "reason"],
    FeeScheduleForm: [
        "effective_from",
        "amount",
        "per_area_amount",
        "area_unit",
        "area_included",
        "reinspection_fee",
        "authority",
    ],
}


@FUZZ
@given(form_class=st.sampled_from(list(FIELDS)), values=st.lists(typed, min_size=7, max_size=7))
def test_any_text_in_a_new_field_is_a_bounded_value_or_an_error_on_a_field(form_class, values):
    fields = FIELDS[form_class]
    form = form_class(data=dict(zip(fields, values, strict=False)))
    if not form.is_valid():
        assert set(form.errors) <= set(fields), form.errors
        return
    data = form.cleaned_data
    for name in ("amount", "per_area_amount", "reinspection_fee"):
        value = data.get(name)
        if value is not None:
            assert Decimal(0) <= value <= Decimal(1_000_000)
            assert value == value.quantize(Decimal("0.01"))
    if "reason" in data:
        assert 0 < len(data["reason"]) <= 500
    if data.get("method") == "check":
        assert data["check_number"]


@FUZZ
@given(text=typed)
def test_any_amount_text_is_an_amount_in_bounds_or_a_refusal_naming_the_amount(text):
    try:
        amount = payments.money_read(text)
    except ActionRefused as refused:
        assert refused.field == "amount"
    else:
        assert Decimal("0.01") <= amount <= Decimal("1000000.00")
        assert all(ch in "$,.0123456789" for ch in text.strip())


@settings(FUZZ, max_examples=58)
@given(values=st.lists(typed, min_size=4, max_size=4))
@example(values=[" $10.5 ", "check", " 10442a ", "  Pat  Payer "])
@example(values=["20", "cash", "", ""])
def test_a_hostile_fee_form_posted_never_fails_nor_half_writes(people, values):
    if not FeeSchedule.objects.exists():
        schedule(people, amount="75")
    application = Application.objects.filter(applicant=people.applicant_a).first() or draft(people)
    client = signed_in(people.staff[SPENCER])
    before = (Payment.objects.count(), AuditEvent.objects.count())
    last = Payment.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    amount, method, number, payer = values
    response = client.post(
        reverse("payments:fee-payment", args=[application.pk]),
        {
            "purpose": "application_fee",
            "amount": amount,
            "paid_on": "2026-11-30",
            "method": method,
            "check_number": number,
            "payer": payer,
        },
    )
    assert response.status_code == 302
    after = (Payment.objects.count(), AuditEvent.objects.count())
    assert after == before or (after[0] == before[0] + 1 and after[1] == before[1] + 1)
    if after == before:
        return
    # Received: the one payment holds the amount typed, in cents ("$10.5" is $10.50),
    # and the method, check number and payer typed.
    [payment] = Payment.objects.filter(pk__gt=last)
    dollars = amount.strip().removeprefix("$").replace(",", "")
    assert payment.amount == Decimal(dollars).quantize(Decimal("0.01"))
    assert (payment.application_id, payment.purpose) == (application.pk, "application_fee")
    assert payment.received_on == datetime.date(2026, 11, 30)
    assert payment.method == method
    assert payment.check_number == (number.strip().upper() if method == "check" else "")
    if payer.strip():
        assert payment.payer == payer.strip()
    assert payment.corrects_id is None and payment.receipt_number
