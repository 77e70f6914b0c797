"""Review clocks (§ 413-8D, § 135-7C) and the permit's term (§ 413-8E(1), § 135-7G).

2026: March 2 is a Monday, April 1 a Wednesday, May 1 a Friday. 2027: January 1 is a
Friday, March 1 a Monday.
"""

from __future__ import annotations

import pytest

from siltfence.core.errors import SiltfenceError

from .helpers import duties, ev, notes, one, run


def test_spencers_review_clock_is_45_days_and_an_information_request_meets_it():
    # March 2 + 45: 29 days to March 31, 16 more to Thursday April 16.
    result = run(
        "spencer-wi",
        [ev("application_received", "2026-03-02"), ev("information_requested", "2026-03-20")],
    )
    review = one(result, "review_decision")
    assert review["due"] == "2026-04-16"
    assert review["status"] == "met"
    assert review["met_by"]["type"] == "information_requested"
    assert review["late"] is False
    assert review["party"] == "authority" and review["citation"] == "§ 413-8D"
    assert review["counting"]["rule"] == "wis-stats-990-001-4"


@pytest.mark.parametrize(
    ("as_of", "status"), [("2026-04-16T17:00", "open"), ("2026-04-17T08:00", "overdue")]
)
def test_spencers_review_clock_is_open_on_its_last_day_and_overdue_the_day_after(as_of, status):
    result = run("spencer-wi", [ev("application_received", "2026-03-02")], as_of=as_of)
    assert one(result, "review_decision")["status"] == status


def test_spencers_re_review_clock_is_30_days_from_the_information():
    # April 1 + 30 = Friday May 1; approval April 20 meets it.
    result = run(
        "spencer-wi",
        [
            ev("application_received", "2026-03-02"),
            ev("information_requested", "2026-03-20"),
            ev("information_received", "2026-04-01"),
            ev("application_approved", "2026-04-20"),
        ],
    )
    re_review = one(result, "re_review_decision")
    assert re_review["due"] == "2026-05-01"
    assert re_review["status"] == "met"
    assert re_review["met_by"]["type"] == "application_approved"


def test_new_glarus_counts_its_review_in_30_business_days():
    # From Monday March 2 (no legal holiday in March or April 2026): Tue 3..Fri 6 (4),
    # five full weeks to Friday April 10 (29), Monday April 13 (30).
    result = run("new-glarus-wi", [ev("application_received", "2026-03-02")])
    review = one(result, "review_decision")
    assert review["due"] == "2026-04-13"
    assert review["citation"] == "§ 135-7C(1)"
    assert "business-day" in notes(result)


def test_new_glarus_re_review_is_10_business_days_and_a_late_approval_is_met_late():
    # Wed April 1: Thu 2 (1), Fri 3 (2), Mon 6..Fri 10 (3-7), Mon 13 (8), Tue 14 (9),
    # Wed 15 (10). Approval April 20 is after it.
    result = run(
        "new-glarus-wi",
        [
            ev("application_received", "2026-03-02"),
            ev("information_requested", "2026-03-20"),
            ev("information_received", "2026-04-01"),
            ev("application_approved", "2026-04-20"),
        ],
    )
    re_review = one(result, "re_review_decision")
    assert re_review["due"] == "2026-04-15"
    assert re_review["status"] == "met"
    assert re_review["late"] is True


def test_another_information_request_meets_the_re_review_and_new_information_starts_another():
    # Spencer: information April 1 -> due May 1, met by a request April 10; information
    # again April 20 -> due April 20 + 30 = May 20, still open on May 5.
    result = run(
        "spencer-wi",
        [
            ev("application_received", "2026-03-02"),
            ev("information_requested", "2026-03-20"),
            ev("information_received", "2026-04-01"),
            ev("information_requested", "2026-04-10"),
            ev("information_received", "2026-04-20"),
        ],
        as_of="2026-05-05T12:00",
    )
    first, second = duties(result, "re_review_decision")
    assert (first["due"], first["status"], first["met_by"]["type"]) == (
        "2026-05-01",
        "met",
        "information_requested",
    )
    assert (second["due"], second["status"]) == ("2026-05-20", "open")


