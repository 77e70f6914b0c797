"""A new user's first hour on the portal and the staff screens, through Django's test client.

Each test drives the pages the way the person would, and checks what the screen says
against the ordinance (sections, counting rules, clocks worked out by hand) or against
what the person typed.
"""

from __future__ import annotations

import datetime
import json
import re
from decimal import Decimal
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import factories
import pytest
from django.contrib.messages import get_messages
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from factories import FACTS, NEW_GLARUS, SPENCER, text_of

from siltfence.apps.audit.models import AuditEvent
from siltfence.apps.outbox.services import outbox_send
from siltfence.apps.payments import services as payments
from siltfence.apps.permits import services
from siltfence.apps.permits.models import (
    Application,
    ApplicationStatus,
    DocumentKind,
    Permit,
    PermitStatus,
    Village,
)

pytestmark = pytest.mark.django_db
CHICAGO = ZoneInfo("America/Chicago")
UTC = datetime.UTC


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user, backend=factories.ModelBackend)
    return client


def flash(response: Any) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def draft_without_ticks(applicant: Any, *, village: str = SPENCER, upload: bool = True) -> Any:
    application = services.application_create(
        applicant=applicant,
        village=Village.objects.get(pk=village),
        address="9 Fence Rd",
        facts=FACTS[village],
        on=timezone.localdate(),
        parties=[{"role": "landowner", "name": "Alex Schmid"}],
    )
    if upload:
        services.document_upload(
            application=application,
            user=applicant,
            kind=DocumentKind.PLAN,
            name="plan.pdf",
            content=factories.plan_pdf("9 Fence Rd"),
            claimed_type="application/pdf",
        )
    return application


def contents_of(application: Any) -> int:
    return len(application.determination["plan"]["contents"])


def ticked(application: Any, people: Any) -> Any:
    services.application_checklist_set(
        application=application,
        user=people.applicant_a,
        items=list(range(contents_of(application))),
    )
    return application


# --- 7. the counting rule in words ----------------------------------------------------------


@pytest.mark.parametrize(
    "village, says, citation",
    [
        # Spencer's own rule is not in hand; § 990.001(4) Wis. Stats. stands in: the last
        # day moves off a Sunday or legal holiday.
        (SPENCER, "Sunday or legal holiday", "§ 990.001(4) Wis. Stats."),
        # New Glarus § 135-7C(1): 30 business days; its Code Ch. 1 counts them.
        (NEW_GLARUS, "business days", "Village of New Glarus Code Ch. 1"),
    ],
)
def test_the_apply_page_says_how_the_days_are_counted_in_words_with_the_rule_cited(
    village, says, citation, people
):
    client = signed_in(people.applicant_a)
    response = client.get(
        reverse("web:apply"), {"jurisdiction": village, "facts": json.dumps(FACTS[village])}
    )
    page = text_of(response)
    due = page[page.index("If filed complete today") :][:700]
    assert "{'rule'" not in due and "'citation'" not in due, due
    assert "How the days are counted:" in due
    assert says in due
    assert citation in due


# --- 8. filing saves what is ticked ---------------------------------------------------------


def test_filing_files_what_is_ticked_even_when_save_checklist_was_not_pressed(people):
    application = draft_without_ticks(people.applicant_a)
    every_item = [str(i) for i in range(contents_of(application))]
    client = signed_in(people.applicant_a)

    client.post(
        reverse("web:portal-submit", args=[application.pk]),
        {"checklist": "shown", "items": every_item},
    )

    application.refresh_from_db()
    assert application.status == ApplicationStatus.UNDER_REVIEW
    assert application.checklist == list(range(contents_of(application)))
    actions = list(
        AuditEvent.objects.filter(entity="application", entity_id=application.pk)
        .order_by("seq")
        .values_list("action", flat=True)
    )
    assert actions[-2:] == ["application_checklist_set", "application_submit"]


