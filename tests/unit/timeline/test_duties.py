"""The permittee's and the authority's duties, with dates worked out by hand.

2026: May 1 is a Friday, June 1 a Monday, July 1 a Wednesday, October 1 a Thursday.
"""

from __future__ import annotations

import pytest

from .helpers import duties, ev, notes, one, run

# The permittee's notices and inspections are conditions of a permit (§ 413-8E(3),
# § 135-7E: "All permits shall require the permittee to ..."): the records below have one.
PERMIT = ev("permit_issued", "2026-04-01")
STARTED = ev("work_started", "2026-06-01T07:00")


# -- notice of commencement -----------------------------------------------------------------


def test_spencers_start_notice_is_due_48_hours_after_work_starts_leaving_out_sunday():
    # Saturday May 9 10:00: 14 h Saturday, Sunday excluded, 24 h Monday, 10 h Tuesday.
    result = run(
        "spencer-wi",
        [
            PERMIT,
            ev("work_started", "2026-05-09T10:00"),
            ev("start_notice_given", "2026-05-11T09:00"),
        ],
    )
    notice = one(result, "start_notice")
    assert notice["due"] == "2026-05-12T10:00:00-05:00"
    assert notice["status"] == "met" and notice["late"] is False
    assert notice["citation"] == "§ 413-8E(3)(a)"
    assert notice["moved"] == "the 48 hours exclude the whole of Sunday 2026-05-10"


def test_new_glarus_start_notice_is_due_48_clock_hours_before_the_announced_start():
    # Announced start Monday June 8 07:00 - 48 h = Saturday June 6 07:00.
    events = [
        PERMIT,
        ev("work_planned", "2026-06-01", start="2026-06-08T07:00"),
        ev("start_notice_given", "2026-06-05T16:00"),
    ]
    notice = one(run("new-glarus-wi", events), "start_notice")
    assert notice["due"] == "2026-06-06T07:00:00-05:00"
    assert notice["status"] == "met" and notice["late"] is False
    assert notice["citation"] == "§ 135-7E(1)"
    assert "clock hours" in notice["counting"]["says"]


def test_a_new_glarus_notice_given_after_the_deadline_is_met_late():
    events = [
        PERMIT,
        ev("work_planned", "2026-06-01", start="2026-06-08T07:00"),
        ev("start_notice_given", "2026-06-07T08:00"),
    ]
    notice = one(run("new-glarus-wi", events), "start_notice")
    assert notice["status"] == "met" and notice["late"] is True


def test_without_an_announced_start_new_glarus_counts_back_from_the_actual_start():
    # Work started Monday June 1 07:00 with no notice: due Saturday May 30 07:00, overdue.
    notice = one(run("new-glarus-wi", [PERMIT, STARTED]), "start_notice")
    assert notice["due"] == "2026-05-30T07:00:00-05:00"
    assert notice["status"] == "overdue"


# -- notices of completed measures -------------------------------------------------------


def test_spencer_completion_notice_is_14_days_with_the_measure_named():
    # Monday May 11 + 14 = Memorial Day May 25 -> Tuesday May 26.
    result = run(
        "spencer-wi",
        [PERMIT, ev("measure_installed", "2026-05-11", measure="SF-1", description="silt fence")],
        as_of="2026-05-20T12:00",
    )
    notice = one(result, "measure_completion_notice")
    assert notice["due"] == "2026-05-26"
    assert notice["status"] == "open"
    assert notice["because"] == "silt fence SF-1 installed 2026-05-11; notice within 14 days"


def test_new_glarus_completion_notice_is_five_days_without_weekends_and_matches_the_measure():
    # Wednesday May 13: Thu 14, Fri 15, Mon 18, Tue 19, Wed 20. The notice for SF-2 does not
    # meet SF-1's duty.
    result = run(
        "new-glarus-wi",
        [
            PERMIT,
            ev("measure_installed", "2026-05-13", measure="SF-1"),
            ev("measure_installed", "2026-05-13", measure="SF-2"),
            ev("measure_completion_notice_given", "2026-05-15", measure="SF-2"),
        ],
        as_of="2026-05-21T08:00",
    )
    by_measure = {d["measure"]: d for d in duties(result, "measure_completion_notice")}
    assert by_measure["SF-1"]["due"] == "2026-05-20"
    assert by_measure["SF-1"]["status"] == "overdue"
    assert by_measure["SF-2"]["status"] == "met"
    assert by_measure["SF-1"]["because"].startswith("BMP SF-1 installed 2026-05-13")


