"""Helpers for ``test_season_screens.py``: a short 2025 season in one village, built through
the services with the helpers of the integration season (tests/integration/season_helpers.py),
and what one screen showed in the browser at one width.

The season, for each village: a home site approved subject to a $5,000 surety bond, the
bond received and the permit issued two days later; the permittee's site log and the rain
of May 2025 at Milwaukee Mitchell; a village inspection that finds the site out of
compliance, a stop-work order, the permittee's appeal heard and the order reversed (the
Zoning Board of Appeals retracts it, with the retraction letter); an extension (a new
permit document, the first one superseded). Then, this week, a second application
approved subject to a $5,000 surety that has not come in yet, and its applicant's appeal
of that condition, waiting for the board.
"""

from __future__ import annotations

import datetime
import re
import sys
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

# The season's helpers live with the integration tests; appended, not prepended, so that
# this folder's conftest stays the one ``from conftest import ...`` finds.
INTEGRATION = str(Path(__file__).resolve().parents[2] / "integration")
if INTEGRATION not in sys.path:
    sys.path.append(INTEGRATION)

from board_helpers import board_decides  # noqa: E402
from django.utils import timezone  # noqa: E402
from season_helpers import (  # noqa: E402
    application_made,
    at,
    day,
    log,
    month_of_rain,
    rain_import,
    self_inspections,
    station_pinned,
    village_inspection,
    village_people,
)

from siltfence.apps.appeals import services as appeals  # noqa: E402
from siltfence.apps.enforcement import services as enforcement  # noqa: E402
from siltfence.apps.permits import services as permits  # noqa: E402

SPENCER = "spencer-wi"
NEW_GLARUS = "new-glarus-wi"
# factories.make_user's password, the same for every person it makes.
PASSWORD = "not-used-in-tests-7x!"
SURETY = Decimal("5000")


@dataclass(frozen=True)
class VillageWords:
    """What differs between the two chapters for this season, read from the ordinances."""

    address: str
    facts: dict[str, Any]
    landowner: str
    second_address: str
    second_facts: dict[str, Any]
    second_owner: str
    # The village inspection's checklist answer that finds the violation, and the
    # stop-work order's ground (rules.yaml of each village).
    answers: dict[str, str]
    ground: str
    # Who may appeal: § 413-12B names the permittee and the applicant; § 135-12B "any
    # aggrieved person".
    owner_standing: str
    applicant_standing: str
    # The citations a clerk or contractor needs to see on the screens.
    surety_citation: str
    permit_citation: str
    retraction_citation: str
    order_citation: str
    appeals_citation: str
    violation_citation: str  # the condition the inspection finds broken
    weekly_citation: str  # the permittee's inspection "at least once each week"


WORDS = {
    SPENCER: VillageWords(
        address="410 N Park St, Spencer",
        facts={"disturbed_area": "6000 sq ft", "land_use": "residential"},
        landowner="Dana Kowalski",
        second_address="Lot 7, Meadow View plat, Spencer",
        second_facts={"disturbed_area": "9000 sq ft", "land_use": "residential"},
        second_owner="Meadow View Development LLC",
        answers={"condition:maintain-systems": "needs_work"},
        ground="conditions-not-met",
        owner_standing="permittee",
        applicant_standing="applicant",
        surety_citation="§ 413-8E(2)",
        permit_citation="§ 413-8E(1)",
        retraction_citation="§ 413-10D",
        order_citation="§ 413-10A",
        appeals_citation="§ 413-12B",
        violation_citation="§ 413-8E(3)(e)",
        weekly_citation="§ 413-8E(3)(g)",
    ),
    NEW_GLARUS: VillageWords(
        address="512 Sixth Ave, New Glarus",
        facts={"disturbed_area": "5000 sq ft", "land_use": "residential"},
        landowner="Anna Streiff",
        second_address="Glarner Heights Phase 2, lot 8, New Glarus",
        second_facts={"disturbed_area": "7000 sq ft", "land_use": "residential"},
        second_owner="Glarner Heights LLC",
        answers={"condition:install-measures": "needs_work"},
        ground="plan-not-followed",
        owner_standing="aggrieved_person",
        applicant_standing="aggrieved_person",
        surety_citation="§ 135-7D",
        permit_citation="§ 135-7G",
        retraction_citation="§ 135-11D",
        order_citation="§ 135-11A",
        appeals_citation="§ 135-12B",
        violation_citation="§ 135-7E(4)",
        weekly_citation="§ 135-7E(7)",
    ),
}


