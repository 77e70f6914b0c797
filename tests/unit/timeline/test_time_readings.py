"""§ 990.001(4) Wis. Stats. as written, and the readings of periods the chapters leave
unclear: (4)(a) for hours, (4)(c) for a notice filed on a Saturday the office is closed,
the stabilization deadline (§ 413-7B(5)(c)[1]).

2026: May 2 and May 16 are Saturdays; May 25 is Memorial Day (a Monday).
"""

from __future__ import annotations

import dataclasses
import datetime
from zoneinfo import ZoneInfo

from siltfence.core.ordinance.loader import load
from siltfence.core.timeline import CountingRule, compute

from .helpers import ev, notes, one, run

D = datetime.date
CHICAGO = ZoneInfo("America/Chicago")
CITATION = "§ 990.001(4) Wis. Stats."
WISCONSIN = load("spencer-wi").state_law


def state_rule(citation: str, closed_on_saturdays: bool | None = None) -> CountingRule:
    """The state's rule for statutes as its state folder gives it."""
    return CountingRule(
        WISCONSIN.counting_rules["wis-stats-990-001-4"],
        WISCONSIN.holidays,
        citation,
        closed_on_saturdays,
    )


def test_the_hours_rule_is_cited_to_paragraph_a_not_d():
    # (4)(a): "when any such time is expressed in hours the whole of Sunday and of any legal
    # holiday, from midnight to midnight, shall be excluded".
    counted = state_rule(CITATION).hours_after(
        datetime.datetime(2026, 5, 9, 10, tzinfo=CHICAGO), 48
    )
    assert "§ 990.001(4)(a)" in counted.counting.says
    assert "(4)(d)" not in counted.counting.says


def test_a_filing_due_on_a_saturday_moves_to_monday_where_the_office_is_closed_saturdays():
    # (4)(c): Saturday May 2 + 14 = Saturday May 16; the office is closed, so the notice may
    # be filed on the next day that is not a Sunday or legal holiday: Monday May 18.
    closed = state_rule(CITATION, closed_on_saturdays=True)
    moved = closed.days_after(D(2026, 5, 2), 14, filing=True)
    assert moved.due == D(2026, 5, 18)
    assert "(c)" in moved.counting.says


def test_a_saturday_filing_past_a_monday_holiday_moves_to_tuesday():
    # Saturday May 9 + 14 = Saturday May 23; Sunday 24; Monday 25 is Memorial Day: Tuesday 26.
    closed = state_rule(CITATION, closed_on_saturdays=True)
    assert closed.days_after(D(2026, 5, 9), 14, filing=True).due == D(2026, 5, 26)


def test_a_saturday_last_day_stays_when_the_act_is_not_a_filing_or_the_office_is_open():
    closed = state_rule(CITATION, closed_on_saturdays=True)
    assert closed.days_after(D(2026, 5, 2), 14).due == D(2026, 5, 16)
    open_saturdays = state_rule(CITATION, closed_on_saturdays=False)
    assert open_saturdays.days_after(D(2026, 5, 2), 14, filing=True).due == D(2026, 5, 16)
    unknown = state_rule(CITATION)
    assert unknown.days_after(D(2026, 5, 2), 14, filing=True).due == D(2026, 5, 16)


def test_a_friday_last_day_never_moves_even_for_a_filing():
    closed = state_rule(CITATION, closed_on_saturdays=True)
    assert closed.days_after(D(2026, 5, 1), 14, filing=True).due == D(2026, 5, 15)


def test_spencer_completion_notice_on_a_saturday_says_the_office_hours_are_not_known():
    # § 413-8E(3)(b): "within 14 days after their installation". Installed Saturday May 2:
    # due Saturday May 16, which stays, with a note naming (4)(c).
    events = [
        ev("permit_issued", "2026-04-01"),
        ev("measure_installed", "2026-05-02", measure="SF-1"),
    ]
    result = run("spencer-wi", events, as_of="2026-05-10T12:00")
    assert one(result, "measure_completion_notice")["due"] == "2026-05-16"
    note = next(n for n in result["notes"] if n["id"] == "saturday-office-hours")
    assert "§ 990.001(4)(c) Wis. Stats." in note["citations"]


def test_a_village_that_says_its_office_is_closed_on_saturdays_gets_the_monday():
    spencer = load("spencer-wi")
    office = dict(spencer.office_calendar, closed_on_saturdays=True)
    closed = dataclasses.replace(spencer, office_calendar=office)
    events = [
        ev("permit_issued", "2026-04-01"),
        ev("measure_installed", "2026-05-02", measure="SF-1"),
    ]
    result = compute(closed, events, datetime.datetime(2026, 5, 10, 12)).to_json()
    duty = next(d for d in result["duties"] if d["kind"] == "measure_completion_notice")
    assert duty["due"] == "2026-05-18"
    assert "saturday-office-hours" not in {n["id"] for n in result["notes"]}


def test_spencer_stabilization_falls_due_on_day_seven_with_its_reading_noted():
    # § 413-7B(5)(c)[1]: "left inactive for seven or more days shall be stabilized".
    # Monday June 1 + 7 = Monday June 8.
    result = run("spencer-wi", [ev("area_inactive", "2026-06-01", area="lot 3")])
    assert one(result, "stabilization")["due"] == "2026-06-08"
    assert "stabilization-deadline" in notes(result)
