"""Hostile input to every new form field: a clear refusal naming the field, never a 500,
a traceback or a half-written record (hypothesis, with a deadline)."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

import factories
import pytest
from board_helpers import roll_all_present, seat_board
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from siltfence.apps.appeals.models import Appeal
from siltfence.apps.audit.models import AuditEvent
from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement.models import (
    ComplaintSlot,
    EnforcementAction,
    EnforcementCase,
    EnforcementDocument,
    ServiceRecord,
    Violation,
)
from siltfence.apps.enforcement.services import ActionRefused

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=40,
    deadline=datetime.timedelta(seconds=3),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
texts = st.one_of(
    st.text(max_size=80),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=300),
    st.sampled_from(
        [
            "",
            " ",
            "\x00",
            "=cmd()",
            "<script>x</script>",
            "9" * 400,
            "-1",
            "1e999",
            "NaN",
            "2026-02-30",
            "2026-07-01T25:00",
            "§",
            "§ 413-",
            "0.001",
            "$5,00",
        ]
    ),
)


CHICAGO = ZoneInfo("America/Chicago")
# A day a few days back (the village's work in ``_worked_case`` began 25 days ago).
RECENT = (datetime.date.today() - datetime.timedelta(days=3)).isoformat()


def _when(typed: str) -> datetime.datetime:
    """A date and time typed on a form, read as the village's local time."""
    moment = datetime.datetime.fromisoformat(typed.strip())
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=CHICAGO)


def _day(typed: str) -> datetime.date:
    return datetime.date.fromisoformat(typed.strip())


def _citation(typed: str) -> str:
    """A section typed as the record keeps it: "413-7B(4)" -> "§ 413-7B(4)"."""
    return "§ " + " ".join(typed.split()).removeprefix("§").strip()


def _one_message(response: Any) -> str:
    shown = [str(m) for m in response.context["messages"]] if response.context else []
    assert len(shown) == 1, shown
    return shown[0]


def _label_first(message: str, labels: set[str]) -> None:
    head = message.split(":", 1)[0]
    assert head in labels, f"{message!r} does not start with a field's label"


COMPLAINT_LABELS = {
    "Village",
    "Where is the site?",
    "What did you see?",
    "When did you see it?",
    "Latitude (decimal degrees)",
    "Longitude (decimal degrees)",
    "Your name (kept private)",
    "Your email (kept private)",
    "Your phone (kept private)",
    "Email",
    "Phone",
    "Name",
    "Address",
    "Description",
    "Contact",
    "Location",
    "Days from",
    "Photos (JPEG or PNG, up to 6)",
    "Leave this empty",
    "Form",
}


@FUZZ
@given(
    address=texts,
    description=texts,
    seen_on=texts,
    latitude=texts,
    longitude=texts,
    email=texts,
    phone=texts,
    name=texts,
)
def test_the_complaint_form_refuses_hostile_input_by_field(
    villages: Any,
    address: str,
    description: str,
    seen_on: str,
    latitude: str,
    longitude: str,
    email: str,
    phone: str,
    name: str,
) -> None:
    cache.clear()
    ComplaintSlot.objects.all().delete()  # the hourly bound, reset for each example
    before = Violation.objects.count()
    data = {
        "village": factories.SPENCER,
        "address": address,
        "description": description,
        "seen_on": seen_on,
        "latitude": latitude,
        "longitude": longitude,
        "email": email,
        "phone": phone,
        "name": name,
    }
    response = Client().post(
        reverse("enforcement:complaint"), {k: v.replace("\x00", "") for k, v in data.items()}
    )
    assert response.status_code in (200, 302)
    if response.status_code == 200:
        _label_first(_one_message(response), COMPLAINT_LABELS)
        assert Violation.objects.count() == before
    else:
        assert Violation.objects.count() == before + 1


