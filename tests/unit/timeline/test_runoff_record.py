"""New Glarus § 135-7E(7) asks for an inspection "within 24 hours after each rain of 0.5
inch or more which results in runoff during active construction periods". A station's
rain says nothing about runoff; the permittee's record that no runoff left the site during
that storm (a rain record of no amount with runoff: false) speaks for the storm, and a
record of runoff on any of its days still wins."""

from __future__ import annotations

from .helpers import duties, ev, notes, run

PERMIT = ev("permit_issued", "2026-05-20")
STARTED = ev("work_started", "2026-06-01T07:00")
STATION = ev("rain", "2026-06-10", inches=0.8, station="USC00475674")


def test_station_rain_with_nothing_said_about_runoff_sets_an_inspection_duty():
    result = run("new-glarus-wi", [PERMIT, STARTED, STATION], as_of="2026-06-10T20:00")
    [duty] = duties(result, "rain_inspection")
    # The storm of June 10 ends at midnight; 24 hours later is June 12, 00:00.
    assert duty["due"] == "2026-06-12T00:00:00-05:00"
    assert "runoff-assumed" in notes(result)


def test_the_permittees_record_of_no_runoff_on_that_day_closes_off_the_duty():
    no_runoff = ev("rain", "2026-06-10T18:00", inches=0, runoff=False)
    result = run("new-glarus-wi", [PERMIT, STARTED, STATION, no_runoff], as_of="2026-06-10T20:00")
    assert duties(result, "rain_inspection") == []
    assert "rain-without-runoff" in notes(result)


def test_a_record_of_no_amount_adds_nothing_to_the_storm():
    # 0.49 in from the station and a no-runoff record of 0 in: still under half an inch.
    small = ev("rain", "2026-06-10", inches=0.49)
    no_runoff = ev("rain", "2026-06-10T18:00", inches=0, runoff=False, id="log-1")
    result = run("new-glarus-wi", [PERMIT, STARTED, small, no_runoff], as_of="2026-06-10T20:00")
    assert duties(result, "rain_inspection") == []
    assert "rain-without-runoff" not in notes(result)


def test_runoff_recorded_on_any_day_of_the_storm_wins_over_a_no_runoff_record():
    events = [
        PERMIT,
        STARTED,
        ev("rain", "2026-06-10", inches=0.4, runoff=True),
        ev("rain", "2026-06-11", inches=0.3, runoff=False),
    ]
    assert (
        len(duties(run("new-glarus-wi", events, as_of="2026-06-11T20:00"), "rain_inspection")) == 1
    )


def test_spencer_asks_for_the_inspection_whether_or_not_there_was_runoff():
    no_runoff = ev("rain", "2026-06-10T18:00", inches=0, runoff=False)
    result = run(
        "spencer-wi",
        [STARTED, ev("permit_issued", "2026-05-20"), STATION, no_runoff],
        as_of="2026-06-10T20:00",
    )
    assert len(duties(result, "rain_inspection")) == 1
