"""The screens of a season, in a real Chromium, at a desk's width (1280 px) and a phone's
(390 px), as each person who uses them, in Spencer (Ch. 413) and in New Glarus (Ch. 135).

A short 2025 season is built in each village through the services (season_screens_helpers:
a home site approved subject to a $5,000 surety bond and its permit issued when the bond
came in, the May rain, a stop-work order reversed on appeal, an extension), and this week
an application approved subject to a $5,000 surety not yet received, whose applicant
appeals that condition. Then the screens are walked once, each at both widths:

- the applicant: the application page, approved subject to a surety;
- the staff: the review queue; the application page and its form "Record the surety and
  issue the permit", which they fill and submit (the page should then name the permit);
  the permit page with its letters (the first permit document superseded by the
  extension's) and the surety with its balance and the draw/release form; in Spencer they
  release the surety there, and the release letter joins the letters; the enforcement
  case after the order and its retraction, with the retraction letter;
- the inspector: their home, the round, the inspection page;
- the permittee: the permit page with their duties, the site log;
- the appeals board: their home, the appeal waiting for a decision, with its form;
- the public: the register's row of the permit.

On every screen at both widths: nothing wider than the window; no internal name shown to
a person (a snake_case status or document kind, Python's None); and the words a clerk or a
contractor needs there (the amount, the section, the permit's last day, "superseded").

The walk is done once for the module (a season costs seconds), and each test reads what
was seen, so each screen's problem fails on its own. What the program shows wrong today is
asserted as it should be and marked xfail(strict=True), with what is wrong in the reason.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import override_settings
from season_screens_helpers import (
    NEW_GLARUS,
    PASSWORD,
    SPENCER,
    Look,
    Season,
    look,
    raw_names,
    season_built,
)

from conftest import DESK, PHONE, sign_in

# ``django_db``: every test here has pytest-django make the test database (which the walk
# is built in, whatever tests are selected); the tests themselves only read what the walk
# saw, each inside a transaction rolled back.
pytestmark = [pytest.mark.browser, pytest.mark.django_db]

VILLAGES = (SPENCER, NEW_GLARUS)
WIDTHS = {"desk": DESK, "phone": PHONE}
RELEASED_IN = SPENCER  # the village whose staff release the surety in the browser

# Each screen, in the order walked, and what it is; who sees it is ROLE (the staff if not there).
SCREENS = {
    "portal-application": "the applicant's application page, before the surety is in",
    "review-queue": "the staff's review queue",
    "staff-application": "the staff's application page, awaiting the surety",
    "surety-recorded": "the staff's application page, once the surety form is submitted",
    "staff-permit": "the staff's permit page, the draw/release form open",
    "surety-released": "the staff's permit page, once the surety is released",
    "enforcement-case": "the enforcement case, after the order and its retraction",
    "inspector-home": "the inspector's home",
    "inspection-round": "the inspection round",
    "inspection-page": "the inspection page of the permit",
    "permittee-permit": "the permittee's permit page",
    "site-log": "the permittee's site log",
    "board-home": "the appeals board's home",
    "appeal-decision": "the appeal waiting for the board, with how the board decides",
    "register": "the public register, searched for the permit",
}
ROLE = {
    "portal-application": "developer",
    "permittee-permit": "homeowner",
    "site-log": "homeowner",
    "inspector-home": "inspector",
    "inspection-round": "inspector",
    "inspection-page": "inspector",
    "board-home": "board",
    "appeal-decision": "board",
    "register": "public",
}

# The permit was issued Wed 2025-04-09, the day the bond came in (§ 413-8E(1)-(2), § 135-7D,
# § 135-7G): 180 days, Apr 10-30 (21), May (52), June (82), July (113), August (144),
# September (174), Oct 1-6 (180): Mon 2025-10-06. Extended Mon 09-22 by 60 days: Oct 7-31
# (25), November (55), Dec 1-5 (60): Fri 2025-12-05. A period of validity does not move.
FIRST_LAST_DAY = "Oct. 6, 2025"
LAST_DAY = "Dec. 5, 2025"
ISSUED = "April 9, 2025"
AMOUNT = re.compile(r"\$5,?000\b")

TOO_WIDE: dict[tuple[str, str, str], str] = {}


def _walked_in(village: str, screen: str) -> bool:
    return screen != "surety-released" or village == RELEASED_IN


def _every_screen(xfails: dict) -> list[Any]:
    return [
        pytest.param(
            village,
            screen,
            width,
            id=f"{village}-{screen}-{width}",
            marks=[pytest.mark.xfail(strict=True, reason=xfails[(village, screen, width)])]
            if (village, screen, width) in xfails
            else [],
        )
        for village in VILLAGES
        for screen in SCREENS
        if _walked_in(village, screen)
        for width in WIDTHS
    ]


def each(villages=VILLAGES, xfail: str = "") -> Any:
    """Parametrize a test over villages and widths; every case xfail with ``xfail``."""
    marks = [pytest.mark.xfail(strict=True, reason=xfail)] if xfail else []
    return pytest.mark.parametrize(
        "village,width",
        [pytest.param(v, w, id=f"{v}-{w}", marks=marks) for v in villages for w in WIDTHS],
    )


# -- the walk --------------------------------------------------------------------------------


class Walk:
    """One village's people, each signed in in their own browser context, and what each
    screen showed them."""

    def __init__(self, browser: Any, base: str, season: Season, seen: dict) -> None:
        self.base, self.season, self.seen = base, season, seen
        self.pages: dict[str, Any] = {}
        for role in ("developer", "staff", "inspector", "homeowner", "board", "public"):
            page = browser.new_context(viewport=DESK).new_page()
            page.set_default_timeout(10_000)
            if role != "public":
                sign_in(page, base, getattr(season.people, role).username, PASSWORD)
            self.pages[role] = page

    def screen(
        self, screen: str, url: str | None, *, then: Any = None, widths=tuple(WIDTHS), **parts
    ) -> None:
        """Open ``url`` (None: stay on the page) at each width, do ``then`` there, and keep
        what the page shows; a visit that fails is kept as its error, for the tests that
        read the screen to report."""
        page = self.pages[ROLE.get(screen, "staff")]
        for width in widths:
            page.set_viewport_size(WIDTHS[width])
            try:
                response = page.goto(self.base + url) if url is not None else None
                if then is not None:
                    then(page)
                seen = look(page, **parts)
                seen.status = response.status if response is not None else None
            except Exception as exc:  # kept, and failed by the tests that read the screen
                seen = Look(url=page.url, error=f"{type(exc).__name__}: {exc}")
            self.seen[(self.season.village_id, screen, width)] = seen

    def close(self) -> None:
        for page in self.pages.values():
            page.context.close()


SURETY_FORM = "form[action$='/surety']"
SURETY_FIELDS = {
    "Kind": "Surety bond",
    "Amount": "5000",
    "Issuer (surety company or bank)": "Badger State Surety Co.",
    "Bond or letter number": "SB-2026-118",
}


def open_the_surety(page: Any) -> None:
    page.locator("details.card summary", has_text="Draw on or release").first.click()


def record_the_surety(page: Any) -> None:
    """The clerk, bond in hand, fills what the form asks (each field it shows) and submits."""
    form = page.locator(SURETY_FORM)
    for label, value in SURETY_FIELDS.items():
        field = form.get_by_label(label)
        if field.count() and label == "Kind":
            field.select_option(label=value)
        elif field.count():
            field.fill(value)
    form.get_by_role("button", name="Record the surety and issue the permit").click()
    page.wait_for_load_state()


def release_the_surety(page: Any) -> None:
    """Release what is left (the amount left empty), dated today as the form offers."""
    open_the_surety(page)
    form = page.locator("details.card form", has_text="Release and send the letter")
    form.get_by_label("Reason").fill("The lot is seeded and mulched; the bond is returned.")
    form.get_by_role("button", name="Release and send the letter").click()
    page.wait_for_load_state()


def walk_village(browser: Any, base: str, season: Season, seen: dict) -> None:
    from siltfence.apps.permits.models import Permit

    walk = Walk(browser, base, season, seen)
    permit, pending = season.permit, season.pending
    letters = {"letters": "[data-testid=letters]"}
    try:
        walk.screen("portal-application", f"/portal/applications/{pending.pk}/")
        walk.screen("review-queue", "/staff/", rows="[data-testid=queue] tbody tr")
        application = f"/staff/applications/{pending.pk}/"
        walk.screen("staff-application", application, form=SURETY_FORM, record="ol.audit li")
        # The action: at the desk, the page the form's submission leads to; on the phone,
        # the application page opened again.
        walk.screen("surety-recorded", None, then=record_the_surety, widths=("desk",))
        walk.screen("surety-recorded", application, widths=("phone",))
        season.issued = Permit.objects.filter(application=pending).first()
        sureties = {
            **letters,
            "sureties": "[data-testid=sureties] > li",
            "surety_forms": "details.card:has(form[action*='/sureties/'])",
        }
        walk.screen(
            "staff-permit",
            f"/permits/{permit.pk}/",
            then=open_the_surety,
            extend="form[action$='/extend']",
            **sureties,
        )
        if season.village_id == RELEASED_IN:
            released = {"then": release_the_surety, "widths": ("desk",)}
            walk.screen("surety-released", f"/permits/{permit.pk}/", **released, **sureties)
            walk.screen("surety-released", f"/permits/{permit.pk}/", widths=("phone",), **sureties)
        walk.screen(
            "enforcement-case",
            f"/enforcement/cases/{season.case.pk}/",
            record="[data-testid=record] > li",
        )
        walk.screen("inspector-home", "/inspections/", rows="[data-testid=inspector-permits] tr")
        walk.screen("inspection-round", "/rounds/")
        walk.screen("inspection-page", f"/permits/{permit.pk}/inspect/")
        walk.screen(
            "permittee-permit",
            f"/permits/{permit.pk}/",
            duties="[data-testid=permittee-duties] li[data-kind]",
            **letters,
        )
        walk.screen("site-log", f"/permits/{permit.pk}/log/", entries="[data-testid=entries] li")
        walk.screen("board-home", "/appeals/")
        walk.screen(
            "appeal-decision",
            f"/appeals/{season.surety_appeal.pk}/",
            board_rule="[data-testid=board-rule]",
        )
        walk.screen("register", f"/register/?q={permit.number}", rows="[data-testid=register] tr")
    finally:
        walk.close()


@pytest.fixture(scope="module")
def walked(browser, django_db_setup, django_db_blocker, tmp_path_factory):
    """Both seasons built and every screen seen, once for the module, on a live server of
    its own; then the database is emptied as after a transactional test (the audit table's
    purge window opened for the flush and closed again), and the files kept in a folder of
    the test run's."""
    from django.core.cache import cache
    from django.core.management import call_command
    from django.db import connection
    from pytest_django.live_server_helper import LiveServer

    seen: dict[tuple[str, str, str], Look] = {}
    seasons: dict[str, Season] = {}
    media = tmp_path_factory.mktemp("season-screens") / "media"
    with django_db_blocker.unblock(), override_settings(MEDIA_ROOT=media):
        cache.clear()
        server = LiveServer("localhost")
        server._live_server_modified_settings.enable()
        try:
            for village in VILLAGES:
                seasons[village] = season_built(village, tmp_path_factory.mktemp(village))
                walk_village(browser, server.url, seasons[village], seen)
        finally:
            server._live_server_modified_settings.disable()
            server.stop()
            cache.clear()
            with connection.cursor() as cursor:
                cursor.execute(
                    "INSERT INTO audit_purge_window (opened_at) VALUES (CURRENT_TIMESTAMP)"
                )
            call_command("flush", interactive=False, verbosity=0)
            with connection.cursor() as cursor:
                cursor.execute("DELETE FROM audit_purge_window")
    return seasons, seen


