"""The whole permit flow in a real Chromium: the applicant applies from the permit check,
staff ask for information, the applicant answers, staff approve, the permit PDF downloads."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from conftest import DESK, PHONE, assert_accessible
from conftest import sign_in as sign_in_with_code
from siltfence.apps.accounts.models import Membership, Role
from siltfence.apps.documents.pdf import lines_to_pdf
from siltfence.apps.permits import services

PASSWORD = "walk-through-password-2026"


@pytest.fixture
def people(purgeable_audit):
    villages = {v.id: v for v in services.village_sync()}
    user_model = get_user_model()
    owner = user_model.objects.create_user("owner", password=PASSWORD, first_name="Alex")
    inspector = user_model.objects.create_user("inspector", password=PASSWORD)
    Membership.objects.create(user=inspector, village=villages["spencer-wi"], role=Role.STAFF)
    return {"owner": owner, "inspector": inspector}


def sign_in(page, base, username):
    sign_in_with_code(page, base, username, PASSWORD)


def test_apply_request_information_answer_approve_and_download_the_permit(
    live_server, browser, people, tmp_path
):
    base = live_server.url
    applicant = browser.new_context(viewport=PHONE).new_page()
    staff = browser.new_context(viewport=DESK).new_page()

    # The applicant checks the facts and applies from the answer, without retyping.
    sign_in(applicant, base, "owner")
    applicant.goto(f"{base}/?jurisdiction=spencer-wi")
    applicant.get_by_label("Disturbed area", exact=True).fill("6000")
    expect(applicant.get_by_test_id("verdict")).to_contain_text("Yes, a permit is required")
    assert_accessible(applicant)
    applicant.get_by_role("button", name="Apply for this permit").click()
    expect(applicant.get_by_test_id("due-if-filed")).to_contain_text("§ 413-8D")
    expect(applicant.get_by_test_id("steps")).to_contain_text("Step 2 of 4")
    assert_accessible(applicant)
    applicant.get_by_label("Site address").fill("220 S Pacific St")
    applicant.get_by_label("Landowner (holder of fee title)").fill("Alex Schmid")
    applicant.get_by_role("button", name="Start the application").click()
    expect(applicant.get_by_test_id("status")).to_have_text("Draft")
    expect(applicant.get_by_test_id("steps")).to_contain_text("Step 3 of 4")
    assert_accessible(applicant)

    # Tick the plan statement's contents (§ 413-8C), upload the plan, file.
    for box in applicant.locator("input[name=items]").all():
        box.check()
    applicant.get_by_role("button", name="Save checklist").click()
    applicant.wait_for_load_state()
    expect(applicant.locator("input[name=items]").last).to_be_checked()
    plan = tmp_path / "plan.pdf"
    plan.write_bytes(lines_to_pdf(["Control plan statement"], title="plan"))
    applicant.get_by_label("Kind").select_option("plan_statement")
    applicant.get_by_label("File").set_input_files(str(plan))
    applicant.get_by_role("button", name="Upload").click()
    expect(applicant.locator("body")).to_contain_text("plan.pdf uploaded.")
    applicant.get_by_role("button", name="File the application").click()
    expect(applicant.get_by_test_id("status")).to_have_text("Under review")
    expect(applicant.get_by_test_id("clock")).to_contain_text("§ 413-8D")
    assert_accessible(applicant)

    # Staff find it in the queue and ask for information in writing.
    sign_in(staff, base, "inspector")
    expect(staff.get_by_test_id("queue")).to_contain_text("220 S Pacific St")
    assert_accessible(staff)
    staff.get_by_role("link", name=re.compile(r"^SP-\d{4}-")).first.click()
    staff.get_by_label("Information needed").fill("Show where the stockpiles go.")
    staff.get_by_role("button", name="Request information in writing").click()
    expect(staff.get_by_test_id("status")).to_have_text("Information requested")
    assert_accessible(staff)

    # The applicant answers; the shorter clock starts.
    applicant.reload()
    expect(applicant.locator("body")).to_contain_text("Show where the stockpiles go.")
    applicant.get_by_label("Your answer").fill(
        "Stockpiles go on the west side, 40 ft from the street."
    )
    applicant.get_by_role("button", name="Send the information").click()
    expect(applicant.get_by_test_id("clock")).to_contain_text("Re-review")

    # Staff approve (confirming it, as it cannot be undone), and the permit PDF downloads.
    staff.reload()
    staff.on("dialog", lambda dialog: dialog.accept())
    staff.get_by_label("I understand this cannot be undone", exact=False).first.check()
    staff.get_by_role("button", name="Approve and issue the permit").click()
    expect(staff.get_by_test_id("status")).to_have_text("Approved")
    assert_accessible(staff)
    staff.get_by_role("link", name=re.compile(r"^SP-P-\d{4}-")).first.click()
    expect(staff.get_by_test_id("expiry")).to_be_visible()
    assert_accessible(staff)
    with staff.expect_download() as download:
        staff.get_by_test_id("letters").get_by_role("link", name="Permit", exact=True).click()
    saved = tmp_path / "permit.pdf"
    download.value.save_as(saved)
    assert saved.read_bytes().startswith(b"%PDF-")