def test_a_refused_filing_still_keeps_what_was_ticked(people):
    application = draft_without_ticks(people.applicant_a, upload=False)
    client = signed_in(people.applicant_a)

    response = client.post(
        reverse("web:portal-submit", args=[application.pk]),
        {"checklist": "shown", "items": ["0", "1"]},
    )

    application.refresh_from_db()
    assert application.status == ApplicationStatus.DRAFT
    assert application.checklist == [0, 1]
    (message,) = flash(response)
    # 9,000 sq ft in Spencer: a control plan statement would do under one acre, but the
    # plan itself was never uploaded.
    assert "upload the" in message and "before filing" in message


def test_a_filing_without_the_checklist_on_the_page_keeps_the_saved_checklist(people):
    application = draft_without_ticks(people.applicant_a)
    everything = list(range(contents_of(application)))
    services.application_checklist_set(
        application=application, user=people.applicant_a, items=everything
    )
    signed_in(people.applicant_a).post(reverse("web:portal-submit", args=[application.pk]))
    application.refresh_from_db()
    assert application.status == ApplicationStatus.UNDER_REVIEW
    assert application.checklist == everything


# --- 9. the fee -------------------------------------------------------------------------------


def set_fee(people: Any, *, village: str = SPENCER, on: datetime.date, amount: str) -> None:
    services.fee_schedule_set(
        village=Village.objects.get(pk=village),
        staff=people.staff[village],
        effective_from=on,
        amount=Decimal(amount),
        authority="Village Board resolution 2026-7",
    )


@pytest.mark.parametrize(
    "fee_from_days, owed",
    [(-5, True), (0, True), (1, False)],
    ids=["in-force-since-before", "in-force-from-the-filing-day", "in-force-from-the-next-day"],
)
def test_a_draft_started_before_the_fee_was_set_owes_the_fee_in_force_on_the_filing_date(
    fee_from_days, owed, people
):
    draft = factories.make_application(
        applicant=people.applicant_a, village=SPENCER, state="draft", days_ago=10
    )
    assert draft.fee_amount is None, "no fee was set when the draft was started"
    today = timezone.localdate()
    set_fee(people, on=today + datetime.timedelta(days=fee_from_days), amount="75.00")

    if owed:
        with pytest.raises(services.ActionRefused, match=r"application fee of \$75\.00"):
            services.application_submit(
                application=draft, user=people.applicant_a, at=timezone.now()
            )
        assert Application.objects.get(pk=draft.pk).status == ApplicationStatus.DRAFT
        payments.payment_receive(
            application=draft,
            staff=people.staff[SPENCER],
            received_on=today,
            amount=Decimal("75"),
            method="cash",
        )
    services.application_submit(application=draft, user=people.applicant_a, at=timezone.now())

    assert draft.status == ApplicationStatus.UNDER_REVIEW
    record = AuditEvent.objects.get(
        entity="application", entity_id=draft.pk, action="application_submit"
    )
    if owed:
        assert record.reason == (
            "complete application and plan received; "
            f"the application fee of $75.00 paid on {today.isoformat()}"
        )
        assert draft.fee_amount == Decimal("75.00")
    else:
        assert record.reason == (
            "complete application and plan received; no application fee was due on the filing date"
        )
        assert draft.fee_amount is None


def test_a_partial_payment_leaves_the_rest_of_the_fee_owed(people):
    draft = factories.make_application(applicant=people.applicant_a, village=SPENCER, state="draft")
    set_fee(people, on=timezone.localdate(), amount="75.00")
    payments.payment_receive(
        application=draft,
        staff=people.staff[SPENCER],
        received_on=timezone.localdate(),
        amount=Decimal("50.00"),
        method="cash",
    )
    with pytest.raises(services.ActionRefused, match=r"\$25\.00 is still owed"):
        services.application_submit(application=draft, user=people.applicant_a, at=timezone.now())
    # The rest arrives: a second payment, with its own receipt; never more than is owed, so
    # the whole fee recorded again (as if the first were not there) is refused.
    with pytest.raises(services.ActionRefused, match=r"more than the \$25\.00 still owed"):
        payments.payment_receive(
            application=draft,
            staff=people.staff[SPENCER],
            received_on=timezone.localdate(),
            amount=Decimal("75.00"),
            method="cash",
        )
    payments.payment_receive(
        application=draft,
        staff=people.staff[SPENCER],
        received_on=timezone.localdate(),
        amount=Decimal("25.00"),
        method="check",
        check_number="2231",
    )
    recorded = AuditEvent.objects.filter(entity_id=draft.pk, action="fee_payment_record")
    assert [e.after["amount"] for e in recorded.order_by("seq")] == ["50.00", "25.00"]
    services.application_submit(application=draft, user=people.applicant_a, at=timezone.now())


