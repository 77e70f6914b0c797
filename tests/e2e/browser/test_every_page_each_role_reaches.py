"""Every page each person can reach by following links, in a real Chromium on a phone.

The world is the demo (``tools.demo``: both villages, every role, applications in every
state, permits in force with their duties, a stop-work order under appeal), with what it
lacks added through the services: a fee schedule in each village, application fees paid
(one last year), and in Spencer a case of village work billed on an invoice, part paid.

For each role (the public, an applicant who holds permits, the village's staff, an
inspector, an appeals board member) the crawl starts at the person's home page and follows
every same-origin link, breadth first, each URL (path and query) once. Downloads (PDF,
CSV, GeoJSON, calendars, the feed, stored files) are fetched, not rendered: status 200 and
the right content type. Logging out, the site administration and the API are left alone.
Two links are the same page though their queries differ in two cases only: a section of a
chapter is read once, whatever provision the link cites (``?cite=``); and a list that
walks the calendar a year at a time (``?year=``) is followed over the years of the world's
records, not one link at a time from 1990 to 2100 (``YEARS``).

At 390 px, on every HTML page: the status is below 400 (a 403 or 404 reached by a link a
page showed is a dead end, named with the page that linked to it); nothing scrolls
sideways; one ``h1`` and a ``<title>``; no internal name or raw value in the visible text;
and axe-core finds nothing. Each role's home page is also checked at 1280 px. The crawl
stops at ``CAP`` pages and fails if it had to: a crawl that stopped early proves nothing.

Problems are collected per role and asserted once, each with the role, the URL, what is
wrong and the page that linked to it. What the program shows wrong today is listed in
``KNOWN_DEFECTS`` (a URL pattern, a check, a line saying what), so the rest still guards.
"""

from __future__ import annotations

import datetime
import re
import time
from collections import deque
from dataclasses import dataclass, field
from io import StringIO
from typing import Any
from urllib.parse import urldefrag, urlsplit
from zoneinfo import ZoneInfo

import pytest

from conftest import AXE, DESK, PHONE, axe_violations, sign_in

# The richest world the browser tests have is the demo's; its people share one password.
from tools.demo import PASSWORD

CAP = 150  # HTML pages a role's crawl may open; reaching it fails the test
TABS = 3  # pages open at once: axe checks one while the next ones load
ROLES = {
    # role: (username or None for the public, where the crawl starts)
    "public": (None, "/"),
    "applicant": ("landowner-alex", "/home/"),
    "staff": ("spencer-building-inspector", "/home/"),
    "inspector": ("spencer-field-inspector", "/home/"),
    "board": ("spencer-zba-chair", "/home/"),
}

# A section of a chapter; a link to it may name the provision cited (?cite=...).
SECTION = re.compile(r"^/ordinances/[a-z-]+/sections/[^/]+/$")
# Never followed: signing out, the site administration, the API (JSON, not screens).
SKIPPED = re.compile(r"^/(?:accounts/logout/|admin/|api/)")
# Downloads, fetched and checked, never rendered: the path (or query) and its content type.
DOWNLOADS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\.pdf$"), "application/pdf"),
    (re.compile(r"\.csv$"), "text/csv"),
    (re.compile(r"\.geojson$"), "application/geo+json"),
    (re.compile(r"\.ics$"), "text/calendar"),
    (re.compile(r"\.atom$|/feed/?$"), "application/atom+xml"),
    (re.compile(r"^/enforcement/documents/\d+/$"), "application/pdf"),
    (re.compile(r"^/documents/\d+/$"), "stored"),  # the type the file was stored with
    (re.compile(r"^/(?:enforcement/photos|inspection-photos|site-log/photos)/\d+/$"), "image/"),
]

