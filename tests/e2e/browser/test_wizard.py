"""The "Do I need a permit?" page in a real Chromium, at a phone's size."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_answer_updates_as_the_applicant_types_and_cites_its_sections(live_server, page):
    page.goto(f"{live_server.url}/?jurisdiction=spencer-wi")
    verdict = page.get_by_test_id("verdict")
    # Nothing typed: no answer yet, only what to do.
    expect(page.get_by_test_id("no-answer-yet")).to_be_visible()
    expect(verdict).to_have_count(0)

    page.get_by_label("Disturbed area", exact=True).fill("3999")
    expect(verdict).to_contain_text("No permit is required")
    expect(page.locator("#answer")).to_contain_text(
        "3,999 sq ft disturbed is less than 4,000 sq ft"
    )

    page.get_by_label("Disturbed area", exact=True).fill("4000")
    expect(verdict).to_contain_text("Yes, a permit is required")
    expect(page.locator("#answer")).to_contain_text("4,000 sq ft disturbed is 4,000 sq ft or more")
    expect(page.locator(".plan-kind")).to_have_attribute("data-kind", "control_plan_statement")

    # Switch village: New Glarus needs an erosion and sediment control plan (§ 135-8A).
    page.get_by_label("Village", exact=True).select_option("new-glarus-wi")
    expect(page.locator(".plan-kind")).to_have_attribute(
        "data-kind", "erosion_and_sediment_control_plan"
    )

    # A citation opens the verbatim section.
    page.locator("#answer a.cite", has_text="§ 135-4A(1)(a)").first.click()
    expect(page.get_by_test_id("verbatim")).to_contain_text(
        "Disturbs 4,000 square feet or more of total land surface area."
    )


def test_a_unit_that_does_not_fit_is_explained_on_the_page(live_server, page):
    page.goto(f"{live_server.url}/")
    page.get_by_label("Excavation plus fill", exact=True).fill("20 acre")
    expect(page.locator("#answer [role=alert]")).to_contain_text(
        "Excavation plus fill: '20 acre' is not"
    )