def test_the_record_never_claims_a_fee_was_received_when_none_was_set(people):
    application = factories.make_application(
        applicant=people.applicant_a, village=NEW_GLARUS, state="under_review"
    )
    record = AuditEvent.objects.get(
        entity="application", entity_id=application.pk, action="application_submit"
    )
    assert "fee received" not in record.reason
    assert record.reason.endswith("no application fee was due on the filing date")


def test_staff_find_drafts_waiting_on_the_fee_in_the_review_queue(people):
    draft = factories.make_application(applicant=people.applicant_a, village=SPENCER, state="draft")
    set_fee(people, on=timezone.localdate() - datetime.timedelta(days=30), amount="75.00")
    spencer_staff = signed_in(people.staff[SPENCER])

    page = spencer_staff.get(reverse("web:staff-queue")).content.decode()
    table = page[page.index('data-testid="awaiting-fee"') :]
    assert draft.number in table and "$75.00" in table
    other_village = signed_in(people.staff[NEW_GLARUS]).get(reverse("web:staff-queue"))
    assert draft.number not in other_village.content.decode()

    # Staff open it and record the payment there; it leaves the list.
    detail = spencer_staff.get(reverse("web:staff-application", args=[draft.pk]))
    assert "Record the fee payment" in detail.content.decode()
    spencer_staff.post(
        reverse("payments:fee-payment", args=[draft.pk]),
        {
            "purpose": "application_fee",
            "amount": "75.00",
            "paid_on": timezone.localdate().isoformat(),
            "method": "cash",
        },
    )
    page = spencer_staff.get(reverse("web:staff-queue")).content.decode()
    assert draft.number not in page


def test_a_filing_refused_for_the_fee_says_so_in_plain_words(people):
    draft = factories.make_application(applicant=people.applicant_a, village=SPENCER, state="draft")
    set_fee(people, on=timezone.localdate(), amount="75.00")
    client = signed_in(people.applicant_a)
    items = [str(i) for i in range(contents_of(draft))]

    response = client.post(
        reverse("web:portal-submit", args=[draft.pk]), {"checklist": "shown", "items": items}
    )

    (message,) = flash(response)
    assert not re.match(r"^[a-z_]+: ", message), message
    assert message.startswith("The application cannot be filed yet")
    assert "$75.00" in message
    page = text_of(client.get(reverse("web:portal-application", args=[draft.pk])))
    assert "Application fee: $75.00" in page


# --- 10. times in the village's zone ---------------------------------------------------------


@pytest.mark.parametrize(
    "filed_utc, filed_shown, asked_shown",
    [
        # July: Central Daylight Time, UTC-5.
        (
            datetime.datetime(2026, 7, 1, 17, 55, tzinfo=UTC),
            "2026-07-01 12:55 CDT",
            "2026-07-02 12:55 CDT",
        ),
        # November 30: Central Standard Time, UTC-6.
        (
            datetime.datetime(2026, 11, 30, 17, 55, tzinfo=UTC),
            "2026-11-30 11:55 CST",
            "2026-12-01 11:55 CST",
        ),
    ],
    ids=["summer-CDT", "winter-CST"],
)
def test_times_are_shown_in_the_village_s_time_with_its_zone_abbreviation(
    filed_utc, filed_shown, asked_shown, people
):
    application = ticked(draft_without_ticks(people.applicant_a), people)
    services.application_submit(application=application, user=people.applicant_a, at=filed_utc)
    services.application_information_request(
        application=application,
        staff=people.staff[SPENCER],
        message="Show the stockpiles.",
        at=filed_utc + datetime.timedelta(days=1),
    )

    page = text_of(
        signed_in(people.staff[SPENCER]).get(
            reverse("web:staff-application", args=[application.pk])
        )
    )

    assert "UTC" not in page
    assert f"Filed {filed_shown}" in page
    assert f"{asked_shown}: Show the stockpiles." in page
    record = page[page.index("Record") :]
    # Every line of the record is stamped in the village's zone.
    stamps = re.findall(r"\d{4}-\d\d-\d\d \d\d:\d\d ([A-Z]{3,4})", record)
    assert stamps and set(stamps) <= {"CST", "CDT"}


