"""The people a change concerns are told by email, in the change's transaction: the
applicant of each decision, the staff of each filing, the permittee and the landowner of
each enforcement step, the person who reported a site of what came of it. A notice the
chapter requires in writing cannot be turned off; the others can."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from enforcement_helpers import at
from factories import SPENCER, make_application
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from siltfence.apps.enforcement import services as enforcement
from siltfence.apps.notices import services as notices
from siltfence.apps.notices.services import GROUPS, notice_preference_set
from siltfence.apps.outbox.models import Message, NoticePreference
from siltfence.apps.permits import services as permits
from siltfence.apps.permits.models import Application, Party, Permit, Village

pytestmark = pytest.mark.django_db


def _to(address: str, kind: str) -> list[Message]:
    return list(Message.objects.filter(to_address=address, kind=kind))


@pytest.fixture
def site_url(settings: Any) -> str:
    settings.SILTFENCE_URL = "https://permits.example.org/"
    return "https://permits.example.org"


def test_staff_are_told_of_a_filing_and_the_applicant_of_the_approval(people, site_url):
    application = make_application(
        applicant=people.applicant_a, village=SPENCER, state="approved", staff=people.staff[SPENCER]
    )
    staff = people.staff[SPENCER]
    (filed,) = _to(staff.email, "application_submit")
    assert filed.subject == f"New application {application.number}"
    assert f"{site_url}/staff/applications/{application.pk}/" in filed.body
    assert filed.village_id == SPENCER
    # The New Glarus staff, the inspector and the board are not told.
    assert not Message.objects.filter(
        to_address__in=[
            people.staff["new-glarus-wi"].email,
            people.inspector[SPENCER].email,
            people.board[SPENCER].email,
        ]
    ).exists()
    (approved,) = _to(people.applicant_a.email, "application_approve")
    assert approved.subject == f"Application {application.number} approved"
    assert f"{site_url}/portal/applications/{application.pk}/" in approved.body
    # The staff member who approved it is not told of their own decision.
    assert not _to(staff.email, "application_approve")
    assert approved.permit_id == Permit.objects.get(application=application).pk


def test_an_information_request_tells_the_applicant_what_and_that_the_clock_is_paused(people):
    application = make_application(
        applicant=people.applicant_a,
        village=SPENCER,
        state="information_requested",
        staff=people.staff[SPENCER],
    )
    (asked,) = _to(people.applicant_a.email, "application_information_request")
    assert "Show the stockpile locations." in asked.body  # the request's own words
    assert "The review clock is paused until you answer." in asked.body
    assert "Section: § 413-8D" in asked.body
    permits.application_information_provide(
        application=application,
        user=people.applicant_a,
        response="Stockpiles on the west line.",
        at=datetime.datetime.now(datetime.UTC),
    )
    (answered,) = _to(people.staff[SPENCER].email, "application_information_provide")
    assert "Stockpiles on the west line." in answered.body


def test_a_disapproval_is_required_in_writing_and_is_sent_whatever_was_chosen(people):
    notice_preference_set(user=people.applicant_a, receive=[])
    make_application(
        applicant=people.applicant_a,
        village=SPENCER,
        state="disapproved",
        staff=people.staff[SPENCER],
    )
    (letter,) = _to(people.applicant_a.email, "application_disapprove")
    assert "No inlet protection for the street inlets." in letter.body
    assert "Choose which emails" not in letter.body  # not one the person can turn off


def test_a_person_who_turned_off_application_emails_is_not_told_of_an_approval(people):
    notice_preference_set(user=people.applicant_a, receive=["appeals"])
    assert NoticePreference.objects.get(user=people.applicant_a).off == [
        "applications",
        "office",
    ]
    make_application(
        applicant=people.applicant_a, village=SPENCER, state="approved", staff=people.staff[SPENCER]
    )
    assert not _to(people.applicant_a.email, "application_approve")
    # Others' choices are their own: the staff are still told of the filing.
    assert _to(people.staff[SPENCER].email, "application_submit")


def test_a_stop_work_order_tells_the_permittee_and_the_landowner_not_the_officer(people):
    application = make_application(
        applicant=people.applicant_a, village=SPENCER, state="approved", staff=people.staff[SPENCER]
    )
    Party.objects.create(
        application=application, role="responsible_party", name="Ann Ott", email="ann@example.org"
    )
    permit = Permit.objects.get(application=application)
    staff = people.staff[SPENCER]
    now = timezone.now()
    violation = enforcement.violation_record(
        village=Village.objects.get(pk=SPENCER),
        recorded_by=staff,
        source="observation",
        description="No silt fence on the downslope side.",
        provision="§ 413-7B(5)(c)[3]",
        days_from=timezone.localdate(now - datetime.timedelta(hours=2)),
        at=now - datetime.timedelta(hours=2),
        permit=permit,
    )
    enforcement.stop_work_order_post(
        case=violation.case,
        staff=staff,
        at=now - datetime.timedelta(hours=1),
        grounds=["conditions-not-met"],
    )
    for address in (people.applicant_a.email, "ann@example.org"):
        (order,) = _to(address, "stop_work_order_post")
        assert order.subject == "Stop-work order at 220 S Pacific St"
        assert "Stop the work the order names until the village lifts it" in order.body
        assert "§ 413-10A" in order.body
        assert order.case_id == violation.case_id
    assert not _to(staff.email, "stop_work_order_post")
    # The case's page lists the emails for its village's staff, not for the permittee.
    path = reverse("enforcement:case", args=[violation.case_id])
    office = Client()
    office.force_login(staff, backend="django.contrib.auth.backends.ModelBackend")
    page = office.get(path).content.decode()
    assert "Emails about this case" in page
    for address in (people.applicant_a.email, "ann@example.org"):
        assert f"to {address} · Stop-work order at 220 S Pacific St · waiting to be sent" in page
    permittee = Client()
    permittee.force_login(people.applicant_a, backend="django.contrib.auth.backends.ModelBackend")
    assert "Emails about this case" not in permittee.get(path).content.decode()


def test_the_person_who_reported_a_site_hears_it_was_received_and_what_came_of_it(people):
    village = Village.objects.get(pk=SPENCER)
    report = enforcement.complaint_file(
        village=village,
        description="Mud on the street below the new houses.",
        at=at("2026-07-01", 9),
        address="12 Oak St, Spencer",
        name="Pat Neighbour",
        email="pat@example.org",
    )
    (received,) = _to("pat@example.org", "complaint_file")
    assert received.subject == "Your report about 12 Oak St, Spencer was received"
    enforcement.violation_review(
        violation=report,
        staff=people.staff[SPENCER],
        found=False,
        note="Street swept by the contractor before the visit.",
        at=at("2026-07-02", 9),
    )
    (outcome,) = _to("pat@example.org", "complaint_dismiss")
    assert "found no violation" in outcome.body
    # Staff's own note is not sent to the public.
    assert "swept by the contractor" not in outcome.body


def test_a_notice_that_fails_never_stops_the_change_it_tells_of(people, monkeypatch):
    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("no such page")

    monkeypatch.setattr(notices, "_subject", broken)
    application = make_application(
        applicant=people.applicant_a, village=SPENCER, state="approved", staff=people.staff[SPENCER]
    )
    assert Application.objects.get(pk=application.pk).status == "approved"
    assert Message.objects.count() == 0


def test_the_choices_are_made_on_the_reminders_page(people):
    client = Client()
    client.force_login(people.applicant_a)
    page = client.get(reverse("reminders:settings")).content.decode()
    assert 'name="notices" value="applications" checked' in page
    answer = client.post(reverse("notices:choose"), {"notices": ["appeals"]})
    assert answer.status_code == 302
    assert NoticePreference.objects.get(user=people.applicant_a).off == [
        "applications",
        "office",
    ]
    page = client.get(reverse("reminders:settings")).content.decode()
    assert 'name="notices" value="applications" checked' not in page
    assert 'name="notices" value="appeals" checked' in page
    refused = client.post(reverse("notices:choose"), {"notices": ["everything"]}, follow=True)
    assert "is not a kind of email" in refused.content.decode()
    assert NoticePreference.objects.get(user=people.applicant_a).off == [
        "applications",
        "office",
    ]


@settings(
    max_examples=40,
    deadline=2000,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(chosen=st.lists(st.sampled_from(sorted(GROUPS)) | st.text(max_size=60), max_size=12))
def test_any_choice_posted_is_kept_as_sent_or_refused_naming_the_field(people, chosen):
    client = Client()
    client.force_login(people.applicant_a)
    NoticePreference.objects.all().delete()
    answer = client.post(reverse("notices:choose"), {"notices": chosen})
    assert answer.status_code == 302
    stored = NoticePreference.objects.filter(user=people.applicant_a).first()
    read = chosen[:10]  # the form reads at most ten ticks
    if set(read) <= set(GROUPS):
        # Accepted: exactly the groups not ticked are off.
        assert stored is not None and stored.off == sorted(set(GROUPS) - set(read))
    else:
        assert stored is None  # refused: nothing written


@settings(
    max_examples=30, deadline=2000, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(status=st.text(max_size=200))
def test_any_status_asked_of_the_emails_page_is_answered(people, status):
    client = Client()
    client.force_login(people.staff[SPENCER])
    assert client.get(reverse("outbox:messages"), {"status": status}).status_code == 200
