"""What notices need, with real rows: the parties and their mailing addresses on the
application, notices addressed to the permittee and the landowner with the office's
contact and what must be done, and how and when each was served (decision 46).

Hand-worked values: Spencer's office is the Municipal Building, 105 Park Street, Spencer,
WI 54479, phone 715-659-5423 (jurisdiction.yaml); New Glarus's Village Hall, 319 2nd
Street, with no phone given. An invoice issued 2026-07-30 due in 30 days is due
2026-08-29 and may be certified to the tax roll from 2026-08-30 (§ 413-10E: costs unpaid
after the due day).
"""

from __future__ import annotations

import datetime
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from enforcement_helpers import at, permit_filed_on
from factories import FACTS, NEW_GLARUS, SPENCER, People, make_user
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from season_helpers import pdf_text
from served_helpers import (
    CONTACT,
    CONTRACTOR,
    ENGINEER,
    LAND_USER,
    OWNER,
    case_of,
    day,
    document_of,
    permit_with_parties,
    post,
    unpermitted_case,
)

from siltfence.apps.accounts.models import Role
from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement.models import EnforcementDocument, ServiceRecord
from siltfence.apps.enforcement.services import ActionRefused
from siltfence.apps.permits import services
from siltfence.apps.permits.models import Application, Party, Permit, TimelineEvent, Village

pytestmark = pytest.mark.django_db

ADDRESS = {"street": "PO Box 12", "city": "Wausau", "state": "WI", "zip_code": "54401"}
# The engineer, the contractor and the contact first: the owner is not simply the first
# party named.
EVERYONE = [ENGINEER, CONTRACTOR, CONTACT, LAND_USER, {"role": "landowner", **OWNER}]


def _everyone_case(people: People) -> Any:
    staff = people.staff[SPENCER]
    permit = permit_with_parties(people.applicant_a, staff, SPENCER, parties=EVERYONE)
    return case_of(permit, staff)


# -- the parties and their mailing addresses --------------------------------------------------


def test_an_application_keeps_each_partys_role_and_mailing_address(people: People) -> None:
    staff = people.staff[SPENCER]
    permit = permit_with_parties(
        people.applicant_a,
        staff,
        SPENCER,
        parties=[
            {"role": "landowner", **OWNER},
            {**LAND_USER, "zip_code": "544491234", "state": "wi"},
            CONTRACTOR,
            CONTACT,
        ],
    )
    parties = {p.role: p for p in permit.application.parties.all()}
    assert set(parties) == {"landowner", "land_user", "contractor", "on_site_contact"}
    assert parties["landowner"].mailing_lines() == ["PO Box 12", "Wausau, WI 54401"]
    # A ZIP+4 typed as nine digits is kept as the envelope writes it; the state in capitals.
    assert parties["land_user"].mailing_lines() == ["88 Elm St", "Marshfield, WI 54449-1234"]
    assert parties["on_site_contact"].phone == "715-555-0104"
    assert not parties["contractor"].has_mailing_address


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"state": "Wisc"}, "parties[0].state"),
        ({"state": "ZZ"}, "parties[0].state"),
        ({"zip_code": "5440"}, "parties[0].zip_code"),
        ({"zip_code": "54401-12"}, "parties[0].zip_code"),
        ({"zip_code": "ABCDE"}, "parties[0].zip_code"),
        ({"city": ""}, "parties[0].city"),
        ({"street": "x" * 201}, "parties[0].street"),
        ({"city": "y" * 101}, "parties[0].city"),
        ({"name": ""}, "parties[0].name"),
        ({"phone": "call me"}, "parties[0].phone"),
        ({"email": "not-an-address"}, "parties[0].email"),
        ({"role": "boss"}, "parties[0].role"),
        ({"street": "1 Main\x07 St"}, "parties[0].street"),
        ({"salary": "1"}, "parties[0].salary"),
    ],
)
def test_a_bad_party_is_refused_naming_its_field_and_nothing_is_written(
    people: People, change: dict[str, str], field: str
) -> None:
    before = Application.objects.count(), Party.objects.count()
    with pytest.raises(services.ActionRefused) as refused:
        services.application_create(
            applicant=people.applicant_a,
            village=Village.objects.get(pk=SPENCER),
            address="1 Test St",
            facts=FACTS[SPENCER],
            on=day("2026-04-20"),
            parties=[{"role": "landowner", **OWNER, **change}],
        )
    assert refused.value.field == field
    assert str(refused.value).startswith(f"{field}: ")
    assert (Application.objects.count(), Party.objects.count()) == before


