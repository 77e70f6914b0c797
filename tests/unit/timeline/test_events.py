"""Events are checked strictly: every problem names ``events[i].field``."""

from __future__ import annotations

import datetime
from zoneinfo import ZoneInfo

import pytest

from siltfence.core.errors import SiltfenceError
from siltfence.core.timeline import compute

from .helpers import ev, notes, run


@pytest.mark.parametrize(
    ("events", "start"),
    [
        (
            [ev("permit_issued", "x")],
            "events[0].at: expected an ISO 8601 date or datetime, got 'x'",
        ),
        ([ev("permit_issued", "2026-02-30")], "events[0].at: expected an ISO 8601 date"),
        ([{"at": "2026-05-01"}], "events[0].type: is required"),
        (
            [ev("permit_granted", "2026-05-01")],
            "events[0].type: unknown event type 'permit_granted'",
        ),
        ([{"type": "work_started"}], "events[0].at: is required"),
        ([ev("work_started", "2026-05-01", crew=3)], "events[0].crew: unknown field"),
        ([ev("measure_installed", "2026-05-01")], "events[0].measure: is required"),
        ([ev("rain", "2026-05-01", inches=-0.1)], "events[0].inches: expected a number of inches"),
        (
            [ev("rain", "2026-05-01", inches="5 kg")],
            "events[0].inches: expected a number of inches",
        ),
        ([ev("rain", "2026-05-01", inches=1, runoff="yes")], "events[0].runoff: expected true"),
        (
            [ev("violation", "2026-05-01", **{"from": "2026-05-03", "to": "2026-05-01"})],
            "events[0].to: ",
        ),
        ([ev("violation", "2026-05-01", **{"from": "2026-05-03"})], "events[0].to: is required"),
        (
            [ev("permit_issued", "2026-05-01", building_permit_expires="soon")],
            "events[0].building_permit_expires: expected a date",
        ),
        ([ev("work_started", "2026-05-01"), "oops"], "events[1]: expected an object"),
        (
            [ev("permit_issued", "2026-05-01"), ev("permit_extended", "2026-06-01", days=1.5)],
            "events[1].days: expected a whole number of days",
        ),
        (
            [ev("permit_issued", "1993-10-03")],
            "events[0].at: Village of Spencer Ch. 413 was adopted",
        ),
    ],
)
def test_a_bad_event_is_refused_naming_its_field(events, start):
    with pytest.raises(SiltfenceError) as raised:
        run("spencer-wi", events)
    assert str(raised.value).startswith(start), str(raised.value)


def test_events_that_are_not_a_list_are_refused():
    with pytest.raises(SiltfenceError, match=r"^events: expected a list"):
        compute("spencer-wi", {"type": "work_started"}, None)  # type: ignore[arg-type]


def test_events_may_come_in_any_order():
    # The same record, shuffled, gives the same timeline; only met_by's index (the
    # event's position in the input) differs.
    events = [
        ev("application_approved", "2026-03-20"),
        ev("permit_issued", "2026-05-01"),
        ev("application_received", "2026-03-02"),
    ]
    shuffled, ordered = run("spencer-wi", events), run("spencer-wi", list(reversed(events)))
    assert shuffled["duties"][0]["met_by"]["index"] == 0
    assert ordered["duties"][0]["met_by"]["index"] == 2
    for result in (shuffled, ordered):
        for duty in result["duties"]:
            duty.get("met_by", {}).pop("index", None)
    assert shuffled == ordered
    assert shuffled["duties"][0]["status"] == "met"


def test_a_datetime_with_an_offset_is_converted_to_local_time():
    # 15:00 UTC on Saturday May 9 is 10:00 CDT; 48 hours without Sunday: Tuesday 10:00.
    events = [ev("permit_issued", "2026-05-01"), ev("work_started", "2026-05-09T15:00:00+00:00")]
    result = run("spencer-wi", events)
    notice = next(d for d in result["duties"] if d["kind"] == "start_notice")
    assert notice["due"] == "2026-05-12T10:00:00-05:00"


def test_the_default_as_of_is_the_end_of_the_latest_events_day():
    result = run("spencer-wi", [ev("application_received", "2026-03-02")])
    assert result["as_of"] == "2026-03-02T23:59:59-06:00"


@pytest.mark.parametrize(
    "issued",
    [
        "2026-05-01T23:59:59.600000-05:00",
        datetime.datetime(2026, 5, 1, 23, 59, 59, 600000, tzinfo=ZoneInfo("America/Chicago")),
    ],
)
def test_an_act_in_the_last_second_of_the_latest_day_is_in_the_default_as_of(issued):
    # The default as_of is 23:59:59 of the latest event's day; a permit issued at
    # 23:59:59.6 that day is issued on it (moments are kept to the whole second).
    result = run("spencer-wi", [ev("permit_issued", issued)])
    assert result["permit"]["issued"] == "2026-05-01"
    assert "events-after-as-of" not in {n["id"] for n in result["notes"]}


