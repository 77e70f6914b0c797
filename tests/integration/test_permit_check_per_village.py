"""The home page's "Do I need a permit?" asks each village only what its own rules read, in
plain words, and gives no answer until the person has said something about the work.

The facts each chapter's rules read, listed by hand from ``ordinances/<id>/rules.yaml``
(every ``fact:`` of the ``when`` conditions of its triggers, exemptions, plans,
requirements, notes and gaps, and ``location``, which its territory reads):

- Spencer Ch. 413: the § 413-7A triggers (subdivision plat, certified survey, disturbed
  area, excavation and fill, road work, underground pipe); the § 413-3 and § 413-4
  exemptions (state funded, state agency, kind of work); the § 413-8B/C plan tier
  (disturbed area); the § 413-7B requirements (land use, runoff leaving the site, area
  disturbed at one time, a channel starting on the site).
- New Glarus Ch. 135: the § 135-4A(1) and (3) triggers (disturbed area, part of a common
  plan and its area, excavation and fill, open channel, designation by the Village
  Administrator); the § 135-4A(2) and § 135-4C exemptions (federal NPDES exemption, kind
  of work, routine maintenance, state agency); the notes on state funding and the gap on
  extraterritorial land division (subdivision plat, certified survey).
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest

from siltfence.core.ordinance.loader import load
from siltfence.core.rules import facts_read

pytestmark = pytest.mark.django_db

ANSWER = "/permit-check/answer"
ON = "2026-06-01"
HTMX = {"HX-Request": "true"}
NOT_FACTS = {"jurisdiction", "on", "questions_for", "csrfmiddlewaretoken", ""}

SPENCER_READS = {
    "location",
    "subdivision_plat",
    "certified_survey",
    "disturbed_area",
    "excavation_fill_volume",
    "road_work",
    "underground_pipe_length",
    "state_funded",
    "state_agency",
    "activity_kind",
    "land_use",
    "runoff_leaves_site",
    "area_disturbed_at_one_time",
    "channel_originates_on_site",
}
NEW_GLARUS_READS = {
    "location",
    "disturbed_area",
    "part_of_common_plan",
    "common_plan_disturbed_area",
    "excavation_fill_volume",
    "channel_length_disturbed",
    "designated_by_authority",
    "federal_npdes_exempt",
    "activity_kind",
    "routine_maintenance",
    "state_agency",
    "state_funded",
    "subdivision_plat",
    "certified_survey",
}
READS = {"spencer-wi": SPENCER_READS, "new-glarus-wi": NEW_GLARUS_READS}
VILLAGES = sorted(READS)


class _Form(HTMLParser):
    """The permit check's form as a browser would send it untouched: each field's name,
    kind and the value it sends (None for a box left empty), plus every label and hint."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.select: str | None = None
        self.fields: dict[str, tuple[str, str | None]] = {}
        self.words: list[str] = []
        self._text: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "form" and found.get("id") == "facts-form":
            self.inside = True
        if not self.inside:
            return
        name = found.get("name") or ""
        if tag == "input" and found.get("type") == "checkbox":
            self.fields[name] = ("bool", found.get("value") if "checked" in found else None)
        elif tag == "input" and name:
            self.fields[name] = (found.get("type") or "text", found.get("value") or "")
        elif tag == "select":
            self.select = name
            self.fields[name] = ("choice", None)
        elif (
            tag == "option"
            and self.select
            and ("selected" in found or self.fields[self.select][1] is None)
        ):
            self.fields[self.select] = ("choice", found.get("value") or "")
        if tag in ("label", "option") or "usa-hint" in (found.get("class") or ""):
            self._text = []

    def handle_data(self, data: str) -> None:
        if self._text is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        if tag == "select":
            self.select = None
        if tag in ("label", "option", "div") and self._text is not None:
            self.words.append(" ".join("".join(self._text).split()))
            self._text = None


def _form(client, jurisdiction: str | None = None) -> _Form:
    parser = _Form()
    url = "/" if jurisdiction is None else f"/?jurisdiction={jurisdiction}"
    parser.feed(client.get(url).content.decode())
    return parser