def test_an_on_site_contact_needs_a_phone(people: People) -> None:
    with pytest.raises(services.ActionRefused) as refused:
        services.parties_read([{"role": "on_site_contact", "name": "Sam Foreman"}])
    assert refused.value.field == "parties[0].phone"


def test_an_application_without_mailing_addresses_keeps_working_and_says_so(
    people: People,
) -> None:
    # make_application names the landowner with no address, as applications made before
    # addresses were asked for.
    staff = people.staff[SPENCER]
    permit = permit_filed_on(
        applicant=people.applicant_a,
        village=SPENCER,
        staff=staff,
        filed="2026-05-01",
        address="7 Old St",
    )
    case = case_of(permit, staff, seen="2026-06-01")
    order = post(case, staff, at("2026-06-01", 10))
    text = pdf_text(document_of(order).file)
    assert "Alex Schmid (permittee) Mailing address: none on the village's record" in text


def _apply(client: Client, **fields: str) -> Any:
    data = {
        "jurisdiction": SPENCER,
        "facts": '{"disturbed_area": 5000}',
        "on": timezone.localdate().isoformat(),
        "address": "418 E Clark St, Spencer",
        **fields,
    }
    return client.post(reverse("web:apply"), data)


def test_the_apply_form_collects_what_the_notices_need(people: People) -> None:
    client = Client()
    client.force_login(people.applicant_a, backend=factories.ModelBackend)
    response = _apply(
        client,
        owner_name="Morgan Landholder",
        owner_email="morgan@example.org",
        owner_street="418 E Clark St",
        owner_city="Spencer",
        owner_state="WI",
        owner_zip="54479",
        permittee_name="Lee Builder LLC",
        permittee_street="88 Elm St",
        permittee_city="Marshfield",
        permittee_state="WI",
        permittee_zip="54449",
        contractor_name="Cal Contractor",
        contractor_phone="715-555-0103",
        contact_name="Sam Foreman",
        contact_phone="715-555-0104",
    )
    assert response.status_code == 302
    application = Application.objects.get(site__address="418 E Clark St, Spencer")
    roles = {p.role: p for p in application.parties.all()}
    assert set(roles) == {"landowner", "land_user", "contractor", "on_site_contact"}
    assert roles["landowner"].mailing_lines() == ["418 E Clark St", "Spencer, WI 54479"]