def test_the_site_map_and_its_report_give_the_plan_s_saving_time_in_the_village_s_zone(people):
    from test_plans import SITE

    from siltfence.apps.plans.services import control_plan_save

    application = draft_without_ticks(people.applicant_a)
    control_plan_save(application=application, user=people.applicant_a, plan_json=SITE)
    client = signed_in(people.applicant_a)
    for name in ("plans:map", "plans:report"):
        page = text_of(client.get(reverse(name, args=[application.pk])))
        assert "UTC" not in page
        assert re.search(r"saved \d{4}-\d\d-\d\d \d\d:\d\d C[SD]T by applicant-a", page), name


# --- 11. what the applicant entered ----------------------------------------------------------


def test_staff_see_the_landowner_contact_and_description_the_applicant_entered(people):
    applicant = signed_in(people.applicant_a)
    response = applicant.post(
        reverse("web:apply"),
        {
            "jurisdiction": SPENCER,
            "facts": json.dumps(FACTS[SPENCER]),
            "on": timezone.localdate().isoformat(),
            "address": "418 E Clark St, Spencer",
            "parcel_number": "281-2503-123",
            "legal_description": "Lot 7, Block 3, Original Plat",
            "description": "New garage and a regraded driveway; topsoil stockpiled on site.",
            "owner_name": "Morgan Landholder",
            "owner_email": "morgan@example.org",
        },
    )
    assert response.status_code == 302
    application = Application.objects.get(site__address="418 E Clark St, Spencer")

    page = text_of(
        signed_in(people.staff[SPENCER]).get(
            reverse("web:staff-application", args=[application.pk])
        )
    )

    entered = page[page.index("What the applicant entered") :]
    assert "Morgan Landholder" in entered and "morgan@example.org" in entered
    assert "New garage and a regraded driveway; topsoil stockpiled on site." in entered
    assert "Lot 7, Block 3, Original Plat" in entered
    assert "281-2503-123" in entered
    assert "applicant-a@example.org" in entered  # the applicant, to contact


# --- 12. each clock's true state -------------------------------------------------------------


def filed_on_may_1(people: Any) -> Any:
    application = ticked(draft_without_ticks(people.applicant_a), people)
    services.application_submit(
        application=application,
        user=people.applicant_a,
        at=datetime.datetime(2026, 5, 1, 10, tzinfo=CHICAGO),
    )
    return application


def clock_text(client: Client, application: Any) -> str:
    page = client.get(reverse("web:portal-application", args=[application.pk])).content.decode()
    match = re.search(r'data-testid="clock">(.*?)</span></span>', page, re.S)
    assert match, "the application page shows its clock"
    return re.sub(r"<[^>]+>", "", match.group(1))


def test_a_clock_waiting_for_information_reads_paused_not_decided_or_met(people):
    application = filed_on_may_1(people)
    services.application_information_request(
        application=application,
        staff=people.staff[SPENCER],
        message="Show the stockpiles.",
        at=datetime.datetime(2026, 5, 20, 9, tzinfo=CHICAGO),
    )

    clock = clock_text(signed_in(people.applicant_a), application)
    assert "paused while waiting for the information requested on 2026-05-20" in clock
    assert "decided" not in clock and "met" not in clock

    staff = signed_in(people.staff[SPENCER])
    page = staff.get(reverse("web:staff-application", args=[application.pk])).content.decode()
    clocks = re.search(r'data-testid="clocks">(.*?)</ul>', page, re.S).group(1)
    assert "clock paused while waiting" in clocks and " met " not in clocks
    queue = text_of(staff.get(reverse("web:staff-queue")))
    assert "Paused: waiting for information since 2026-05-20" in queue