# -- inspections after rain ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("inches", "due"),
    [
        # 0.49 in = 12.446 mm -> 12.4 mm < 12.7: no duty.
        (0.49, False),
        # 0.50 in = 12.7 mm exactly: a duty.
        (0.5, True),
        # GHCN stores 12.7 mm; 12.7 / 25.4 read back as 0.50000027 in -> 12.7 mm: a duty.
        (0.50000027, True),
        # GHCN 12.4 mm read back as 0.48818924 in -> 12.4 mm: no duty.
        (0.48818924, False),
        # A string with a unit: 12.7 mm.
        ("12.7 mm", True),
    ],
)
@pytest.mark.parametrize("jurisdiction", ["spencer-wi", "new-glarus-wi"])
def test_the_half_inch_threshold_is_decided_at_tenths_of_a_millimetre(jurisdiction, inches, due):
    result = run(
        jurisdiction, [PERMIT, STARTED, ev("rain", "2026-06-10", inches=inches, runoff=True)]
    )
    assert bool(duties(result, "rain_inspection")) is due


def test_rain_on_consecutive_days_is_one_storm_and_sums():
    # 0.30 in = 7.62 -> 7.6 mm; 0.25 in = 6.35 -> 6.4 mm (half up); 14.0 mm >= 12.7.
    # New Glarus: the storm ends at the end of June 11 (midnight); 24 h later is
    # Saturday June 13 00:00.
    events = [
        PERMIT,
        STARTED,
        ev("rain", "2026-06-10", inches=0.3),
        ev("rain", "2026-06-11", inches=0.25),
    ]
    duty = one(run("new-glarus-wi", events), "rain_inspection")
    assert duty["due"] == "2026-06-13T00:00:00-05:00"
    assert duty["rain"]["mm"] == 14.0
    # Spencer (no deadline in the text, gap 3): the day after the storm, Friday June 12.
    spencer = run("spencer-wi", events)
    assert one(spencer, "rain_inspection")["due"] == "2026-06-12"
    assert {"rain-event", "rain-inspection-deadline"} <= notes(spencer)


def test_rain_two_days_apart_is_two_storms_each_below_the_threshold():
    events = [
        PERMIT,
        STARTED,
        ev("rain", "2026-06-10", inches=0.3),
        ev("rain", "2026-06-12", inches=0.3),
    ]
    assert duties(run("new-glarus-wi", events), "rain_inspection") == []


def test_a_storm_with_an_end_time_is_due_24_hours_after_it_in_new_glarus():
    events = [PERMIT, STARTED, ev("rain", "2026-06-10", inches=0.6, ended_at="2026-06-10T18:30")]
    assert one(run("new-glarus-wi", events), "rain_inspection")["due"] == (
        "2026-06-11T18:30:00-05:00"
    )


@pytest.mark.parametrize("order", [("-05:00", "-06:00"), ("-06:00", "-05:00")])
def test_a_storm_ending_in_the_hour_the_clock_turns_back_is_counted_from_its_own_instant(order):
    """Sunday 2026-11-01 the clock turns back at 02:00 CDT to 01:00 CST, so 01:30 comes twice.
    24 hours after 01:30 CDT (06:30 UTC) is 00:30 CST on Monday; after 01:30 CST (07:30 UTC)
    it is 01:30 CST. Each is its own deadline, whichever the engine counted first."""
    due = {"-05:00": "2026-11-02T00:30:00-06:00", "-06:00": "2026-11-02T01:30:00-06:00"}
    permit, started = ev("permit_issued", "2026-10-01"), ev("work_started", "2026-10-05T07:00")
    for offset in order:
        rain = ev("rain", "2026-10-31", inches=0.6, ended_at=f"2026-11-01T01:30:00{offset}")
        duty = one(run("new-glarus-wi", [permit, started, rain]), "rain_inspection")
        assert duty["due"] == due[offset]


def test_spencer_moves_the_day_after_a_saturday_storm_off_the_sunday():
    # Rain Saturday June 13 -> next day Sunday June 14 -> Monday June 15.
    events = [PERMIT, STARTED, ev("rain", "2026-06-13", inches=0.8)]
    duty = one(run("spencer-wi", events), "rain_inspection")
    assert duty["due"] == "2026-06-15"
    assert "Sunday" in duty["moved"]


def test_new_glarus_rain_without_runoff_sets_no_duty_and_unknown_runoff_is_assumed():
    none = run(
        "new-glarus-wi", [PERMIT, STARTED, ev("rain", "2026-06-10", inches=0.8, runoff=False)]
    )
    assert duties(none, "rain_inspection") == []
    assert "rain-without-runoff" in notes(none)
    unknown = run("new-glarus-wi", [PERMIT, STARTED, ev("rain", "2026-06-10", inches=0.8)])
    assert len(duties(unknown, "rain_inspection")) == 1
    assert "runoff-assumed" in notes(unknown)


def test_spencer_asks_for_an_inspection_after_rain_whether_or_not_it_ran_off():
    result = run(
        "spencer-wi", [PERMIT, STARTED, ev("rain", "2026-06-10", inches=0.8, runoff=False)]
    )
    assert len(duties(result, "rain_inspection")) == 1


