"""Importing rain as a clerk does, in a real Chromium at a desk's width and a phone's: a
file of four stations is uploaded, the stations are offered with their days and places,
the clerk unticks one and imports the rest, comes back to the choice from the import's
page, then adds the village's own gauge and enters a day's rain by hand, which shows on
the permit whose site now reads the gauge.

At 390 px and 1280 px nothing scrolls sideways, and axe-core finds nothing on any page.
"""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from conftest import DESK, PHONE, assert_accessible, sign_in
from siltfence.apps.accounts.models import Membership, Role
from siltfence.apps.documents.pdf import lines_to_pdf
from siltfence.apps.permits import services
from siltfence.apps.permits.models import DocumentKind
from siltfence.apps.rain.models import RainDay, RainImportJob

PASSWORD = "rain-import-stations-2026"
FIXTURES = Path(__file__).resolve().parents[2] / "unit" / "rain" / "fixtures"
BY_YEAR = FIXTURES / "2024-by_year-sample.csv"
SIZES = pytest.mark.parametrize("size", [DESK, PHONE], ids=["desk", "phone"])


@pytest.fixture
def permit(purgeable_audit):
    """A Spencer permit issued eight days ago; its site (no drawing: the village's centre)
    reads no station yet."""
    villages = {v.id: v for v in services.village_sync()}
    users = get_user_model().objects
    owner = users.create_user("owner", password=PASSWORD, email="owner@example.org")
    clerk = users.create_user("clerk", password=PASSWORD, email="clerk@example.org")
    Membership.objects.create(user=clerk, village=villages["spencer-wi"], role=Role.STAFF)
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
        application=application, staff=clerk, at=now - datetime.timedelta(days=8)
    )


def fits(page, size) -> None:
    """Nothing wider than the window, and axe-core finds nothing."""
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= size["width"], f"{page.url} is {width}px wide in a {size['width']}px window"
    assert_accessible(page)


@SIZES
def test_a_clerk_chooses_the_stations_of_a_file_and_enters_the_village_gauge(
    live_server, browser, permit, size
):
    base = live_server.url
    page = browser.new_context(viewport=size).new_page()
    sign_in(page, base, "clerk", PASSWORD)

    # Upload a file of four stations: the next page offers them, every one ticked.
    page.goto(f"{base}/rain/import/")
    fits(page, size)
    page.locator("input[type=file]").set_input_files(str(BY_YEAR))
    page.get_by_role("button", name="Import").click()
    page.wait_for_load_state()
    expect(page.get_by_role("heading", level=1)).to_have_text("Choose the stations to import")
    boxes = page.locator("input[name=stations]")
    expect(boxes).to_have_count(4)
    for index in range(4):
        expect(boxes.nth(index)).to_be_checked()
    expect(page.get_by_test_id("station-USW00014839")).to_have_text(
        "5 days with a record, from June 1, 2024 to June 5, 2024. Stands at 42.9550° N, 87.9044° W."
    )
    expect(page.get_by_test_id("station-ASN00001019")).to_contain_text(
        "Where it stands is not known"
    )
    expect(page.get_by_text("What happens next")).to_be_visible()
    fits(page, size)

    # Untick the station in Australia; import the three in Wisconsin.
    page.locator("label[for=station-1]").click()
    expect(boxes.nth(0)).not_to_be_checked()
    page.get_by_role("button", name="Import the ticked stations").click()
    page.wait_for_load_state()
    status = page.get_by_test_id("job-status")
    expect(status).to_have_attribute("data-status", "done")
    expect(status).to_contain_text("15 day(s) of USC00475573 (5 days), USW00014837 (5 days)")
    expect(page.get_by_test_id("served")).to_contain_text("No permit in force in your village")
    fits(page, size)
    assert RainDay.objects.count() == 15
    assert RainImportJob.objects.get().imported == ["USC00475573", "USW00014837", "USW00014839"]

    # The choice is not a dead end: the import's page leads back to it, and it leads back.
    page.get_by_role("link", name="Import other stations of this file").click()
    page.wait_for_load_state()
    expect(boxes.nth(0)).not_to_be_checked()
    expect(boxes.nth(3)).to_be_checked()
    page.get_by_role("link", name="Back to importing rain").click()
    page.wait_for_load_state()

    # The village's own gauge: a place outside Wisconsin is refused under its field.
    page.get_by_role("link", name="add it, or enter its days by hand").click()
    page.wait_for_load_state()
    page.get_by_label("Name of the gauge").fill("Public works yard")
    page.get_by_label("Latitude").fill("50.1")
    page.get_by_label("Longitude").fill("-90.2966")
    page.get_by_role("button", name="Add the gauge").click()
    page.wait_for_load_state()
    expect(page.get_by_test_id("error-latitude")).to_contain_text("from 42.49 to 47.31")
    fits(page, size)
    page.get_by_label("Latitude").fill("44.7573")
    page.get_by_role("button", name="Add the gauge").click()
    page.wait_for_load_state()
    expect(page.get_by_role("heading", level=1)).to_have_text("Public works yard")
    fits(page, size)

    # Yesterday's 0.62 in: the site now reads the gauge, and owes an inspection after rain.
    yesterday = timezone.localdate() - datetime.timedelta(days=1)
    page.get_by_label("Day the rain fell").fill(yesterday.isoformat())
    page.get_by_label("Rain, in inches").fill("0.62")
    page.get_by_role("button", name="Record the day's rain").click()
    page.wait_for_load_state()
    expect(page.get_by_role("status").first).to_contain_text(
        "1 site(s) now read their rain here; 1 qualifying rain(s) written onto 1 permit(s)"
    )
    served = page.get_by_test_id("served")
    expect(served.get_by_role("link", name=f"Permit {permit.number}")).to_be_visible()
    expect(page.get_by_test_id("recent")).to_contain_text("0.62 in")
    fits(page, size)

    # The same day again without a reason is refused under the day.
    page.get_by_label("Day the rain fell").fill(yesterday.isoformat())
    page.get_by_label("Rain, in inches").fill("0.7")
    page.get_by_role("button", name="Record the day's rain").click()
    page.wait_for_load_state()
    expect(page.get_by_test_id("error-day")).to_contain_text("already has 0.62 in on record")
    fits(page, size)