def test_a_review_clock_with_office_closures_given_replaces_the_holidays():
    # New Glarus, received Friday November 20: 30 business days.
    # Weekends only: Nov 23-27 (5), Nov 30-Dec 4 (10), Dec 7-11 (15), Dec 14-18 (20),
    # Dec 21-25 (25), Dec 28-Jan 1 (30) -> Friday January 1, 2027.
    # Default closures (Thanksgiving Nov 26, Christmas Dec 25, New Year's Day Jan 1):
    # Nov 23-27 less the 26th (4), (9), (14), (19), Dec 21-24 (23), Dec 28-31 (27),
    # [Jan 1], Mon Jan 4 (28), Tue 5 (29), Wed 6 (30).
    weekends = run("new-glarus-wi", [ev("application_received", "2026-11-20")], closures=set())
    assert one(weekends, "review_decision")["due"] == "2027-01-01"
    default = run("new-glarus-wi", [ev("application_received", "2026-11-20")])
    assert one(default, "review_decision")["due"] == "2027-01-06"


# -- the permit --------------------------------------------------------------------------


def test_a_permit_issued_may_1_expires_october_28():
    # May 1 + 180: 30 to May 31, 60 June 30, 91 July 31, 122 Aug 31, 152 Sep 30,
    # 180 Wednesday October 28.
    for jurisdiction, citation in (("spencer-wi", "§ 413-8E(1)"), ("new-glarus-wi", "§ 135-7G")):
        permit = run(jurisdiction, [ev("permit_issued", "2026-05-01")])["permit"]
        assert permit["expires"] == "2026-10-28"
        assert permit["issued"] == "2026-05-01"
        assert permit["citation"] == citation
        assert permit["extensions"] == []


def test_a_longer_building_permit_sets_the_expiry_and_a_shorter_one_does_not():
    longer = run(
        "spencer-wi", [ev("permit_issued", "2026-05-01", building_permit_expires="2027-01-15")]
    )
    assert longer["permit"]["expires"] == "2027-01-15"
    shorter = run(
        "spencer-wi", [ev("permit_issued", "2026-05-01", building_permit_expires="2026-08-01")]
    )
    assert shorter["permit"]["expires"] == "2026-10-28"


def test_an_expiry_on_the_observed_independence_day_does_not_move():
    # January 6, 2027 + 180: 25 to Jan 31, 53 Feb 28, 84 Mar 31, 114 Apr 30, 145 May 31,
    # 175 June 30, 180 Monday July 5 (July 4 is a Sunday, so July 5 is the legal holiday).
    # "Permits shall be valid for a period of 180 days ... from the date of issuance"
    # (§ 413-8E(1)) is how long a permit lasts, not "the time within which an act is to be
    # done" (§ 990.001(4)(a)), so the holiday does not lengthen it.
    result = run("spencer-wi", [ev("permit_issued", "2027-01-06")])
    permit = result["permit"]
    assert permit["expires"] == "2027-07-05"
    assert permit.get("moved") is None
    assert "permit-validity" in {n["id"] for n in result["notes"]}


@pytest.mark.parametrize("jurisdiction", ["spencer-wi", "new-glarus-wi"])
def test_a_permit_expiring_on_a_sunday_is_not_lengthened(jurisdiction):
    # Issued Tuesday 2026-05-05: 26 to May 31, 56 June 30, 87 July 31, 118 Aug 31, 148 Sept
    # 30, 179 Oct 31, 180 Sunday November 1. Both counting rules would move a last day to act
    # off a Sunday; a validity period stays.
    permit = run(jurisdiction, [ev("permit_issued", "2026-05-05")])["permit"]
    assert permit["expires"] == "2026-11-01"


