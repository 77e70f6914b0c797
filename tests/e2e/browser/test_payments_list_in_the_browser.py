"""The payments received (``/staff/payments/``), in a real Chromium, at a phone's width and
a desk's, as a clerk who is staff of both villages.

The world is the crawl's (test_every_page_each_role_reaches.world_built: the demo, a fee
schedule in each village, and four payments: Alex's fee for 27 Oak St by check last
November, a part payment of the invoice for the village's work there in March, part of
Alex's fee for 300 E Clark St today and Jo's whole fee for 600 2nd St, New Glarus, today).
What the list should show is worked out from those records, never read off the page: the
rows of this year, newest first; the village filter and the year filter narrow them;
each row's number leads to the page of what was paid for (the application, or the case
the invoice bills); and "Download as CSV" gives the same rows.
"""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from playwright.sync_api import expect
from test_every_page_each_role_reaches import world_built

from conftest import DESK, PHONE, sign_in

PASSWORD = "two-villages-clerk-2026"
SIZES = pytest.mark.parametrize("size", [PHONE, DESK], ids=["phone", "desk"])
HEADINGS = ["Paid on", "Receipt", "Payment of", "Number", "Village", "Site", "Paid by"]
KINDS = {"application_fee": "Application fee", "invoice": "Invoice for the village's work"}


@pytest.fixture
def world(purgeable_audit, live_server, settings, tmp_path):
    """The crawl's world, and a clerk who is staff of Spencer and of New Glarus."""
    from django.contrib.auth import get_user_model

    from siltfence.apps.accounts.models import Membership, Role
    from siltfence.apps.permits.models import Village

    settings.MEDIA_ROOT = tmp_path / "media"
    made = world_built()
    clerk = get_user_model().objects.create_user("both-clerk", password=PASSWORD)
    for village in Village.objects.filter(pk__in=["spencer-wi", "new-glarus-wi"]):
        Membership.objects.create(user=clerk, village=village, role=Role.STAFF)
    return made


def expected(world: dict[str, Any], year: int, village: str | None = None) -> list[dict]:
    """The rows the list should show, from the payments recorded: newest first (the same
    day by receipt number, highest first)."""
    rows = []
    for payment in world["payments"]:
        if payment.received_on.year != year or village not in (None, payment.village_id):
            continue
        if payment.application_id is not None:
            number = payment.application.number
            address = payment.application.site.address
            record = f"/staff/applications/{payment.application_id}/"
        else:
            number = payment.invoice.number
            address = payment.invoice.case.address
            record = f"/enforcement/cases/{payment.invoice.case_id}/"
        rows.append(
            {
                "day": payment.received_on,
                "receipt": payment.receipt_number,
                "kind": KINDS[payment.purpose],
                "number": number,
                "village": payment.village.name,
                "site": address,
                "paid_by": payment.method_words,
                "amount": payment.amount,
                "record": record,
            }
        )
    rows.sort(key=lambda r: r["receipt"], reverse=True)
    rows.sort(key=lambda r: r["day"], reverse=True)
    return rows


def shown(page) -> list[dict[str, str]]:
    """Each row of the list as the page shows it, cell by cell (by the column's name)."""
    cells = (
        page.get_by_test_id("payments")
        .locator("tbody tr")
        .evaluate_all(
            """rows => rows.map(row => Object.fromEntries([...row.querySelectorAll("td")]
            .map(td => [td.dataset.label, td.innerText.trim()])))"""
        )
    )
    return cells


def matches(page, rows: list[dict]) -> None:
    """The list shows exactly ``rows``, in that order, with the amounts and the total."""
    got = shown(page)
    assert [r["Receipt"] for r in got] == [r["receipt"] for r in rows]
    for seen, row in zip(got, rows, strict=True):
        assert seen["Amount paid"] == f"${row['amount']:,.2f}", seen
        assert seen["Number"] == row["number"], seen
        assert seen["Village"] == row["village"], seen
        assert seen["Payment of"] == row["kind"], seen
        assert seen["Site"] == row["site"], seen
        assert seen["Paid by"] == row["paid_by"], seen
    total = sum(row["amount"] for row in rows)
    expect(page.get_by_test_id("payments-total")).to_contain_text(f"${total:,.2f}")
    width = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert width <= 1, f"{page.url} scrolls {width}px sideways"


def filtered(page, village: str, year: int) -> None:
    """The form's filters, as a person sets them, then "Show"."""
    page.locator("#village").select_option(village)
    page.locator("#year").fill(str(year))
    page.get_by_role("button", name="Show").click()
    page.wait_for_load_state()


@SIZES
def test_the_payments_received_are_the_ones_recorded(live_server, browser, world, size):
    from siltfence.presentation.today import village_today

    context = browser.new_context(viewport=size, accept_downloads=True)
    page = context.new_page()
    sign_in(page, live_server.url, "both-clerk", PASSWORD)
    page.goto(f"{live_server.url}/staff/payments/")
    this_year = village_today("new-glarus-wi").year
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Payments received in {this_year}")
    everyone = expected(world, this_year)
    villages = {r["village"] for r in everyone}
    assert len(everyone) == 3 and villages == {"Village of Spencer", "Village of New Glarus"}
    matches(page, everyone)

    # The CSV link gives the same rows, as a spreadsheet reads them.
    with page.expect_download() as started:
        page.get_by_test_id("csv-payments").click()
    download = started.value
    assert download.suggested_filename.endswith(".csv"), download.suggested_filename
    text = download.path().read_text(encoding="utf-8-sig")
    lines = list(csv.reader(io.StringIO(text)))
    assert lines[0] == [*HEADINGS, "Amount paid"]
    assert lines[1:] == [
        [
            r["day"].isoformat(),
            r["receipt"],
            r["kind"],
            r["number"],
            r["village"],
            r["site"],
            r["paid_by"],
            f"{r['amount']:.2f}",
        ]
        for r in everyone
    ]

    # Each row's number leads to what the money was for.
    for index, row in enumerate(everyone):
        page.goto(f"{live_server.url}/staff/payments/")
        link = page.get_by_test_id("payments").locator("tbody tr").nth(index).get_by_role("link")
        expect(link).to_have_text(row["number"])
        link.click()
        page.wait_for_load_state()
        assert page.url == f"{live_server.url}{row['record']}", (row, page.url)
        expect(page.locator("main")).to_contain_text(row["number"])

    # One village, then the other; then last year, when only the Oak St fee came in.
    page.goto(f"{live_server.url}/staff/payments/")
    for village in ("new-glarus-wi", "spencer-wi"):
        filtered(page, village, this_year)
        rows = expected(world, this_year, village)
        assert 0 < len(rows) < len(everyone), rows
        matches(page, rows)
    filtered(page, "", 2025)
    expect(page.get_by_role("heading", level=1)).to_have_text("Payments received in 2025")
    last_year = expected(world, 2025)
    assert [r["number"] for r in last_year] == [world["oak"].number], last_year
    matches(page, last_year)
    filtered(page, "new-glarus-wi", 2025)
    expect(page.get_by_test_id("payments")).to_have_count(0)
    expect(page.get_by_text("No payment is recorded in 2025.")).to_be_visible()
    context.close()
