"""The enforcement, appeals and register pages, driven through the web as people use them."""

from __future__ import annotations

import datetime
import json
import re
from typing import Any
from unittest import mock

import factories
import pytest
from board_helpers import roll_all_present, seat_board
from django.test import Client
from django.urls import reverse
from enforcement_helpers import CHICAGO, at, permit_filed_on
from factories import NEW_GLARUS, SPENCER, People

from siltfence.apps.appeals.models import Appeal, Attendance
from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement.models import EnforcementAction, Violation
from siltfence.apps.payments import services as payments

pytestmark = pytest.mark.django_db

PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"
    b"\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00"
    b"\x00\x00\x00IEND\xaeB`\x82"
)


def _client(user: Any = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user, backend=factories.ModelBackend)
    return client


def _messages(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def test_a_complaint_without_login_gets_a_receipt_and_stays_private(villages: Any) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    client = _client()
    assert client.get(reverse("enforcement:complaint")).status_code == 200
    response = client.post(
        reverse("enforcement:complaint"),
        {
            "village": SPENCER,
            "address": "",
            "latitude": "44.7573",
            "longitude": "-90.2966",
            "description": "Mud on Park St from the new lots.",
            "name": "Pat Neighbor",
            "email": "pat@example.org",
            "photos": [SimpleUploadedFile("mud.png", PNG, content_type="image/png")],
        },
    )
    assert response.status_code == 302
    complaint = Violation.objects.get()
    assert complaint.photos.count() == 1
    receipt = client.get(reverse("enforcement:complaint-receipt", args=[complaint.pk]))
    assert receipt["Content-Type"] == "application/pdf"
    # Someone else's browser cannot read the receipt.
    assert (
        _client().get(reverse("enforcement:complaint-receipt", args=[complaint.pk])).status_code
        == 404
    )


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"village": ""}, "Village: choose the village where the site is"),
        ({"description": ""}, "What did you see?: This field is required."),
        (
            {"latitude": "91"},
            "Latitude (decimal degrees): Ensure this value is less than or equal to 90.",
        ),
        (
            {"email": "", "phone": ""},
            "Contact: give an email address or a phone number so staff can reach you",
        ),
        (
            {"email": "not-an-email"},
            "Your email (kept private): 'not-an-email' is not an email address",
        ),
        (
            {"address": "", "latitude": "", "longitude": ""},
            "Where is the site?: give the site's address, or pick it on the map",
        ),
        ({"seen_on": "07/01/2026"}, None),
    ],
)
def test_a_bad_complaint_is_refused_naming_the_field_and_nothing_is_written(
    villages: Any, changes: dict[str, str], message: str | None
) -> None:
    data = {
        "village": SPENCER,
        "address": "1 Main St",
        "description": "Mud.",
        "email": "pat@example.org",
        **changes,
    }
    response = _client().post(reverse("enforcement:complaint"), data)
    assert response.status_code == 200
    shown = _messages(response)
    assert len(shown) == 1
    if message is None:
        assert shown[0].startswith("When did you see it?: ")
    else:
        assert shown[0] == message
    assert not Violation.objects.exists()


def test_complaints_are_bounded_per_hour_from_one_place(villages: Any) -> None:
    client = _client()
    data = {"village": SPENCER, "address": "1 Main St", "description": "Mud.", "phone": "555-0100"}
    for _ in range(5):
        assert client.post(reverse("enforcement:complaint"), data).status_code == 302
    refused = client.post(reverse("enforcement:complaint"), data)
    assert _messages(refused)[0].startswith("Form: at most 5 reports an hour")
    assert Violation.objects.count() == 5


def test_the_hourly_bound_is_shared_by_every_worker_and_a_refused_report_does_not_count(
    villages: Any,
) -> None:
    from django.utils import timezone

    from siltfence.apps.enforcement.models import ComplaintSlot

    client = _client()
    data = {"village": SPENCER, "address": "1 Main St", "description": "Mud.", "phone": "555-0100"}
    # A report refused for its content takes no slot.
    bad = client.post(reverse("enforcement:complaint"), {**data, "seen_on": "2026-02-30"})
    assert bad.status_code == 200 and not ComplaintSlot.objects.exists()
    # Four reports from this address were taken by other worker processes this hour: they
    # are in the database, not in this process's memory.
    hour = timezone.now().replace(minute=0, second=0, microsecond=0)
    for slot in range(1, 5):
        ComplaintSlot.objects.create(client="complaints:127.0.0.1", hour=hour, slot=slot)
    assert client.post(reverse("enforcement:complaint"), data).status_code == 302
    refused = client.post(reverse("enforcement:complaint"), data)
    assert _messages(refused)[0].startswith("Form: at most 5 reports an hour")
    assert Violation.objects.count() == 1