@settings(FUZZ, max_examples=39)
@given(provision=texts, description=texts, days_from=texts, days_to=texts, party=texts, role=texts)
@example(
    provision=" 413-7B(4) ",
    description="  Silt fence down along the east lot line ",
    days_from="2026-07-01",
    days_to="2026-07-03",
    party="  Acme Grading ",
    role="subcontractor",
)
def test_recording_a_violation_refuses_hostile_input_by_field(
    people: factories.People,
    provision: str,
    description: str,
    days_from: str,
    days_to: str,
    party: str,
    role: str,
) -> None:
    client = Client()
    client.force_login(people.staff[factories.SPENCER], backend=factories.ModelBackend)
    before = AuditEvent.objects.count()
    rows = (Violation.objects.count(), EnforcementCase.objects.count())
    response = client.post(
        reverse("enforcement:violation-new"),
        {
            k: v.replace("\x00", "")
            for k, v in {
                "village": factories.SPENCER,
                "address": "1 Main St",
                "source": "observation",
                "provision": provision,
                "description": description,
                "days_from": days_from,
                "days_to": days_to,
                "party_name": party,
                "party_role": role,
            }.items()
        },
    )
    assert response.status_code in (200, 302)
    if response.status_code == 200:
        labels = {
            "Section of Ch. 413 broken",
            "What was found",
            "Violation from (YYYY-MM-DD)",
            "Violation to (empty while it continues)",
            "Party responsible",
            "The party is the",
            "Provision",
            "Description",
            "Days to",
            "Days from",
            "Party name",
            "Party role",
            "Address",
            "Location",
        }
        _label_first(_one_message(response), labels)
        assert AuditEvent.objects.count() == before
        assert (Violation.objects.count(), EnforcementCase.objects.count()) == rows
        return
    # Recorded: one violation, holding what was typed (trimmed; the section cited as such).
    assert Violation.objects.count() == rows[0] + 1
    assert AuditEvent.objects.count() > before
    violation = Violation.objects.latest("pk")
    assert response["Location"] == reverse("enforcement:case", args=[violation.case_id])
    clean = lambda v: v.replace("\x00", "").strip()  # noqa: E731
    assert (violation.village_id, violation.source, violation.status) == (
        factories.SPENCER,
        "observation",
        "found",
    )
    assert violation.provision == _citation(clean(provision))
    assert violation.description == clean(description)
    assert violation.days_from == _day(clean(days_from))
    assert violation.days_to == (_day(clean(days_to)) if clean(days_to) else None)
    assert (violation.party_name, violation.party_role) == (clean(party), clean(role))
    assert violation.address == "1 Main St"


@FUZZ
@given(value=texts)
def test_an_amount_is_read_strictly_or_refused_naming_the_amount(value: str) -> None:
    try:
        amount = s.amount_read(value)
    except ActionRefused as refused:
        assert refused.field == "amount"
        assert str(refused).startswith("amount: give an amount in dollars greater than 0")
    else:
        assert Decimal("0") < amount <= s.MAX_AMOUNT
        assert amount == amount.quantize(Decimal("0.01"))


@FUZZ
@given(rate=texts, authority=texts)
def test_the_interest_rate_setting_refuses_hostile_input_by_field(
    people: factories.People, rate: str, authority: str
) -> None:
    try:
        entry = s.interest_rate_set(
            village=factories.Village.objects.get(pk=factories.SPENCER),
            staff=people.staff[factories.SPENCER],
            effective_from=datetime.date(2026, 1, 1),
            annual_percent=rate,
            authority=authority,
        )
    except ActionRefused as refused:
        assert refused.field in ("rate", "authority")
        assert str(refused).startswith(f"{refused.field}: ")
    else:
        assert 0 <= entry.annual_percent <= 100 and entry.authority


