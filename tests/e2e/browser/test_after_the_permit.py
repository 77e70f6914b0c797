"""After the permit, in a real Chromium: a site's gauge file is imported, the daily sweep
runs, the permittee is reminded by email, logs the inspection on a phone-width screen
with a photo, the duty closes, and staff see it on the dashboard (at 1280 and 390 px)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import expect

from conftest import DESK, PHONE, assert_accessible
from conftest import sign_in as sign_in_with_code
from siltfence.apps.accounts.models import Membership, Role
from siltfence.apps.documents.pdf import lines_to_pdf
from siltfence.apps.duties.models import PermitDuties
from siltfence.apps.permits import services
from siltfence.apps.permits.models import DocumentKind
from siltfence.apps.rain.services import rain_file_import

PASSWORD = "after-the-permit-password-2026"
MARSHFIELD = "USC00475120"
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)


@pytest.fixture
def permit(purgeable_audit):
    villages = {v.id: v for v in services.village_sync()}
    users = get_user_model().objects
    owner = users.create_user("owner", password=PASSWORD, email="owner@example.org")
    staff = users.create_user("clerk", password=PASSWORD, email="clerk@example.org")
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


def sign_in(page, base, username):
    sign_in_with_code(page, base, username, PASSWORD)


def test_rain_sweep_reminder_site_log_on_a_phone_and_the_dashboard(
    live_server, browser, permit, tmp_path
):
    base = live_server.url
    # A rain of 0.80 inch at the site's gauge yesterday, imported as a file.
    yesterday = timezone.localdate() - datetime.timedelta(days=1)
    gauge = tmp_path / "gauge.csv"
    gauge.write_text(
        f"timestamp,rain_in\n{yesterday.isoformat()}T03:00,0.30\n"
        f"{yesterday.isoformat()}T05:00,0.50\n"
    )
    rain_file_import(path=gauge, station=MARSHFIELD)

    # The daily sweep: the rain lands on the permit and the permittee is reminded.
    call_command("siltfence_sweep", "--now")
    [reminder] = [
        m for m in mail.outbox if "owner@example.org" in m.to and "duty reminder" in m.subject
    ]
    assert "inspection after rain is due by" in reminder.body
    assert "§ 413-8E(3)(g)" in reminder.body

    staff = browser.new_context(viewport=DESK).new_page()
    sign_in(staff, base, "clerk")
    staff.goto(f"{base}/staff/dashboard/")
    expect(staff.get_by_test_id("due-soon")).to_contain_text("Inspection after rain")
    # The gauge recorded yesterday alone: the other 29 days are unknown, not dry.
    expect(staff.get_by_test_id("rain-chart")).to_contain_text(
        "0.8 in over the 1 day on record of the 30 to yesterday"
    )
    expect(staff.get_by_test_id("rain-chart")).to_contain_text("unknown, not dry")
    expect(staff.locator("[data-testid=rain-chart] svg")).to_be_visible()
    assert_accessible(staff)

    # The permittee, on a phone, sees the duty and logs the inspection with a photo.
    phone = browser.new_context(viewport=PHONE).new_page()
    sign_in(phone, base, "owner")
    phone.goto(f"{base}/permits/{permit.pk}/")
    duties = phone.get_by_test_id("permittee-duties")
    expect(duties).to_contain_text("Inspect the control measures after rain")
    expect(phone.get_by_test_id("rain-station")).to_contain_text("km away")
    expect(phone.get_by_test_id("standing-conditions")).to_contain_text("§ 413-8E(3)(i)")
    assert_accessible(phone)
    duties.get_by_role("link", name="Record it in the site log").first.click()
    expect(phone.get_by_label("What are you recording?")).to_have_value("self_inspection")
    phone.get_by_label("Person inspecting").fill("Jo Contractor")
    phone.get_by_label("Phase of construction").fill("rough grading")
    phone.get_by_label("What you found").fill("Silt fence sagging at the east corner")
    phone.get_by_label("Repairs made").fill("Restaked the fence")
    photo = tmp_path / "fence.png"
    photo.write_bytes(PNG)
    phone.locator("input[type=file]").set_input_files(str(photo))
    assert_accessible(phone)
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the site log is {width}px wide on a 390px phone"
    phone.get_by_role("button", name="Save in the log").click()
    expect(phone.get_by_test_id("saved")).to_be_visible()
    expect(phone.get_by_test_id("entries")).to_contain_text("Inspected by Jo Contractor")
    expect(phone.get_by_test_id("entries")).to_contain_text("Photo: fence.png")

    # The duty is closed on the permit page, in the stored duties, and on the dashboard.
    phone.goto(f"{base}/permits/{permit.pk}/")
    rain_duty = phone.get_by_test_id("permittee-duties").locator("li[data-kind=rain_inspection]")
    expect(rain_duty).to_contain_text("done: closed by the inspection logged")
    stored = PermitDuties.objects.get(permit=permit)
    [met] = [d for d in stored.duties if d["kind"] == "rain_inspection"]
    assert met["status"] == "met"
    staff.reload()
    expect(staff.get_by_test_id("due-soon")).not_to_contain_text("Inspection after rain")
    phone_staff = browser.new_context(viewport=PHONE).new_page()
    sign_in(phone_staff, base, "clerk")
    phone_staff.goto(f"{base}/staff/dashboard/")
    expect(phone_staff.get_by_test_id("compliance-chart")).to_be_visible()
    width = phone_staff.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the dashboard is {width}px wide on a 390px phone"
    assert_accessible(phone_staff)
