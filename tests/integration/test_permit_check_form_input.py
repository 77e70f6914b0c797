"""The home page's "Do I need a permit?" form takes what it offers and refuses the rest,
naming the field: a yes/no question answered anything but yes or no, a field the form does
not have, a field sent twice. Never a 500, and never an answer silently read as no."""

from __future__ import annotations

import datetime
import html
import re
from html.parser import HTMLParser
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from siltfence.core.dates import read_date
from siltfence.core.facts import FACTS
from siltfence.core.ordinance.loader import load
from siltfence.core.rules import determine, facts_read
from siltfence.presentation.labels import label

pytestmark = pytest.mark.django_db

ANSWER = "/permit-check/answer"
ON = "2026-06-01"
YES_NO_FACTS = [key for key, spec in FACTS.items() if spec.kind == "bool"]
FUZZ = settings(
    deadline=datetime.timedelta(milliseconds=2000),
    max_examples=50,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


class _FormFields(HTMLParser):
    """The fields the permit check's form sends: (name, type, value) of each input,
    select and button inside it."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.fields: list[tuple[str, str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "form" and found.get("id") == "facts-form":
            self.inside = True
        elif self.inside and tag in ("input", "select", "textarea", "button"):
            self.fields.append(
                (found.get("name") or "", found.get("type") or tag, found.get("value"))
            )

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False


def _page_fields(client, jurisdiction: str) -> list[tuple[str, str, str | None]]:
    parser = _FormFields()
    parser.feed(client.get(f"/?jurisdiction={jurisdiction}").content.decode())
    return parser.fields


def _alert(response) -> str:
    """The text of the answer's "Please check" message."""
    match = re.search(r'role="alert".*?<p class="usa-alert__text">(.*?)</p>', response.text, re.S)
    assert match, response.text[:500]
    return html.unescape(re.sub(r"<[^>]+>", "", match.group(1)))


def _today(ordinance) -> datetime.date:
    return datetime.datetime.now(ZoneInfo(ordinance.time_zone)).date()


def _verdict(response) -> bool:
    text = response.content.decode()
    assert ("Yes, a permit is required" in text) != ("No permit is required" in text), text[:500]
    return "Yes, a permit is required" in text


def test_the_form_as_a_browser_sends_it_is_accepted_and_a_ticked_box_reads_yes(client):
    """Everything Spencer's page sends: the form's token, the village, the village whose
    questions it shows, the date, every quantity and choice (their values are in their
    options, left blank here: not given), and the boxes ticked as the page shows them,
    with "Subdivision plat" ticked too. Its button has no name. The page asks only the
    yes/no questions Spencer's rules read."""
    fields = _page_fields(client, "spencer-wi")
    boxes = {name: value for name, kind, value in fields if kind == "checkbox"}
    assert sorted(boxes) == sorted(k for k in YES_NO_FACTS if k in facts_read(load("spencer-wi")))
    assert set(boxes.values()) == {"yes"}
    assert [kind for name, kind, _ in fields if not name] == ["submit"]
    ticked = {key for key in YES_NO_FACTS if FACTS[key].default} | {"subdivision_plat"}
    sent = {name: value or "" for name, kind, value in fields if name and kind != "checkbox"}
    sent |= {name: value or "" for name, value in boxes.items() if name in ticked}
    sent |= {"jurisdiction": "spencer-wi", "on": ON, "disturbed_area": "1000"}
    assert sent["csrfmiddlewaretoken"]
    response = client.post(ANSWER, sent)
    assert response.status_code == 200, _alert(response)
    # § 413-7A(1): a subdivision plat needs a permit, however small the area.
    assert _verdict(response) is True


@pytest.mark.parametrize("key", YES_NO_FACTS)
@pytest.mark.parametrize("typed", ["maybe", "", "true", "Yes", "1", "off"])
def test_a_yes_no_question_answered_otherwise_is_refused_naming_it(client, key, typed):
    response = client.post(ANSWER, {"jurisdiction": "spencer-wi", "on": ON, key: typed})
    assert response.status_code == 400
    assert f'data-field="{key}"'.encode() in response.content
    assert _alert(response) == (
        f"Please check: {label(key)}: answer yes or no (tick the box for yes, leave it "
        f"empty for no); got {typed!r}"
    )


def test_the_refusal_is_shown_in_the_form_as_it_is_typed(client):
    """As the page asks while one types (htmx): 200, with the message in the answer."""
    response = client.post(
        ANSWER,
        {"jurisdiction": "spencer-wi", "on": ON, "subdivision_plat": "maybe"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert _alert(response).startswith("Please check: Subdivision plat: answer yes or no")


@pytest.mark.parametrize(
    ("jurisdiction", "area", "key"),
    [
        # Whatever the area disturbed: § 413-7A(1) a subdivision plat, § 413-7A(2) a
        # certified survey, § 413-7A(5) road work; § 135-4A(3) a site the Village
        # Administrator finds likely to cause runoff that exceeds safe capacity.
        ("spencer-wi", "1000", "subdivision_plat"),
        ("spencer-wi", "1000", "certified_survey"),
        ("spencer-wi", "1000", "road_work"),
        ("new-glarus-wi", "1000", "designated_by_authority"),
    ],
)
def test_yes_and_no_give_the_ordinances_two_answers(client, jurisdiction, area, key):
    def ask(answer: str | None):
        post = {"jurisdiction": jurisdiction, "on": ON, "disturbed_area": area}
        if answer is not None:
            post[key] = answer
        response = client.post(ANSWER, post)
        assert response.status_code == 200
        return _verdict(response)

    assert ask("yes") is True
    assert ask("on") is True  # a page shown before the boxes had a value
    assert ask("no") is False
    assert ask(None) is False  # a box left empty


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        ({"colour": "red"}, "'colour'"),
        ({"subdivision": "yes", "depth": "3"}, "'subdivision'"),  # the first of two
        ({"Subdivision_plat": "yes"}, "'Subdivision_plat'"),
        ({"x" * 500: "1"}, repr("x" * 40 + "…")),
    ],
)
def test_a_field_the_form_does_not_have_is_refused_naming_the_first(client, extra, named):
    response = client.post(
        ANSWER, {"jurisdiction": "spencer-wi", "on": ON, "disturbed_area": "1000", **extra}
    )
    assert response.status_code == 400
    assert _alert(response) == (
        f"Please check: {named} is not a question on this form. Reload the page and answer "
        "only the questions it shows"
    )


@pytest.mark.parametrize(
    ("key", "values", "shown"),
    [
        ("subdivision_plat", ["yes", "no"], "Subdivision plat"),
        ("disturbed_area", ["1000", "9 acre"], "Disturbed area"),
        ("jurisdiction", ["spencer-wi", "new-glarus-wi"], "Village"),
    ],
)
def test_a_field_sent_twice_is_refused_naming_it(client, key, values, shown):
    post: dict[str, object] = {"jurisdiction": "spencer-wi", "on": ON, key: values}
    response = client.post(ANSWER, post)
    assert response.status_code == 400
    assert f'data-field="{key}"'.encode() in response.content
    assert _alert(response) == f"Please check: {shown}: answered more than once; answer it once"


TYPED = st.one_of(
    st.sampled_from(["yes", "no", "on", "maybe", "", " yes", "YES", "true", "0", "1000"]),
    st.text(max_size=30),
)
FIELDS = [*FACTS, "on", "jurisdiction"]


@FUZZ
@given(
    jurisdiction=st.sampled_from(["spencer-wi", "new-glarus-wi"]),
    area=st.sampled_from(["1000", "5000"]),
    key=st.sampled_from(FIELDS),
    typed=TYPED,
)
@example(jurisdiction="new-glarus-wi", area="1000", key="disturbed_area", typed=" ")
def test_any_text_in_any_field_is_answered_as_the_ordinance_says_or_refused_naming_it(
    client, jurisdiction, area, key, typed
):
    post = {"jurisdiction": jurisdiction, "on": ON, "disturbed_area": area, key: typed}
    response = client.post(ANSWER, post)
    assert response.status_code in (200, 400)
    if response.status_code == 400:
        assert f'data-field="{key}"'.encode() in response.content
        assert _alert(response).startswith("Please check: ")
    if key in YES_NO_FACTS:
        # Only yes and no are answers; nothing else is read as one.
        assert (response.status_code == 200) == (typed in ("yes", "on", "no"))
    if response.status_code == 200 and b'data-testid="no-answer-yet"' in response.content:
        # Nothing said about the work (New Glarus's questions, the area emptied): no answer
        # until a fact is given.
        assert (jurisdiction, key, typed.strip()) == ("new-glarus-wi", "disturbed_area", "")
        return
    if response.status_code == 200:
        # The answer is the ordinance's for what was posted, read as the form means it:
        # a box is yes when sent yes, no otherwise; a blank quantity or choice is not given.
        facts: dict[str, object] = {
            k: post.get(k) in ("yes", "on") for k in FACTS if FACTS[k].kind == "bool"
        }
        facts |= {
            k: str(post[k]).strip()
            for k in FACTS
            if FACTS[k].kind != "bool" and str(post.get(k) or "").strip()
        }
        ordinance = load(post["jurisdiction"])
        on = read_date(post["on"]) if post["on"] else _today(ordinance)
        expected = determine(post["jurisdiction"], facts, on)
        assert _verdict(response) is expected.applies