def shown(walked, village: str, screen: str, width: str) -> tuple[Season, Look]:
    """The season of ``village`` and what ``screen`` showed at ``width``; the visit must
    have worked."""
    seasons, seen = walked
    found = seen[(village, screen, width)]
    where = f"{SCREENS[screen]} at {width}"
    assert not found.error, f"{where}: the visit failed: {found.error}"
    assert found.status in (None, 200), f"{where}: HTTP {found.status} at {found.url}"
    return seasons[village], found


# -- every screen ------------------------------------------------------------------------------


@pytest.mark.parametrize("village,screen,width", _every_screen(TOO_WIDE))
def test_every_screen_fits_the_window(walked, village, screen, width):
    _, found = shown(walked, village, screen, width)
    assert found.scroll_width <= found.inner_width, (
        f"{SCREENS[screen]} is {found.scroll_width}px wide in a {found.inner_width}px window: "
        + "; ".join(found.wide)
    )


@pytest.mark.parametrize("village,screen,width", _every_screen({}))
def test_no_screen_shows_an_internal_name(walked, village, screen, width):
    _, found = shown(walked, village, screen, width)
    assert raw_names(found.main) == [], SCREENS[screen]


# -- the applicant, before the surety is in ------------------------------------------------


@each()
def test_the_applicant_reads_approved_subject_to_a_surety_with_its_amount(walked, village, width):
    season, found = shown(walked, village, "portal-application", width)
    assert "Approved, subject to a surety." in found.main
    assert AMOUNT.search(found.main)
    assert f"({season.words.surety_citation})" in found.main
    assert "No land disturbing work may begin before." in found.main


