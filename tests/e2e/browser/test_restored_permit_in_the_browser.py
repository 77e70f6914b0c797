"""A revoked permit restored by the appeals board, with a new last day, in a real Chromium
(decision 38), at a phone's width and a desk's.

New Glarus: a permit filed January 5, 2026 and issued January 7 (its 180 days end July 6,
§ 135-7G), under a stop-work order from June 22, revoked on July 6, the revocation appealed
and its hearing set for July 20 (the record of tests/integration/test_restored_permit_period.py,
built the same way through the services). The board's chair, after the roll, finds the new
field on the form of the motion and votes, with its hint naming the permit's last day; a day
181 days after that day is refused by the field's label and nothing changes; a reversal
through October 31 restores the permit, and the village staff see the board's extension
on the permit's page. axe finds nothing broken, and nothing scrolls sideways.
"""

from __future__ import annotations

import datetime
import re
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from conftest import DESK, PHONE, assert_accessible, sign_in
from siltfence.apps.accounts.models import BoardSeat, Membership, Role
from siltfence.apps.appeals import hearings
from siltfence.apps.appeals import services as appeals
from siltfence.apps.documents.pdf import lines_to_pdf
from siltfence.apps.enforcement import services as enforcement
from siltfence.apps.permits import services
from siltfence.apps.permits.models import DocumentKind

PASSWORD = "restored-permit-walk-2026"
NEW_GLARUS = "new-glarus-wi"
CHICAGO = ZoneInfo("America/Chicago")
DAY = datetime.timedelta(days=1)
LABEL = "New last day of the restored permit, if the board sets one"
NEW_LAST_DAY = datetime.date(2026, 10, 31)
WIDTHS = [pytest.param(PHONE, id="phone"), pytest.param(DESK, id="desktop")]


def at(day: str, hour: int = 9) -> datetime.datetime:
    """A moment in New Glarus (Central time)."""
    return datetime.datetime.combine(
        datetime.date.fromisoformat(day), datetime.time(hour), tzinfo=CHICAGO
    )


@pytest.fixture
def record(purgeable_audit, settings, tmp_path):
    """The revoked permit and the appeal of its revocation, heard on July 20 and undecided
    (the ``_revoked`` helper of the integration test, for New Glarus)."""
    settings.MEDIA_ROOT = tmp_path / "media"
    villages = {v.id: v for v in services.village_sync()}
    village = villages[NEW_GLARUS]
    users = get_user_model().objects
    owner = users.create_user("owner", password=PASSWORD, first_name="Alex")
    staff = users.create_user("ng-clerk", password=PASSWORD, first_name="Robin")
    board = users.create_user("ng-board", password=PASSWORD, first_name="Kim")
    Membership.objects.create(user=staff, village=village, role=Role.STAFF)
    # The board decides as a board (decision 47): Kim chairs it, with four members more.
    Membership.objects.create(
        user=board, village=village, role=Role.APPEALS_BOARD, board_seat=BoardSeat.CHAIR
    )
    for letter in "BCDE":
        member = users.create_user(f"ng-member-{letter}", first_name=letter, last_name="Member")
        Membership.objects.create(user=member, village=village, role=Role.APPEALS_BOARD)

    application = services.application_create(
        applicant=owner,
        village=village,
        address="8 Elm St, New Glarus",
        facts={"disturbed_area": 7000},
        on=datetime.date(2026, 1, 5),
        description="house",
        parties=[{"role": "landowner", "name": "Alex Schmid"}],
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
        content=lines_to_pdf(["CONTROL PLAN", "8 Elm St", "Silt fence east."], title="plan"),
        claimed_type="application/pdf",
    )
    services.application_submit(application=application, user=owner, at=at("2026-01-05"))
    permit = services.application_approve(application=application, staff=staff, at=at("2026-01-07"))

    case = enforcement.violation_record(
        village=village,
        recorded_by=staff,
        source="observation",
        description="Fence down.",
        provision="§ 135-11",
        days_from=datetime.date(2026, 6, 22),
        at=at("2026-06-22"),
        permit=permit,
    ).case
    enforcement.stop_work_order_post(
        case=case, staff=staff, at=at("2026-06-22", 10), grounds=["plan-not-followed"]
    )
    revocation = enforcement.permit_revoke(
        case=case, staff=staff, at=at("2026-07-06"), reasons="Fence still down."
    )
    appeal = appeals.appeal_file(
        village=village,
        filed_by=owner,
        on=datetime.date(2026, 7, 7),
        appellant_name="Alex Schmid",
        standing="aggrieved_person",
        grounds="The fence was up.",
        action=revocation,
    )
    appeals.appeal_hearing_schedule(
        appeal=appeal,
        user=board,
        hearing_at=at("2026-07-20", 19),
        notice_given_on=datetime.date(2026, 7, 15),
        notice_to="Alex Schmid",
    )
    # The chair records the roll: all five present.
    roster = hearings.board_roster(village.id, at("2026-07-20", 19), "America/Chicago")
    hearings.hearing_record(
        appeal=appeal,
        user=board,
        roll=[hearings.RollCall(m.user_id, "present") for m in roster],
    )
    permit.refresh_from_db()
    assert permit.status == "revoked"
    return {"permit": permit, "appeal": appeal}