@settings(FUZZ, max_examples=39)
@given(at=texts, text=texts)
@example(at=" 2026-07-02T09:30 ", text="  Stop grading; no permit is in force. ")
def test_a_step_form_refuses_hostile_dates_and_words_by_field(
    people: factories.People, at: str, text: str
) -> None:
    staff = people.staff[factories.NEW_GLARUS]
    case = s.violation_record(
        village=factories.Village.objects.get(pk=factories.NEW_GLARUS),
        recorded_by=staff,
        source="observation",
        description="x",
        provision="§ 135-6",
        days_from=datetime.date(2026, 7, 1),
        at=datetime.datetime(2026, 7, 1, 12, tzinfo=datetime.UTC),
        address=f"{abs(hash(at + text))} Fuzz St",
    ).case
    client = Client()
    client.force_login(staff, backend=factories.ModelBackend)
    before = EnforcementAction.objects.count()
    written = (EnforcementDocument.objects.count(), ServiceRecord.objects.count())
    response = client.post(
        reverse("enforcement:case-step", args=[case.pk, "notice-to-cease"]),
        {"at": at.replace("\x00", ""), "text": text.replace("\x00", "")},
        follow=True,
    )
    assert response.status_code == 200
    message = _one_message(response)
    if message != "Notice to cease recorded.":
        _label_first(message, {"Date and time", "Words", "Note", "Date", "Notice"})
        assert EnforcementAction.objects.count() == before
        assert (EnforcementDocument.objects.count(), ServiceRecord.objects.count()) == written
        return
    # Recorded: one notice to cease on this case, at the time typed, with the words typed,
    # and its written notice.
    assert EnforcementAction.objects.count() == before + 1
    [action] = EnforcementAction.objects.filter(case=case, kind="notice_to_cease")
    assert action.at == _when(at.replace("\x00", ""))
    assert action.note == text.replace("\x00", "").strip()
    assert action.taken_by_id == staff.pk
    assert [d.kind for d in action.documents.all()] == ["notice_to_cease"]
    assert EnforcementDocument.objects.count() == written[0] + 1


@settings(FUZZ, max_examples=39)
@given(name=texts, standing=texts, grounds=texts, filed_on=texts, kind=texts)
@example(
    name="  Jo Owner ",
    standing="landowner",
    grounds="  The lot is too steep for the rule. ",
    filed_on="2026-07-01",
    kind="variance",
)
def test_filing_an_appeal_refuses_hostile_input_by_field(
    people: factories.People, name: str, standing: str, grounds: str, filed_on: str, kind: str
) -> None:
    client = Client()
    client.force_login(people.staff[factories.SPENCER], backend=factories.ModelBackend)
    before = Appeal.objects.count()
    audits = AuditEvent.objects.count()
    response = client.post(
        reverse("appeals:new"),
        {
            k: v.replace("\x00", "")
            for k, v in {
                "village": factories.SPENCER,
                "kind": kind,
                "appellant_name": name,
                "standing": standing,
                "grounds": grounds,
                "filed_on": filed_on,
            }.items()
        },
    )
    assert response.status_code in (200, 302)
    if response.status_code == 200:
        labels = {
            "What is asked",
            "Who appeals (name of the person or office)",
            "The appellant is",
            "Grounds",
            "Filed on (YYYY-MM-DD)",
            "Standing",
            "Appellant",
            "Decision",
            "Kind",
        }
        _label_first(_one_message(response), labels)
        assert Appeal.objects.count() == before
        assert AuditEvent.objects.count() == audits
        return
    # Filed: one appeal, holding what was typed (trimmed).
    assert Appeal.objects.count() == before + 1
    appeal = Appeal.objects.latest("pk")
    assert response["Location"] == reverse("appeals:detail", args=[appeal.pk])
    clean = lambda v: v.replace("\x00", "").strip()  # noqa: E731
    assert (appeal.village_id, appeal.kind, appeal.status) == (factories.SPENCER, kind, "filed")
    assert (appeal.appellant_name, appeal.appellant_standing) == (clean(name), clean(standing))
    assert appeal.grounds == clean(grounds)
    assert appeal.filed_on == _day(clean(filed_on))
    assert appeal.filed_by_id == people.staff[factories.SPENCER].pk


def _worked_case(people: factories.People) -> Any:
    """A Spencer case with village work begun (dates well in the past)."""
    from django.utils import timezone
    from enforcement_helpers import permit_filed_on

    staff = people.staff[factories.SPENCER]
    permit = permit_filed_on(
        applicant=people.applicant_a,
        village=factories.SPENCER,
        staff=staff,
        filed=(timezone.localdate() - datetime.timedelta(days=90)).isoformat(),
        address="12 Fuzz St, Spencer",
    )
    ago = lambda days: timezone.now() - datetime.timedelta(days=days)  # noqa: E731
    case = s.violation_record(
        village=permit.village,
        recorded_by=staff,
        source="observation",
        description="x",
        provision="§ 413-7B(4)",
        days_from=timezone.localdate(ago(60)),
        at=ago(60),
        permit=permit,
    ).case
    s.stop_work_order_post(case=case, staff=staff, at=ago(59), grounds=["conditions-not-met"])
    s.notice_of_intent_issue(case=case, staff=staff, at=ago(45), work="Fence")
    s.village_work_begin(case=case, staff=staff, at=ago(25))
    return case