def test_a_clock_past_its_date_reads_overdue_with_the_date_it_was_due(people):
    # § 413-8D: within 45 days of receipt: May 1 + 45 days = Monday, June 15, 2026,
    # long past on any day these tests run (the clock is read "now").
    application = filed_on_may_1(people)
    clock = clock_text(signed_in(people.applicant_a), application)
    assert "was due 2026-06-15: overdue" in clock


def test_a_decided_clock_reads_met_on_the_day_of_the_decision(people):
    application = filed_on_may_1(people)
    services.application_approve(
        application=application,
        staff=people.staff[SPENCER],
        at=datetime.datetime(2026, 5, 4, 11, tzinfo=CHICAGO),
    )
    clock = clock_text(signed_in(people.applicant_a), application)
    assert "met on 2026-05-04 by the approval (due 2026-06-15)" in clock


def test_a_clock_within_its_time_reads_running(people):
    application = factories.make_application(
        applicant=people.applicant_a, village=SPENCER, state="under_review", days_ago=2
    )
    clock = clock_text(signed_in(people.applicant_a), application)
    assert "clock running" in clock and "overdue" not in clock and "met" not in clock


# --- 13. a home for every role, and no dead ends ---------------------------------------------


def test_an_inspector_s_home_lists_the_permits_in_force_in_their_village_with_what_is_due(
    people, spencer
):
    permit = spencer.permit
    inspector = signed_in(people.inspector[SPENCER])

    response = inspector.get(reverse("web:home"), follow=True)

    assert response.redirect_chain[-1][0] == reverse("web:inspector-home")
    table = response.content.decode()
    table = table[table.index('data-testid="inspector-permits"') :]
    assert permit.number in table and permit.application.site.address in table
    assert "due" in text_of(response)
    other = signed_in(people.inspector[NEW_GLARUS]).get(reverse("web:inspector-home"))
    assert permit.number not in other.content.decode()


def test_the_appeals_board_s_home_explains_the_empty_docket_and_lists_what_it_may_hear(
    people, spencer
):
    disapproved = spencer.application("disapproved")
    permit = spencer.permit
    board = signed_in(people.board[SPENCER])

    response = board.get(reverse("web:home"), follow=True)

    assert response.redirect_chain[-1][0] == reverse("web:appeals-home")
    page = text_of(response)
    assert "No appeals are on the docket" in page
    # § 413-12A: the Zoning Board of Appeals hears appeals of the Building Inspector.
    assert "Zoning Board of Appeals" in page and "§ 413-12A" in page
    assert disapproved.number in page and "No inlet protection" in page
    assert permit.number in page


@pytest.mark.parametrize(
    "role, home",
    [
        ("staff", "web:staff-queue"),
        ("inspector", "web:inspector-home"),
        ("board", "web:appeals-home"),
    ],
)
def test_the_back_link_of_an_application_leads_each_official_to_their_own_home(
    role, home, people, spencer
):
    application = spencer.application("under_review")
    client = signed_in(getattr(people, role)[SPENCER])
    page = client.get(reverse("web:staff-application", args=[application.pk])).content.decode()
    back = re.search(r'<a href="([^"]+)">← ', page).group(1)
    assert back == reverse(home)
    assert client.get(back).status_code == 200


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href")
        if tag == "a" and href:
            self.hrefs.append(href)


WORK_PAGES = ("/home/", "/staff/", "/permits/", "/portal/", "/inspections/", "/appeals/", "/plans/")


@pytest.mark.parametrize("role", ["inspector", "board"])
def test_every_link_an_inspector_or_board_member_sees_works_for_them(role, people, spencer):
    for state in factories.STATES:
        spencer.application(state)
    assert spencer.permit.status == PermitStatus.ACTIVE
    client = signed_in(getattr(people, role)[SPENCER])
    seen: dict[str, int] = {}
    queue = [reverse("web:home")]
    while queue:
        url = queue.pop(0)
        if url in seen:
            continue
        response = client.get(url, follow=True)
        seen[url] = response.status_code
        if response.status_code != 200 or not url.startswith(WORK_PAGES):
            continue
        if "html" not in response.get("Content-Type", ""):
            continue
        parser = _Links()
        parser.feed(response.content.decode())
        for href in parser.hrefs:
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or not parts.path.startswith("/"):
                continue  # mailto:, other sites, in-page anchors
            queue.append(parts.path + (f"?{parts.query}" if parts.query else ""))
    dead = {url: status for url, status in seen.items() if status != 200}
    assert not dead, f"links that fail for the {role}: {dead}"
    assert len(seen) > 10, "the walk reached the work pages"


