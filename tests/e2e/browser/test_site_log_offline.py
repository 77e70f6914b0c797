"""The site log form on a phone that loses its connection: the entry is kept on the phone
and sent when the connection is back, once; the form also works with JavaScript off."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from conftest import PHONE
from siltfence.apps.documents.pdf import lines_to_pdf
from siltfence.apps.permits import services
from siltfence.apps.permits.models import DocumentKind
from siltfence.apps.sitelog.models import SiteLogEntry

PASSWORD = "offline-site-log-password-2026"


@pytest.fixture
def permit(purgeable_audit):
    villages = {v.id: v for v in services.village_sync()}
    users = get_user_model().objects
    owner = users.create_user("owner", password=PASSWORD, email="owner@example.org")
    staff = users.create_user("clerk", password=PASSWORD)
    from siltfence.apps.accounts.models import Membership, Role

    Membership.objects.create(user=staff, village=villages["spencer-wi"], role=Role.STAFF)
    now = timezone.now()
    application = services.application_create(
        applicant=owner,
        village=villages["spencer-wi"],
        address="710 Washington St, Spencer",
        facts={"disturbed_area": 9000, "land_use": "residential"},
        on=timezone.localdate() - datetime.timedelta(days=10),
        description="house",
        parties=[{"role": "landowner", "name": "Alex Schmid"}],
    )
    contents = application.determination["plan"]["contents"]
    services.application_checklist_set(
        application=application, user=owner, items=list(range(len(contents)))
    )
    services.document_upload(
        application=application,
        user=owner,
        kind=DocumentKind.PLAN_STATEMENT,
        name="plan.pdf",
        content=lines_to_pdf(["plan"], title="plan"),
        claimed_type="application/pdf",
    )
    services.application_submit(
        application=application, user=owner, at=now - datetime.timedelta(days=10)
    )
    return services.application_approve(
        application=application, staff=staff, at=now - datetime.timedelta(days=8)
    )


def signed_in(browser, base, **options):
    context = browser.new_context(viewport=PHONE, **options)
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill("owner")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    return context, page


def test_an_entry_made_without_a_connection_is_sent_once_the_connection_is_back(
    live_server, browser, permit
):
    context, page = signed_in(browser, live_server.url)
    page.goto(f"{live_server.url}/permits/{permit.pk}/log/")
    page.get_by_label("Person inspecting").fill("Jo Contractor")
    page.get_by_label("Phase of construction").fill("foundation")
    context.set_offline(True)
    page.get_by_role("button", name="Save in the log").click()
    expect(page.locator("[data-offline-status]")).to_contain_text("saved on this phone")
    assert SiteLogEntry.objects.count() == 0
    context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(page.get_by_test_id("saved")).to_be_visible()
    expect(page.get_by_test_id("entries")).to_contain_text("Inspected by Jo Contractor")
    assert SiteLogEntry.objects.count() == 1
    page.reload()
    expect(page.get_by_test_id("entries")).to_contain_text("Inspected by Jo Contractor")
    assert SiteLogEntry.objects.count() == 1
    context.close()


def test_the_site_log_form_works_with_javascript_turned_off(live_server, browser, permit):
    context, page = signed_in(browser, live_server.url, java_script_enabled=False)
    page.goto(f"{live_server.url}/permits/{permit.pk}/log/")
    page.get_by_label("What are you recording?").select_option("work_started")
    page.get_by_role("button", name="Save in the log").click()
    expect(page.get_by_test_id("saved")).to_be_visible()
    assert SiteLogEntry.objects.get().kind == "work_started"
    context.close()