@settings(FUZZ, max_examples=39)
@given(
    category=texts, description=texts, amount=texts, incurred_on=texts, issued_on=texts, due=texts
)
@example(
    category="labour",
    description="  Crew re-set the fence ",
    amount=" $1,250.5 ",
    incurred_on=RECENT,
    issued_on=RECENT,
    due=" 30 ",
)
def test_cost_and_invoice_forms_refuse_hostile_input_by_field(
    people: factories.People,
    category: str,
    description: str,
    amount: str,
    incurred_on: str,
    issued_on: str,
    due: str,
) -> None:
    from siltfence.apps.enforcement.models import Invoice, WorkCost

    case = _worked_case(people)
    client = Client()
    client.force_login(people.staff[factories.SPENCER], backend=factories.ModelBackend)
    clean = lambda v: v.replace("\x00", "")  # noqa: E731
    costs = WorkCost.objects.count()
    audits = AuditEvent.objects.count()
    response = client.post(
        reverse("enforcement:case-step", args=[case.pk, "cost"]),
        {
            "category": clean(category),
            "description": clean(description),
            "amount": clean(amount),
            "incurred_on": clean(incurred_on),
        },
        follow=True,
    )
    message = _one_message(response)
    if message != "Cost recorded.":
        _label_first(
            message,
            {
                "Kind of cost",
                "What it was for",
                "Amount in dollars",
                "Date (YYYY-MM-DD)",
                "Category",
                "Description",
                "Amount",
                "Date",
            },
        )
        assert WorkCost.objects.count() == costs
        assert AuditEvent.objects.count() == audits
        billed = Decimal("0.00")
    else:
        # Recorded: one cost of this case, holding what was typed (the amount in cents).
        assert WorkCost.objects.count() == costs + 1
        [cost] = WorkCost.objects.filter(case=case)
        typed = clean(amount).strip().replace(",", "").removeprefix("$")
        billed = Decimal(typed).quantize(Decimal("0.01"))
        assert (cost.category, cost.description) == (clean(category), clean(description).strip())
        assert (cost.amount, cost.incurred_on) == (billed, _day(clean(incurred_on)))
        assert cost.invoice_id is None
    invoices = Invoice.objects.count()
    steps = EnforcementAction.objects.count(), EnforcementDocument.objects.count()
    response = client.post(
        reverse("enforcement:case-step", args=[case.pk, "invoice"]),
        {"issued_on": clean(issued_on), "due_in_days": clean(due)},
        follow=True,
    )
    message = _one_message(response)
    if message != "Invoice issued.":
        _label_first(
            message,
            {"Invoice date (YYYY-MM-DD)", "Due in (days)", "Invoice date", "Costs", "Due in days"},
        )
        assert Invoice.objects.count() == invoices
        assert (EnforcementAction.objects.count(), EnforcementDocument.objects.count()) == steps
        return
    # Issued: one invoice of this case, on the day typed, due the days typed after, billing
    # exactly the cost recorded above (there is no other on this case).
    assert billed > 0
    assert Invoice.objects.count() == invoices + 1
    [invoice] = Invoice.objects.filter(case=case)
    issued = _day(clean(issued_on))
    assert invoice.issued_on == issued
    assert invoice.due_on == issued + datetime.timedelta(days=int(Decimal(clean(due).strip())))
    assert invoice.principal == billed and invoice.paid_amount == 0
    assert list(WorkCost.objects.filter(case=case).values_list("invoice_id", flat=True)) == [
        invoice.pk
    ]
    assert EnforcementDocument.objects.count() == steps[1] + 1


