"""The office on notices, letters and receipts, on the village settings page, in a real
Chromium at a phone's width and a desk's, as the clerk of New Glarus (whose data gives no
phone, email or office hours): the page shows what the notices print now, a phone number
that is not one is refused by its name with the other fields kept as typed, and a good one
is saved and shown as what the notices print from now on."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from conftest import DESK, PHONE, assert_accessible, sign_in

PASSWORD = "new-glarus-clerk-2026"
HOURS = "Monday to Friday, 8 am to 4:30 pm"


@pytest.fixture
def clerk(purgeable_audit, live_server):
    from django.contrib.auth import get_user_model

    from siltfence.apps.accounts.models import Membership, Role
    from siltfence.apps.permits.models import Village
    from siltfence.apps.permits.services import village_sync

    village_sync()
    user = get_user_model().objects.create_user("ng-clerk", password=PASSWORD)
    Membership.objects.create(
        user=user, village=Village.objects.get(pk="new-glarus-wi"), role=Role.STAFF
    )
    return user


@pytest.mark.parametrize("size", [PHONE, DESK], ids=["phone", "desk"])
def test_the_clerk_enters_the_office_phone_and_hours(live_server, browser, clerk, size):
    from siltfence.apps.permits.models import Village

    context = browser.new_context(viewport=size)
    page = context.new_page()
    sign_in(page, live_server.url, "ng-clerk", PASSWORD)
    page.goto(f"{live_server.url}/staff/villages/new-glarus-wi/")
    printed = page.get_by_test_id("office-printed")
    expect(printed).to_contain_text("none given: the notices say to write")
    expect(page.locator("main")).to_contain_text("319 2nd Street")

    page.get_by_label("Phone").fill("call the hall")
    page.get_by_label("Office hours").fill(HOURS)
    page.get_by_role("button", name="Save the office's contact").click()
    page.wait_for_load_state()
    expect(page.get_by_role("status")).to_contain_text(
        "The phone number 'call the hall' is not written like 715-555-0100"
    )
    assert Village.objects.get(pk="new-glarus-wi").hours == ""  # nothing written

    page.get_by_label("Phone").fill("608-555-0140")
    page.get_by_label("Office hours").fill(HOURS)
    page.get_by_role("button", name="Save the office's contact").click()
    page.wait_for_load_state()
    expect(page.get_by_role("status")).to_contain_text("print it from now on")
    expect(printed).to_contain_text("608-555-0140")
    expect(printed).to_contain_text(HOURS)
    expect(page.get_by_label("Phone")).to_have_value("608-555-0140")
    width = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert width <= 1, f"the settings page scrolls {width}px sideways"
    assert_accessible(page)
    context.close()