def _as_sent(form: _Form, **changed: str | None) -> dict[str, str]:
    """What the page posts: every field's value, a box only when ticked; ``changed``
    overrides (None leaves a box empty)."""
    sent = {name: value for name, (_, value) in form.fields.items() if value is not None}
    for name, value in changed.items():
        if value is None:
            sent.pop(name, None)
        else:
            sent[name] = value
    return sent


def _text(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def _verdict(response) -> bool | None:
    """True for a permit required, False for none, None for no answer at all."""
    text = response.content.decode()
    if 'data-testid="verdict"' not in text:
        return None
    return "Yes, a permit is required" in text


def test_the_core_lists_the_facts_each_chapters_rules_read():
    for jurisdiction, expected in READS.items():
        assert facts_read(load(jurisdiction)) == expected


@pytest.mark.parametrize("jurisdiction", VILLAGES)
def test_each_villages_page_asks_exactly_the_facts_its_rules_read(client, jurisdiction):
    form = _form(client, jurisdiction)
    asked = set(form.fields) - NOT_FACTS
    assert asked == READS[jurisdiction]
    assert form.fields["questions_for"] == ("hidden", jurisdiction)
    assert form.fields["jurisdiction"] == ("choice", jurisdiction)


def test_spencer_asks_no_new_glarus_question_and_new_glarus_none_of_spencers(client):
    spencer = set(_form(client, "spencer-wi").fields)
    new_glarus = set(_form(client, "new-glarus-wi").fields)
    assert "common_plan_disturbed_area" not in spencer
    assert "part_of_common_plan" not in spencer
    assert "common_plan_disturbed_area" in new_glarus
    assert {"runoff_leaves_site", "land_use", "road_work"}.isdisjoint(new_glarus)


@pytest.mark.parametrize(
    ("jurisdiction", "asked"),
    [
        ("spencer-wi", ["Runoff leaves the site", "A channel starts in the disturbed area"]),
        (
            "new-glarus-wi",
            [
                "Part of a larger common plan of development or sale",
                "Area disturbed by the whole common plan",
            ],
        ),
    ],
)
def test_the_questions_read_as_plain_words(client, jurisdiction, asked):
    """No contract name (``common_plan_disturbed_area``), no code unit (``ft**2``) in a
    label, a hint or a choice; each village's own questions in words."""
    form = _form(client, jurisdiction)
    words = [w for w in form.words if w]
    assert len(words) >= len(READS[jurisdiction])
    for text in words:
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), text
        assert "**" not in text, text
    for question in asked:  # a box's label holds its hint after it
        assert any(w.startswith(question) for w in words), question
    assert "Outside, but where the village reviews land divisions (extraterritorial)" not in words
    assert "outside, but where the village reviews land divisions (extraterritorial)" in words


@pytest.mark.parametrize("jurisdiction", VILLAGES)
@pytest.mark.parametrize("htmx", [True, False], ids=["as-typed", "without-javascript"])
def test_the_form_as_it_opens_gets_no_answer(client, jurisdiction, htmx):
    form = _form(client, jurisdiction)
    response = client.post(ANSWER, _as_sent(form), headers=HTMX if htmx else {})
    assert response.status_code == 200
    assert _verdict(response) is None
    text = _text(response)
    assert "Fill in what you know about the work" in text
    assert "permit is required" not in text
    if htmx:
        # The answer kept at the bottom of a phone's screen is emptied too.
        page = response.content.decode()
        assert re.search(r'<div id="quick-answer"[^>]*hx-swap-oob="true"[^>]*></div>', page)


@pytest.mark.parametrize("jurisdiction", VILLAGES)
def test_a_new_date_alone_is_no_fact_about_the_work(client, jurisdiction):
    form = _form(client, jurisdiction)
    response = client.post(ANSWER, _as_sent(form, on="2025-01-15"), headers=HTMX)
    assert _verdict(response) is None