def test_staff_walk_a_case_from_finding_to_the_tax_roll(people: People) -> None:
    staff = people.staff[SPENCER]
    permit = permit_filed_on(
        applicant=people.applicant_a,
        village=SPENCER,
        staff=staff,
        filed="2026-06-01",
        address="12 Park St, Spencer",
    )
    client = _client(staff)
    response = client.post(
        reverse("enforcement:violation-new"),
        {
            "village": SPENCER,
            "permit": permit.number,
            "source": "observation",
            "provision": "413-7B(4)",
            "description": "Inlet on Park St unprotected.",
            "days_from": "2026-07-01",
            "days_to": "",
            "party_name": "Acme Grading",
            "party_role": "subcontractor",
        },
        follow=True,
    )
    case = Violation.objects.get().case
    assert response.redirect_chain[-1][0] == reverse("enforcement:case", args=[case.pk])
    assert _messages(response) == ["Violation recorded."]

    def step(name: str, data: dict[str, Any]) -> Any:
        return client.post(
            reverse("enforcement:case-step", args=[case.pk, name]), data, follow=True
        )

    page = step("stop-work", {"grounds": ["conditions-not-met"], "posted_at": "2026-07-01T10:30"})
    assert "Stop-work order posted." in _messages(page)[0]
    early = step("notice-of-intent", {"at": "2026-07-10T16:00", "text": "Fence"})
    assert _messages(early)[0].startswith("Notice of intent: not lawful until 2026-07-11")
    step("notice-of-intent", {"at": "2026-07-11T08:00", "text": "Reinstall the inlet protection."})

    def offered(when: str) -> tuple[set[str], list[str]]:
        """The steps the case page lists as allowed, and the step forms it shows, with the
        page read as if on ``when`` (the village's time)."""
        moment = datetime.datetime.fromisoformat(when).replace(tzinfo=CHICAGO)
        with mock.patch("siltfence.apps.enforcement.views._now_local", return_value=moment):
            page = client.get(reverse("enforcement:case", args=[case.pk]))
        listed = {a["action"] for a in page.context["allowed"]}
        forms = re.findall(r'data-testid="step-([a-z-]+)"', page.content.decode())
        return listed, forms

    # A notice already issued is neither listed nor offered again; village work is open
    # from the 15th day after it (§ 413-10E), and its form shows only then.
    listed, forms = offered("2026-07-20T12:00")
    assert "issue_notice_of_intent" not in listed and "notice-of-intent" not in forms
    assert "begin_village_work" in listed and "village-work" not in forms
    listed, forms = offered("2026-07-26T12:00")
    assert "village-work" in forms
    step("village-work", {"at": "2026-07-26T07:00", "text": ""})
    listed, forms = offered("2026-07-27T12:00")
    assert "begin_village_work" not in listed and "village-work" not in forms
    bad_cost = step(
        "cost",
        {"category": "labour", "description": "Crew", "amount": "-5", "incurred_on": "2026-07-26"},
    )
    assert _messages(bad_cost)[0].startswith("Amount: give an amount in dollars greater than 0")
    step(
        "cost",
        {
            "category": "labour",
            "description": "Crew, 8 hours",
            "amount": "600",
            "incurred_on": "2026-07-26",
        },
    )
    step("invoice", {"issued_on": "2026-08-01", "due_in_days": "30"})
    step("parcel", {"parcel_number": "031-1040"})
    invoice = case.invoices.get()

    def invoice_step(name: str, data: dict[str, Any]) -> Any:
        return client.post(
            reverse("enforcement:invoice-step", args=[invoice.pk, name]), data, follow=True
        )

    invoice_step("unpaid", {"at": "2026-09-01T09:00"})
    done = invoice_step("certify", {"at": "2026-09-02T09:00"})
    assert _messages(done) == ["Certified to the tax roll. The certification was generated."]
    kinds = list(case.actions.values_list("kind", flat=True))
    assert kinds == [
        "stop_work_order",
        "notice_of_intent",
        "village_work",
        "invoice",
        "costs_unpaid",
        "certification",
    ]
    page = client.get(reverse("enforcement:case", args=[case.pk]))
    documents = page.context["case"].documents.all()
    assert [d.kind for d in documents] == [
        "stop_work_placard",
        "notice_of_intent",
        "invoice",
        "tax_roll_certification",
    ]
    pdf = client.get(reverse("enforcement:document", args=[documents[0].pk]))
    assert pdf.status_code == 200 and b"".join(pdf.streaming_content).startswith(b"%PDF")
    # Another village's staff and applicant B see nothing of it.
    for outsider in (people.staff[NEW_GLARUS], people.applicant_b):
        assert (
            _client(outsider)
            .get(reverse("enforcement:document", args=[documents[0].pk]))
            .status_code
            == 404
        )


