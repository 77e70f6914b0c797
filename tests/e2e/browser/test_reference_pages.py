"""The public pages in a real Chromium, at a desk's width (1280 px) and a phone's (390 px):
the U.S. Web Design System's header and navigation, the permit check's answer where the
applicant types, the ordinance reference pages, the design checks, and axe-core's rules
with nothing broken on any page visited."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from conftest import DESK, PHONE, assert_accessible

pytestmark = pytest.mark.django_db(transaction=True)

WIDTHS = pytest.mark.parametrize("size", [DESK, PHONE], ids=["desk", "phone"])
PUBLIC_PAGES = [
    "/",
    "/ordinances/",
    "/ordinances/spencer-wi/",
    "/ordinances/new-glarus-wi/",
    "/ordinances/spencer-wi/sections/413-7/?cite=§ 413-7A(3)#413-7A-3",
    "/ordinances/spencer-wi/diff/new-glarus-wi/",
    "/design-checks/",
    "/design-checks/?example=spencer-wi/basin-10-acre",
    "/design-checks/plan-format/",
    "/developers/api/",
    "/accounts/login/",
    "/accounts/register/",
]


@pytest.fixture
def at(browser, request):
    """A page in a fresh browser context of the given viewport size."""
    contexts = []

    def open_page(size, *, javascript=True):
        context = browser.new_context(viewport=size, java_script_enabled=javascript)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


def no_sideways_scroll(page) -> bool:
    return page.evaluate(
        "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


@WIDTHS
def test_every_public_page_breaks_no_axe_rule_and_never_scrolls_sideways(live_server, at, size):
    page = at(size)
    for path in PUBLIC_PAGES:
        page.goto(live_server.url + path)
        if path == "/":
            expect(page.get_by_test_id("no-answer-yet")).to_be_visible()
        assert_accessible(page)
        assert no_sideways_scroll(page), f"{path} scrolls sideways at {size['width']} px"


def test_on_a_phone_the_menu_button_opens_the_navigation(live_server, at):
    page = at(PHONE)
    page.goto(live_server.url + "/")
    navigation = page.get_by_role("navigation", name="Main")
    expect(navigation).to_be_hidden()
    page.get_by_role("button", name="Menu").click()
    expect(navigation).to_be_visible()
    assert_accessible(page)
    navigation.get_by_role("link", name="Ordinances").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Encoded ordinances")


def test_without_javascript_a_phone_shows_the_navigation_in_the_page(live_server, at):
    page = at(PHONE, javascript=False)
    page.goto(live_server.url + "/ordinances/")
    expect(page.get_by_role("button", name="Menu")).to_be_hidden()
    navigation = page.get_by_role("navigation", name="Main")
    expect(navigation.get_by_role("link", name="Plan checks")).to_be_visible()
    navigation.get_by_role("link", name="Plan checks").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Design-check report")


def test_at_a_desk_the_navigation_is_in_the_header_and_marks_the_page_shown(live_server, at):
    page = at(DESK)
    page.goto(live_server.url + "/ordinances/spencer-wi/")
    expect(page.get_by_role("button", name="Menu")).to_be_hidden()
    current = page.locator("nav[aria-label=Main] .usa-current")
    expect(current).to_have_text("Ordinances")


def test_on_a_phone_the_answer_shows_right_where_the_applicant_types(live_server, at):
    page = at(PHONE)
    page.goto(live_server.url + "/")
    field = page.get_by_label("Disturbed area", exact=True)
    field.fill("5000")
    quick = page.get_by_test_id("quick-answer")
    expect(quick).to_contain_text("Yes, a permit is required")
    field_box = field.bounding_box()
    quick_box = quick.bounding_box()
    # Both on the screen at once: the answer is not 2,000 px below the field.
    assert field_box["y"] >= 0 and field_box["y"] + field_box["height"] <= PHONE["height"]
    assert quick_box["y"] >= 0 and quick_box["y"] + quick_box["height"] <= PHONE["height"]
    field.fill("3000")
    expect(quick).to_contain_text("No permit is required")
    assert_accessible(page)


def test_at_a_desk_the_full_answer_stands_beside_the_form(live_server, at):
    page = at(DESK)
    page.goto(live_server.url + "/")
    page.get_by_label("Disturbed area", exact=True).fill("5000")
    expect(page.get_by_test_id("verdict")).to_contain_text("Yes, a permit is required")
    expect(page.get_by_test_id("verdict")).to_be_in_viewport()
    expect(page.get_by_test_id("quick-answer")).to_be_hidden()


@WIDTHS
def test_a_citation_opens_its_section_at_the_cited_subsection_marked(live_server, at, size):
    page = at(size)
    page.goto(live_server.url + "/?jurisdiction=spencer-wi")
    # The answer is fetched again as the field changes: the link is clicked once it has
    # come, never on the answer it replaces.
    with page.expect_response(lambda r: "/permit-check/answer" in r.url):
        page.get_by_label("Disturbed area", exact=True).fill("5000")
    page.locator("#answer a.cite", has_text="§ 413-7A(3)").first.click()
    cited = page.locator(".verbatim .cited-sub")
    expect(cited).to_have_count(1)
    expect(cited).to_contain_text("affecting a surface area of 4,000 square feet or more")
    expect(cited).to_be_in_viewport()
    assert page.url.endswith("#413-7A-3")
    # A list marker stands on the line of its own text.
    marker = cited.locator(".marker")
    expect(marker).to_have_text("(3)")
    marker_box = marker.bounding_box()
    text_box = cited.bounding_box()
    assert abs(marker_box["y"] - text_box["y"]) < 12
    assert_accessible(page)


def test_each_subsection_has_an_anchor_its_citations_link_to(live_server, at):
    page = at(DESK)
    page.goto(live_server.url + "/ordinances/spencer-wi/sections/413-7/")
    for anchor in ("413-7A", "413-7A-1", "413-7B-5-c"):
        expect(page.locator(f'[id="{anchor}"]')).to_have_count(1)
    expect(page.locator(".verbatim .cited-sub")).to_have_count(0)


@WIDTHS
def test_the_side_by_side_comparison_marks_what_differs_and_fits_a_phone(live_server, at, size):
    page = at(size)
    page.goto(live_server.url + "/ordinances/spencer-wi/diff/new-glarus-wi/")
    rows = page.locator("table.diff tbody tr")
    differs = page.locator("table.diff tbody tr.differs")
    same = page.locator("table.diff tbody tr.same")
    assert differs.count() > 0 and same.count() > 0
    assert differs.count() + same.count() == rows.count()
    expect(differs.first.locator(".difference")).to_have_text("Differs")
    expect(same.first.locator(".difference")).to_have_count(0)
    assert no_sideways_scroll(page)
    table = page.locator("table.diff")
    assert table.evaluate("t => t.scrollWidth <= t.parentElement.clientWidth + 1")
    if size is PHONE:
        # Stacked: each village's words under the topic, each labelled with its village.
        cell = differs.first.locator("td").first
        label = cell.evaluate("c => getComputedStyle(c, '::before').content")
        assert "Village of Spencer" in label


def test_try_an_example_check_it_and_keep_the_plan_to_change_it(live_server, at):
    page = at(PHONE)
    page.goto(live_server.url + "/design-checks/")
    page.get_by_label("Try an example").select_option("spencer-wi/basin-10-acre")
    page.get_by_role("button", name="Load the example").click()
    expect(page.get_by_test_id("example-loaded")).to_contain_text("Mass grading")
    plan = page.get_by_label("The plan's file, pasted")
    assert '"basin-10-acre"' in plan.input_value() or '"B-1"' in plan.input_value()
    sent = plan.input_value()
    page.get_by_role("button", name="Check the plan").click()
    expect(page.get_by_test_id("summary")).to_contain_text("need")
    assert page.get_by_label("The plan's file, pasted").input_value() == sent
    expect(page.locator("body")).not_to_contain_text("ft**2")
    assert_accessible(page)
    page.get_by_role("link", name="How to write a control plan file").first.click()
    expect(page.get_by_test_id("plan-format")).to_contain_text("Control-plan format")
    assert_accessible(page)


def test_the_api_documentation_is_linked_and_served_from_this_site(live_server, at):
    page = at(DESK)
    outside: list[str] = []
    page.on(
        "request",
        lambda request: (
            outside.append(request.url) if not request.url.startswith(live_server.url) else None
        ),
    )
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="The API for software, with its documentation").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("The API for software")
    expect(page.get_by_test_id("api-operation").first).to_contain_text("/api/v1/determinations")
    expect(page.locator("body")).to_contain_text("Does a project need a permit, which plan")
    assert_accessible(page)
    # The interactive documentation (django-ninja's Swagger UI) is served by this site too:
    # no stylesheet, script or font comes from elsewhere. It is third-party markup, so axe is
    # not asked about it here.
    page.get_by_role("link", name="Try the API in the interactive documentation").click()
    expect(page.locator("body")).to_contain_text("/api/v1/determinations", timeout=20_000)
    assert [u for u in outside if not u.startswith("data:")] == []


def test_without_javascript_the_permit_check_and_the_design_checks_still_answer(live_server, at):
    page = at(PHONE, javascript=False)
    page.goto(live_server.url + "/")
    page.get_by_label("Disturbed area", exact=True).fill("5000")
    page.get_by_role("button", name="Check").click()
    expect(page.get_by_test_id("verdict")).to_contain_text("Yes, a permit is required")
    page.goto(live_server.url + "/design-checks/?example=spencer-wi/sheet-flow")
    page.get_by_role("button", name="Check the plan").click()
    expect(page.get_by_test_id("summary")).to_be_visible()


@WIDTHS
def test_a_defined_term_in_the_answer_opens_to_its_meaning_on_a_tap(live_server, at, size):
    # Spencer § 413-4: "SITE: The entire area included in the legal description of the
    # land on which the land disturbing or land development activity is proposed in the
    # permit application."
    page = at(size)
    page.goto(live_server.url + "/")
    page.select_option("#id_jurisdiction", "spencer-wi")
    page.get_by_label("Disturbed area", exact=True).fill("5000")
    expect(page.locator("#answer")).to_contain_text("413-")
    term = page.locator("#answer details.term").first
    meaning = term.locator(".term-meaning")
    expect(meaning).to_be_hidden()
    term.locator("summary").click()
    expect(meaning).to_be_visible()
    expect(meaning).to_contain_text("§ 413-4")
    assert no_sideways_scroll(page)
    page.goto(live_server.url + "/ordinances/spencer-wi/sections/413-7/")
    control = page.locator("details.term", has_text="control measure").first
    control.locator("summary").click()
    expect(control.locator(".term-meaning")).to_contain_text(
        "A practice or combination of practices to control erosion"
    )
    assert no_sideways_scroll(page)
