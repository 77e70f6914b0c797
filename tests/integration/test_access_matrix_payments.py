"""Who may reach what among the payments routes (the role x endpoint matrix of
test_access_matrix.py, for the payments URLconf): a receipt, the fee and invoice payments
staff record, and the corrections of a payment, a fee and a cost of village work.

The table is compared with the URLconf, so a new route without a row fails. Targets are
applicant A's records in Spencer: a draft application owing a $75.00 fee with $50.00 of it
paid (the payment is the receipt's target), and a permit case whose village work cost
$300.00, billed on an invoice. Outcomes as in test_access_matrix.py:
  200 403 404 405   that status code
  login             302 to the login page
  did:PLACE         302 to PLACE, and the action was recorded (new audit events)
Places: SA the draft's staff page, C the case page, V Spencer's village settings.
The rules the views state: only the village's own staff write (403 to anyone else who may
see the record); a record of another person or village answers 404, through querysets
scoped to the person; the village's officials and the applicant read a receipt.
Whatever the outcome, a GET or a refused POST writes nothing. A 500 fails the test.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

import factories
import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import URLPattern, reverse
from django.utils import timezone
from enforcement_helpers import permit_filed_on
from shared_rows import _uploads_in_tmp, module_media, module_people, people  # noqa: F401
from test_access_matrix import ROLES, Row, _parse

from siltfence.apps.audit.models import AuditEvent
from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement.models import Invoice, WorkCost
from siltfence.apps.payments import services as payments
from siltfence.apps.payments import urls as payments_urls
from siltfence.apps.payments.models import FeeCorrection, Payment, ReceiptCounter
from siltfence.apps.permits import services as permits
from siltfence.apps.permits.models import Application, FeeSchedule, Village

pytestmark = pytest.mark.django_db

MATRIX = """
name                             method target   anon   owner  appl_b staff  stf_ng insp   board
payments:receipt                 GET    payment  login  200    404    200    404    200    200
payments:receipt                 POST   payment  login  405    405    405    405    405    405
payments:payment-correct         GET    payment  login  405    405    405    405    405    405
payments:payment-correct         POST   payment  login  403    404    did:SA 404    403    403
payments:fee-payment             GET    draft    login  405    405    405    405    405    405
payments:fee-payment             POST   draft    login  403    404    did:SA 404    403    403
payments:invoice-payment         GET    invoice  login  405    405    405    405    405    405
payments:invoice-payment         POST   invoice  login  403    404    did:C  404    403    403
payments:fee-correct             GET    draft    login  405    405    405    405    405    405
payments:fee-correct             POST   draft    login  403    404    did:SA 404    403    403
payments:cost-correct            GET    cost     login  405    405    405    405    405    405
payments:cost-correct            POST   cost     login  403    404    did:C  404    403    403
"""

ROWS = _parse(MATRIX)
CASES = [
    pytest.param(row, role, id=f"{row.name}-{row.method}-{role}") for row in ROWS for role in ROLES
]


def test_every_payments_url_has_a_get_and_a_post_row():
    names = set()
    for pattern in payments_urls.urlpatterns:
        assert isinstance(pattern, URLPattern) and pattern.name, pattern
        names.add(f"payments:{pattern.name}")
    covered = {row.name for row in ROWS}
    assert names == covered
    for name in names:
        assert sorted(r.method for r in ROWS if r.name == name) == ["GET", "POST"], name


class World:
    """Applicant A's Spencer records: a permit case with village work ($300.00) billed on
    an invoice; then a fee schedule of a flat $75.00 in force, and a draft application
    with $50.00 of its fee paid today."""

    def __init__(self, people: factories.People) -> None:
        self.people = people
        staff = people.staff[factories.SPENCER]
        now = timezone.now()
        ago = lambda days: now - datetime.timedelta(days=days)  # noqa: E731
        permit = permit_filed_on(
            applicant=people.applicant_a,
            village=factories.SPENCER,
            staff=staff,
            filed=(timezone.localdate() - datetime.timedelta(days=80)).isoformat(),
            address="12 Park St, Spencer",
        )
        self.case = s.violation_record(
            village=permit.village,
            recorded_by=staff,
            source="observation",
            description="Inlet unprotected.",
            provision="§ 413-7B(4)",
            days_from=timezone.localdate(ago(60)),
            at=ago(60),
            permit=permit,
        ).case
        s.stop_work_order_post(
            case=self.case, staff=staff, at=ago(59), grounds=["conditions-not-met"]
        )
        s.notice_of_intent_issue(case=self.case, staff=staff, at=ago(45), work="Fence")
        s.village_work_begin(case=self.case, staff=staff, at=ago(25))
        self.cost = s.work_cost_record(
            case=self.case,
            staff=staff,
            category="labour",
            description="Crew",
            amount="300",
            incurred_on=timezone.localdate(ago(25)),
        )
        self.invoice = s.invoice_issue(case=self.case, staff=staff, on=timezone.localdate(ago(20)))
        self.cost.refresh_from_db()
        # The schedule comes after the permit was filed, so that filing owed nothing.
        permits.fee_schedule_set(
            village=Village.objects.get(pk=factories.SPENCER),
            staff=staff,
            effective_from=timezone.localdate(ago(30)),
            amount="75",
            authority="Village Board resolution 2026-4",
        )
        self.draft = factories.make_application(
            applicant=people.applicant_a,
            village=factories.SPENCER,
            state="draft",
            address="40 Fence Rd, Spencer",
        )
        self.payment = payments.payment_receive(
            staff=staff,
            application=self.draft,
            amount="50",
            received_on=timezone.localdate(),
            method="cash",
        )

    def user(self, role: str) -> Any:
        p, sp = self.people, factories.SPENCER
        return {
            "anon": None,
            "owner": p.applicant_a,
            "appl_b": p.applicant_b,
            "staff": p.staff[sp],
            "stf_ng": p.staff[factories.NEW_GLARUS],
            "insp": p.inspector[sp],
            "board": p.board[sp],
        }[role]

    def args(self, target: str) -> list[Any]:
        return {
            "payment": [self.payment.pk],
            "draft": [self.draft.pk],
            "invoice": [self.invoice.pk],
            "cost": [self.cost.pk],
            "village": [factories.SPENCER],
        }[target]

    def url(self, row: Row) -> str:
        return reverse(row.name, args=self.args(row.target))

    def place(self, place: str) -> str:
        return {
            "SA": reverse("web:staff-application", args=[self.draft.pk]),
            "C": reverse("enforcement:case", args=[self.case.pk]),
            "V": reverse("web:village-settings", args=[factories.SPENCER]),
        }[place]


def _data(row: Row) -> dict[str, Any]:
    """A form each service accepts from the village's staff, so that only who asks decides
    whether it is written."""
    if row.method == "GET":
        return {}
    today = timezone.localdate().isoformat()
    return {
        # $50.00 was $40.00: $40.00 paid of the $75.00 fee.
        "payments:payment-correct": {
            "amount": "40.00",
            "received_on": today,
            "method": "cash",
            "reason": "Counted twice",
        },
        # The $25.00 still owed of the $75.00 fee.
        "payments:fee-payment": {
            "purpose": "application_fee",
            "amount": "25.00",
            "paid_on": today,
            "method": "cash",
        },
        # $100.00 of the $300.00 billed.
        "payments:invoice-payment": {
            "amount": "100.00",
            "paid_on": today,
            "method": "check",
            "check_number": "1042",
        },
        # Above the $50.00 already paid.
        "payments:fee-correct": {"amount": "80", "reason": "The board set $80"},
        "payments:cost-correct": {"amount": "250", "reason": "Five hours, not six"},
    }.get(row.name, {})


def snapshot() -> dict[str, Any]:
    models = (AuditEvent, Payment, FeeCorrection, ReceiptCounter, WorkCost, Invoice, FeeSchedule)
    return {
        "counts": {m.__name__: m.objects.count() for m in models},
        "applications": sorted(
            Application.objects.values_list(
                "pk", "status", "fee_amount", "fee_paid", "fee_paid_on", "fee_corrected"
            )
        ),
        "invoices": sorted(
            Invoice.objects.values_list("pk", "principal", "paid_amount", "paid_on")
        ),
        "receipts": sorted(ReceiptCounter.objects.values_list("village_id", "year", "last")),
    }


def signed_in(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user, backend=factories.ModelBackend)
    return client


@pytest.fixture(scope="module")
def module_world(module_people, django_db_blocker):
    """One world for the module (its rows kept with the module's people); each test's
    requests change it only inside the test's savepoint."""
    with django_db_blocker.unblock():
        return World(module_people)


@pytest.fixture
def world(module_world, people):
    return module_world


@pytest.mark.parametrize("row, role", CASES)
def test_each_role_gets_the_expected_answer_from_each_payments_url(row, role, world):
    url = world.url(row)
    data = _data(row)
    client = signed_in(world.user(role))
    before = snapshot()
    response = client.get(url, data) if row.method == "GET" else client.post(url, data)
    expected = row.expect[role]
    where = f"{row.method} {url} as {role}"
    assert response.status_code != 500, f"{where}: server error"
    kind, _, place = expected.partition(":")
    after = snapshot()
    if kind.isdigit():
        assert response.status_code == int(kind), (
            f"{where}: expected {expected}, got {response.status_code} "
            f"{response.get('Location', '')}"
        )
    else:
        assert response.status_code == 302, (
            f"{where}: expected {expected}, got {response.status_code}"
        )
        location = response["Location"]
        if kind == "login":
            assert location.startswith(reverse("web:login") + "?next="), f"{where}: {location}"
        else:
            assert location == world.place(place), f"{where}: redirected to {location}"
    if kind == "did":
        assert after["counts"]["AuditEvent"] > before["counts"]["AuditEvent"], (
            f"{where}: the action should have been carried out and recorded "
            f"({[str(m) for m in get_messages(response.wsgi_request)]})"
        )
    else:
        assert after == before, f"{where} ({expected}) must not write anything"
    if row.name == "payments:receipt" and expected == "200":
        assert response["Content-Type"] == "application/pdf"
        assert world.payment.receipt_number in response["Content-Disposition"]


def test_a_fee_payment_staff_post_is_recorded_for_the_amount_posted(world):
    row = next(r for r in ROWS if r.name == "payments:fee-payment" and r.method == "POST")
    client = signed_in(world.user("staff"))
    response = client.post(world.url(row), _data(row))
    assert response.status_code == 302
    payment = Payment.objects.filter(application=world.draft).exclude(pk=world.payment.pk).get()
    year = timezone.localdate().year
    assert (payment.amount, payment.purpose, payment.receipt_number) == (
        Decimal("25.00"),
        "application_fee",
        f"SP-R-{year}-0002",  # the world's $50.00 payment has receipt 0001
    )
    assert payment.received_by == world.user("staff")
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        f"Fee payment recorded: receipt SP-R-{year}-0002, under “Fees and payments”."
    ]
    world.draft.refresh_from_db()
    # $50.00 + $25.00, every payment of the fee on record.
    paid = sum(Payment.objects.filter(application=world.draft).values_list("amount", flat=True))
    assert world.draft.fee_paid == paid == Decimal("75.00")
    assert world.draft.fee_paid_on == timezone.localdate()