# --- 17. password reset by email -------------------------------------------------------------


def test_the_sign_in_page_offers_a_password_reset():
    page = Client().get(reverse("web:login")).content.decode()
    assert f'href="{reverse("web:password-reset")}"' in page
    assert "Forgot your password?" in page


def test_a_password_reset_email_leads_to_a_new_password_that_signs_in(people):
    client = Client()
    response = client.post(reverse("web:password-reset"), {"email": "applicant-a@example.org"})
    assert response["Location"] == reverse("web:password-reset-done")
    # Recorded in the outbox in the request, and sent by the worker after it.
    assert mail.outbox == []
    assert outbox_send().sent == 1
    (message,) = mail.outbox
    assert message.to == ["applicant-a@example.org"]
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", message.body).group(1)

    form = client.get(link, follow=True)
    assert "Choose a new password" in form.content.decode()
    new_password = "gravel-bed-tracking-pad-77"
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": new_password, "new_password2": new_password},
    )
    assert done["Location"] == reverse("web:password-reset-complete")

    signed = Client().post(
        reverse("web:login"), {"username": "applicant-a", "password": new_password}
    )
    assert signed.status_code == 302 and signed["Location"] == reverse("web:home")
    # The link works once.
    assert "This link no longer works" in client.get(link, follow=True).content.decode()


def test_a_reset_for_an_unknown_address_sends_nothing_and_answers_the_same(people):
    response = Client().post(reverse("web:password-reset"), {"email": "nobody@example.org"})
    assert response["Location"] == reverse("web:password-reset-done")
    assert outbox_send().sent == 0
    assert mail.outbox == []


# --- 18. confirmation before what cannot be undone -------------------------------------------


def _decision(spencer: Any, action: str) -> tuple[str, dict[str, str], Any]:
    if action == "close":
        permit = spencer.permit
        return reverse("web:permit-close", args=[permit.pk]), {"cover_percent": "85"}, permit
    application = spencer.application("under_review")
    url = reverse(f"web:staff-{action}", args=[application.pk])
    return url, {"reasons": "The plan has no inlet protection."}, application


def _state(obj: Any) -> str:
    obj.refresh_from_db()
    return obj.status


@pytest.mark.parametrize(
    "action, after",
    [
        ("approve", ApplicationStatus.APPROVED),
        ("disapprove", ApplicationStatus.DISAPPROVED),
        ("close", PermitStatus.CLOSED),
    ],
)
def test_an_irreversible_decision_is_taken_only_once_confirmed(action, after, people, spencer):
    url, form, target = _decision(spencer, action)
    before = _state(target)
    records = AuditEvent.objects.count()
    staff = signed_in(people.staff[SPENCER])

    refused = staff.post(url, form)

    assert _state(target) == before
    assert AuditEvent.objects.count() == records
    (message,) = flash(refused)
    assert message.startswith("Nothing was done: tick “I understand this cannot be undone”")
    if action != "close":
        assert not Permit.objects.filter(application=target).exists()

    staff.post(url, {**form, "confirm": "yes"})

    assert _state(target) == after


def test_the_decision_forms_carry_a_required_confirmation_box(people, spencer):
    staff = signed_in(people.staff[SPENCER])
    review = staff.get(
        reverse("web:staff-application", args=[spencer.application("under_review").pk])
    )
    permit = staff.get(reverse("web:permit", args=[spencer.permit.pk]))
    for page, count in ((review.content.decode(), 2), (permit.content.decode(), 1)):
        boxes = re.findall(r'<input type="checkbox"[^>]*name="confirm"[^>]*>', page)
        assert len(boxes) == count
        assert all("required" in box for box in boxes)