def test_the_apply_form_shows_a_bad_zip_code_at_its_field(people: People) -> None:
    client = Client()
    client.force_login(people.applicant_a, backend=factories.ModelBackend)
    response = _apply(
        client,
        owner_name="Morgan Landholder",
        owner_street="418 E Clark St",
        owner_city="Spencer",
        owner_state="WI",
        owner_zip="5447",
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "ZIP code: &#x27;5447&#x27; is not a ZIP code" in page
    assert not Application.objects.filter(site__address="418 E Clark St, Spencer").exists()


def test_where_the_village_holds_the_land_it_is_named_and_someone_answers_for_the_work(
    people: People,
) -> None:
    client = Client()
    client.force_login(people.applicant_a, backend=factories.ModelBackend)
    refused = _apply(client, village_holds_land="on")
    assert "the village holds the land: name the person or firm" in refused.content.decode()
    response = _apply(
        client,
        village_holds_land="on",
        permittee_name="Spencer Power Co-op",
        permittee_street="2 Wire Rd",
        permittee_city="Spencer",
        permittee_state="WI",
        permittee_zip="54479",
    )
    assert response.status_code == 302
    application = Application.objects.get(site__address="418 E Clark St, Spencer")
    assert {p.role: p.name for p in application.parties.all()} == {
        "village": "Village of Spencer",
        "land_user": "Spencer Power Co-op",
    }


# -- the documents, addressed -----------------------------------------------------------------


def test_the_placard_goes_to_the_permittee_and_the_landowner_never_the_engineer(
    people: People,
) -> None:
    staff = people.staff[SPENCER]
    case = _everyone_case(people)
    order = post(case, staff, at("2026-06-01", 10))
    text = pdf_text(document_of(order).file)
    assert "TO: Lee Builder LLC (permittee) 88 Elm St Marshfield, WI 54449-1234" in text
    assert "Pat Owner (landowner) PO Box 12 Wausau, WI 54401" in text
    for not_addressed in ("Erin Engineer", "Cal Contractor", "Sam Foreman"):
        assert not_addressed not in text
    assert (
        "FROM: Building Inspector, Village of Spencer, Municipal Building 105 Park Street "
        "Spencer, WI 54479 Phone: 715-659-5423" in text
    )
    assert "WHAT YOU MUST DO TO LIFT THIS ORDER:" in text
    assert "Meet every condition of the permit, as the permit lists them [§ 413-8E(3)]." in text
    assert "retracts it [§ 413-10D]." in text
    assert "within 10 days, the Building Inspector may revoke the permit [§ 413-10B]." in text


def test_the_invoice_says_what_settles_it_and_when_it_may_go_on_the_tax_roll(
    people: People,
) -> None:
    staff = people.staff[SPENCER]
    case = _everyone_case(people)
    post(case, staff, at("2026-06-01", 10))
    s.notice_of_intent_issue(case=case, staff=staff, at=at("2026-06-11", 10), work="Fence")
    s.village_work_begin(case=case, staff=staff, at=at("2026-06-26", 8))
    s.work_cost_record(
        case=case,
        staff=staff,
        category="labour",
        description="Crew, 8 hours",
        amount="600",
        incurred_on=day("2026-06-26"),
    )
    invoice = s.invoice_issue(case=case, staff=staff, on=day("2026-07-30"), due_in_days=30)
    stored = EnforcementDocument.objects.get(case=case, kind="invoice")
    text = pdf_text(stored.file)
    assert invoice.due_on == day("2026-08-29")
    assert "Amount due: $600.00, by August 29, 2026." in text
    assert "If it is not paid by August 29, 2026, it may be certified to the tax roll from " in text
    assert "August 30, 2026 [§ 413-10E]." in text
    assert "Pay the amount due to the Village Administrator-Clerk/Treasurer" in text
    assert "Lee Builder LLC (permittee)" in text and "Erin Engineer" not in text


def test_where_the_village_holds_the_land_the_notices_go_to_the_permittee_alone(
    people: People,
) -> None:
    staff = people.staff[NEW_GLARUS]
    permit = permit_with_parties(
        people.applicant_a,
        staff,
        NEW_GLARUS,
        parties=[{"role": "village", "name": "Village of New Glarus"}, LAND_USER],
        address="Right-of-way, 2nd St",
    )
    case = case_of(permit, staff)
    order = post(case, staff, at("2026-06-01", 10))
    text = pdf_text(document_of(order).file)
    assert "TO: Lee Builder LLC (responsible party) 88 Elm St" in text
    assert "Landowner: the Village of New Glarus itself holds this land (a right-of-way)" in text
    assert "[§ 135-11E, § 135-13]" in text
    # New Glarus gave no phone: the notice says so plainly.
    assert "The village has not given a phone number, an email address or office hours" in text


def test_the_notice_to_cease_is_written_with_what_to_do(people: People) -> None:
    staff = people.staff[NEW_GLARUS]
    case = unpermitted_case(staff, NEW_GLARUS, address="9 Railroad St", party="Dirt Movers LLC")
    notice = s.notice_to_cease_give(case=case, staff=staff, at=at("2026-06-02", 10))
    text = pdf_text(document_of(notice).file)
    assert "NOTICE TO CEASE" in text
    assert "Dirt Movers LLC (land user) Mailing address: none on the village's record" in text
    assert "WHAT YOU MUST DO: Stop the land-disturbing construction activity" in text
    assert "[§ 135-7A]." in text
    # Given at the moment it was handed over: that is its service.
    record = ServiceRecord.objects.get(document__action=notice)
    assert (record.method, record.to_name) == ("handed_over", "Dirt Movers LLC")


# -- service records --------------------------------------------------------------------------


def test_posting_the_order_is_recorded_as_its_service(people: People) -> None:
    staff = people.staff[SPENCER]
    case = _everyone_case(people)
    order = post(case, staff, at("2026-06-01", 10))
    record = ServiceRecord.objects.get(document__action=order)
    assert (record.method, record.served_at, record.served_by) == (
        "posted_on_site",
        at("2026-06-01", 10),
        "Spencer Tester",
    )
    served = TimelineEvent.objects.get(application_id=case.application_id, type="served")
    assert served.fields == {"of": f"order-{order.pk}", "method": "posted_on_site"}


@pytest.fixture
def served_case(people: People) -> Any:
    staff = people.staff[SPENCER]
    case = _everyone_case(people)
    order = post(case, staff, at("2026-06-01", 10))
    return case, document_of(order)


def _owner(case: Any) -> Party:
    return Permit.objects.get(application_id=case.application_id).application.parties.get(
        role="landowner"
    )


FUTURE = object()


@pytest.mark.parametrize(
    ("given", "field", "says"),
    [
        ({"at": FUTURE}, "served at", "has not come yet"),
        ({"at": at("2026-06-01", 9, 59)}, "served at", "the document was issued 2026-06-01 10:00"),
        ({"method": "carrier_pigeon"}, "method", "choose one of posted on the site"),
        (
            {"method": "mailed_certified", "certified_number": "9" * 19},
            "certified number",
            "20 to 22 digits",
        ),
        (
            {"method": "mailed_certified", "certified_number": "9" * 23},
            "certified number",
            "20 to 22 digits",
        ),
        (
            {"method": "mailed_certified", "certified_number": "9407-1000"},
            "certified number",
            "20 to 22 digits",
        ),
        (
            {"method": "mailed_first_class", "certified_number": "9" * 20},
            "certified number",
            "only certified mail has one",
        ),
        ({"method": "emailed", "email": "nobody"}, "email", "is not an email address"),
        ({"received_on": day("2026-06-05")}, "received on", "for a document mailed or emailed"),
        (
            {"method": "mailed_first_class", "received_on": day("2026-06-01")},
            "received on",
            "is before it was sent (2026-06-02)",
        ),
        (
            {"method": "mailed_first_class", "received_on": FUTURE},
            "received on",
            "has not come yet",
        ),
        ({"served_by": "x" * 201}, "served by", "at most 200 characters"),
        ({"note": "n" * 1001}, "note", "at most 1,000 characters"),
        ({"to_name": "", "party": None}, "to", "name the person"),
    ],
)
def test_a_bad_service_is_refused_naming_its_field_and_nothing_is_written(
    people: People, served_case: Any, given: dict[str, Any], field: str, says: str
) -> None:
    case, document = served_case
    values: dict[str, Any] = {
        "document": document,
        "user": people.staff[SPENCER],
        "method": "handed_over",
        "at": at("2026-06-02", 11),
        "party": _owner(case),
        "address": ADDRESS,
        "email": "pat@example.org",
    }
    values.update(given)
    if values["at"] is FUTURE:
        values["at"] = timezone.now() + datetime.timedelta(minutes=2)
    if values.get("received_on") is FUTURE:
        values["received_on"] = timezone.localdate() + datetime.timedelta(days=2)
        values["at"] = timezone.now() - datetime.timedelta(hours=1)
    before = ServiceRecord.objects.count(), TimelineEvent.objects.count()
    with pytest.raises(ActionRefused) as refused:
        s.document_serve(**values)
    assert refused.value.field == field
    assert says in str(refused.value)
    assert (ServiceRecord.objects.count(), TimelineEvent.objects.count()) == before


def test_mail_to_a_party_with_no_address_asks_for_one_and_keeps_it(people: People) -> None:
    staff = people.staff[SPENCER]
    permit = permit_with_parties(
        people.applicant_a, staff, SPENCER, parties=[{"role": "landowner", "name": "Jo Owner"}]
    )
    case = case_of(permit, staff)
    document = document_of(post(case, staff, at("2026-06-01", 10)))
    owner = permit.application.parties.get()
    with pytest.raises(ActionRefused) as refused:
        s.document_serve(
            document=document,
            user=staff,
            method="mailed_certified",
            at=at("2026-06-02", 11),
            party=owner,
            certified_number="9407100000000000000001",
        )
    assert refused.value.field == "street"
    assert "Jo Owner has no mailing address on the village's record" in str(refused.value)
    record = s.document_serve(
        document=document,
        user=staff,
        method="mailed_certified",
        at=at("2026-06-02", 11),
        party=owner,
        address=ADDRESS,
        certified_number="9407 1000 0000 0000 0000 01",
    )
    assert record.certified_number == "9407100000000000000001"
    assert record.mailing_lines() == ["PO Box 12", "Wausau, WI 54401"]
    owner.refresh_from_db()
    assert owner.mailing_lines() == ["PO Box 12", "Wausau, WI 54401"]


def test_a_received_day_is_added_once(people: People, served_case: Any) -> None:
    case, document = served_case
    staff = people.staff[SPENCER]
    record = s.document_serve(
        document=document,
        user=staff,
        method="mailed_first_class",
        at=at("2026-06-02", 11),
        party=_owner(case),
    )
    s.service_receipt_record(service=record, user=staff, received_on=day("2026-06-04"))
    with pytest.raises(ActionRefused) as again:
        s.service_receipt_record(service=record, user=staff, received_on=day("2026-06-05"))
    assert again.value.field == "received on"
    assert ServiceRecord.objects.get(pk=record.pk).received_on == day("2026-06-04")


@pytest.mark.parametrize("who", ["applicant", "board", "other_staff", "other_inspector"])
def test_only_the_villages_staff_and_inspectors_record_service(
    people: People, served_case: Any, who: str
) -> None:
    case, document = served_case
    user = {
        "applicant": people.applicant_a,
        "board": people.board[SPENCER],
        "other_staff": people.staff[NEW_GLARUS],
        "other_inspector": people.inspector[NEW_GLARUS],
    }[who]
    before = ServiceRecord.objects.count()
    with pytest.raises(ActionRefused) as refused:
        s.document_serve(
            document=document,
            user=user,
            method="handed_over",
            at=at("2026-06-02", 11),
            party=_owner(case),
        )
    assert refused.value.field == "village"
    assert ServiceRecord.objects.count() == before
    record = s.document_serve(
        document=document,
        user=people.inspector[SPENCER],
        method="mailed_first_class",
        at=at("2026-06-02", 11),
        party=_owner(case),
    )
    with pytest.raises(ActionRefused) as receipt:
        s.service_receipt_record(service=record, user=user, received_on=day("2026-06-04"))
    assert receipt.value.field == "village"


def test_a_letter_to_the_attorney_is_not_served(people: People, served_case: Any) -> None:
    case, _ = served_case
    staff = people.staff[SPENCER]
    referral = s.injunction_refer(case=case, staff=staff, at=at("2026-06-03"))
    with pytest.raises(ActionRefused) as refused:
        s.document_serve(
            document=document_of(referral),
            user=staff,
            method="handed_over",
            at=at("2026-06-04"),
            to_name="Village Attorney",
        )
    assert refused.value.field == "document"


# -- the pages --------------------------------------------------------------------------------


def test_the_case_page_shows_the_service_and_what_each_step_runs_from(
    people: People, served_case: Any
) -> None:
    case, document = served_case
    client = Client()
    client.force_login(people.inspector[SPENCER], backend=factories.ModelBackend)
    page = client.get(reverse("enforcement:case", args=[case.pk])).content.decode()
    assert "Served: posted on the site 2026-06-01 10:00 CDT to Posted on the site" in page
    assert (
        "Runs from the stop-work order, posted on the site, on June 1, 2026 "
        '<span class="cite">§ 413-10E</span>.' in page
    )
    assert "Lee Builder LLC</strong> (permittee)" in page
    assert reverse("enforcement:service", args=[document.pk]) in page


def test_the_service_page_records_mail_and_asks_for_a_missing_address(people: People) -> None:
    staff = people.staff[SPENCER]
    permit = permit_with_parties(
        people.applicant_a, staff, SPENCER, parties=[{"role": "landowner", "name": "Jo Owner"}]
    )
    case = case_of(permit, staff)
    document = document_of(post(case, staff, at("2026-06-01", 10)))
    owner = permit.application.parties.get()
    inspector = Client()
    inspector.force_login(people.inspector[SPENCER], backend=factories.ModelBackend)
    url = reverse("enforcement:service", args=[document.pk])
    page = inspector.get(url).content.decode()
    assert "Jo Owner: no mailing address on the record" in page
    form = {
        "method": "mailed_first_class",
        "served_at": "2026-06-02T11:00",
        "to": f"party-{owner.pk}",
    }
    refused = inspector.post(url, form, follow=True)
    shown = [str(m) for m in refused.context["messages"]]
    assert shown == [
        "Mailing address it was sent to: street: Jo Owner has no mailing address on the "
        "village's record; give the address it was mailed to"
    ]
    done = inspector.post(
        url,
        {**form, **{"street": "PO Box 12", "city": "Wausau", "state": "WI", "zip_code": "54401"}},
        follow=True,
    )
    assert [str(m) for m in done.context["messages"]] == ["Service recorded."]
    proof = inspector.get(reverse("enforcement:proof-of-service", args=[document.pk]))
    assert proof["Content-Type"] == "application/pdf"
    assert b"%PDF" in proof.content[:8]
    # The permittee sees the case, not the service page, and cannot record one.
    applicant = Client()
    applicant.force_login(people.applicant_a, backend=factories.ModelBackend)
    assert applicant.get(url).status_code == 404
    assert applicant.post(url, form).status_code == 404
    assert ServiceRecord.objects.filter(document=document).count() == 2


# -- hostile input ----------------------------------------------------------------------------

FUZZ = settings(
    max_examples=40,
    deadline=datetime.timedelta(seconds=3),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
texts = st.one_of(
    st.text(max_size=60),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=260),
    st.sampled_from(
        [
            "",
            " ",
            "\x00",
            "WI",
            "54479",
            "54479-1234",
            "544791234",
            "9" * 20,
            "9" * 22,
            "9407 1000 0000 0000 0000 01",
            "a@b.co",
            "2026-06-02",
            "<script>x</script>",
        ]
    ),
)
SERVICE_FIELDS = {
    "village",
    "method",
    "served at",
    "served by",
    "to",
    "street",
    "city",
    "state",
    "zip_code",
    "email",
    "certified number",
    "received on",
    "received how",
    "note",
}


@FUZZ
@given(
    method=st.one_of(
        st.sampled_from(
            ["posted_on_site", "handed_over", "mailed_first_class", "mailed_certified", "emailed"]
        ),
        texts,
    ),
    served_by=texts,
    to_name=texts,
    street=texts,
    city=texts,
    state=texts,
    zip_code=texts,
    email=texts,
    certified_number=texts,
    received_how=texts,
    note=texts,
    received=st.one_of(st.none(), st.integers(min_value=-3, max_value=3)),
)
def test_every_service_field_refuses_hostile_input_by_name(
    people: People,
    served_case: Any,
    method: str,
    served_by: str,
    to_name: str,
    street: str,
    city: str,
    state: str,
    zip_code: str,
    email: str,
    certified_number: str,
    received_how: str,
    note: str,
    received: int | None,
) -> None:
    _, document = served_case
    sent = at("2026-06-02", 11)
    before = ServiceRecord.objects.count(), TimelineEvent.objects.count()
    try:
        record = s.document_serve(
            document=document,
            user=people.staff[SPENCER],
            method=method,
            at=sent,
            served_by=served_by,
            to_name=to_name,
            address={"street": street, "city": city, "state": state, "zip_code": zip_code},
            email=email,
            certified_number=certified_number,
            received_on=None
            if received is None
            else sent.date() + datetime.timedelta(days=received),
            received_how=received_how,
            note=note,
        )
    except ActionRefused as refused:
        assert refused.field in SERVICE_FIELDS, refused.field
        assert str(refused).split(":", 1)[0] in SERVICE_FIELDS
        assert (ServiceRecord.objects.count(), TimelineEvent.objects.count()) == before
    else:
        assert record.method == method
        assert len(record.to_name) <= 200 and len(record.street) <= 200


PARTY_FIELDS = {
    f"parties[0].{k}"
    for k in ("role", "name", "email", "phone", "address", "street", "city", "state", "zip_code")
}


@FUZZ
@given(
    role=st.one_of(st.sampled_from(["landowner", "on_site_contact", "village"]), texts),
    name=texts,
    email=texts,
    phone=texts,
    street=texts,
    city=texts,
    state=texts,
    zip_code=texts,
)
def test_every_party_field_refuses_hostile_input_by_name(
    role: str,
    name: str,
    email: str,
    phone: str,
    street: str,
    city: str,
    state: str,
    zip_code: str,
) -> None:
    typed = {
        "role": role,
        "name": name,
        "email": email,
        "phone": phone,
        "street": street,
        "city": city,
        "state": state,
        "zip_code": zip_code,
    }
    try:
        [party] = services.parties_read([typed])
    except services.ActionRefused as refused:
        assert refused.field in PARTY_FIELDS, refused.field
    else:
        assert party["role"] == role and 0 < len(party["name"]) <= 200
        whole = [party[k] for k in ("street", "city", "state", "zip_code")]
        assert all(whole) or not any(whole)


def _served_tables() -> tuple:
    parties = Party.objects.order_by("pk").values_list("pk", "street", "city", "state", "zip_code")
    return ServiceRecord.objects.count(), TimelineEvent.objects.count(), list(parties)


@settings(FUZZ, max_examples=39)
@given(method=texts, served_at=texts, to=texts, street=texts, zip_code=texts, number=texts)
@example(
    method="posted_on_site",
    served_at=" 2026-06-02T11:00 ",
    to="other",
    street="",
    zip_code="",
    number="",
)
def test_the_service_form_never_fails_on_hostile_input(
    people: People,
    served_case: Any,
    method: str,
    served_at: str,
    to: str,
    street: str,
    zip_code: str,
    number: str,
) -> None:
    from zoneinfo import ZoneInfo

    from siltfence.apps.enforcement.forms import ServiceForm

    _, document = served_case
    inspector = people.inspector[SPENCER]
    client = Client()
    client.force_login(inspector, backend=factories.ModelBackend)
    before = _served_tables()
    typed = {
        "method": method.replace("\x00", ""),
        "served_at": served_at.replace("\x00", ""),
        "to": to.replace("\x00", ""),
        "street": street.replace("\x00", ""),
        "zip_code": zip_code.replace("\x00", ""),
        "certified_number": number.replace("\x00", ""),
    }
    response = client.post(reverse("enforcement:service", args=[document.pk]), typed, follow=True)
    assert response.status_code == 200
    shown = [str(m) for m in response.context["messages"]]
    assert len(shown) == 1, shown
    if shown != ["Service recorded."]:
        # Refused: the message names a field of the form, and nothing is written.
        labels = {str(field.label) for field in ServiceForm(to_choices=[]).fields.values()}
        head = shown[0].split(":", 1)[0]
        assert head in labels | SERVICE_FIELDS | {"Form"}, shown[0]
        assert _served_tables() == before
        return
    # Recorded: one service, and its ``served`` event on the case's timeline, as typed.
    count, events, parties = _served_tables()
    assert (count, events, parties) == (before[0] + 1, before[1] + 1, before[2])
    record = ServiceRecord.objects.filter(document=document).latest("pk")
    when = datetime.datetime.fromisoformat(typed["served_at"].strip())
    if when.tzinfo is None:
        when = when.replace(tzinfo=ZoneInfo("America/Chicago"))
    assert (record.method, record.served_at) == (typed["method"], when)
    assert record.recorded_by_id == inspector.pk
    assert record.served_by == (inspector.get_full_name() or inspector.get_username())
    chosen = typed["to"]
    party = None
    if chosen.startswith("party-"):
        party = Party.objects.get(pk=int(chosen.removeprefix("party-")))
        assert (record.party_id, record.to_name) == (party.pk, party.name)
    elif chosen.startswith("name-"):
        assert record.to_name == chosen.removeprefix("name-")
    else:  # someone else, with no name given: only a posting names itself
        assert (record.method, record.to_name) == ("posted_on_site", "Posted on the site")
    mailed = typed["method"] in ("mailed_first_class", "mailed_certified")
    address = (record.street, record.city, record.state, record.zip_code)
    if mailed:
        # No city nor state is posted: a mailed service goes to the address on the record.
        assert party is not None
        assert address == (party.street, party.city, party.state, party.zip_code)
    else:
        assert address == ("", "", "", "")
    digits = "".join(typed["certified_number"].split())
    assert record.certified_number == (digits if typed["method"] == "mailed_certified" else "")
    event = TimelineEvent.objects.latest("pk")
    assert (event.type, event.at) == ("served", when)


def test_a_new_inspector_account_can_record_service(people: People, served_case: Any) -> None:
    case, document = served_case
    newcomer = make_user("new-inspector", village=SPENCER, role=Role.INSPECTOR)
    record = s.document_serve(
        document=document,
        user=newcomer,
        method="handed_over",
        at=at("2026-06-03", 10),
        party=_owner(case),
        served_by="",
    )
    assert record.served_by == "New Tester"


def _collapsed(value: str) -> str:
    return " ".join(value.split())


def _zip(value: str) -> str:
    digits = value.replace("-", "")
    return digits if len(digits) == 5 else f"{digits[:5]}-{digits[5:]}"


@settings(FUZZ, max_examples=38)
@given(
    owner_state=texts,
    owner_zip=texts,
    owner_street=texts,
    permittee_name=texts,
    permittee_zip=texts,
    contact_name=texts,
    contact_phone=texts,
)
@example(
    owner_state=" wi ",
    owner_zip="544791234",
    owner_street=" 418  E Clark St ",
    permittee_name="  Lee   Builder LLC ",
    permittee_zip="",
    contact_name="Sam Foreman",
    contact_phone=" 715-555-0104 ",
)
@example(
    owner_state="WI",
    owner_zip="54479",
    owner_street="PO Box 7",
    permittee_name="",
    permittee_zip="",
    contact_name="",
    contact_phone="",
)
def test_the_apply_forms_new_fields_never_fail_on_hostile_input(
    people: People,
    owner_state: str,
    owner_zip: str,
    owner_street: str,
    permittee_name: str,
    permittee_zip: str,
    contact_name: str,
    contact_phone: str,
) -> None:
    client = Client()
    client.force_login(people.applicant_a, backend=factories.ModelBackend)
    before = Party.objects.count()
    applications = Application.objects.count()
    last = Application.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    typed = {
        "owner_name": "Morgan Landholder",
        "owner_state": owner_state,
        "owner_zip": owner_zip,
        "owner_street": owner_street,
        "owner_city": "Spencer",
        "permittee_name": permittee_name,
        "permittee_zip": permittee_zip,
        "contact_name": contact_name,
        "contact_phone": contact_phone,
    }
    typed = {k: v.replace("\x00", "") for k, v in typed.items()}
    response = _apply(client, **typed)
    assert response.status_code in (200, 302)
    if response.status_code == 200:
        assert Party.objects.count() == before
        assert Application.objects.count() == applications
        assert (
            "usa-error-message" in response.content.decode() or "error" in response.content.decode()
        )
        return
    # Filed: one application, naming exactly the parties typed, each as typed (spaces
    # collapsed, the state in capitals, a ZIP+4 with its hyphen).
    assert Application.objects.count() == applications + 1
    application = Application.objects.get(pk__gt=last)
    parties = {
        p.role: (p.name, p.street, p.city, p.state, p.zip_code, p.phone)
        for p in application.parties.all()
    }
    expected = {
        "landowner": (
            "Morgan Landholder",
            _collapsed(typed["owner_street"]),
            "Spencer",
            _collapsed(typed["owner_state"]).upper(),
            _zip(_collapsed(typed["owner_zip"])),
            "",
        )
    }
    if _collapsed(typed["permittee_name"]):
        # No street, city nor state typed for them: no ZIP code either, or it is refused.
        expected["land_user"] = (_collapsed(typed["permittee_name"]), "", "", "", "", "")
    if _collapsed(typed["contact_name"]):
        expected["on_site_contact"] = (
            _collapsed(typed["contact_name"]),
            "",
            "",
            "",
            "",
            _collapsed(typed["contact_phone"]),
        )
    assert parties == expected
    assert application.parties.count() == len(expected)
    assert Party.objects.count() == before + len(expected)