@dataclass
class Season:
    village_id: str
    words: VillageWords
    people: Any
    permit: Any  # the home site's permit, issued on the surety, extended
    pending: Any  # this week's application, approved subject to a surety not yet received
    case: Any
    order_appeal: Any  # decided: the stop-work order reversed
    surety_appeal: Any  # waiting for the board's decision
    issued: Any = None  # the permit issued in the browser on the pending application


def season_built(village_id: str, folder: Path) -> Season:
    """The short season of one village, every step through the services."""
    v = village_people(village_id)
    w = WORDS[village_id]
    staff = v.staff

    # -- Filed Tue 2025-04-01, approved Mon 04-07 subject to a $5,000 surety bond
    # (§ 413-8E(2), § 135-7D); the bond is received Wed 04-09 and the permit issued then.
    home = application_made(
        applicant=v.homeowner,
        village=v.village,
        address=w.address,
        facts=w.facts,
        on="2025-03-31",
        landowner=w.landowner,
        description="New house on a lot of record",
    )
    permits.application_submit(application=home, user=v.homeowner, at=at("2025-04-01", 9))
    assert (
        permits.application_approve(
            application=home, staff=staff, at=at("2025-04-07", 10), surety=SURETY
        )
        is None
    )
    permit = permits.surety_receive(
        application=home,
        staff=staff,
        kind="surety_bond",
        amount=SURETY,
        issuer="Badger State Surety Co.",
        reference="SB-2025-041",
        at=at("2025-04-09", 10),
    )
    station_pinned(home.site, staff)

    # -- The permittee's site log, and May's rain (imported Mon 2025-06-02).
    log(permit, v.homeowner, "start_notice_given", "2025-04-11T15:00")
    log(permit, v.homeowner, "work_started", "2025-04-14T08:00")
    log(permit, v.homeowner, "measure_installed", "2025-04-14T12:00", measure="SF-1")
    self_inspections(
        permit,
        v.homeowner,
        ["2025-04-19T10:00", "2025-04-25T10:00", "2025-05-02T09:00", "2025-05-09T10:00"],
        "footings",
    )
    self_inspections(
        permit,
        v.homeowner,
        ["2025-05-16T08:00", "2025-05-21T08:00", "2025-05-22T08:00", "2025-05-29T10:00"],
        "framing",
    )
    rain_import(month_of_rain(folder, "2025-05-01", "2025-05-31"))

    # -- June: a village inspection finds a violation; a stop-work order is posted.
    found = village_inspection(
        permit,
        v.inspector,
        "2025-06-10T10:00",
        result="not_compliant",
        answers=w.answers,
        findings="Silt fence down along the east (downslope) lot line",
    )
    case = found.timeline_event.application.enforcement_cases.get()
    order = enforcement.stop_work_order_post(
        case=case, staff=staff, at=at("2025-06-10", 14), grounds=[w.ground]
    )

    # -- The permittee appeals; the board hears it and reverses the order (the order is
    # retracted by the Zoning Board of Appeals, § 413-10D, § 135-11D).
    order_appeal = appeals.appeal_file(
        village=v.village,
        filed_by=v.homeowner,
        on=day("2025-06-11"),
        appellant_name=w.landowner,
        standing=w.owner_standing,
        grounds="The fence was reset and trenched the morning after the inspection.",
        action=order,
    )
    appeals.appeal_hearing_schedule(
        appeal=order_appeal,
        user=v.board,
        hearing_at=at("2025-06-17", 18),
        notice_given_on=day("2025-06-12"),
        notice_to=f"{w.landowner}; the administering authority",
        place="Village Hall",
    )
    order_appeal = board_decides(
        order_appeal,
        at=at("2025-06-17", 19, 30),
        decision="reverse",
        reasons="The photographs of June 11 show the fence reset and trenched.",
    )
    # The fence was reset on June 11: the violation ran two days.
    enforcement.violation_end(
        violation=case.violations.get(),
        staff=staff,
        days_to=day("2025-06-11"),
        at=at("2025-06-18", 9),
    )

    # -- Mon 2025-09-22: extended 60 days, with a measure added.
    permits.permit_extend(
        permit=permit,
        staff=staff,
        days=60,
        on=day("2025-09-22"),
        added_measures="Seed and mulch the lot before November 1",
    )
    permit.refresh_from_db()

    # -- This week: a second application, approved two days ago subject to a $5,000
    # surety that has not come in; its applicant appeals that condition.
    today = timezone.localdate()
    now = timezone.now()
    pending = application_made(
        applicant=v.developer,
        village=v.village,
        address=w.second_address,
        facts=w.second_facts,
        on=(today - datetime.timedelta(days=10)).isoformat(),
        landowner=w.second_owner,
        description="House on a lot of the plat",
    )
    permits.application_submit(
        application=pending, user=v.developer, at=now - datetime.timedelta(days=9)
    )
    permits.application_approve(
        application=pending, staff=staff, at=now - datetime.timedelta(days=2), surety=SURETY
    )
    surety_appeal = appeals.appeal_file(
        village=v.village,
        filed_by=v.developer,
        on=today,
        appellant_name=w.second_owner,
        standing=w.applicant_standing,
        grounds="The surety asked is out of proportion for one lot with a silt fence.",
        application=pending,
    )
    return Season(
        village_id=village_id,
        words=w,
        people=v,
        permit=permit,
        pending=pending,
        case=case,
        order_appeal=order_appeal,
        surety_appeal=surety_appeal,
    )


