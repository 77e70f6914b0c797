"""How a notice was served, recorded in a real Chromium (decision 46), at a phone's width
and a desk's.

Spencer: a permit whose landowner, Jo Owner, has no mailing address on the record, and
whose land user, Lee Builder LLC, has one. The stop-work order is posted Monday June 1,
2026 at 10:00; the notice of intent is issued Thursday June 11, to be mailed. The
inspector opens the case: the notice is not served yet, so the village's work runs from
nothing. On the notice's service page the inspector is told Jo Owner has no mailing
address; certified mail with no address is refused by the street's label, a 19-digit
number by the number's label; with both right it is recorded, mailed June 12, and the
case page shows the work runs from the notice mailed on June 12, 2026, lawful from June 27
(§ 413-10E: after 14 days from issuing; June 12 + 15). axe finds nothing broken, and
nothing scrolls sideways.
"""

from __future__ import annotations

import datetime
import re
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from conftest import DESK, PHONE, assert_accessible, sign_in
from siltfence.apps.accounts.models import Membership, Role
from siltfence.apps.documents.pdf import lines_to_pdf
from siltfence.apps.enforcement import services as enforcement
from siltfence.apps.enforcement.models import EnforcementDocument
from siltfence.apps.permits import services
from siltfence.apps.permits.models import DocumentKind

PASSWORD = "notices-served-walk-2026"
SPENCER = "spencer-wi"
CHICAGO = ZoneInfo("America/Chicago")
WIDTHS = [pytest.param(PHONE, id="phone"), pytest.param(DESK, id="desktop")]
JO = "Jo Owner (landowner, no mailing address on the record)"


def at(day: str, hour: int = 9) -> datetime.datetime:
    return datetime.datetime.combine(
        datetime.date.fromisoformat(day), datetime.time(hour), tzinfo=CHICAGO
    )