def test_an_appeal_is_heard_and_a_reversal_shows_the_order_retracted(people: People) -> None:
    staff = people.staff[NEW_GLARUS]
    permit = permit_filed_on(
        applicant=people.applicant_a,
        village=NEW_GLARUS,
        staff=staff,
        filed="2026-06-01",
        address="300 2nd St",
    )
    case = s.violation_record(
        village=permit.village,
        recorded_by=staff,
        source="observation",
        description="Fence down.",
        provision="§ 135-11",
        days_from=datetime.date(2026, 7, 1),
        at=at("2026-07-01"),
        permit=permit,
    ).case
    order = s.stop_work_order_post(
        case=case, staff=staff, at=at("2026-07-01", 10), grounds=["plan-not-followed"]
    )
    owner = _client(people.applicant_a)
    filed = owner.post(
        reverse("appeals:new"),
        {
            "action": order.pk,
            "kind": "appeal",
            "appellant_name": "Alex Schmid",
            "standing": "aggrieved_person",
            "grounds": "The fence was up.",
            "filed_on": "2026-07-02",
        },
    )
    appeal = Appeal.objects.get()
    assert filed["Location"] == reverse("appeals:detail", args=[appeal.pk])
    board = _client(people.board[NEW_GLARUS])
    docket = board.get(reverse("appeals:docket"))
    assert appeal.number in docket.content.decode()
    board.post(
        reverse("appeals:hearing", args=[appeal.pk]),
        {
            "hearing_at": "2026-07-14T18:00",
            "notice_given_on": "2026-07-06",
            "notice_to": "Alex Schmid",
            "place": "Village Hall",
        },
    )
    # The board decides as a board: its chair (or the staff) records the roll and the votes;
    # neither the appellant nor one member of the board can (decision 47).
    assert owner.post(reverse("appeals:vote", args=[appeal.pk]), {}).status_code == 403
    assert board.post(reverse("appeals:roll", args=[appeal.pk]), {}).status_code == 403
    members = seat_board(NEW_GLARUS)
    chair = _client(members.chair)
    chair.post(
        reverse("appeals:roll", args=[appeal.pk]),
        {f"status_{c.person}": c.status for c in roll_all_present(appeal, members)},
    )
    seated = Attendance.objects.filter(hearing__appeal=appeal, seated=True)
    chair.post(
        reverse("appeals:vote", args=[appeal.pk]),
        {
            "kind": "reverse",
            "reasons": "The photos show the neighbouring lot.",
            "voted_at": "2026-07-14T20:00",
            **{f"vote_{line.person_id}": "for" for line in seated},
        },
    )
    appeal.refresh_from_db()
    assert appeal.decision == "reverse"
    retraction = EnforcementAction.objects.get(kind="retraction")
    assert retraction.details == {
        "order": "stop_work_order",
        "by": "appeals_board",
        "appeal": appeal.number,
    }
    page = owner.get(reverse("appeals:detail", args=[appeal.pk]))
    assert "Reversed" in page.content.decode()
    assert owner.get(reverse("appeals:document", args=[appeal.pk])).status_code == 200