# -- what a screen showed --------------------------------------------------------------------


@dataclass
class Look:
    """One screen at one width, as the browser showed it."""

    url: str = ""
    status: int | None = None
    main: str = ""  # page.inner_text("main")
    scroll_width: int = 0
    inner_width: int = 0
    parts: dict[str, list[str]] = field(default_factory=dict)  # named parts, each match's text
    wide: list[str] = field(default_factory=list)  # what sticks out past the window's edge
    error: str = ""  # the visit itself failed (a link or a form was not there)


def look(page: Any, **parts: str) -> Look:
    """What the page shows now: its main text, its width, and the text of each element a
    named part's CSS selector matches (none when the page has no such part)."""
    seen = Look(url=page.url)
    seen.main = page.inner_text("main")
    seen.scroll_width, seen.inner_width = page.evaluate(
        "() => [document.scrollingElement.scrollWidth, window.innerWidth]"
    )
    if seen.scroll_width > seen.inner_width:
        seen.wide = page.evaluate(STICKING_OUT)
    for name, selector in parts.items():
        seen.parts[name] = page.locator(selector).all_inner_texts()
    return seen


# The innermost elements whose right edge is past the window's, to say what to fix.
STICKING_OUT = """() => {
    const edge = window.innerWidth + 1;
    const out = [...document.body.querySelectorAll("*")]
        .filter(el => el.getBoundingClientRect().right > edge);
    return out.filter(el => !out.some(o => o !== el && el.contains(o))).slice(0, 4)
        .map(el => `<${el.tagName.toLowerCase()} class="${el.className}"> reaching `
            + `${Math.round(el.getBoundingClientRect().right)}px: `
            + (el.innerText || "").replace(/\\s+/g, " ").slice(0, 80));
}"""


# Internal names that must never reach a person: snake_case identifiers (a status, a
# document kind, an action), Python's None/True/False. "None." or "None recorded yet." as
# the whole of a list's line is English, not a leak.
SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
PYTHON = re.compile(r"\b(?:None|True|False)\b")
ENGLISH_NONE = re.compile(r"^None(?: [a-z][a-z ]*)?\.$")


def raw_names(text: str) -> list[str]:
    """Each internal name in ``text``, with its line."""
    found = []
    for line in text.splitlines():
        line = line.strip()
        hits = SNAKE.findall(line)
        if not ENGLISH_NONE.match(line):
            hits += PYTHON.findall(line)
        found += [f"{hit!r} in {line[:160]!r}" for hit in hits]
    return found
