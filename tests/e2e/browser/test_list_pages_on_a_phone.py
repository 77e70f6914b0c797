"""The long lists a page at a time, in a real Chromium at a desk's width and a phone's:
the review queue, the permits in force, the applicant's own list, the public register,
the inspector's home and the appeals board's.

On a 390 px phone each table stacks (a card per row, nothing scrolls sideways) and the page
links are there, big enough to tap; a screen reader finds them as a named navigation with
the current page marked. axe-core finds nothing on any of them.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from conftest import DESK, PHONE, assert_accessible, sign_in
from siltfence.apps.accounts.models import Membership, Role
from siltfence.apps.documents.pdf import lines_to_pdf
from siltfence.apps.permits import services
from siltfence.apps.permits.models import DocumentKind
from siltfence.apps.web import official_home_views
from siltfence.presentation import paging

PASSWORD = "list-pages-password-2026"
SPENCER = "spencer-wi"
FACTS = {"disturbed_area": 9000, "land_use": "residential"}
SIZES = pytest.mark.parametrize("size", [DESK, PHONE], ids=["desk", "phone"])


@pytest.fixture
def world(purgeable_audit, monkeypatch):
    """Five applications under review, a paused one and two permits in Spencer; two to a
    page, so each list has more than one page."""
    monkeypatch.setattr(paging, "PAGE_SIZE", 2)
    from siltfence.apps.enforcement import register

    monkeypatch.setattr(register, "PAGE_SIZE", 2)
    monkeypatch.setattr(official_home_views, "INSPECTOR_PAGE", 1)
    monkeypatch.setattr(official_home_views, "BOARD_PAGE", 1)
    village = {v.id: v for v in services.village_sync()}[SPENCER]
    users = get_user_model().objects
    owner = users.create_user("owner", password=PASSWORD, first_name="Alex")
    clerk = users.create_user("clerk", password=PASSWORD)
    Membership.objects.create(user=clerk, village=village, role=Role.STAFF)
    for name, role in (("inspector", Role.INSPECTOR), ("board", Role.APPEALS_BOARD)):
        official = users.create_user(name, password=PASSWORD)
        Membership.objects.create(user=official, village=village, role=role)
    for i in range(8):
        filed = timezone.now() - datetime.timedelta(days=60 - 7 * i)
        application = services.application_create(
            applicant=owner,
            village=village,
            address=f"{i + 1} Long Street With A Long Name, Spencer",
            facts=FACTS,
            on=timezone.localdate(filed),
            parties=[{"role": "landowner", "name": "Alex Schmid"}],
        )
        services.document_upload(
            application=application,
            user=owner,
            kind=DocumentKind.PLAN,
            name="plan.pdf",
            content=lines_to_pdf(["Control plan"], title="plan"),
            claimed_type="application/pdf",
        )
        contents = application.determination["plan"]["contents"]
        services.application_checklist_set(
            application=application, user=owner, items=list(range(len(contents)))
        )
        services.application_submit(application=application, user=owner, at=filed)
        step = filed + datetime.timedelta(days=1)
        if i in (1, 4):
            services.application_approve(application=application, staff=clerk, at=step)
        elif i == 6:
            services.application_information_request(
                application=application, staff=clerk, message="Stockpiles?", at=step
            )
    return {"owner": owner, "clerk": clerk}


def opened(browser, size, base, username=None):
    page = browser.new_context(viewport=size).new_page()
    if username:
        sign_in(page, base, username, PASSWORD)
    return page


def fits_and_stacks(page, size) -> None:
    """Nothing wider than the window; on a phone each row is a card (cells one under
    another), at a desk a table row."""
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= size["width"], f"{page.url} is {width}px wide in a {size['width']}px window"
    display = page.evaluate(
        "() => getComputedStyle(document.querySelector('table.usa-table--stacked td')).display"
    )
    assert display == ("block" if size is PHONE else "table-cell"), page.url


def pages_work(page, name: str) -> None:
    """The page links are a navigation a screen reader announces by name, with this page
    marked; page 2 is there to tap (at least 24 px square: WCAG 2.2, 2.5.8) and opens."""
    nav = page.get_by_role("navigation", name=f"Pages of {name}")
    expect(nav).to_be_visible()
    expect(nav.locator('[aria-current="page"]')).to_have_text("1")
    second = nav.get_by_role("link", name="Page 2", exact=True)
    expect(second).to_be_visible()
    box = second.bounding_box()
    assert box is not None and box["width"] >= 24 and box["height"] >= 24
    second.click()
    page.wait_for_load_state()
    assert re.search(r"[?&]page=2", page.url)
    expect(nav.locator('[aria-current="page"]')).to_have_text("2")


@SIZES
def test_the_review_queue_pages_and_stacks(live_server, browser, world, size):
    page = opened(browser, size, live_server.url, "clerk")
    page.goto(f"{live_server.url}/staff/")
    rows = page.get_by_test_id("queue").locator("tbody tr")
    expect(rows).to_have_count(2)
    # Filed 60 days ago, 45 days to decide (§ 413-8D): overdue, and first.
    expect(rows.first).to_contain_text("OVERDUE")
    fits_and_stacks(page, size)
    assert_accessible(page)
    pages_work(page, "the review queue")
    fits_and_stacks(page, size)


@SIZES
def test_the_permits_list_and_the_applicant_s_list_page_and_stack(
    live_server, browser, world, size
):
    page = opened(browser, size, live_server.url, "clerk")
    page.goto(f"{live_server.url}/staff/permits/")
    expect(page.get_by_role("heading", name="Permits not closed")).to_be_visible()
    fits_and_stacks(page, size)
    assert_accessible(page)
    expect(page.get_by_role("navigation", name="Pages of the permits not closed")).to_have_count(0)

    mine = opened(browser, size, live_server.url, "owner")
    mine.goto(f"{live_server.url}/portal/")
    fits_and_stacks(mine, size)
    assert_accessible(mine)
    pages_work(mine, "your applications")
    fits_and_stacks(mine, size)
    assert_accessible(mine)


@SIZES
def test_the_public_register_pages_and_stacks(live_server, browser, world, size):
    page = opened(browser, size, live_server.url)
    for asked in ("abc", "999999", "-1"):
        page.goto(f"{live_server.url}/register/?page={asked}")
        expect(page.get_by_test_id("register").locator("tbody tr")).to_have_count(2)
        fits_and_stacks(page, size)
    # The register is policy, not a provision of the chapters, and says what it never shows.
    expect(page.get_by_test_id("register-policy")).to_contain_text("public records law")
    expect(page.get_by_test_id("register-policy")).to_contain_text("never a person's name")
    assert_accessible(page)


@SIZES
def test_the_inspector_s_and_the_board_s_homes_page_and_stack(live_server, browser, world, size):
    inspector = opened(browser, size, live_server.url, "inspector")
    inspector.goto(f"{live_server.url}/inspections/")
    rows = inspector.get_by_test_id("inspector-permits").locator("tbody tr")
    expect(rows).to_have_count(1)
    # Every permit in force is owed the village's own inspections (§ 413-9).
    expect(rows.first).to_contain_text("Village inspection")
    fits_and_stacks(inspector, size)
    assert_accessible(inspector)
    pages_work(inspector, "the permits in force")
    fits_and_stacks(inspector, size)

    board = opened(browser, size, live_server.url, "board")
    board.goto(f"{live_server.url}/appeals/")
    expect(board.get_by_test_id("board-decisions").locator("tbody tr")).to_have_count(1)
    fits_and_stacks(board, size)
    assert_accessible(board)
    pages_work(board, "the decisions")


@SIZES
def test_the_permit_page_shows_the_lists_a_permit_has_and_says_when_it_has_none(
    live_server, browser, world, size
):
    """A permit with an extension, a surety and an enforcement case shows each; one with
    none says no violation is recorded and shows no empty list; both fit the window."""
    from decimal import Decimal

    from siltfence.apps.enforcement import services as enforcement
    from siltfence.apps.permits.models import Permit

    busy, bare = Permit.objects.filter(village_id=SPENCER).order_by("pk")
    clerk, today = world["clerk"], timezone.localdate()
    services.permit_extend(permit=busy, staff=clerk, days=30, on=today)
    services.surety_record(
        permit=busy,
        staff=clerk,
        kind="surety_bond",
        amount=Decimal("5000"),
        issuer="Badger Surety",
        reference="B-7",
        received_on=today,
    )
    enforcement.violation_record(
        village=busy.village,
        recorded_by=clerk,
        source="observation",
        description="Silt fence down along the east lot line.",
        provision="§ 413-7B(5)(c)",
        days_from=today - datetime.timedelta(days=1),
        at=timezone.now() - datetime.timedelta(hours=3),
        permit=busy,
    )
    for who in ("clerk", "owner"):
        page = opened(browser, size, live_server.url, who)
        page.goto(f"{live_server.url}/permits/{busy.pk}/")
        expect(page.get_by_role("heading", name="Extensions", exact=True)).to_be_visible()
        expect(page.get_by_role("heading", name=re.compile(r"^Surety §"))).to_be_visible()
        expect(page.get_by_text("Surety bond of $5000.00")).to_be_visible()
        expect(page.get_by_test_id("permit-enforcement")).to_contain_text("Enforcement case")
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= size["width"], f"the permit page is {width}px wide"
        assert_accessible(page)
        page.goto(f"{live_server.url}/permits/{bare.pk}/")
        expect(page.get_by_text("No violation has been recorded on this permit.")).to_be_visible()
        expect(page.get_by_role("heading", name="Extensions", exact=True)).to_have_count(0)
        expect(page.get_by_role("heading", name=re.compile(r"^Surety §"))).to_have_count(0)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= size["width"], f"the permit page is {width}px wide"
        assert_accessible(page)


@SIZES
def test_the_rain_import_page_fits_and_its_record_stacks(live_server, browser, world, size):
    from siltfence.apps.duties.stations import stations_sync
    from siltfence.apps.rain.days import rain_days_record

    stations_sync()
    rain_days_record(station_id="USC00475120", days={datetime.date(2026, 7, 8): 150}, source="test")
    page = opened(browser, size, live_server.url, "clerk")
    page.goto(f"{live_server.url}/rain/import/")
    expect(page.get_by_role("heading", name="The record so far")).to_be_visible()
    fits_and_stacks(page, size)
    assert_accessible(page)