def test_an_invoice_payment_staff_post_is_recorded_for_the_amount_posted(world):
    row = next(r for r in ROWS if r.name == "payments:invoice-payment" and r.method == "POST")
    client = signed_in(world.user("staff"))
    fee_paid = Application.objects.get(pk=world.draft.pk).fee_paid
    response = client.post(world.url(row), _data(row))
    assert response.status_code == 302
    payment = Payment.objects.get(invoice=world.invoice)
    year = timezone.localdate().year
    assert (
        payment.amount,
        payment.purpose,
        payment.method,
        payment.check_number,
        payment.receipt_number,
    ) == (Decimal("100.00"), "invoice", "check", "1042", f"SP-R-{year}-0002")
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        f"Payment recorded: receipt SP-R-{year}-0002."
    ]
    world.invoice.refresh_from_db()
    assert world.invoice.paid_amount == Decimal("100.00")
    assert world.invoice.paid_on == timezone.localdate()
    # A payment of the bill is not a payment of any application's fee.
    assert Application.objects.get(pk=world.draft.pk).fee_paid == fee_paid == Decimal("50.00")
    assert Application.objects.get(pk=world.case.application_id).fee_paid == Decimal("0.00")


RECORD_ROWS = [row for row in ROWS if row.target != "village"]


@pytest.mark.parametrize(
    "row, role",
    [
        pytest.param(row, role, id=f"{row.name}-{row.method}-{role}")
        for row in RECORD_ROWS
        for role in ("appl_b", "stf_ng")
    ],
)
def test_someone_else_s_payments_record_answers_like_one_that_does_not_exist(row, role, world):
    client = signed_in(world.user(role))
    before = snapshot()
    answers = []
    for url in (world.url(row), reverse(row.name, args=[999_999])):
        data = _data(row)
        response = client.get(url, data) if row.method == "GET" else client.post(url, data)
        answers.append(response.status_code)
    assert answers[0] == answers[1], f"{row.method} {row.name} as {role}: {answers}"
    assert snapshot() == before