def session(browser, size, base, username):
    page = browser.new_context(viewport=size).new_page()
    sign_in(page, base, username, PASSWORD)
    return page


def fits(page, size) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= size["width"], f"{page.url} is {width}px wide at {size['width']}px"


def decide(page, *, until: datetime.date) -> None:
    """A motion to reverse the revocation on July 20 at 8 pm, through ``until``, carried by
    all five members sitting."""
    form = page.get_by_test_id("vote-form")
    form.locator("#id_kind").select_option("reverse")
    form.get_by_label("Grounds stated in the motion").fill("The fence was repaired on July 9.")
    form.get_by_label("Voted (date and time)").fill("2026-07-20T20:00")
    form.get_by_label(LABEL).fill(until.isoformat())
    rows = form.get_by_test_id("vote-row")
    for index in range(rows.count()):
        rows.nth(index).get_by_text("For", exact=True).click()
    form.get_by_role("button", name="Record the motion and the votes").click()
    page.wait_for_load_state()


@pytest.mark.parametrize("size", WIDTHS)
def test_the_board_restores_a_revoked_permit_through_a_new_last_day(
    live_server, browser, record, size
):
    base = live_server.url
    permit, appeal = record["permit"], record["appeal"]
    last_day = permit.expires_on
    assert last_day == datetime.date(2026, 7, 6)  # January 7 + 180 days

    # The board member opens the appeal: the new field, with its hint.
    board = session(browser, size, base, "ng-board")
    board.goto(f"{base}/appeals/{appeal.pk}/")
    expect(board.get_by_role("heading", level=1)).to_have_text(f"Appeal {appeal.number}")
    form = board.get_by_test_id("vote-form")
    field = form.get_by_label(LABEL)
    expect(field).to_be_visible()
    expect(field).to_have_value("")
    runs_through = f"Its period runs through {last_day:%B %-d, %Y}"
    expect(form.locator("#id_restored_until_helptext")).to_contain_text(runs_through)
    # The hint is read with the field, not only shown near it.
    expect(field).to_have_accessible_description(re.compile(re.escape(runs_through)))
    # The tick box a modified decision needs is drawn as a box beside its words.
    box = form.locator(".usa-checkbox label.usa-checkbox__label")
    expect(box).to_have_count(1)
    expect(box).to_contain_text("restores the revoked permit")
    assert box.bounding_box()["x"] >= 0
    fits(board, size)
    assert_accessible(board)

    # A day 181 days after the permit's last day: refused, by the field's label.
    too_far = last_day + 181 * DAY
    decide(board, until=too_far)
    refusal = board.locator(".messages")
    expect(refusal).to_have_text(re.compile("^" + re.escape(f"{LABEL}:")))
    expect(refusal).to_contain_text(f"the latest is {last_day + 180 * DAY:%B %-d, %Y}")
    expect(board.get_by_test_id("appeal-status")).not_to_contain_text("Decided")
    # Nothing typed is lost, and the field in error is marked.
    form = board.get_by_test_id("vote-form")
    expect(form.get_by_label(LABEL)).to_have_value(too_far.isoformat())
    expect(form.get_by_label("Grounds stated in the motion")).to_have_value(
        "The fence was repaired on July 9."
    )
    expect(form.locator(".usa-form-group--error")).to_have_count(1)
    fits(board, size)
    assert_accessible(board)
    permit.refresh_from_db()
    appeal.refresh_from_db()
    assert (permit.status, permit.expires_on) == ("revoked", last_day)
    assert appeal.status == "scheduled"

    # The reversal through October 31: recorded, and the permit restored through that day.
    decide(board, until=NEW_LAST_DAY)
    expect(board.locator(".messages")).to_contain_text("The motion to reverse carries: 5 for")
    expect(board.get_by_test_id("appeal-status")).to_have_text("Decided: Reversed")
    expect(board.get_by_test_id("vote-form")).to_have_count(0)
    expect(board.get_by_test_id("restored-until")).to_contain_text(
        f"valid through {NEW_LAST_DAY:%B %-d, %Y}"
    )
    fits(board, size)
    assert_accessible(board)
    permit.refresh_from_db()
    assert (permit.status, permit.expires_on) == ("active", NEW_LAST_DAY)

    # The village staff see the board's extension on the permit's page.
    clerk = session(browser, size, base, "ng-clerk")
    clerk.goto(f"{base}/permits/{permit.pk}/")
    expect(clerk.get_by_role("heading", level=2, name="Extensions")).to_be_visible()
    line = clerk.get_by_role("listitem").filter(
        has_text="set by the Zoning Board of Appeals on appeal"
    )
    expect(line).to_have_count(1)
    days = (NEW_LAST_DAY - last_day).days  # 117, counted from the permit's last day
    expect(line).to_contain_text(f": {days} days, ")
    expect(line).to_have_text(
        re.compile(re.escape(f"set by the Zoning Board of Appeals on appeal {appeal.number}") + "$")
    )
    expect(clerk.get_by_test_id("permit-standing")).not_to_have_text("Revoked")
    fits(clerk, size)
    assert_accessible(clerk)
