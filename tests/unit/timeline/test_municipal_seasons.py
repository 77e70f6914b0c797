"""Spencer § 413-9: "at least once a month during the period starting March 1 and ending
October 31 and at least two times during the period starting November 1 and ending
February 28". The seasons are read from ``municipal_inspections.seasons`` in the ordinance
data; each boundary is tested on both sides, with February 29 (gap 12) and a permit in
force for part of a period."""

from __future__ import annotations

import copy
import dataclasses
import datetime

from siltfence.core.ordinance.loader import load
from siltfence.core.timeline import compute

from .helpers import duties, ev, notes


def periods(issued: str, as_of: str, *inspections: str, ordinance=None):
    events = [ev("permit_issued", issued)] + [
        ev("municipal_inspection", day, inspector="BI", result="in compliance")
        for day in inspections
    ]
    result = compute(
        ordinance or load("spencer-wi"),
        events,
        datetime.datetime.fromisoformat(as_of),
        None,
    ).to_json()
    return duties(result, "municipal_inspection"), result


def test_a_permit_issued_on_february_28_owes_two_winter_inspections_that_same_day():
    [winter], result = periods("2027-02-28", "2027-02-28T12:00")
    assert winter["period"] == {"from": "2026-11-01", "to": "2027-02-28"}
    assert winter["at_least"] == 2 and winter["due"] == "2027-02-28"
    assert "partial-inspection-period" in notes(result)


def test_a_permit_issued_on_march_1_owes_one_inspection_in_march():
    [march], result = periods("2027-03-01", "2027-03-10T12:00")
    assert march["period"] == {"from": "2027-03-01", "to": "2027-03-31"}
    assert march["at_least"] == 1 and march["due"] == "2027-03-31"
    assert "partial-inspection-period" not in notes(result)


def test_a_permit_issued_on_october_31_owes_one_inspection_in_october():
    [october], _ = periods("2026-10-31", "2026-10-31T12:00")
    assert october["period"] == {"from": "2026-10-01", "to": "2026-10-31"}
    assert october["at_least"] == 1


def test_a_permit_issued_on_november_1_owes_two_inspections_by_february_28():
    [winter], result = periods("2026-11-01", "2026-12-01T12:00")
    assert winter["period"] == {"from": "2026-11-01", "to": "2027-02-28"}
    assert winter["at_least"] == 2 and winter["due"] == "2027-02-28"
    assert "partial-inspection-period" not in notes(result)


def test_in_a_leap_year_february_29_belongs_to_the_winter_with_the_gap_note():
    [winter], result = periods("2028-02-29", "2028-02-29T12:00", "2028-02-29")
    assert winter["period"] == {"from": "2027-11-01", "to": "2028-02-29"}
    assert winter["inspections"] == 1 and winter["status"] == "open"
    assert "winter-inspection-leap-day" in notes(result)


def test_in_a_leap_year_march_1_starts_the_monthly_season():
    [march], result = periods("2028-03-01", "2028-03-02T12:00")
    assert march["period"] == {"from": "2028-03-01", "to": "2028-03-31"}
    assert "winter-inspection-leap-day" not in notes(result)


def test_an_inspection_on_february_29_counts_toward_the_winter_not_march():
    found, _ = periods("2028-02-01", "2028-03-15T12:00", "2028-02-10", "2028-02-29")
    assert [(d["period"]["to"], d["status"]) for d in found] == [
        ("2028-02-29", "met"),
        ("2028-03-31", "open"),
    ]


def test_a_permit_issued_february_20_owes_the_full_two_winter_inspections_by_february_28():
    # In force 9 days of the winter period; the text does not scale "at least two times",
    # so two are owed by February 28, and the duty says why.
    [winter], result = periods("2027-02-20", "2027-02-25T12:00", "2027-02-22")
    assert winter["at_least"] == 2 and winter["due"] == "2027-02-28"
    assert winter["status"] == "open" and winter["inspections"] == 1
    assert "in force only 2027-02-20 to 2027-02-28 of this period" in winter["because"]
    assert "(1 so far)" in winter["because"]
    assert "partial-inspection-period" in notes(result)
    # On March 1 the winter is over: met with two, overdue with one; March now runs.
    done, _ = periods("2027-02-20", "2027-03-01T12:00", "2027-02-22", "2027-02-26")
    assert [(d["due"], d["status"]) for d in done] == [
        ("2027-02-28", "met"),
        ("2027-03-31", "open"),
    ]
    late, _ = periods("2027-02-20", "2027-03-01T12:00", "2027-02-22")
    assert late[0]["status"] == "overdue"


def test_the_seasons_come_from_the_ordinance_data():
    # A village whose data says monthly from April 1 to September 30 and three times from
    # October 1 to March 31: the periods follow the data, not Spencer's dates.
    spencer = load("spencer-wi")
    rules = copy.deepcopy(dict(spencer.rules))
    rules["municipal_inspections"]["seasons"] = [
        {"from": "04-01", "to": "09-30", "at_least": 1, "per": "month"},
        {"from": "10-01", "to": "03-31", "at_least": 3, "per": "season"},
    ]
    changed = dataclasses.replace(spencer, rules=rules)
    found, _ = periods("2026-09-15", "2026-10-05T12:00", ordinance=changed)
    assert [(d["period"], d["at_least"]) for d in found] == [
        ({"from": "2026-09-01", "to": "2026-09-30"}, 1),
        ({"from": "2026-10-01", "to": "2027-03-31"}, 3),
    ]


# -- the day the duties change with no event (``Timeline.changes_on``) -----------------
# A permit issued 2026-06-03 is valid 180 days (§ 413-8E(1)): through 2026-11-30.


def _changes_on(as_of: str, *extra, jurisdiction="spencer-wi"):
    events = [ev("permit_issued", "2026-06-03"), *extra]
    return compute(
        load(jurisdiction), events, datetime.datetime.fromisoformat(as_of), None
    ).changes_on


def test_the_next_months_inspection_is_owed_from_the_first_of_the_month():
    assert _changes_on("2026-06-20T12:00-05:00") == datetime.date(2026, 7, 1)
    assert _changes_on("2026-06-30T23:59-05:00") == datetime.date(2026, 7, 1)
    assert _changes_on("2026-07-01T00:00-05:00") == datetime.date(2026, 8, 1)


def test_the_winter_period_is_owed_from_november_1():
    assert _changes_on("2026-10-31T12:00-05:00") == datetime.date(2026, 11, 1)


def test_no_change_after_the_last_period_the_permit_is_in_force_in():
    # The winter period runs to February 28; the permit expires on November 30.
    assert _changes_on("2026-11-10T12:00-06:00") is None


def test_no_change_after_final_stabilization_ends_the_permits_inspections():
    final = ev("final_stabilization", "2026-06-20")
    assert _changes_on("2026-06-25T12:00-05:00", final) is None


def test_a_chapter_with_no_inspection_schedule_has_no_such_change():
    assert _changes_on("2026-06-20T12:00-05:00", jurisdiction="new-glarus-wi") is None