def test_a_self_inspection_after_the_storm_ends_meets_the_rain_inspection():
    events = [
        PERMIT,
        STARTED,
        ev("self_inspection", "2026-06-09", inspector="A", phase="grading"),
        ev("rain", "2026-06-10", inches=0.8),
        ev("self_inspection", "2026-06-11T09:00", inspector="A", phase="grading"),
    ]
    duty = one(run("new-glarus-wi", events), "rain_inspection")
    assert duty["status"] == "met"
    assert duty["met_by"]["at"] == "2026-06-11T09:00:00-05:00"


@pytest.mark.parametrize(
    ("jurisdiction", "note"),
    [("spencer-wi", "rain-outside-permit"), ("new-glarus-wi", "rain-outside-construction")],
)
def test_rain_before_work_starts_or_after_final_stabilization_sets_no_duty(jurisdiction, note):
    # The May 20 rain falls before the permit is issued (May 25): no permit, no condition.
    events = [
        ev("rain", "2026-05-20", inches=1.0),
        ev("permit_issued", "2026-05-25"),
        STARTED,
        ev("final_stabilization", "2026-06-20"),
        ev("rain", "2026-06-25", inches=1.0),
    ]
    result = run(jurisdiction, events)
    assert duties(result, "rain_inspection") == []
    assert {note, "rain-without-permit"} <= notes(result)


def test_spencer_rain_inspection_is_owed_after_issue_before_work_starts():
    # § 413-8E(3)(g) "Inspect ... after each rain of 0.5 inch or more", with no "during
    # active construction" limit (that is New Glarus § 135-7E(7)). A permit issued May 1,
    # a 1-inch rain on May 20, work starting June 1: Spencer owes an inspection, New Glarus
    # does not.
    events = [
        ev("permit_issued", "2026-05-01"),
        ev("rain", "2026-05-20", inches=1.0),
        STARTED,
    ]
    spencer = run("spencer-wi", events)
    assert [d["due"] for d in duties(spencer, "rain_inspection")] == ["2026-05-21"]
    assert "rain-inspection-window" in notes(spencer)
    assert duties(run("new-glarus-wi", events), "rain_inspection") == []


# -- weekly inspections -------------------------------------------------------------------


def test_the_weekly_inspection_chain_shows_the_missed_week_and_the_current_one():
    # Work started Mon June 1: first due Mon June 8, met by Fri June 5.
    # Next due June 5 + 7 = Fri June 12: no inspection in that week, so it is missed and
    # stays missed (each week is owed). The next week runs June 12 to June 19; the
    # inspection of Mon June 15 meets it. Next due June 15 + 7 = Mon June 22: open on
    # June 20.
    events = [
        PERMIT,
        STARTED,
        ev("self_inspection", "2026-06-05", inspector="A", phase="grading"),
        ev("self_inspection", "2026-06-15", inspector="A", phase="grading"),
    ]
    for jurisdiction in ("spencer-wi", "new-glarus-wi"):
        weekly = duties(run(jurisdiction, events, as_of="2026-06-20T12:00"), "weekly_inspection")
        assert [(d["due"], d["status"], d.get("late")) for d in weekly] == [
            ("2026-06-08", "met", False),
            ("2026-06-12", "overdue", None),
            ("2026-06-19", "met", False),
            ("2026-06-22", "open", None),
        ]


@pytest.mark.parametrize("jurisdiction", ["spencer-wi", "new-glarus-wi"])
def test_a_weekly_inspection_is_due_by_the_seventh_day_and_does_not_move(jurisdiction):
    # "at least once each week" (§ 413-8E(3)(g), § 135-7E(7)), read as by the 7th day:
    # inspection Saturday June 6 -> due Saturday June 13 (New Glarus's Ch. 1 would move a
    # last day to act to Monday 15; a week is not stretched to nine days). Inspection
    # Sunday June 14, 2026 + 7 = Sunday June 21 stays a Sunday in Spencer too.
    saturday = [
        PERMIT,
        STARTED,
        ev("self_inspection", "2026-06-06", inspector="A", phase="grading"),
    ]
    sunday = [PERMIT, STARTED, ev("self_inspection", "2026-06-14", inspector="A", phase="grading")]
    assert duties(run(jurisdiction, saturday), "weekly_inspection")[-1]["due"] == "2026-06-13"
    assert duties(run(jurisdiction, sunday), "weekly_inspection")[-1]["due"] == "2026-06-21"
    on_sunday = run(jurisdiction, saturday, as_of="2026-06-14T08:00")
    # The missed week stays on the record, and the next week (to June 20) is open.
    assert [(d["due"], d["status"]) for d in duties(on_sunday, "weekly_inspection")] == [
        ("2026-06-08", "met"),
        ("2026-06-13", "overdue"),
        ("2026-06-20", "open"),
    ]