# -- the staff -----------------------------------------------------------------------------------


@each()
def test_the_review_queue_keeps_the_approval_waiting_for_its_surety(walked, village, width):
    season, found = shown(walked, village, "review-queue", width)
    [row] = [r for r in found.parts["rows"] if season.pending.number in r]
    assert "Approved; permit issued when the surety is received" in row


@each()
def test_the_staff_s_application_says_the_surety_required_and_its_section(walked, village, width):
    season, found = shown(walked, village, "staff-application", width)
    assert f"Record the surety received {season.words.surety_citation}" in found.main
    assert AMOUNT.search(found.main)
    assert "Recording it issues the permit" in found.main
    [form] = found.parts["form"]
    assert "Record the surety and issue the permit" in form


@each()
def test_the_surety_form_asks_for_the_bond(walked, village, width):
    _, found = shown(walked, village, "staff-application", width)
    [form] = found.parts["form"]
    for label in SURETY_FIELDS:
        assert label in form, f"the surety form does not ask for {label!r}"


@each()
def test_recording_the_surety_issues_the_permit_and_the_page_names_it(walked, village, width):
    season, found = shown(walked, village, "surety-recorded", width)
    assert season.issued is not None, "no permit was issued"
    if width == "desk":  # the page the form led to
        assert "Surety recorded. The permit was issued." in found.main
    assert f"Permit {season.issued.number}, valid through" in found.main