@settings(FUZZ, max_examples=39)
@given(
    hearing_at=texts,
    notice_on=texts,
    notice_to=texts,
    place=texts,
    decision=texts,
    reasons=texts,
    decided_at=texts,
    finding=texts,
    retracts=texts,
)
@example(
    hearing_at=" 2026-07-10T18:00 ",
    notice_on="2026-07-01",
    notice_to="  Jo Owner, by mail ",
    place="  Village Hall ",
    decision="deny",
    reasons="  No hardship is shown. ",
    decided_at="2026-07-10T19:30",
    finding="",
    retracts="",
)
def test_hearing_and_decision_forms_refuse_hostile_input_by_field(
    people: factories.People,
    hearing_at: str,
    notice_on: str,
    notice_to: str,
    place: str,
    decision: str,
    reasons: str,
    decided_at: str,
    finding: str,
    retracts: str,
) -> None:
    from django.utils import timezone

    from siltfence.apps.appeals import hearings
    from siltfence.apps.appeals import services as appeals

    staff = people.staff[factories.SPENCER]
    appeal = appeals.appeal_file(
        village=factories.Village.objects.get(pk=factories.SPENCER),
        filed_by=staff,
        on=datetime.date(2026, 7, 1),
        appellant_name="A",
        standing="landowner",
        grounds="g",
        kind="variance",
    )
    from siltfence.apps.appeals.models import Motion

    board = Client()
    board.force_login(people.board[factories.SPENCER], backend=factories.ModelBackend)
    clean = lambda v: v.replace("\x00", "")  # noqa: E731
    audits = AuditEvent.objects.count()
    response = board.post(
        reverse("appeals:hearing", args=[appeal.pk]),
        {
            "hearing_at": clean(hearing_at),
            "notice_given_on": clean(notice_on),
            "notice_to": clean(notice_to),
            "place": clean(place),
        },
        follow=True,
    )
    message = _one_message(response)
    if message != "Hearing scheduled.":
        _label_first(
            message,
            {
                "Hearing (date and time)",
                "Notice given on (YYYY-MM-DD)",
                "Notice given to",
                "Place",
                "Hearing",
                "Notice to",
                "Notice given on",
            },
        )
        # Refused: the appeal is as filed, and nothing is on the record.
        unset = Appeal.objects.get(pk=appeal.pk)
        assert (unset.status, unset.hearing_at, unset.notice_given_on) == ("filed", None, None)
        assert (unset.notice_to, unset.hearing_place) == ("", "")
        assert AuditEvent.objects.count() == audits
    else:
        # Scheduled: at the time typed, with the notice and the place as typed (trimmed).
        set_ = Appeal.objects.get(pk=appeal.pk)
        assert set_.status == "scheduled"
        assert set_.hearing_at == _when(clean(hearing_at))
        assert set_.notice_given_on == _day(clean(notice_on))
        assert (set_.notice_to, set_.hearing_place) == (
            clean(notice_to).strip(),
            clean(place).strip(),
        )
    current = Appeal.objects.get(pk=appeal.pk)
    before = current.status
    # The board decides as a board (decision 47): once the hearing set has come, its chair
    # records the roll (every member present) and then the motion with each member's vote.
    members = seat_board(factories.SPENCER)
    chair = Client()
    chair.force_login(members.chair, backend=factories.ModelBackend)
    votes: dict[str, str] = {}
    if current.hearing_at is not None and current.hearing_at <= timezone.now():
        sitting = hearings.hearing_record(
            appeal=current, user=members.chair, roll=roll_all_present(current, members)
        )
        votes = {f"vote_{line.person_id}": "for" for line in sitting.roll.all() if line.seated}
    motions = Motion.objects.filter(hearing__appeal=appeal).count()
    response = chair.post(
        reverse("appeals:vote", args=[appeal.pk]),
        {
            "kind": clean(decision),
            "reasons": clean(reasons),
            "voted_at": clean(decided_at),
            "public_interest": clean(finding),
            "special_conditions": clean(finding),
            "unnecessary_hardship": clean(finding),
            "modification": clean(finding),
            # The tick box "the modification lifts the order or the revocation".
            "retracts": clean(retracts),
            **votes,
        },
        follow=True,
    )
    message = _one_message(response)
    if not message.startswith("The motion to"):
        _label_first(
            message,
            {
                "The motion",
                "Grounds stated in the motion",
                "Voted (date and time)",
                "Decision",
                "Reasons",
                "Findings",
                "Finding: not contrary to the public interest (variance)",
                "Finding: special conditions (variance)",
                "Finding: unnecessary hardship (variance)",
                # No roll yet (the hearing not set, or not come): nothing to vote at.
                "Record the roll of the hearing first",
            },
        )
        assert Appeal.objects.get(pk=appeal.pk).status == before
        assert Motion.objects.filter(hearing__appeal=appeal).count() == motions
        return
    # Voted: one motion, of the kind typed, with the grounds and the time typed; every
    # seated member voted for it, so it carried and decided the appeal as moved.
    assert Motion.objects.filter(hearing__appeal=appeal).count() == motions + 1
    motion = Motion.objects.filter(hearing__appeal=appeal).latest("pk")
    assert (motion.kind, motion.reasons) == (clean(decision), clean(reasons).strip())
    assert motion.voted_at == _when(clean(decided_at))
    assert motion.votes_for == len(votes) and motion.votes_against == 0 and motion.carried
    decided = Appeal.objects.get(pk=appeal.pk)
    assert (decided.status, decided.decision) == ("decided", clean(decision))
    assert decided.decision_reasons == clean(reasons).strip()