def test_final_stabilization_ends_the_weekly_inspections():
    events = [
        PERMIT,
        STARTED,
        ev("self_inspection", "2026-06-05", inspector="A", phase="grading"),
        ev("final_stabilization", "2026-06-09"),
    ]
    # The week to June 8 was met on June 5; final stabilization on June 9 comes before the
    # next week's June 12, so no later week is owed.
    weekly = duties(run("spencer-wi", events, as_of="2026-07-01T12:00"), "weekly_inspection")
    assert [(d["due"], d["status"]) for d in weekly] == [("2026-06-08", "met")]


# -- stabilization of inactive areas (Spencer) ----------------------------------------------


def test_an_inactive_area_must_be_stabilized_within_seven_days_in_spencer():
    # Monday June 1 + 7 = Monday June 8.
    events = [
        ev("area_inactive", "2026-06-01", area="lot 3"),
        ev("area_inactive", "2026-06-01", area="lot 4"),
        ev("area_stabilized", "2026-06-05", area="lot 3"),
    ]
    result = run("spencer-wi", events, as_of="2026-06-09T08:00")
    by_area = {d["area"]: d for d in duties(result, "stabilization")}
    assert by_area["lot 3"]["status"] == "met"
    assert (by_area["lot 4"]["due"], by_area["lot 4"]["status"]) == ("2026-06-08", "overdue")
    assert by_area["lot 4"]["citation"] == "§ 413-7B(5)(c)[1]"
    assert "seeding-cutoff" in notes(result)


def test_after_september_15_the_stabilization_duty_leaves_out_seeding():
    # September 10 + 7 = Thursday September 17, after the cutoff.
    result = run("spencer-wi", [ev("area_inactive", "2026-09-10", area="lot 3")])
    assert "seeding and sodding are not available" in one(result, "stabilization")["because"]


def test_new_glarus_has_no_stabilization_duty_in_its_text():
    result = run("new-glarus-wi", [ev("area_inactive", "2026-06-01", area="lot 3")])
    assert duties(result, "stabilization") == []


# -- municipal inspections (Spencer § 413-9) ------------------------------------------------


def test_spencer_inspects_monthly_from_march_to_october():
    events = [
        ev("permit_issued", "2026-05-01"),
        ev("municipal_inspection", "2026-05-15", inspector="BI", result="ok"),
        ev("municipal_inspection", "2026-07-02", inspector="BI", result="ok"),
    ]
    monthly = duties(run("spencer-wi", events, as_of="2026-07-20T12:00"), "municipal_inspection")
    assert [(d["due"], d["status"]) for d in monthly] == [
        ("2026-05-31", "met"),
        ("2026-06-30", "overdue"),
        ("2026-07-31", "met"),
    ]
    assert all(d["party"] == "authority" and d["citation"] == "§ 413-9" for d in monthly)


def test_spencer_inspects_twice_in_the_winter_period():
    # Issued October 15: October needs one (none: overdue); November 1 - February 28 needs
    # two; one so far on January 10, 2027, so it is still open.
    events = [
        ev("permit_issued", "2026-10-15"),
        ev("municipal_inspection", "2026-11-10", inspector="BI", result="ok"),
    ]
    result = run("spencer-wi", events, as_of="2027-01-10T12:00")
    monthly = duties(result, "municipal_inspection")
    assert [(d["due"], d["status"]) for d in monthly] == [
        ("2026-10-31", "overdue"),
        ("2027-02-28", "open"),
    ]
    events.append(ev("municipal_inspection", "2026-12-20", inspector="BI", result="ok"))
    winter = duties(run("spencer-wi", events, as_of="2027-01-10T12:00"), "municipal_inspection")
    assert winter[-1]["status"] == "met"


def test_february_29_falls_in_the_winter_period_with_the_gap_note():
    # Winter 2027-28 ends February 29, 2028 (a leap year); gap 12.
    result = run("spencer-wi", [ev("permit_issued", "2027-12-01")], as_of="2028-02-10T12:00")
    winter = one(result, "municipal_inspection")
    assert winter["due"] == "2028-02-29"
    assert "winter-inspection-leap-day" in notes(result)


def test_new_glarus_has_no_municipal_inspection_duty_and_says_section_135_10_was_not_received():
    result = run("new-glarus-wi", [ev("permit_issued", "2026-05-01")], as_of="2026-07-01T12:00")
    assert duties(result, "municipal_inspection") == []
    note = next(n for n in result["notes"] if n["id"] == "no-municipal-inspection-schedule")
    assert note["citations"] == ["§ 135-10"]
    assert "not received" in note["says"]