@each()
def test_the_application_s_record_says_what_was_done_in_words(walked, village, width):
    _, found = shown(walked, village, "staff-application", width)
    record = "\n".join(found.parts["record"])
    for internal in ("application approve", "surety required letter", "checklist set"):
        assert internal not in record


@each()
def test_the_staff_s_permit_shows_its_letters_surety_and_last_day(walked, village, width):
    season, found = shown(walked, village, "staff-permit", width)
    w = season.words
    assert f"Issued {ISSUED}, valid through {LAST_DAY} {w.permit_citation}" in found.main
    assert f"{FIRST_LAST_DAY} → {LAST_DAY}" in found.main  # the extension
    # The letters: the approval subject to the surety, the permit issued on it (superseded
    # by the extension's permit document), the extension letter, the permit now.
    [letters] = found.parts["letters"]
    permits = [line for line in letters.splitlines() if line.startswith("Permit (")]
    assert len(permits) == 2, letters
    assert "superseded" in permits[0] and "superseded" not in permits[1]
    assert "Approval subject to a surety" in letters and "Extension letter" in letters
    # The surety, its balance, and the form to draw on it or release it.
    assert f"Surety {w.surety_citation}" in found.main
    [surety] = found.parts["sureties"]
    assert surety.startswith("Surety bond of $5000.00, Badger State Surety Co. (SB-2025-041)")
    assert re.search(r"Held: \$5,?000", surety)
    [form] = found.parts["surety_forms"]
    assert "Amount (leave empty to release all that is left)" in form
    assert "Record a draw for the village's costs" in form
    assert "Release and send the letter" in form