# What must never reach a person's screen (the visible text, without <code>, <pre>,
# <kbd> and form fields, where a name or a value typed is what is meant).
RAW = [
    ("Python's None/True/False", re.compile(r"\b(?:None|True|False)\b")),
    ("a NaN", re.compile(r"\bnan\b")),
    ("a template tag", re.compile(r"\{\{|\{%")),
    ("a traceback", re.compile(r"Traceback")),
    ("a Python repr", re.compile(r"<[A-Z][A-Za-z]*:|object at 0x")),
    ("a snake_case name", re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")),
]
# "None." (or "None recorded yet.", "None ahead.") as the whole of a line is English, the
# empty list's own sentence, not Python's None (as season_screens_helpers reads it).
ENGLISH_NONE = re.compile(r"None(?: [a-z][a-z ]*)?\.")

# What the program shows wrong today, found by this crawl: (role or "*", the URL's path and
# query as a pattern, the check, a pattern of what the check says) -> the defect in a line.
# Each entry silences exactly that check there, and must still be seen (remove it once the
# program is fixed); everything else still guards.
KNOWN_DEFECTS: dict[tuple[str, str, str, str], str] = {}


@dataclass(frozen=True)
class Problem:
    role: str
    url: str
    check: str
    what: str
    linked_from: str

    def __str__(self) -> str:
        return (
            f"[{self.role}] {self.url} — {self.check}: {self.what} (linked from {self.linked_from})"
        )


def known(problem: Problem) -> tuple[str, str, str, str] | None:
    """The entry of ``KNOWN_DEFECTS`` the problem is, or None."""
    parts = urlsplit(problem.url)
    where = parts.path + (f"?{parts.query}" if parts.query else "")
    for entry in KNOWN_DEFECTS:
        role, pattern, check, said = entry
        if (
            role in ("*", problem.role)
            and check == problem.check
            and re.fullmatch(pattern, where)
            and re.search(said, problem.what)
        ):
            return entry
    return None


# -- the world -------------------------------------------------------------------------------


def _local(day: datetime.date, hour: int) -> datetime.datetime:
    return datetime.datetime.combine(day, datetime.time(hour), tzinfo=ZoneInfo("America/Chicago"))


def world_built() -> dict[str, Any]:
    """The demo, then fees, payments and an invoice on top of it. Returns the people and
    the payments recorded (the newest first), for the tests that check them."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from siltfence.apps.enforcement import services as enforcement
    from siltfence.apps.payments import services as payments
    from siltfence.apps.permits import services
    from siltfence.apps.permits.models import Application, Village
    from tools.demo import _plan_pdf, demo_load

    demo_load(out=StringIO())
    users = {u.username: u for u in get_user_model().objects.all()}
    spencer, glarus = Village.objects.get(pk="spencer-wi"), Village.objects.get(pk="new-glarus-wi")
    clerk, administrator = users["spencer-building-inspector"], users["newglarus-administrator"]
    alex = users["landowner-alex"]
    since = datetime.date(2020, 1, 1)
    services.fee_schedule_set(
        village=spencer, staff=clerk, effective_from=since, amount="75", authority="Res. 2020-3"
    )
    services.fee_schedule_set(
        village=glarus,
        staff=administrator,
        effective_from=since,
        amount="120",
        authority="Res. 20-7",
    )
    today = timezone.localdate()
    received = []

    # Alex's site of last year: the fee paid by check, filed, approved; in February the
    # silt fence is down, a stop-work order, the village's work, billed; part paid in March.
    oak = services.application_create(
        applicant=alex,
        village=spencer,
        address="27 Oak St, Spencer",
        facts={"disturbed_area": 7000, "land_use": "residential"},
        on=datetime.date(2025, 11, 3),
        parcel_number="031-1190",
        description="New garage and driveway",
        parties=[{"role": "landowner", "name": "Alex Schmid"}],
    )
    services.application_checklist_set(
        application=oak,
        user=alex,
        items=list(range(len(oak.determination["plan"]["contents"]))),
    )
    services.document_upload(
        application=oak,
        user=alex,
        kind="plan",
        name="plan-oak.pdf",
        content=_plan_pdf(oak.site.address),
        claimed_type="application/pdf",
    )
    received.append(
        payments.payment_receive(
            staff=clerk,
            application=oak,
            amount="75",
            received_on=datetime.date(2025, 11, 5),
            method="check",
            check_number="1042",
        )
    )
    services.application_submit(
        application=oak, user=alex, at=_local(datetime.date(2025, 11, 6), 9)
    )
    permit = services.application_approve(
        application=Application.objects.get(pk=oak.pk),
        staff=clerk,
        at=_local(datetime.date(2025, 11, 13), 10),
    )
    case = enforcement.violation_record(
        village=spencer,
        recorded_by=clerk,
        source="observation",
        description="Silt fence down along the street; sediment in the gutter.",
        provision="§ 413-7B(4)",
        days_from=datetime.date(2026, 2, 2),
        at=_local(datetime.date(2026, 2, 2), 10),
        permit=permit,
    ).case
    enforcement.stop_work_order_post(
        case=case,
        staff=clerk,
        at=_local(datetime.date(2026, 2, 3), 9),
        grounds=["conditions-not-met"],
    )
    enforcement.notice_of_intent_issue(
        case=case,
        staff=clerk,
        at=_local(datetime.date(2026, 2, 16), 9),
        work="Reset the silt fence and sweep the street.",
    )
    enforcement.village_work_begin(case=case, staff=clerk, at=_local(datetime.date(2026, 3, 3), 8))
    for category, description, amount in (
        ("contracts", "Fence contractor", "650.00"),
        ("labour", "Public works crew, 4 hours", "200.00"),
    ):
        enforcement.work_cost_record(
            case=case,
            staff=clerk,
            category=category,
            description=description,
            amount=amount,
            incurred_on=datetime.date(2026, 3, 4),
        )
    invoice = enforcement.invoice_issue(case=case, staff=clerk, on=datetime.date(2026, 3, 9))
    received.append(
        payments.payment_receive(
            staff=clerk,
            invoice=invoice,
            amount="400",
            received_on=datetime.date(2026, 3, 27),
            method="transfer",
        )
    )

    # This year's fees on two drafts: part of Alex's in Spencer, all of Jo's in New Glarus.
    clark = Application.objects.get(site__address="300 E Clark St, Spencer")
    received.append(
        payments.payment_receive(
            staff=clerk, application=clark, amount="50", received_on=today, method="cash"
        )
    )
    second = Application.objects.get(site__address="600 2nd St, New Glarus")
    received.append(
        payments.payment_receive(
            staff=administrator, application=second, amount="120", received_on=today, method="card"
        )
    )
    holds_every_kind_of_record()
    return {"users": users, "payments": received, "oak": oak, "case": case}


def holds_every_kind_of_record() -> None:
    """The world has what the crawl is meant to reach: a draft and a filed application, a
    permit in force with its duties, an enforcement case with an order and an invoice, a
    payment, an appeal."""
    from siltfence.apps.appeals.models import Appeal
    from siltfence.apps.duties.models import PermitDuties
    from siltfence.apps.enforcement.models import EnforcementAction, Invoice
    from siltfence.apps.payments.models import Payment
    from siltfence.apps.permits.models import Application, Permit

    applications = Application.objects.filter(village_id="spencer-wi")
    assert applications.filter(status="draft").exists()
    assert applications.filter(status="under_review").exists()
    in_force = Permit.objects.filter(village_id="spencer-wi", status="active")
    assert PermitDuties.objects.filter(permit__in=in_force, open_count__gt=0).exists()
    assert EnforcementAction.objects.filter(kind="stop_work_order").exists()
    assert Invoice.objects.exists() and Payment.objects.filter(invoice__isnull=False).exists()
    assert Appeal.objects.filter(village_id="spencer-wi").exists()


@pytest.fixture
def world(purgeable_audit, live_server, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return world_built()


# -- one page ---------------------------------------------------------------------------------

# The innermost elements sticking out past the window's right edge, the widest first.
WIDEST = """() => {
    const edge = window.innerWidth + 1;
    const out = [...document.body.querySelectorAll("*")]
        .filter(el => el.getBoundingClientRect().right > edge);
    const inner = out.filter(el => !out.some(o => o !== el && el.contains(o)));
    inner.sort((a, b) => b.getBoundingClientRect().width - a.getBoundingClientRect().width);
    return inner.slice(0, 3).map(el => {
        const box = el.getBoundingClientRect();
        const text = (el.innerText || el.textContent || "").replace(/\\s+/g, " ").trim();
        return `<${el.tagName.toLowerCase()} class="${el.getAttribute("class") || ""}"> `
            + `${Math.round(box.width)}px wide, to ${Math.round(box.right)}px: `
            + `"${text.slice(0, 60)}"`;
    });
}"""

# What the page is: its width, its h1s and title, its visible text without what is shown
# as code or typed into a form field (a text area's; an input's value is not in the text,
# a select's options are, as the words a person chooses among), and its links.
SEEN = """() => {
    const quiet = [...document.body.querySelectorAll("code, pre, kbd, textarea")];
    const kept = quiet.map(el => el.getAttribute("style"));
    quiet.forEach(el => el.style.setProperty("display", "none", "important"));
    const text = document.body.innerText;
    quiet.forEach((el, i) => kept[i] === null ? el.removeAttribute("style")
                                              : el.setAttribute("style", kept[i]));
    return {
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
        h1: document.querySelectorAll("h1").length,
        title: (document.querySelector("head > title") || {}).textContent || "",
        text: text,
        links: [...document.querySelectorAll("a[href]")].map(a => a.href),
    };
}"""

# axe-core, as conftest.axe_violations runs it (every rule, the violations), but started
# without waiting, so that the crawl opens the next page in another tab while axe works on
# this one. axe is in every page of the crawl's browser context as an init script, given
# through the DevTools protocol: the page's Content-Security-Policy stays as in production.
AXE_START = """() => { window.__axeRun = null; setTimeout(() => {
    window.__axeRun = axe.run(document, {resultTypes: ["violations"]}).then(result =>
        result.violations.map(v => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3)
            .map(n => n.target.join(" ")).join(", ")}`));
    }, 0); }"""
AXE_RESULT = """async () => {
    while (!window.__axeRun) await new Promise(done => setTimeout(done, 5));
    return await window.__axeRun;
}"""


def raw_names(text: str) -> list[str]:
    """Each internal name or raw value in ``text``, with a little of the text around it."""
    found = []
    for line in text.splitlines():
        english = ENGLISH_NONE.fullmatch(line.strip())
        for name, pattern in RAW:
            for match in pattern.finditer(line):
                if english and match.group(0) == "None":
                    continue
                start = max(match.start() - 40, 0)
                around = line[start : match.end() + 40].strip()
                found.append(f"{name} {match.group(0)!r} in “…{around}…”")
    return found


def page_problems(page: Any, seen: dict[str, Any]) -> list[tuple[str, str]]:
    """(check, what) for each thing wrong with the page as it is now, but axe's."""
    found = []
    if seen["scrollWidth"] > seen["innerWidth"] + 1:
        widest = "; ".join(page.evaluate(WIDEST)) or "no element found"
        found.append(
            (
                "overflow",
                f"{seen['scrollWidth']}px wide in a {seen['innerWidth']}px window: {widest}",
            )
        )
    if seen["h1"] != 1:
        found.append(("h1", f"{seen['h1']} h1 elements, not one"))
    if not seen["title"].strip():
        found.append(("title", "no <title>, or an empty one"))
    found += [("raw text", what) for what in raw_names(seen["text"])]
    return found


def download_problem(context: Any, url: str, expected: str) -> str | None:
    """What is wrong with a download: its status, or its content type."""
    response = context.request.get(url, max_redirects=0)
    if response.status != 200:
        return f"the download answered HTTP {response.status}"
    got = response.headers.get("content-type", "")
    if expected == "stored":
        from siltfence.apps.permits.models import Document

        expected = Document.objects.get(pk=int(urlsplit(url).path.split("/")[-2])).content_type
    if not got.startswith(expected):
        return f"the download is {got!r}, not {expected}"
    return None


def key(url: str) -> str:
    """What makes two links the same page: the path and the query (the citation a link to
    a section marks is not a page of its own; the section is read once)."""
    parts = urlsplit(url)
    if SECTION.match(parts.path):
        return parts.path
    return parts.path + (f"?{parts.query}" if parts.query else "")


def kind_of_download(url: str) -> str | None:
    """The content type a link to a file should answer with, or None for a page."""
    parts = urlsplit(url)
    if re.search(r"(?:^|&)format=csv(?:&|$)", parts.query):
        return "text/csv"
    for pattern, expected in DOWNLOADS:
        if pattern.search(parts.path):
            return expected
    return None


# -- the crawl --------------------------------------------------------------------------------

# A calendar a list walks a year at a time (?year=) is followed over the years the world's
# records span and one either side; the years beyond are the same empty page, one link at a
# time back to 1990 and on to 2100.
YEARS = range(2024, datetime.date.today().year + 2)


def beyond_the_years(query: str) -> bool:
    return any(int(year) not in YEARS for year in re.findall(r"(?:^|&)year=(\d+)", query))


@dataclass
class Crawl:
    """One role's crawl: what it opened, and what it found wrong."""

    role: str
    pages: int = 0
    downloads: int = 0
    problems: list[Problem] = field(default_factory=list)

    def note(self, url: str, check: str, what: str, linked_from: str) -> None:
        self.problems.append(Problem(self.role, url, check, what, linked_from))


def crawl(browser: Any, base: str, role: str) -> Crawl:
    """Breadth first from the role's home page, ``TABS`` tabs in turn: a tab's axe run is
    read back just before the tab opens its next page."""
    username, home = ROLES[role]
    done = Crawl(role)
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(path=AXE)  # axe in every page, through the DevTools protocol
    tabs = [context.new_page() for _ in range(TABS)]
    running: list[tuple[str, str] | None] = [None] * TABS

    def axe_read(slot: int) -> None:
        if running[slot] is not None:
            url, linked_from = running[slot]
            for line in tabs[slot].evaluate(AXE_RESULT):
                done.note(url, "axe", line, linked_from)
            running[slot] = None

    try:
        if username:
            sign_in(tabs[0], base, username, PASSWORD)
        origin = urlsplit(base).netloc
        queue: deque[tuple[str, str]] = deque([(base + home, "(start)")])
        seen = {key(base + home)}
        while queue:
            url, linked_from = queue.popleft()
            expected = kind_of_download(url)
            if expected:
                done.downloads += 1
                wrong = download_problem(context, url, expected)
                if wrong:
                    done.note(url, "download", wrong, linked_from)
                continue
            if done.pages >= CAP:
                done.note(
                    url,
                    "cap",
                    f"the crawl reached its cap of {CAP} pages with {len(queue) + 1} links "
                    "still to follow: it proves nothing about them",
                    linked_from,
                )
                break
            slot = done.pages % TABS
            done.pages += 1
            axe_read(slot)
            tab = tabs[slot]
            try:
                response = tab.goto(url)
            except Exception as error:
                if "Download is starting" not in str(error):
                    raise
                done.note(url, "download", "a file behind a link with no file's name", linked_from)
                continue
            status = response.status if response else 0
            if status >= 400:
                done.note(url, "status", f"HTTP {status}: a dead end", linked_from)
                continue
            landed = tab.url
            seen.add(key(landed))
            if username and urlsplit(landed).path == "/accounts/login/":
                done.note(url, "status", "sent to sign in again: a dead end", linked_from)
                continue
            if "text/html" not in (response.headers.get("content-type", "") if response else ""):
                done.note(url, "download", "not HTML, and not linked as a file", linked_from)
                continue
            looked = tab.evaluate(SEEN)
            for check, what in page_problems(tab, looked):
                done.note(landed, check, what, linked_from)
            tab.evaluate(AXE_START)
            running[slot] = (landed, linked_from)
            for href in looked["links"]:
                link = urldefrag(href).url
                parts = urlsplit(link)
                if parts.scheme not in ("http", "https") or parts.netloc != origin:
                    continue
                if SKIPPED.search(parts.path) or beyond_the_years(parts.query):
                    continue
                if key(link) not in seen:
                    seen.add(key(link))
                    queue.append((link, landed))
        for slot in range(TABS):
            axe_read(slot)
        axe_runs(tabs[0])

        # The home page at a desk's width: the same checks.
        tab = tabs[0]
        tab.set_viewport_size(DESK)
        response = tab.goto(base + home)
        if response is None or response.status >= 400:
            done.note(base + home, "status", "the home page does not open at 1280 px", "(start)")
        else:
            for check, what in page_problems(tab, tab.evaluate(SEEN)):
                done.note(tab.url, check, f"at 1280 px: {what}", "(start)")
            for line in axe_violations(tab):
                done.note(tab.url, "axe", f"at 1280 px: {line.split(': ', 1)[1]}", "(start)")
    finally:
        context.close()
    return done


def axe_runs(tab: Any) -> None:
    """The crawl's way of running axe does run it: an image without a text alternative,
    added to the page shown, is found."""
    tab.evaluate(
        "() => document.body.append(Object.assign(document.createElement('img'), "
        "{src: '/no-such-image.png'}))"
    )
    tab.evaluate(AXE_START)
    found = tab.evaluate(AXE_RESULT)
    assert any(line.startswith("image-alt ") for line in found), found


@pytest.mark.parametrize("role", list(ROLES))
def test_every_page_a_role_reaches_works_on_a_phone(live_server, browser, world, role):
    started = time.monotonic()
    done = crawl(browser, live_server.url, role)
    print(
        f"\n{role}: {done.pages} pages and {done.downloads} downloads "
        f"in {time.monotonic() - started:.1f}s"
    )
    assert done.pages >= 10, f"{role}: the crawl opened only {done.pages} pages"
    left = [str(p).replace(live_server.url, "") for p in done.problems if known(p) is None]
    seen = {known(p) for p in done.problems}
    stale = [
        f"KNOWN_DEFECTS{entry}: no longer seen; remove it"
        for entry in KNOWN_DEFECTS
        if entry[0] in ("*", role) and entry not in seen
    ]
    problems = left + stale
    assert problems == [], f"{role}: {len(problems)} problems:\n" + "\n".join(problems)