@pytest.fixture
def record(purgeable_audit, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    villages = {v.id: v for v in services.village_sync()}
    village = villages[SPENCER]
    users = get_user_model().objects
    owner = users.create_user("owner", password=PASSWORD, first_name="Jo")
    staff = users.create_user("sp-clerk", password=PASSWORD, first_name="Robin")
    inspector = users.create_user("sp-inspector", password=PASSWORD, first_name="Casey")
    Membership.objects.create(user=staff, village=village, role=Role.STAFF)
    Membership.objects.create(user=inspector, village=village, role=Role.INSPECTOR)
    application = services.application_create(
        applicant=owner,
        village=village,
        address="12 Park St, Spencer",
        facts={"disturbed_area": 7000},
        on=datetime.date(2026, 4, 20),
        description="garage",
        parties=[
            {"role": "landowner", "name": "Jo Owner"},
            {
                "role": "land_user",
                "name": "Lee Builder LLC",
                "street": "88 Elm St",
                "city": "Marshfield",
                "state": "WI",
                "zip_code": "54449",
            },
        ],
    )
    contents = (application.determination.get("plan") or {}).get("contents", [])
    services.application_checklist_set(
        application=application, user=owner, items=list(range(len(contents)))
    )
    services.document_upload(
        application=application,
        user=owner,
        kind=DocumentKind.PLAN_STATEMENT
        if application.plan_kind == "control_plan_statement"
        else DocumentKind.PLAN,
        name="plan.pdf",
        content=lines_to_pdf(["CONTROL PLAN", "12 Park St", "Silt fence east."], title="plan"),
        claimed_type="application/pdf",
    )
    services.application_submit(application=application, user=owner, at=at("2026-04-20"))
    permit = services.application_approve(application=application, staff=staff, at=at("2026-04-22"))
    case = enforcement.violation_record(
        village=village,
        recorded_by=staff,
        source="observation",
        description="Inlet not protected.",
        provision="§ 413-7B(4)",
        days_from=datetime.date(2026, 5, 29),
        at=at("2026-05-29"),
        permit=permit,
    ).case
    enforcement.stop_work_order_post(
        case=case, staff=staff, at=at("2026-06-01", 10), grounds=["conditions-not-met"]
    )
    notice = enforcement.notice_of_intent_issue(
        case=case,
        staff=staff,
        at=at("2026-06-11", 9),
        work="Reinstall the fence.",
        given="to_be_sent",
    )
    return {"case": case, "notice": EnforcementDocument.objects.get(action=notice)}


def fits(page, size) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= size["width"], f"{page.url} is {width}px wide at {size['width']}px"


@pytest.mark.parametrize("size", WIDTHS)
def test_an_inspector_records_a_mailed_notice_and_the_wait_runs_from_it(
    live_server, browser, record, size
):
    base = live_server.url
    case, notice = record["case"], record["notice"]
    page = browser.new_context(viewport=size).new_page()
    sign_in(page, base, "sp-inspector", PASSWORD)

    page.goto(f"{base}/enforcement/cases/{case.pk}/")
    expect(page.get_by_test_id(f"served-{notice.pk}")).to_contain_text("Not served yet")
    expect(page.get_by_test_id("addressees")).to_contain_text(
        "Mailing address: none on the village's record"
    )
    expect(page.get_by_test_id("allowed-begin_village_work")).to_have_count(0)
    expect(page.locator("main")).to_contain_text("is not yet recorded as issued to the person")
    fits(page, size)
    assert_accessible(page)

    page.get_by_test_id(f"served-{notice.pk}").get_by_role(
        "link", name=re.compile("Record how it was served")
    ).click()
    page.wait_for_load_state()
    expect(page.get_by_test_id("address-needed")).to_contain_text(
        "Jo Owner: no mailing address on the record"
    )
    expect(page.get_by_test_id("not-served")).to_be_visible()
    fits(page, size)
    assert_accessible(page)

    form = page.get_by_test_id("service-form")
    form.get_by_label("How it was served").select_option("mailed_certified")
    form.get_by_label("When (date and time posted, handed over, or sent)").fill("2026-06-12T11:00")
    form.get_by_label("To whom").select_option(label=JO)
    form.get_by_label("Certified mail number (20 to 22 digits)").fill("9407 1000 0000 0000 0000 01")
    form.get_by_role("button", name="Record the service").click()
    page.wait_for_load_state()
    expect(page.locator(".messages")).to_have_text(
        re.compile("^Mailing address it was sent to: street: Jo Owner has no mailing address")
    )

    form = page.get_by_test_id("service-form")
    form.get_by_label("How it was served").select_option("mailed_certified")
    form.get_by_label("When (date and time posted, handed over, or sent)").fill("2026-06-12T11:00")
    form.get_by_label("To whom").select_option(label=JO)
    form.get_by_label("Mailing address it was sent to: street").fill("PO Box 12")
    form.get_by_label("City").fill("Wausau")
    form.get_by_label("State (2 letters)").fill("WI")
    form.get_by_label("ZIP code").fill("54401")
    form.get_by_label("Certified mail number (20 to 22 digits)").fill("9" * 19)
    form.get_by_role("button", name="Record the service").click()
    page.wait_for_load_state()
    expect(page.locator(".messages")).to_have_text(
        re.compile(r"^Certified mail number \(20 to 22 digits\): a certified mail number")
    )

    form = page.get_by_test_id("service-form")
    form.get_by_label("How it was served").select_option("mailed_certified")
    form.get_by_label("When (date and time posted, handed over, or sent)").fill("2026-06-12T11:00")
    form.get_by_label("To whom").select_option(label=JO)
    form.get_by_label("Mailing address it was sent to: street").fill("PO Box 12")
    form.get_by_label("City").fill("Wausau")
    form.get_by_label("State (2 letters)").fill("WI")
    form.get_by_label("ZIP code").fill("54401")
    form.get_by_label("Certified mail number (20 to 22 digits)").fill("9407 1000 0000 0000 0000 01")
    form.get_by_role("button", name="Record the service").click()
    page.wait_for_load_state()
    expect(page.locator(".messages")).to_have_text("Service recorded.")
    expect(page.get_by_test_id("services")).to_contain_text(
        "Mailed, certified, 2026-06-12 11:00 CDT, by Casey"
    )
    expect(page.get_by_test_id("services")).to_contain_text("PO Box 12, Wausau, WI 54401")
    expect(page.get_by_test_id("not-received")).to_be_visible()
    fits(page, size)
    assert_accessible(page)

    page.get_by_test_id("back").click()
    page.wait_for_load_state()
    row = page.get_by_test_id("allowed-begin_village_work")
    expect(row).to_contain_text("2026-06-27")
    expect(row.get_by_test_id("runs-from")).to_have_text(
        "Runs from the notice of intent, mailed, on June 12, 2026 § 413-10E."
    )
    expect(page.get_by_test_id("addressees")).to_contain_text("PO Box 12")
    fits(page, size)
    assert_accessible(page)