def _without_nonces(page: bytes) -> bytes:
    """A page less its scripts' nonces, which differ in every response and which the policy
    does not use (scripts run by their source: see the test below)."""
    import re

    return re.sub(rb' nonce="[^"]*"', b"", page)


@FUZZ
@given(q=texts, status=texts, village=texts, page=texts)
def test_any_register_search_answers_the_same_page_kept_or_made(
    villages: Any, q: str, status: str, village: str, page: str
) -> None:
    """A search the public types (any text in any field, a NUL, a page that is no number)
    gets the register's page, and the kept page is the page made: no field reaches the
    key of a kept page in a form that could serve one search's page for another."""
    cache.clear()
    params = {"q": q, "status": status, "village": village, "page": page}
    made = Client().get(reverse("register:register"), params)
    assert made.status_code == 200
    kept = Client().get(reverse("register:register"), params)
    assert kept.content == made.content
    # The same search with nothing kept is made again the same.
    cache.clear()
    again = Client().get(reverse("register:register"), params)
    assert _without_nonces(again.content) == _without_nonces(made.content)


def test_a_kept_pages_old_nonce_is_inert_and_a_policy_with_nonces_keeps_no_page(
    villages: Any, settings: Any
) -> None:
    from django.utils.csp import CSP

    response = Client().get(reverse("register:register"))
    assert "nonce-" not in response["Content-Security-Policy"]
    assert "script-src 'self'" in response["Content-Security-Policy"]
    settings.SECURE_CSP = {**settings.SECURE_CSP, "script-src": [CSP.SELF, CSP.NONCE]}
    cache.clear()
    first = Client().get(reverse("register:register"))
    second = Client().get(reverse("register:register"))
    nonce = second["Content-Security-Policy"].split("'nonce-")[1].split("'")[0]
    assert f'nonce="{nonce}"'.encode() in second.content
    assert first.content != second.content


@FUZZ
@given(cover=texts, measures=texts, completed=st.one_of(texts, st.sampled_from(["on", "1"])))
def test_the_closeout_form_refuses_hostile_input_by_field(
    people: factories.People, cover: str, measures: str, completed: str
) -> None:
    from siltfence.apps.permits.models import Permit

    permit = Permit.objects.filter(village_id=factories.NEW_GLARUS).first()
    if permit is None:
        permit = factories.make_application(
            applicant=people.applicant_a,
            village=factories.NEW_GLARUS,
            state="approved",
            staff=people.staff[factories.NEW_GLARUS],
        ).permit
    if permit.status != "active":
        Permit.objects.filter(pk=permit.pk).update(status="active", closed_on=None)
    staff = Client()
    staff.force_login(people.staff[factories.NEW_GLARUS], backend=factories.ModelBackend)
    clean = lambda v: v.replace("\x00", "")  # noqa: E731
    response = staff.post(
        reverse("web:permit-close", args=[permit.pk]),
        {
            "cover_percent": clean(cover),
            "equivalent_measures": clean(measures),
            "activities_completed": clean(completed),
            "confirm": "yes",
        },
        follow=True,
    )
    assert response.status_code == 200
    message = _one_message(response)
    closed = Permit.objects.get(pk=permit.pk).status == "closed"
    if message == "Permit closed at final stabilization.":
        # § 135-13: "All land-disturbing construction activities ... have been completed".
        assert closed and clean(completed) in ("on", "true", "1")
    else:
        # The refusal is said in plain words that name what is missing or wrong.
        assert any(w in message.lower() for w in ("cover", "measures", "completed")), message
        assert not closed
