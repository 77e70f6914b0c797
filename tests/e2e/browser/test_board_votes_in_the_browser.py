"""The board decides as a board, in a real Chromium, at a phone's width and a desk's
(decision 47).

Spencer: a permit under a stop-work order of June 22, 2026, appealed by the permittee and
heard on July 14 at Village Hall. The village clerk records the roll: C is recused (he owns
the adjoining lot), so the first alternate sits in his place and the second does not. The
clerk records a motion to reverse, one row per member sitting with For / Against / Abstain;
a row left empty is refused on that row, and nothing typed is lost. With four for and E
against, the motion carries under the village's data (four concurring votes, § 413-12A,
the statute it incorporates), and the stop-work order is retracted. Member B then finds the
hearing, who sat, each vote and the outcome on the appeal's page, and no form. axe finds
nothing broken, and nothing scrolls sideways.
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
from siltfence.apps.appeals import services as appeals
from siltfence.apps.documents.pdf import lines_to_pdf
from siltfence.apps.enforcement import services as enforcement
from siltfence.apps.enforcement.selectors import open_stop_work_order
from siltfence.apps.permits import services
from siltfence.apps.permits.models import DocumentKind

PASSWORD = "board-votes-walk-2026"
SPENCER = "spencer-wi"
CHICAGO = ZoneInfo("America/Chicago")
WIDTHS = [pytest.param(PHONE, id="phone"), pytest.param(DESK, id="desktop")]
BOARD = [
    ("zba-a", "A", BoardSeat.CHAIR),
    ("zba-b", "B", BoardSeat.MEMBER),
    ("zba-c", "C", BoardSeat.MEMBER),
    ("zba-d", "D", BoardSeat.MEMBER),
    ("zba-e", "E", BoardSeat.MEMBER),
    ("zba-alt1", "Alt1", BoardSeat.FIRST_ALTERNATE),
    ("zba-alt2", "Alt2", BoardSeat.SECOND_ALTERNATE),
]


def at(day: str, hour: int = 9) -> datetime.datetime:
    """A moment in Spencer (Central time)."""
    return datetime.datetime.combine(
        datetime.date.fromisoformat(day), datetime.time(hour), tzinfo=CHICAGO
    )


@pytest.fixture
def record(purgeable_audit, settings, tmp_path):
    """The stop-work order's appeal, heard on July 14 and undecided, and the board."""
    settings.MEDIA_ROOT = tmp_path / "media"
    villages = {v.id: v for v in services.village_sync()}
    village = villages[SPENCER]
    users = get_user_model().objects
    owner = users.create_user("owner", password=PASSWORD, first_name="Alex")
    clerk = users.create_user("sp-clerk", password=PASSWORD, first_name="Robin")
    Membership.objects.create(user=clerk, village=village, role=Role.STAFF)
    for username, first, seat in BOARD:
        member = users.create_user(
            username, password=PASSWORD, first_name=first, last_name="Member"
        )
        Membership.objects.create(
            user=member, village=village, role=Role.APPEALS_BOARD, board_seat=seat
        )

    application = services.application_create(
        applicant=owner,
        village=village,
        address="300 2nd St, Spencer",
        facts={"disturbed_area": 9000, "land_use": "residential"},
        on=datetime.date(2026, 6, 1),
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
        content=lines_to_pdf(["CONTROL PLAN", "300 2nd St", "Silt fence east."], title="plan"),
        claimed_type="application/pdf",
    )
    services.application_submit(application=application, user=owner, at=at("2026-06-01"))
    permit = services.application_approve(application=application, staff=clerk, at=at("2026-06-03"))
    case = enforcement.violation_record(
        village=village,
        recorded_by=clerk,
        source="observation",
        description="Fence down.",
        provision="§ 413-7B(4)",
        days_from=datetime.date(2026, 6, 22),
        at=at("2026-06-22"),
        permit=permit,
    ).case
    order = enforcement.stop_work_order_post(
        case=case, staff=clerk, at=at("2026-06-22", 10), grounds=["plan-not-followed"]
    )
    appeal = appeals.appeal_file(
        village=village,
        filed_by=owner,
        on=datetime.date(2026, 7, 7),
        appellant_name="Alex Schmid",
        standing="permittee",
        grounds="The fence was up; the photographs are of the neighbouring lot.",
        action=order,
    )
    appeals.appeal_hearing_schedule(
        appeal=appeal,
        user=clerk,
        hearing_at=at("2026-07-14", 18),
        notice_given_on=datetime.date(2026, 7, 8),
        notice_to="Alex Schmid; the Building Inspector",
        place="Village Hall",
    )
    return {"appeal": appeal, "case": case}


