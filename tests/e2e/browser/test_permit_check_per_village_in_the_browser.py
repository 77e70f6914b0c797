"""In a real Chromium, at a phone's width (390 px) and a desk's (1280 px):

- "Do I need a permit?" asks each village only what its own rules read: Spencer has no
  "common plan" question, New Glarus has one; choosing the other village brings its
  questions, keeping what was typed for the facts both read; and nothing is answered
  until a fact about the work is given;
- a defined term sits inline in its sentence, on a section page and in the answer: the
  text before and after it shares its line, a term of several words wraps across lines
  like the words around it, and its meaning still opens on a tap, Enter or Space.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from conftest import DESK, PHONE, assert_accessible

pytestmark = pytest.mark.django_db(transaction=True)

WIDTHS = pytest.mark.parametrize("size", [PHONE, DESK], ids=["phone", "desk"])
ANSWER = "/permit-check/answer"


@pytest.fixture
def at(browser):
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


def _open(page, url: str) -> None:
    """Open the permit check and wait for the answer it asks for as it loads."""
    with page.expect_response(lambda r: ANSWER in r.url):
        page.goto(url)


def _answered(page, action) -> None:
    """Do ``action`` and wait for the answer it brings."""
    with page.expect_response(lambda r: ANSWER in r.url):
        action()


def _tick(page, key: str) -> None:
    """Tick or untick a box as a person does: on its label (the U.S. Web Design System
    draws the box there and keeps the input itself out of sight)."""
    page.locator(f"label[for=id_{key}]").click()


@WIDTHS
def test_nothing_is_answered_until_a_fact_is_given(live_server, at, size):
    page = at(size)
    _open(page, live_server.url + "/?jurisdiction=spencer-wi")
    expect(page.get_by_test_id("no-answer-yet")).to_be_visible()
    expect(page.get_by_test_id("verdict")).to_have_count(0)
    expect(page.locator("#answer")).not_to_contain_text("permit is required")
    expect(page.get_by_test_id("quick-answer")).to_have_text("")
    assert_accessible(page)
    # A box ticked is a fact: § 413-7A(1), a subdivision plat.
    _answered(page, lambda: _tick(page, "subdivision_plat"))
    expect(page.get_by_test_id("verdict")).to_contain_text("Yes, a permit is required")
    if size is PHONE:
        expect(page.get_by_test_id("quick-answer")).to_contain_text("Yes, a permit is required")
    # Back as the form opened: no answer again, none at the bottom of a phone's screen.
    _answered(page, lambda: _tick(page, "subdivision_plat"))
    expect(page.get_by_test_id("no-answer-yet")).to_be_visible()
    expect(page.get_by_test_id("verdict")).to_have_count(0)
    expect(page.get_by_test_id("quick-answer")).to_have_text("")
    # A quantity typed is a fact, even 0.
    _answered(page, lambda: page.get_by_label("Disturbed area", exact=True).fill("0"))
    expect(page.get_by_test_id("verdict")).to_contain_text("No permit is required")
    expect(page.locator("#answer")).to_contain_text("0 sq ft disturbed is less than 4,000 sq ft")
    assert no_sideways_scroll(page)
    assert_accessible(page)


@WIDTHS
def test_each_village_asks_its_own_questions_and_switching_brings_the_others(live_server, at, size):
    page = at(size)
    form = page.locator("#facts-form")
    _open(page, live_server.url + "/?jurisdiction=spencer-wi")
    # Spencer's rules never read a common plan of development (New Glarus § 135-13 does).
    expect(form).not_to_contain_text("common plan")
    expect(page.get_by_label("Runoff leaves the site")).to_be_checked()
    assert no_sideways_scroll(page)
    assert_accessible(page)

    _answered(page, lambda: page.get_by_label("Disturbed area", exact=True).fill("3000"))
    expect(page.get_by_test_id("verdict")).to_contain_text("No permit is required")

    _answered(page, lambda: page.get_by_label("Village", exact=True).select_option("new-glarus-wi"))
    expect(page.get_by_label("Area disturbed by the whole common plan")).to_be_visible()
    expect(page.get_by_label("Part of a larger common plan of development or sale")).to_be_visible()
    expect(page.get_by_label("Runoff leaves the site")).to_have_count(0)
    expect(page.get_by_label("Road or bridge work")).to_have_count(0)
    # What was typed for a fact both villages read is kept, and answered under Ch. 135.
    expect(page.get_by_label("Disturbed area", exact=True)).to_have_value("3000")
    expect(page.get_by_test_id("verdict")).to_contain_text("No permit is required")
    expect(page.locator("#answer")).to_contain_text("§ 135-4A(1)(a)")
    expect(page.locator("#answer")).not_to_contain_text("does not change this answer")
    # The village's own question changes its answer: the whole plan disturbs 2 acres.
    _answered(page, lambda: _tick(page, "part_of_common_plan"))
    _answered(
        page, lambda: page.get_by_label("Area disturbed by the whole common plan").fill("2 acre")
    )
    expect(page.get_by_test_id("verdict")).to_contain_text("Yes, a permit is required")
    assert no_sideways_scroll(page)
    assert_accessible(page)

    _answered(page, lambda: page.get_by_label("Village", exact=True).select_option("spencer-wi"))
    expect(form).not_to_contain_text("common plan")
    expect(page.get_by_label("Runoff leaves the site")).to_be_checked()
    expect(page.get_by_label("Disturbed area", exact=True)).to_have_value("3000")
    expect(page.get_by_test_id("verdict")).to_contain_text("No permit is required")
    expect(page.locator("#answer")).not_to_contain_text("common plan")


def test_without_javascript_each_villages_questions_are_a_link_away(live_server, at):
    page = at(PHONE, javascript=False)
    page.goto(live_server.url + "/?jurisdiction=spencer-wi")
    form = page.locator("#facts-form")
    expect(form).not_to_contain_text("common plan")
    page.get_by_role("link", name="Village of New Glarus").click()
    expect(page.get_by_label("Area disturbed by the whole common plan")).to_be_visible()
    expect(page.get_by_label("Village", exact=True)).to_have_value("new-glarus-wi")
    page.get_by_label("Disturbed area", exact=True).fill("5000")
    page.get_by_role("button", name="Check").click()
    expect(page.get_by_test_id("verdict")).to_contain_text("Yes, a permit is required")
    expect(page.locator("body")).to_contain_text("§ 135-4A(1)(a)")


# The measurement, in the page. The paragraph is copied beside itself with every term's
# markup replaced by its plain words: the layout a sentence without defined terms has.
# Then, in both, the top of four characters, from the top of their paragraph: the last
# before the term, the term's first and last, and the first after it; and the heights of
# the two paragraphs. Inline, they are the same. Last, whether the term, at some narrower
# width of its paragraph, breaks across two lines as words do.
MEASURE = """(term) => {
    const para = term.parentElement;
    const summary = term.querySelector("summary");
    const word = summary.firstChild;
    const index = [...para.querySelectorAll(":scope > details.term")].indexOf(term);
    const plain = para.cloneNode(true);
    plain.removeAttribute("id");
    const words = [...plain.querySelectorAll(":scope > details.term")].map((d) => {
        const text = document.createTextNode(d.querySelector("summary").textContent);
        d.replaceWith(text);
        return text;
    });
    para.after(plain);
    const top = (node, at, origin) => {
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + 1);
        return range.getBoundingClientRect().top - origin.getBoundingClientRect().top;
    };
    const before = term.previousSibling, after = term.nextSibling;
    const lastBefore = before.textContent.trimEnd().length - 1;
    const firstAfter = after.textContent.length - after.textContent.trimStart().length;
    const last = word.textContent.length - 1;
    const tops = (b, w, a, origin) => [
        top(b, lastBefore, origin), top(w, 0, origin), top(w, last, origin),
        top(a, firstAfter, origin),
    ];
    const found = {
        term: word.textContent,
        display: getComputedStyle(term).display,
        tops: tops(before, word, after, para),
        plainTops: tops(
            words[index].previousSibling, words[index], words[index].nextSibling, plain),
        height: para.getBoundingClientRect().height,
        plainHeight: plain.getBoundingClientRect().height,
        wraps: false,
    };
    plain.remove();
    if (word.textContent.includes(" ")) {
        const full = para.getBoundingClientRect().width;
        for (let width = full; width >= 100 && !found.wraps; width -= 3) {
            para.style.width = width + "px";
            found.wraps = summary.getClientRects().length > 1;
        }
        para.style.width = "";
    }
    return found;
}"""


def _assert_inline(page, term) -> dict:
    page.mouse.move(0, 0)  # no term opened by hovering over it
    found = term.evaluate(MEASURE)
    assert found["display"] == "inline", found
    for here, plain in zip(found["tops"], found["plainTops"], strict=True):
        assert abs(here - plain) < 1, found
    assert abs(found["height"] - found["plainHeight"]) < 1, found
    return found


def _opens_by_tap_and_keys(page, term) -> None:
    meaning = term.locator(".term-meaning")
    summary = term.locator("summary")
    page.mouse.move(0, 0)  # no hover
    expect(meaning).to_be_hidden()
    summary.click()
    expect(meaning).to_be_visible()
    summary.click()
    page.mouse.move(0, 0)
    expect(meaning).to_be_hidden()
    summary.focus()
    page.keyboard.press("Enter")
    expect(meaning).to_be_visible()
    page.keyboard.press("Space")
    expect(meaning).to_be_hidden()
    page.keyboard.press("Space")
    expect(meaning).to_be_visible()


@WIDTHS
def test_a_defined_term_sits_inline_in_a_section_of_the_ordinance(live_server, at, size):
    # Spencer § 413-4: "CONTROL MEASURE: A practice or combination of practices to control
    # erosion and attendant pollution"; § 413-7 says it mid-sentence.
    page = at(size)
    page.goto(live_server.url + "/ordinances/spencer-wi/sections/413-7/")
    term = page.locator(".verbatim details.term", has_text="control measure").first
    found = _assert_inline(page, term)
    assert found["wraps"], found  # "control measure" can break between its words
    _opens_by_tap_and_keys(page, term)
    expect(term.locator(".term-meaning")).to_contain_text(
        "A practice or combination of practices to control erosion"
    )
    assert no_sideways_scroll(page)
    assert_accessible(page)


@WIDTHS
def test_a_defined_term_sits_inline_in_the_permit_checks_answer(live_server, at, size):
    page = at(size)
    _open(page, live_server.url + "/?jurisdiction=spencer-wi")
    _answered(page, lambda: page.get_by_label("Disturbed area", exact=True).fill("5000"))
    expect(page.get_by_test_id("verdict")).to_contain_text("Yes, a permit is required")
    # Every term with words on both sides of it in its sentence.
    terms = page.locator("#answer details.term")
    between = [
        terms.nth(i)
        for i in range(terms.count())
        if terms.nth(i).evaluate(
            "t => [t.previousSibling, t.nextSibling].every("
            "n => n && n.nodeType === 3 && /[a-z]/i.test(n.textContent))"
        )
    ]
    assert len(between) >= 2
    for term in between:
        _assert_inline(page, term)
    first = page.locator("#answer details.term").first
    # Tapping a term leaves the field typed in: that asks nothing again, so the answer is
    # not replaced under the person reading it, and the meaning stays open.
    first.locator("summary").click()
    page.wait_for_timeout(800)
    expect(first.locator(".term-meaning")).to_be_visible()
    first.locator("summary").click()
    _opens_by_tap_and_keys(page, first)
    expect(first.locator(".term-meaning")).to_contain_text("§ 413-4")
    assert no_sideways_scroll(page)
    assert_accessible(page)
