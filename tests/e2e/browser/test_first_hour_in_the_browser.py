"""A new user's first hour in a real Chromium, at a desktop's width and a phone's:

- the applicant ticks the checklist and files at once, without "Save checklist";
- staff must confirm approve, disapprove and close, which cannot be undone;
- inspectors and appeals board members land on their own work and never on a refusal.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from conftest import assert_accessible, sign_in
from siltfence.apps.accounts.models import Membership, Role
from siltfence.apps.documents.pdf import lines_to_pdf
from siltfence.apps.permits import services
from siltfence.apps.permits.models import DocumentKind

PASSWORD = "first-hour-password-2026"
SPENCER = "spencer-wi"
FACTS = {"disturbed_area": 9000, "land_use": "residential"}
WIDTHS = [pytest.param((1280, 800), id="desktop"), pytest.param((390, 844), id="phone")]


@pytest.fixture
def world(purgeable_audit):
    villages = {v.id: v for v in services.village_sync()}
    users = get_user_model().objects
    made = {"owner": users.create_user("owner", password=PASSWORD, first_name="Alex")}
    for name, role in [
        ("clerk", Role.STAFF),
        ("walker", Role.INSPECTOR),
        ("zba", Role.APPEALS_BOARD),
    ]:
        made[name] = users.create_user(name, password=PASSWORD)
        Membership.objects.create(user=made[name], village=villages[SPENCER], role=role)
    made["village"] = villages[SPENCER]
    return made


def draft(world, address: str, *, ticked: bool = False):
    """A draft with its plan uploaded; the checklist ticked only if asked."""
    application = services.application_create(
        applicant=world["owner"],
        village=world["village"],
        address=address,
        facts=FACTS,
        on=timezone.localdate(),
        parties=[{"role": "landowner", "name": "Alex Schmid"}],
    )
    services.document_upload(
        application=application,
        user=world["owner"],
        kind=DocumentKind.PLAN,
        name="plan.pdf",
        content=lines_to_pdf(["Control plan", address], title="plan"),
        claimed_type="application/pdf",
    )
    if ticked:
        contents = application.determination["plan"]["contents"]
        services.application_checklist_set(
            application=application, user=world["owner"], items=list(range(len(contents)))
        )
    return application


def filed(world, address: str):
    application = draft(world, address, ticked=True)
    services.application_submit(application=application, user=world["owner"], at=timezone.now())
    return application


def session(browser, size, base, username):
    width, height = size
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    sign_in(page, base, username, PASSWORD)
    return page


@pytest.mark.parametrize("size", WIDTHS)
def test_the_applicant_ticks_the_checklist_and_files_without_saving_it_first(
    live_server, browser, world, size
):
    application = draft(world, "220 S Pacific St")
    page = session(browser, size, live_server.url, "owner")
    page.goto(f"{live_server.url}/portal/applications/{application.pk}/")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= size[0], f"the application page is {width}px wide at {size[0]}px"
    assert_accessible(page)

    boxes = page.locator("input[name=items]")
    ticked = boxes.count()
    assert ticked > 0
    missing = page.locator("#still-missing")
    for box in boxes.all():
        box.check()
    # Each tick is saved as it is made, and "Still missing" follows (htmx).
    expect(missing).not_to_contain_text("Still missing")
    page.get_by_role("button", name="File the application").click()

    expect(page.get_by_test_id("status")).to_have_text("Under review")
    expect(page.get_by_test_id("clock")).to_contain_text("clock running")
    application.refresh_from_db()
    assert application.checklist == list(range(ticked))


@pytest.mark.parametrize("size", WIDTHS)
def test_approve_disapprove_and_close_happen_only_once_confirmed(live_server, browser, world, size):
    base = live_server.url
    to_approve = filed(world, "100 N Park St")
    to_disapprove = filed(world, "102 N Park St")
    page = session(browser, size, base, "clerk")
    answers = []  # what the person answers to the browser's "are you sure?" dialog

    def on_dialog(dialog):
        answers.append(dialog.message)
        dialog.accept() if len(answers) % 2 == 0 else dialog.dismiss()

    page.on("dialog", on_dialog)

    # Approve: the form will not go without the "I understand" box ...
    page.goto(f"{base}/staff/applications/{to_approve.pk}/")
    approve = page.get_by_role("button", name="Approve and issue the permit")
    approve.click()
    expect(page.get_by_test_id("status")).to_have_text("Under review")
    assert answers == []
    # ... and once ticked, a second look: "no" leaves it as it is, "yes" approves.
    page.get_by_label("I understand this cannot be undone", exact=False).first.check()
    approve.click()
    expect(page.get_by_test_id("status")).to_have_text("Under review")
    approve.click()
    expect(page.get_by_test_id("status")).to_have_text("Approved")
    assert len(answers) == 2 and "cannot be undone" in answers[0]

    # Disapprove, with its reasons.
    page.goto(f"{base}/staff/applications/{to_disapprove.pk}/")
    page.get_by_label("Reasons for disapproval").fill("No inlet protection on the street inlets.")
    page.get_by_role("button", name="Disapprove").click()
    expect(page.get_by_test_id("status")).to_have_text("Under review")
    page.get_by_label(re.compile("I understand this cannot be undone: the letter")).check()
    page.get_by_role("button", name="Disapprove").click()  # dismissed
    expect(page.get_by_test_id("status")).to_have_text("Under review")
    page.get_by_role("button", name="Disapprove").click()  # accepted
    expect(page.get_by_test_id("status")).to_have_text("Disapproved")

    # Close the permit at final stabilization.
    page.goto(f"{base}/staff/applications/{to_approve.pk}/")
    page.get_by_role("link", name=re.compile(r"^SP-P-\d{4}-")).first.click()
    page.get_by_label(re.compile("perennial cover", re.I)).first.fill("85")
    close = page.get_by_role("button", name="Close the permit")
    close.click()
    expect(page.locator("body")).not_to_contain_text("Closed at final stabilization")
    page.get_by_label(
        "I understand this cannot be undone: a closed permit cannot be reopened."
    ).check()
    close.click()  # dismissed
    expect(close).to_be_visible()
    close.click()  # accepted
    expect(page.locator("body")).to_contain_text("Closed at final stabilization")


@pytest.mark.parametrize("size", WIDTHS)
def test_inspectors_and_the_appeals_board_land_on_their_work_and_every_back_link_works(
    live_server, browser, world, size
):
    base = live_server.url
    approved = filed(world, "150 Legion St")
    services.application_approve(application=approved, staff=world["clerk"], at=timezone.now())
    disapproved = filed(world, "412 W Clark St")
    services.application_disapprove(
        application=disapproved,
        staff=world["clerk"],
        reasons="No stockpile setbacks shown.",
        at=timezone.now(),
    )
    under_review = filed(world, "300 E Clark St")

    inspector = session(browser, size, base, "walker")
    expect(inspector.get_by_role("heading", level=1)).to_have_text("Inspections")
    expect(inspector.get_by_test_id("inspector-permits")).to_contain_text("150 Legion St")
    inspector.get_by_role("link", name=under_review.number).click()
    expect(inspector.get_by_test_id("status")).to_have_text("Under review")
    inspector.get_by_role("link", name="← Inspections").click()
    expect(inspector.get_by_role("heading", level=1)).to_have_text("Inspections")
    inspector.get_by_role("link", name=re.compile(r"^SP-P-\d{4}-")).first.click()
    inspector.get_by_role("link", name="← Inspections").click()
    expect(inspector.get_by_role("heading", level=1)).to_have_text("Inspections")

    board = session(browser, size, base, "zba")
    expect(board.get_by_role("heading", level=1)).to_have_text("Appeals board")
    expect(board.get_by_test_id("docket")).to_contain_text("No appeals are on the docket")
    expect(board.get_by_test_id("board-decisions")).to_contain_text(disapproved.number)
    board.get_by_role("link", name=disapproved.number).click()
    expect(board.get_by_test_id("status")).to_have_text("Disapproved")
    board.get_by_role("link", name="← Appeals board").click()
    expect(board.get_by_role("heading", level=1)).to_have_text("Appeals board")