def session(browser, size, base, username):
    page = browser.new_context(viewport=size).new_page()
    sign_in(page, base, username, PASSWORD)
    return page


def fits(page, size) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= size["width"], f"{page.url} is {width}px wide at {size['width']}px"


def choose(form, who: str, choice: str) -> None:
    """On the row of ``who`` (its legend), choose ``choice`` by its label."""
    row = form.get_by_test_id(re.compile("roll-row|vote-row")).filter(
        has=form.page.locator("legend", has_text=re.compile(f"^{re.escape(who)} "))
    )
    expect(row).to_have_count(1)
    row.get_by_text(choice, exact=True).click()


@pytest.mark.parametrize("size", WIDTHS)
def test_the_board_s_roll_and_votes_decide_the_appeal(live_server, browser, record, size):
    base = live_server.url
    appeal, case = record["appeal"], record["case"]

    clerk = session(browser, size, base, "sp-clerk")
    clerk.goto(f"{base}/appeals/{appeal.pk}/")
    expect(clerk.get_by_role("heading", level=1)).to_have_text(f"Appeal {appeal.number}")
    expect(clerk.get_by_test_id("board-rule")).to_contain_text("4 concurring votes")
    roll = clerk.get_by_test_id("roll-form")
    expect(roll.get_by_test_id("roll-row")).to_have_count(7)
    for name in ("A Member", "B Member", "D Member", "E Member", "Alt1 Member"):
        choose(roll, name, "Present")
    choose(roll, "C Member", "Recused")
    choose(roll, "Alt2 Member", "Absent")
    roll.get_by_label("If C Member is recused: the interest").fill("Owns the adjoining lot.")
    fits(clerk, size)
    assert_accessible(clerk)
    roll.get_by_role("button", name="Record the roll").click()
    clerk.wait_for_load_state()
    expect(clerk.locator(".messages")).to_contain_text(
        "Roll recorded. Quorum: 5 of 5 seats present; the board needs 3 [§ 413-12A; "
        "§ 62.23(7)(e) Wis. Stats.]."
    )
    expect(clerk.get_by_test_id("roll")).to_contain_text(
        "Alt1 Member (first alternate): sits in place of a member (1 member absent or recused)"
    )
    expect(clerk.get_by_test_id("roll")).to_contain_text(
        "C Member (member): recused, refused to vote because of an interest: Owns the "
        "adjoining lot."
    )

    # The motion, with E's row left empty: refused on that row, nothing typed lost.
    form = clerk.get_by_test_id("vote-form")
    expect(form.get_by_test_id("vote-row")).to_have_count(5)
    form.locator("#id_kind").select_option("reverse")
    form.get_by_label("Grounds stated in the motion").fill("The photographs show the next lot.")
    form.get_by_label("Voted (date and time)").fill("2026-07-14T19:00")
    for name in ("A Member", "B Member", "D Member", "Alt1 Member"):
        choose(form, name, "For")
    form.get_by_role("button", name="Record the motion and the votes").click()
    clerk.wait_for_load_state()
    expect(clerk.locator(".messages")).to_contain_text("E Member (member)")
    form = clerk.get_by_test_id("vote-form")
    expect(form.locator(".usa-form-group--error")).to_have_count(1)
    expect(form.get_by_label("Grounds stated in the motion")).to_have_value(
        "The photographs show the next lot."
    )
    fits(clerk, size)
    assert_accessible(clerk)
    assert open_stop_work_order(case) is not None

    choose(form, "E Member", "Against")
    form.get_by_role("button", name="Record the motion and the votes").click()
    clerk.wait_for_load_state()
    expect(clerk.locator(".messages")).to_contain_text(
        "The motion to reverse carries: 4 for, 1 against; it needed 4 concurring votes"
    )
    expect(clerk.get_by_test_id("appeal-status")).to_have_text("Decided: Reversed")
    expect(clerk.get_by_test_id("vote-form")).to_have_count(0)
    fits(clerk, size)
    assert_accessible(clerk)
    assert open_stop_work_order(case) is None

    # A member of the board sees the hearing, who sat, each vote and the outcome.
    member = session(browser, size, base, "zba-b")
    member.goto(f"{base}/appeals/{appeal.pk}/")
    expect(member.get_by_test_id("sitting")).to_have_count(1)
    votes = member.get_by_test_id("votes")
    expect(votes).to_contain_text("E Member (member): against")
    expect(votes).to_contain_text("Alt1 Member (first alternate): for")
    expect(member.get_by_test_id("outcome")).to_contain_text("The motion to reverse carries")
    expect(member.get_by_test_id("roll-form")).to_have_count(0)
    expect(member.get_by_test_id("vote-form")).to_have_count(0)
    fits(member, size)
    assert_accessible(member)