def test_repeated_extensions_add_to_the_expiry_in_force_and_the_rule_applies_each_time():
    # Oct 28 + 90: 3 to Oct 31, 33 Nov 30, 64 Dec 31, 90 Tuesday January 26, 2027.
    # Jan 26 + 60: 5 to Jan 31, 33 Feb 28, 60 Saturday March 27, 2027. A validity period
    # does not move, in either village (gap note permit-validity).
    events = [
        ev("permit_issued", "2026-05-01"),
        ev("permit_extended", "2026-10-20", days=90),
        ev("permit_extended", "2027-01-20", days=60, added_measures=["SF-2"]),
    ]
    spencer = run("spencer-wi", events)["permit"]
    assert [e["expires"] for e in spencer["extensions"]] == ["2027-01-26", "2027-03-27"]
    assert spencer["expires"] == "2027-03-27"
    assert spencer["extensions"][1]["added_measures"] == ["SF-2"]
    new_glarus = run("new-glarus-wi", events)["permit"]
    assert new_glarus["expires"] == "2027-03-27"
    assert new_glarus["extensions"][1].get("moved") is None


@pytest.mark.parametrize("jurisdiction", ["spencer-wi", "new-glarus-wi"])
@pytest.mark.parametrize(("second", "flagged"), [(90, False), (91, True)])
def test_extensions_over_180_days_in_all_are_flagged_with_the_other_reading(
    jurisdiction, second, flagged
):
    # "may extend the period one or more times for up to an additional 180 days": 90 + 90
    # is 180 days in all, within both readings; 90 + 91 is 181, allowed only if each
    # extension, not the total, is capped (gap extension-total).
    events = [
        ev("permit_issued", "2026-05-01"),
        ev("permit_extended", "2026-10-20", days=90),
        ev("permit_extended", "2027-01-20", days=second),
    ]
    result = run(jurisdiction, events)
    # Jan 26, 2027 + 90 = Apr 26; + 91 = Apr 27.
    assert result["permit"]["expires"] == ("2027-04-27" if flagged else "2027-04-26")
    assert ("extension-total" in notes(result)) is flagged


@pytest.mark.parametrize(
    ("jurisdiction", "citation"), [("spencer-wi", "§ 413-8E(1)"), ("new-glarus-wi", "§ 135-7G")]
)
def test_an_extension_over_180_days_is_refused_naming_the_field_and_the_section(
    jurisdiction, citation
):
    events = [ev("permit_issued", "2026-05-01"), ev("permit_extended", "2026-10-01", days=181)]
    with pytest.raises(SiltfenceError) as raised:
        run(jurisdiction, events)
    assert str(raised.value).startswith("events[1].days: ")
    assert citation in str(raised.value)
    assert raised.value.field == "events[1].days"


def test_an_extension_of_exactly_180_days_is_allowed_and_zero_days_are_not():
    # Oct 28 + 180: 3 to Oct 31, 33 Nov 30, 64 Dec 31, 95 Jan 31, 123 Feb 28, 154 Mar 31,
    # 180 Monday April 26, 2027.
    events = [ev("permit_issued", "2026-05-01"), ev("permit_extended", "2026-10-01", days=180)]
    assert run("spencer-wi", events)["permit"]["expires"] == "2027-04-26"
    events[1]["days"] = 0
    with pytest.raises(SiltfenceError, match=r"^events\[1\]\.days: "):
        run("spencer-wi", events)


def test_an_extension_without_a_permit_is_refused():
    with pytest.raises(SiltfenceError, match=r"^events\[0\]\.type: .*permit_issued"):
        run("spencer-wi", [ev("permit_extended", "2026-10-01", days=30)])


def test_no_permit_issued_means_no_permit():
    assert run("spencer-wi", [ev("application_received", "2026-03-02")])["permit"] is None