@pytest.mark.parametrize(
    ("jurisdiction", "changed", "applies"),
    [
        # A quantity typed is a fact, even 0: it says none, and "none" has an answer.
        ("spencer-wi", {"disturbed_area": "0"}, False),
        ("spencer-wi", {"disturbed_area": "5000"}, True),  # § 413-7A(3): 4,000 sq ft or more
        ("spencer-wi", {"subdivision_plat": "yes"}, True),  # § 413-7A(1)
        ("spencer-wi", {"runoff_leaves_site": None}, False),  # a ticked box left empty
        ("spencer-wi", {"land_use": "commercial"}, False),  # a choice made
        ("spencer-wi", {"location": "outside"}, False),  # § 413-3
        ("new-glarus-wi", {"excavation_fill_volume": "0"}, False),
        ("new-glarus-wi", {"designated_by_authority": "yes"}, True),  # § 135-4A(3)
        ("new-glarus-wi", {"activity_kind": "agricultural"}, False),  # § 135-4A(2)(b)
    ],
)
def test_one_fact_given_gets_the_answer(client, jurisdiction, changed, applies):
    form = _form(client, jurisdiction)
    response = client.post(ANSWER, _as_sent(form, **changed), headers=HTMX)
    assert response.status_code == 200
    assert _verdict(response) is applies
    assert "Fill in what you know about the work" not in _text(response)


def test_a_quantity_that_is_not_one_is_refused_not_waited_on(client):
    form = _form(client, "spencer-wi")
    response = client.post(ANSWER, _as_sent(form, disturbed_area="lots"), headers=HTMX)
    assert "Please check: Disturbed area" in _text(response)


def test_a_fact_the_village_does_not_read_is_accepted_and_said_to_be_unused(client):
    """Posted by hand (the page does not ask it of Spencer): accepted, and the answer says
    Ch. 413 has no rule that turns on it."""
    form = _form(client, "spencer-wi")
    response = client.post(ANSWER, _as_sent(form, part_of_common_plan="yes"), headers=HTMX)
    assert response.status_code == 200
    assert _verdict(response) is False
    text = _text(response)
    assert "has no rule that turns on part of a larger common plan" in text
    assert "it does not change this answer" in text


def test_choosing_another_village_brings_its_questions_keeping_what_both_ask(client):
    """The form shows New Glarus's questions; the person picks Spencer. The answer is
    Spencer's, for the facts Spencer reads, and comes with Spencer's questions to take the
    place of New Glarus's: the disturbed area and the ticked plat are kept, the common
    plan (New Glarus only) is dropped and not reported as unused."""
    form = _form(client, "new-glarus-wi")
    sent = _as_sent(
        form,
        jurisdiction="spencer-wi",
        disturbed_area="3000",
        subdivision_plat="yes",
        part_of_common_plan="yes",
        common_plan_disturbed_area="2 acre",
    )
    response = client.post(ANSWER, sent, headers=HTMX)
    assert response.status_code == 200
    assert _verdict(response) is True  # § 413-7A(1): the plat
    page = response.content.decode()
    questions = re.search(
        r'<div id="questions" hx-swap-oob="true">(.*)</div>\s*<div id="quick-answer"', page, re.S
    )
    assert questions, page[-2000:]
    swapped = _Form()
    swapped.feed(f'<form id="facts-form">{questions.group(1)}</form>')
    assert set(swapped.fields) - NOT_FACTS == SPENCER_READS
    assert swapped.fields["questions_for"] == ("hidden", "spencer-wi")
    assert swapped.fields["disturbed_area"] == ("text", "3000")
    assert swapped.fields["subdivision_plat"] == ("bool", "yes")
    # Spencer's own box, not on New Glarus's form: as Spencer's form opens, ticked.
    assert swapped.fields["runoff_leaves_site"] == ("bool", "yes")
    assert "common plan" not in _text(response).lower()


def test_choosing_another_village_before_any_fact_still_waits(client):
    form = _form(client, "spencer-wi")
    response = client.post(ANSWER, _as_sent(form, jurisdiction="new-glarus-wi"), headers=HTMX)
    assert _verdict(response) is None
    page = response.content.decode()
    assert 'name="common_plan_disturbed_area"' in page
    assert 'name="runoff_leaves_site"' not in page


def test_the_same_village_sends_no_questions_back(client):
    form = _form(client, "spencer-wi")
    response = client.post(ANSWER, _as_sent(form, disturbed_area="5000"), headers=HTMX)
    assert 'id="questions"' not in response.content.decode()