def test_a_notice_within_the_due_second_is_on_time_and_one_a_second_later_is_late():
    # Work began Saturday May 9 10:00 CDT; 48 hours without Sunday: due Tuesday 10:00:00.
    def notice(at):
        events = [
            ev("permit_issued", "2026-05-01"),
            ev("work_started", "2026-05-09T10:00"),
            ev("start_notice_given", at),
        ]
        return next(d for d in run("spencer-wi", events)["duties"] if d["kind"] == "start_notice")

    assert notice("2026-05-12T10:00:00.900-05:00")["late"] is False
    assert notice("2026-05-12T10:00:01-05:00")["late"] is True


def test_events_after_as_of_are_left_out_with_a_note():
    events = [ev("application_received", "2026-03-02"), ev("application_approved", "2026-05-01")]
    result = compute("spencer-wi", events, datetime.datetime(2026, 4, 1, 12)).to_json()
    assert result["duties"][0]["status"] == "open"
    assert "events-after-as-of" in {n["id"] for n in result["notes"]}


def test_every_deadline_cites_the_counting_rule_and_the_timeline_notes_it():
    result = run("spencer-wi", [ev("application_received", "2026-03-02")])
    assert result["duties"][0]["counting"]["citation"] == "§ 990.001(4) Wis. Stats."
    assert {"counting-rule", "counting-time"} <= notes(result)
    stands_in = next(n for n in result["notes"] if n["id"] == "counting-rule")["says"]
    assert "standing in" in stands_in


def test_a_stored_moment_handed_over_as_a_datetime_reads_as_its_text_does():
    # The apps layer passes each stored event's moment as an aware datetime. Work started
    # at 14:00 UTC is 09:00 in Spencer (CDT, UTC-5), and a rain of 0.6 inch that day ends
    # the day in the record; the duties must be the same whichever form the moment takes.
    utc = datetime.UTC
    as_text = [
        {"type": "permit_issued", "at": "2026-06-03T10:00:00-05:00"},
        {"type": "work_started", "at": "2026-06-08T09:00:00-05:00"},
        {"type": "rain", "at": "2026-06-10", "inches": 0.6},
    ]
    as_moments = [
        {"type": "permit_issued", "at": datetime.datetime(2026, 6, 3, 15, tzinfo=utc)},
        {"type": "work_started", "at": datetime.datetime(2026, 6, 8, 14, tzinfo=utc)},
        {"type": "rain", "at": "2026-06-10", "inches": 0.6},
    ]
    as_of = datetime.datetime(2026, 6, 12, 12, tzinfo=utc)
    text = compute("spencer-wi", as_text, as_of).to_json()
    moments = compute("spencer-wi", as_moments, as_of).to_json()
    assert moments == text
    started = next(d for d in text["duties"] if d["kind"] == "weekly_inspection")
    assert "work started 2026-06-08" in started["because"]


def test_a_datetime_without_a_zone_is_refused_naming_the_field():
    with pytest.raises(SiltfenceError, match=r"^events\[0\]\.at: expected an ISO 8601"):
        compute("spencer-wi", [{"type": "work_started", "at": datetime.datetime(2026, 6, 8)}])


def test_events_checked_one_by_one_give_the_answer_of_the_whole_record_in_any_order():
    """A caller that checks each event once (the stored duties' recompute, with
    ``parse_event``) and hands them to ``compute_checked`` in another order gets what
    ``compute`` answers for the record: the rain of 0.6 in on 2026-06-03 is inspected
    after it by the self-inspection of 2026-06-05, the 4th event (index 3), the first of
    the two made after it."""
    from siltfence.core.ordinance.loader import load
    from siltfence.core.timeline import compute_checked, parse_event

    raw = [
        ev("application_received", "2026-05-01T09:00"),
        ev("permit_issued", "2026-05-04T10:00"),
        ev("work_started", "2026-06-01T07:00"),
        ev("self_inspection", "2026-06-05T09:00", inspector="Pat Doe", phase="grading"),
        ev("rain", "2026-06-03", inches=0.6),
        ev("self_inspection", "2026-06-09T09:00", inspector="Pat Doe", phase="grading"),
    ]
    zone = ZoneInfo("America/Chicago")
    as_of = datetime.datetime(2026, 6, 10, 12, tzinfo=zone)
    whole = compute("spencer-wi", raw, as_of).to_json()
    [rain] = [d for d in whole["duties"] if d["kind"] == "rain_inspection"]
    assert (rain["status"], rain["met_by"]["index"]) == ("met", 3)
    checked = [parse_event(item, index, zone) for index, item in enumerate(raw)]
    given = list(reversed(checked))
    assert compute_checked(load("spencer-wi"), given, as_of).to_json() == whole