def test_the_register_shows_orders_without_private_details(people: People) -> None:
    staff = people.staff[SPENCER]
    permit = permit_filed_on(
        applicant=people.applicant_a,
        village=SPENCER,
        staff=staff,
        filed="2026-06-01",
        address="12 Park St, Spencer",
    )
    complaint = s.complaint_file(
        village=permit.village,
        description="SECRET-DESCRIPTION mud",
        at=at("2026-07-01", 8),
        address="12 Park St, Spencer",
        name="Pat Neighbor",
        email="pat@example.org",
        phone="555-0199",
    )
    violation = s.violation_review(
        violation=complaint,
        staff=staff,
        at=at("2026-07-01", 9),
        found=True,
        provision="§ 413-7B(3)",
        permit=permit,
        note="INTERNAL-NOTE",
    )
    s.stop_work_order_post(
        case=violation.case,
        staff=staff,
        at=at("2026-07-01", 10, 30),
        grounds=["conditions-not-met"],
        note="ANOTHER-INTERNAL-NOTE",
    )
    client = _client()
    pages = [
        client.get(reverse("register:register")),
        client.get(reverse("register:register"), {"q": "Park"}),
        client.get(reverse("register:geojson")),
        client.get(reverse("register:feed")),
    ]
    csv_text = b"".join(client.get(reverse("register:csv")).streaming_content).decode()
    texts = [p.content.decode() for p in pages] + [csv_text]
    for text in texts:
        for private in (
            "Pat Neighbor",
            "pat@example.org",
            "555-0199",
            "SECRET-DESCRIPTION",
            "INTERNAL-NOTE",
            "applicant-a",
        ):
            assert private not in text
    assert permit.number in texts[0] and "Stop-work order in force" in texts[0]
    assert "Stop-work order 2026-07-01 10:30" in texts[0]
    assert "The conditions of the permit are not being met (§ 413-10A(3))" in texts[0]
    assert f'{permit.number},Village of Spencer,"12 Park St, Spencer"' in csv_text
    assert "Stop-work order: 12 Park St, Spencer" in texts[3]
    assert json.loads(texts[2])["type"] == "FeatureCollection"
    assert (
        "Nothing matches the search."
        in client.get(reverse("register:register"), {"q": "Nowhere Rd"}).content.decode()
    )


def test_the_public_register_page_is_kept_until_the_record_changes(
    people: People, django_assert_num_queries: Any
) -> None:
    staff = people.staff[SPENCER]
    permit = permit_filed_on(
        applicant=people.applicant_a,
        village=SPENCER,
        staff=staff,
        filed="2026-06-01",
        address="14 Park St, Spencer",
    )
    public = _client()
    first = public.get(reverse("register:register"), {"q": "Park"}).content.decode()
    assert permit.number in first
    assert '<td data-label="Stop-work order in force">no</td>' in first
    # The same search again is the kept page: one query, for the audit chain's head.
    with django_assert_num_queries(1):
        again = public.get(reverse("register:register"), {"q": "Park"})
    assert again.content.decode() == first
    # Another page or search is its own.
    other = public.get(reverse("register:register"), {"q": "Nowhere Rd"}).content.decode()
    assert "Nothing matches the search." in other
    # An order posted on the site moves the chain: the next search shows it at once.
    violation = s.violation_record(
        village=factories.Village.objects.get(pk=SPENCER),
        recorded_by=staff,
        source="observation",
        description="Mud.",
        provision="§ 413-7B(3)",
        days_from=datetime.date(2026, 7, 1),
        at=at("2026-07-01"),
        permit=permit,
    )
    s.stop_work_order_post(
        case=violation.case,
        staff=staff,
        at=at("2026-07-01", 10),
        grounds=["conditions-not-met"],
    )
    after = public.get(reverse("register:register"), {"q": "Park"}).content.decode()
    assert '<td data-label="Stop-work order in force"><strong>yes</strong></td>' in after


def test_a_signed_in_persons_register_page_is_never_kept(people: People) -> None:
    staff = people.staff[SPENCER]
    official, signed_in = _client(staff), f"Sign out ({staff.username})"
    assert signed_in in official.get(reverse("register:register")).content.decode()
    # The public's page (made and kept now) does not carry the official's name...
    assert "Sign out" not in _client().get(reverse("register:register")).content.decode()
    # ...and the official is not served the public's kept page.
    assert signed_in in official.get(reverse("register:register")).content.decode()


