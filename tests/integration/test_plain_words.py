"""Screens speak the clerk's and the contractor's language, never the code's.

The demo (both villages, every role, applications and permits in every state) is loaded,
and every page each person can reach by following links is fetched, together with the
answers the public pages give after a post: the permit check for several projects, and
the design-check report of every example plan in the ordinances' case files. The visible
text of each page (not its attributes, scripts or styles) must hold none of the tokens
below. The API keeps its field paths; only the screens are checked here.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from io import StringIO
from pathlib import Path
from typing import ClassVar
from urllib.parse import urldefrag, urlparse

import pytest
from django.test import Client

REPO = Path(__file__).resolve().parents[2]
DESIGN_CASES = sorted(REPO.glob("ordinances/*/cases/design/*.json"))

# (name, pattern) of what must never reach a screen.
INTERNAL_TOKENS = [
    ("a unit written as code (ft**2)", re.compile(r"\*\*\d")),
    ("a contract path (facts.)", re.compile(r"\bfacts\.[a-z_]")),
    ("a snake_case name", re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b")),
    ("micrometres written as um", re.compile(r"\d um\b|\bum\b")),
    ("a bare gap number (Gap 7)", re.compile(r"\bGap \d")),
    ("a data file name (.yaml)", re.compile(r"\.yaml\b")),
    ("a repository path (docs/)", re.compile(r"\bdocs/")),
    ("a setting's name", re.compile(r"\bSILTFENCE_[A-Z_]+")),
    ("a float with a trailing .0 before a unit", re.compile(r"\b\d+\.0 (?:ft|sq|cu|in|µm)")),
]

PEOPLE = [
    None,  # not signed in
    "spencer-building-inspector",
    "newglarus-administrator",
    "spencer-field-inspector",
    "newglarus-zba",
    "contractor-jo",
    "landowner-alex",
]
# Not screens in words: files, the API and its reference for programmers (whose field names
# are the contract), the admin, and the plan file format, whose keys a plan's author types.
SKIP = re.compile(
    r"^/(static|admin|api|developers/api|documents|accounts/logout|design-checks/plan-format)"
    r"|\.(pdf|geojson|json|csv|atom|ics)$|/geojson$"
)
PROJECTS = [
    {"jurisdiction": "spencer-wi", "disturbed_area": "4000"},
    {"jurisdiction": "spencer-wi", "disturbed_area": "2 acre", "routine_maintenance": "on"},
    {"jurisdiction": "spencer-wi", "disturbed_area": "12 acre", "land_use": "commercial"},
    {"jurisdiction": "new-glarus-wi", "disturbed_area": "500", "federal_npdes_exempt": "on"},
    {"jurisdiction": "new-glarus-wi", "designated_by_authority": "on", "state_funded": "on"},
    {"jurisdiction": "spencer-wi", "excavation_fill_volume": "20 acre"},  # a unit error
]


class VisibleText(HTMLParser):
    """The text a reader sees: no tags, no attributes, no script, style or head."""

    # A textarea holds what the person typed or pasted (a plan's JSON), not the screen's words.
    HIDDEN: ClassVar[set[str]] = {"script", "style", "head", "template", "textarea"}

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.parts: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.HIDDEN:
            self.depth += 1
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.links.append(href)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.HIDDEN and self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if not self.depth:
            self.parts.append(data)

    @property
    def text(self) -> str:
        return re.sub(r"\s+", " ", " ".join(self.parts))


def read(html: str) -> VisibleText:
    parser = VisibleText()
    parser.feed(html)
    return parser


def offences(text: str) -> list[str]:
    found = []
    for name, pattern in INTERNAL_TOKENS:
        for match in pattern.finditer(text):
            start = max(match.start() - 50, 0)
            found.append(f"{name}: …{text[start : match.end() + 30]}…")
    return found


def crawl(client: Client, start: list[str], limit: int = 400, per_kind: int = 6) -> dict[str, str]:
    """Every page reachable from ``start`` by links: path -> visible text.

    Each section of each chapter is read once (whatever citation led to it); other pages
    of one kind (the same path but for its numbers) at most ``per_kind`` times.
    """
    seen: dict[str, str] = {}
    kinds: dict[str, int] = {}
    queue = list(start)
    while queue and len(seen) < limit:
        path = urldefrag(queue.pop(0)).url
        parsed = urlparse(path)
        if parsed.netloc or not parsed.path.startswith("/") or SKIP.search(parsed.path):
            continue
        if parsed.path.startswith("/ordinances/"):
            path = parsed.path
        if path in seen:
            continue
        kind = re.sub(r"\d+", "N", parsed.path)
        if not parsed.path.startswith("/ordinances/") and kinds.get(kind, 0) >= per_kind:
            continue
        kinds[kind] = kinds.get(kind, 0) + 1
        response = client.get(path)
        assert response.status_code < 500, f"{path} answered {response.status_code}"
        if response.status_code != 200 or "html" not in response.get("content-type", ""):
            seen[path] = ""
            continue
        page = read(response.content.decode())
        seen[path] = page.text
        queue.extend(page.links)
    return seen


@pytest.fixture
def demo(db):
    from tools.demo import demo_load

    demo_load(out=StringIO())


@pytest.mark.parametrize("username", PEOPLE, ids=lambda u: u or "public")
def test_no_screen_a_person_can_reach_shows_an_internal_name(demo, username):
    client = Client()
    if username:
        client.force_login(_user(username))
    pages = crawl(client, ["/", "/home/", "/portal/", "/staff/", "/staff/permits/"])
    assert len([p for p, text in pages.items() if text]) >= 5
    problems = [f"{path}: {found}" for path, text in pages.items() for found in offences(text)]
    assert not problems, "\n".join(problems)


def test_the_permit_check_answers_speak_plain_words(db):
    client = Client()
    problems = {}
    for project in PROJECTS:
        response = client.post("/permit-check/answer", project, headers={"HX-Request": "true"})
        assert response.status_code == 200
        text = read(response.content.decode()).text
        assert text.strip()
        problems.update({f"{project}: {found}": True for found in offences(text)})
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("case", DESIGN_CASES, ids=lambda p: f"{p.parents[2].name}/{p.stem}")
def test_the_design_check_report_of_every_example_plan_speaks_plain_words(db, case):
    response = Client().post("/design-checks/", {"plan": case.read_text()})
    assert response.status_code in (200, 400)
    text = read(response.content.decode()).text
    assert "Design-check report" in text
    problems = offences(text)
    assert not problems, "\n".join(problems)


def _user(username):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username=username)


def _labels(html: str) -> set[str]:
    """The text of every <label> of a page, without a required-field star."""
    return {
        re.sub(r"\s+", " ", read(match).text).replace("*", "").strip()
        for match in re.findall(r"<label[^>]*>(.*?)</label>", html, flags=re.S)
    }


@pytest.mark.parametrize(
    "post, label",
    [
        ({"excavation_fill_volume": "20 acre"}, "Excavation plus fill"),
        ({"disturbed_area": "5 kg"}, "Disturbed area"),
        ({"on": "2026-13-01"}, "Date the work is judged on"),
    ],
)
def test_a_permit_check_error_names_the_field_as_the_form_labels_it(db, post, label):
    client = Client()
    form_labels = _labels(client.get("/").content.decode())
    assert label in form_labels
    answer = client.post(
        "/permit-check/answer", {"jurisdiction": "spencer-wi", **post}, headers={"HX-Request": "1"}
    )
    alert = read(answer.content.decode()).text
    assert f"Please check: {label}: " in alert


def test_a_form_error_names_the_field_as_the_form_labels_it(db):
    response = Client().post(
        "/accounts/register/",
        {"username": "sam", "email": "not an address", "first_name": "Sam", "last_name": "Lee"},
    )
    html = response.content.decode()
    assert "Email address" in _labels(html)
    assert "Email address: Enter a valid email address." in read(html).text