@each()
def test_a_permit_past_its_last_day_offers_no_extension(walked, village, width):
    _, found = shown(walked, village, "staff-permit", width)
    assert "Expired (its last day was Dec. 5, 2025" in found.main
    assert found.parts["extend"] == []


@each(villages=(RELEASED_IN,))
def test_releasing_the_surety_sends_the_letter_listed_with_the_others(walked, village, width):
    _, found = shown(walked, village, "surety-released", width)
    if width == "desk":  # the page the release led to
        assert "Surety released. The letter was generated." in found.main
    [letters] = found.parts["letters"]
    assert letters.splitlines()[-1].startswith("Surety release letter (")
    [surety] = found.parts["sureties"]
    assert "Released in full" in surety
    assert re.search(r"released \$5,?000", surety)
    assert "Release and send the letter" not in surety


@each()
def test_the_case_shows_the_order_its_retraction_and_the_retraction_letter(walked, village, width):
    season, found = shown(walked, village, "enforcement-case", width)
    w = season.words
    order, retraction = found.parts["record"]
    assert order.startswith("Stop-work order 2025-06-10 14:00 CDT")
    assert w.order_citation in order
    assert retraction.startswith(f"Order retracted 2025-06-17 19:30 CDT {w.retraction_citation}")
    assert f"By the Zoning Board of Appeals on appeal {season.order_appeal.number}" in retraction
    assert re.search(rf"^retraction-{season.case.number}-\d+\.pdf$", retraction, re.M)
    assert "June 10, 2025 to June 11, 2025" in found.main  # the violation, ended


@each()
def test_a_retracted_order_offers_no_appeal(walked, village, width):
    _, found = shown(walked, village, "enforcement-case", width)
    order, _ = found.parts["record"]
    assert "Appeal this step" not in order


# -- the inspector ---------------------------------------------------------------------------


@each()
def test_the_inspector_s_permits_in_force_do_not_include_an_expired_one_unmarked(
    walked, village, width
):
    season, found = shown(walked, village, "inspector-home", width)
    assert "Permits in force" in found.main
    for row in found.parts["rows"]:
        if season.permit.number in row:
            assert "Expired" in row


@each()
def test_the_inspector_s_home_and_round_say_what_is_owed(walked, village, width):
    season, home = shown(walked, village, "inspector-home", width)
    assert "Inspection round" in home.main
    _, round_ = shown(walked, village, "inspection-round", width)
    assert f"{season.people.village.name} · " in round_.main
    # The expired permit owes no village inspection now: its periods ended with its term.
    assert season.words.address not in round_.main


@each()
def test_the_inspection_page_has_its_checklist_and_the_june_inspection(walked, village, width):
    season, found = shown(walked, village, "inspection-page", width)
    assert f"Inspect {season.words.address}" in found.main
    assert season.words.violation_citation in found.main  # the checklist's item
    assert (
        "2025-06-10 10:00 CDT · Not in compliance · " in found.main
        and "recorded as a violation" in found.main
    )
    assert "Record the inspection" in found.main


