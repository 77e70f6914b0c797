"""Enforcement and appeals in a real Chromium, at a desk's width and a phone's:

a public complaint, the staff's finding, a stop-work order with its placard, a notice of
intent, village work and its cost, an invoice, the costs unpaid and certified to the tax
roll; then the permittee appeals the order, the board hears and reverses it, and the case
shows the order retracted; the public register shows the order and nothing private. axe
finds nothing broken on the pages visited.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from conftest import assert_accessible, sign_in
from siltfence.apps.accounts.models import BoardSeat, Membership, Role
from siltfence.apps.documents.pdf import lines_to_pdf
from siltfence.apps.enforcement.models import EnforcementAction, Violation
from siltfence.apps.permits import services
from siltfence.apps.permits.models import DocumentKind

PASSWORD = "enforcement-walk-2026"
SPENCER = "spencer-wi"
WIDTHS = [pytest.param((1280, 900), id="desktop"), pytest.param((390, 844), id="phone")]


def _day(days_ago: int) -> str:
    return (timezone.localdate() - datetime.timedelta(days=days_ago)).isoformat()


def _moment(days_ago: int, hour: int = 9) -> str:
    return f"{_day(days_ago)}T{hour:02d}:00"


@pytest.fixture
def world(purgeable_audit):
    villages = {v.id: v for v in services.village_sync()}
    users = get_user_model().objects
    made = {"owner": users.create_user("owner", password=PASSWORD, first_name="Alex")}
    for name, role in [("clerk", Role.STAFF), ("zba", Role.APPEALS_BOARD)]:
        made[name] = users.create_user(name, password=PASSWORD)
        Membership.objects.create(user=made[name], village=villages[SPENCER], role=role)
    # The board decides as a board (decision 47): "zba" chairs it, with four members more.
    Membership.objects.filter(user=made["zba"]).update(board_seat=BoardSeat.CHAIR)
    for letter in "BCDE":
        member = users.create_user(f"zba-{letter}", first_name=letter, last_name="Member")
        Membership.objects.create(user=member, village=villages[SPENCER], role=Role.APPEALS_BOARD)
    filed = timezone.now() - datetime.timedelta(days=90)
    application = services.application_create(
        applicant=made["owner"],
        village=villages[SPENCER],
        address="12 Park St, Spencer",
        facts={"disturbed_area": 9000, "land_use": "residential"},
        on=timezone.localdate(filed),
        parties=[{"role": "landowner", "name": "Alex Schmid"}],
    )
    services.document_upload(
        application=application,
        user=made["owner"],
        kind=DocumentKind.PLAN,
        name="plan.pdf",
        content=lines_to_pdf(["Control plan"], title="plan"),
        claimed_type="application/pdf",
    )
    contents = application.determination["plan"]["contents"]
    services.application_checklist_set(
        application=application, user=made["owner"], items=list(range(len(contents)))
    )
    services.application_submit(application=application, user=made["owner"], at=filed)
    made["permit"] = services.application_approve(
        application=application, staff=made["clerk"], at=filed + datetime.timedelta(days=2)
    )
    return made


def session(browser, size, base, username=None):
    width, height = size
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    if username:
        sign_in(page, base, username, PASSWORD)
    return page


def said(page, text):
    expect(page.locator(".messages")).to_contain_text(text)


@pytest.mark.parametrize("size", WIDTHS)
def test_from_a_complaint_to_the_tax_roll_then_an_appeal_reverses_the_order(
    live_server, browser, world, size
):
    base = live_server.url
    permit = world["permit"]

    # A neighbour reports the site, without signing in.
    public = session(browser, size, base)
    public.goto(f"{base}/report-a-site/")
    assert_accessible(public)
    width = public.evaluate("() => document.documentElement.scrollWidth")
    assert width <= size[0], f"the report form is {width}px wide at {size[0]}px"
    public.get_by_label("Village").select_option(SPENCER)
    # A tap on the map marks the place: the marker is the image the page names (Leaflet
    # would otherwise guess its address from its stylesheet's, which the collected static
    # files' names break), and it loads.
    public.locator("#complaint-map").click()
    marker = public.locator("#complaint-map img.leaflet-marker-icon")
    expect(marker).to_be_visible()
    named = public.locator("script[data-icon]").get_attribute("data-icon")
    assert marker.get_attribute("src") == named
    assert marker.evaluate("img => img.complete && img.naturalWidth > 0")
    expect(public.locator("#id_latitude")).not_to_have_value("")
    public.get_by_label("Where is the site?").fill("12 Park St, Spencer")
    public.get_by_label("What did you see?").fill("Mud washing into the inlet on Park St.")
    public.get_by_label("When did you see it?").fill(_day(45))
    public.get_by_label("Your name (kept private)").fill("Pat Neighbor")
    public.get_by_label("Your phone (kept private)").fill("715-555-0142")
    public.get_by_role("button", name="Send the report").click()
    expect(public.get_by_role("heading", level=1)).to_have_text("Report received")
    assert_accessible(public)
    with public.expect_download() as receipt:
        public.get_by_role("link", name="Download the receipt (PDF)").click()
    assert receipt.value.suggested_filename.startswith("complaint-C-")

    # The Building Inspector finds a violation and posts a stop-work order.
    clerk = session(browser, size, base, "clerk")
    clerk.get_by_role("link", name="Enforcement", exact=True).click()
    expect(clerk.get_by_test_id("complaints")).to_contain_text("Pat Neighbor")
    assert_accessible(clerk)
    clerk.get_by_label("Section broken").fill("§ 413-7B(4)")
    clerk.get_by_label("Permit number (if any)").fill(permit.number)
    clerk.get_by_role("button", name="Save the review").click()
    said(clerk, "Violation found")
    # USWDS draws the box on the label; the person clicks the label.
    clerk.get_by_text(re.compile("^The conditions of the permit are not being met")).click()
    expect(clerk.get_by_label(re.compile("The conditions of the permit"))).to_be_checked()
    clerk.get_by_label("Posted on the site (date and time)").fill(_moment(44))
    clerk.get_by_role("button", name="Post the stop-work order").click()
    said(clerk, "Stop-work order posted")
    expect(clerk.get_by_test_id("order-in-force")).to_be_visible()
    assert_accessible(clerk)
    with clerk.expect_download() as placard:
        clerk.get_by_role("link", name=re.compile(r"^stop-work-placard-")).click()
    assert placard.value.suggested_filename.endswith(".pdf")

    # Too early, then on time: § 413-10E, ten days after the order.
    clerk.locator("#notice-of-intent-at").fill(_moment(35))
    clerk.locator("#notice-of-intent-text").fill("Reinstall the inlet protection.")
    clerk.get_by_role("button", name="Issue a notice of intent").click()
    said(clerk, f"lawful from {_day(34)}")
    clerk.locator("#notice-of-intent-at").fill(_moment(34))
    clerk.locator("#notice-of-intent-text").fill("Reinstall the inlet protection.")
    clerk.get_by_role("button", name="Issue a notice of intent").click()
    said(clerk, "Notice of intent issued")
    # Village work from the 15th day after the notice.
    clerk.locator("#village-work-at").fill(_moment(19))
    clerk.get_by_role("button", name="Begin village work").click()
    said(clerk, "Village work recorded as begun")
    clerk.get_by_label("Kind of cost").select_option("labour")
    clerk.get_by_label("What it was for").fill("Public works crew, 6 hours")
    clerk.locator("#id_amount").fill("450.00")
    clerk.locator("#id_incurred_on").fill(_day(19))
    clerk.get_by_role("button", name="Record the cost").click()
    said(clerk, "Cost recorded")
    clerk.get_by_label("Invoice date (YYYY-MM-DD)").fill(_day(15))
    clerk.get_by_label("Due in (days)").fill("5")
    clerk.get_by_role("button", name="Issue the invoice").click()
    said(clerk, "Invoice issued")
    clerk.get_by_label("Parcel number (for the tax roll)").fill("031-1040")
    clerk.get_by_role("button", name="Save the parcel number").click()
    clerk.get_by_role("button", name="Record the costs as unpaid").click()
    said(clerk, "recorded as unpaid")
    clerk.get_by_role("button", name="Certify to the tax roll").click()
    said(clerk, "Certified to the tax roll")
    expect(clerk.get_by_test_id("record")).to_contain_text("Certified to the tax roll")
    assert_accessible(clerk)

    # The permittee appeals the stop-work order.
    owner = session(browser, size, base, "owner")
    case_url = clerk.url
    owner.goto(case_url)
    owner.get_by_role("link", name=re.compile(r"^Appeal this step\W+stop-work order")).click()
    owner.get_by_label("Who appeals (name of the person or office)").fill("Alex Schmid")
    owner.get_by_label("The appellant is").select_option("permittee")
    owner.get_by_label("Grounds").fill("The inlet was protected; the photo is of the next lot.")
    owner.get_by_role("button", name="File the appeal").click()
    said(owner, "filed")
    assert_accessible(owner)

    # The board hears it and reverses the order.
    board = session(browser, size, base, "zba")
    board.get_by_role("link", name="The appeals docket").click()
    expect(board.get_by_test_id("appeals-docket")).to_contain_text("Alex Schmid")
    assert_accessible(board)
    board.get_by_role("link", name=re.compile(r"^SP-A-")).click()
    # Filed today; heard a few minutes ago (but not before today began: just after
    # midnight, "a few minutes ago" is the day before the filing, which is refused), with
    # notice given the same day.
    now = timezone.localtime()
    heard = max(now - datetime.timedelta(minutes=2), now.replace(hour=0, minute=0, second=0))
    board.get_by_label("Hearing (date and time)").fill(heard.strftime("%Y-%m-%dT%H:%M"))
    board.get_by_label("Place").fill("Village Hall")
    board.get_by_label("Notice given on (YYYY-MM-DD)").fill(timezone.localdate(heard).isoformat())
    board.get_by_label("Notice given to").fill("Alex Schmid; the Building Inspector")
    board.get_by_role("button", name="Set the hearing").click()
    said(board, "Hearing scheduled")
    # The chair records the roll (all five present), then the motion and each vote.
    rows = board.get_by_test_id("roll-row")
    expect(rows).to_have_count(5)
    for index in range(5):
        rows.nth(index).get_by_text("Present", exact=True).click()
    board.get_by_role("button", name="Record the roll").click()
    said(board, "Roll recorded")
    board.locator("#id_kind").select_option("reverse")
    board.get_by_label("Grounds stated in the motion").fill(
        "The photographs show the neighbouring lot."
    )
    votes = board.get_by_test_id("vote-row")
    for index in range(5):
        votes.nth(index).get_by_text("For", exact=True).click()
    board.get_by_role("button", name="Record the motion and the votes").click()
    expect(board.get_by_test_id("appeal-status")).to_have_text("Decided: Reversed")
    assert_accessible(board)

    clerk.goto(case_url)
    expect(clerk.get_by_test_id("record")).to_contain_text("Order retracted")
    expect(clerk.get_by_test_id("record")).to_contain_text("By the Zoning Board of Appeals")
    expect(clerk.get_by_test_id("order-in-force")).to_have_count(0)
    retraction = EnforcementAction.objects.get(kind="retraction")
    assert retraction.details["by"] == "appeals_board"

    # The public register shows the order, retracted, and nothing private.
    public.goto(f"{base}/register/?q=Park")
    register = public.get_by_test_id("register")
    expect(register).to_contain_text(permit.number)
    expect(register).to_contain_text("Stop-work order")
    expect(register).to_contain_text("Order retracted")
    # The map's size comes from a stylesheet the Content-Security-Policy lets through (an
    # inline <style> would be blocked, leaving the map without height).
    sized = public.evaluate(
        """() => [...document.styleSheets].some(sheet => {
            try { return [...sheet.cssRules].some(r => r.selectorText === ".register-map"); }
            catch (e) { return false; } })"""
    )
    assert sized
    body = public.locator("main").inner_text()
    for private in ("Pat Neighbor", "715-555-0142", "Mud washing", "owner"):
        assert private not in body
    assert_accessible(public)
    assert Violation.objects.get().status == "found"