def test_register_and_case_lists_keep_a_constant_number_of_queries(
    people: People, django_assert_max_num_queries: Any
) -> None:
    staff = people.staff[SPENCER]
    for n in range(4):
        case = s.violation_record(
            village=factories.Village.objects.get(pk=SPENCER),
            recorded_by=staff,
            source="observation",
            description="Mud.",
            provision="§ 413-7B(3)",
            days_from=datetime.date(2026, 7, 1),
            at=at("2026-07-01"),
            address=f"{n} Main St",
        ).case
        s.stop_work_order_post(
            case=case, staff=staff, at=at("2026-07-01", 10), grounds=["no-permit"]
        )
    for n in range(3):
        permit_filed_on(
            applicant=people.applicant_a,
            village=SPENCER,
            staff=staff,
            filed="2026-06-01",
            address=f"{n} Oak St",
        )
    public, officials = _client(), _client(staff)
    with django_assert_max_num_queries(8):
        assert public.get(reverse("register:register")).status_code == 200
    with django_assert_max_num_queries(12):
        assert officials.get(reverse("enforcement:cases")).status_code == 200
    with django_assert_max_num_queries(8):
        assert public.get(reverse("register:reports")).status_code == 200


def test_the_board_reports_draw_the_costs_billed_and_recovered(people: People) -> None:
    staff = people.staff[SPENCER]
    permit = permit_filed_on(
        applicant=people.applicant_a,
        village=SPENCER,
        staff=staff,
        filed="2026-06-01",
        address="12 Park St",
    )
    case = s.violation_record(
        village=permit.village,
        recorded_by=staff,
        source="observation",
        description="x",
        provision="§ 413-7B(4)",
        days_from=datetime.date(2026, 7, 1),
        at=at("2026-07-01"),
        permit=permit,
    ).case
    s.stop_work_order_post(
        case=case, staff=staff, at=at("2026-07-01", 10), grounds=["conditions-not-met"]
    )
    s.notice_of_intent_issue(case=case, staff=staff, at=at("2026-07-11"), work="Fence")
    s.village_work_begin(case=case, staff=staff, at=at("2026-07-26"))
    s.work_cost_record(
        case=case,
        staff=staff,
        category="contracts",
        description="Fence contractor",
        amount="1250.50",
        incurred_on=datetime.date(2026, 7, 27),
    )
    invoice = s.invoice_issue(case=case, staff=staff, on=datetime.date(2026, 8, 1))
    payments.payment_receive(
        invoice=invoice,
        staff=staff,
        amount="500",
        received_on=datetime.date(2026, 8, 15),
        method="cash",
    )
    page = _client().get(reverse("register:reports"), {"village": SPENCER}).content.decode()
    assert "Costs of village work billed: $1250.50; recovered: $500.00" in page
    assert (
        "<svg" in page
        and "Billed 2026-08: $1,250.50" in page
        and "Recovered 2026-08: $500.00" in page
    )
    assert "<script" not in page.split("<main")[1].split("</main>")[0]


def test_an_applicant_appeals_a_disapproval_from_the_application_page(
    people: People, spencer: Any
) -> None:
    disapproved = spencer.application("disapproved")
    owner = _client(people.applicant_a)
    page = owner.get(reverse("web:portal-application", args=[disapproved.pk])).content.decode()
    link = f"{reverse('appeals:new')}?application={disapproved.pk}"
    assert f'href="{link}"' in page
    assert owner.get(link).status_code == 200
    response = owner.post(
        reverse("appeals:new"),
        {
            "application": disapproved.pk,
            "kind": "appeal",
            "appellant_name": "Alex Schmid",
            "standing": "applicant",
            "grounds": "Inlet protection is on sheet 2 of the plan.",
            "filed_on": datetime.date.today().isoformat(),
        },
    )
    appeal = Appeal.objects.get()
    assert response["Location"] == reverse("appeals:detail", args=[appeal.pk])
    assert appeal.application_id == disapproved.pk
    assert appeal.decision_appealed == f"Decision on application {disapproved.number} (disapproved)"
    # Applicant B cannot appeal it, and does not learn it exists.
    assert _client(people.applicant_b).get(link).status_code == 404