# -- the permittee ---------------------------------------------------------------------------


@each()
def test_the_permittee_sees_the_last_day_letters_and_duties(walked, village, width):
    season, found = shown(walked, village, "permittee-permit", width)
    assert f"valid through {LAST_DAY}" in found.main
    assert "Expired (its last day was Dec. 5, 2025" in found.main
    [letters] = found.parts["letters"]
    assert "superseded by a later permit document" in letters
    weekly = [d for d in found.parts["duties"] if "at least once each week" in d]
    assert weekly and all(season.words.weekly_citation in d for d in weekly)
    assert "The permittee's duties" in found.main


@each()
def test_a_duty_s_reason_reads_as_one_sentence(walked, village, width):
    _, found = shown(walked, village, "permittee-permit", width)
    [notice] = [d for d in found.parts["duties"] if "SF-1" in d]
    assert re.search(r"Why: (control measure|BMP) SF-1 installed 2025-04-14;", notice), notice


@each()
def test_the_site_log_lists_the_season_s_entries(walked, village, width):
    _, found = shown(walked, village, "site-log", width)
    entries = found.parts["entries"]
    assert len(entries) == 11
    assert entries[0].startswith("Inspection of the control measures · 2025-05-29 10:00 CDT")
    assert entries[-1].startswith("Notice of the start of work given · 2025-04-11 15:00 CDT")
    assert any("Control measure SF-1" in e for e in entries)


# -- the appeals board -----------------------------------------------------------------------


@each()
def test_the_board_s_home_shows_the_appeal_waiting(walked, village, width):
    season, found = shown(walked, village, "board-home", width)
    assert "1 appeal waiting for a decision." in found.main
    assert f"Who may appeal: {season.words.appeals_citation}" in found.main
    assert f"valid through {LAST_DAY}" in found.main


@each()
def test_the_appeal_waiting_says_how_the_board_decides(walked, village, width):
    # The board decides as a board, at a hearing with a quorum (decision 47): no hearing is
    # set yet, so no roll and no vote; the page says what the village's data counts.
    season, found = shown(walked, village, "appeal-decision", width)
    assert f"Decision on application {season.pending.number}" in found.main
    assert season.words.appeals_citation in found.main
    [rule] = found.parts["board_rule"]
    assert "a quorum of 3 of its 5 seats" in rule and "4 concurring votes" in rule
    assert "No hearing is set yet." in found.main


@each()
def test_the_appeal_of_a_surety_says_the_amount_and_the_section(walked, village, width):
    season, found = shown(walked, village, "appeal-decision", width)
    assert AMOUNT.search(found.main)
    assert season.words.surety_citation in found.main


# -- the public ------------------------------------------------------------------------------


@each()
def test_the_register_shows_the_permit_its_order_and_the_retraction(walked, village, width):
    season, found = shown(walked, village, "register", width)
    w = season.words
    [row] = [r for r in found.parts["rows"] if season.permit.number in r]
    for words in (
        ISSUED,
        LAST_DAY,
        "Expired",
        f"Stop-work order 2025-06-10 14:00 {w.order_citation}",
    ):
        assert words in row
    assert f"Order retracted 2025-06-17 19:30 {w.retraction_citation}" in row
    for private in (w.landowner, season.people.homeowner.username, "Silt fence down"):
        assert private not in found.main


# -- the module cleans up --------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_walk_leaves_the_database_as_it_found_it(walked, purgeable_audit):
    """The seasons are flushed when the walk ends: nothing of them is left for the next
    test module."""
    from siltfence.apps.audit.models import AuditEvent
    from siltfence.apps.permits.models import Application, Permit

    assert (Application.objects.count(), Permit.objects.count()) == (0, 0)
    assert AuditEvent.objects.count() == 0
