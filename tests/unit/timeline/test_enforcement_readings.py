"""Enforcement as the chapters word it: § 135-11B revocation without a stop-work order,
§ 135-11C notice to cease, retraction (§ 413-10D, § 135-11D), and entry on land where
work runs without a permit (§ 413-9, § 135-10)."""

from __future__ import annotations

import pytest

from siltfence.core.errors import SiltfenceError

from .helpers import actions, ev, notes, run

ISSUED = ev("permit_issued", "2026-05-01")


# -- § 135-11B: "does not cease activity as required in a stop-work order ... or fails to
# comply with the erosion and sediment control plan or permit conditions" ----------------


def test_new_glarus_revocation_is_open_from_the_day_a_permit_violation_is_recorded():
    events = [ISSUED, ev("violation", "2026-07-10", **{"from": "2026-07-08", "to": "2026-07-09"})]
    revoke = actions(run("new-glarus-wi", events))["revoke_permit"]
    assert revoke["from"] == "2026-07-10"
    assert revoke["citation"] == "§ 135-11B"


def test_new_glarus_revocation_is_not_open_the_day_before_the_violation_is_recorded():
    events = [ISSUED, ev("violation", "2026-07-10", **{"from": "2026-07-08", "to": "2026-07-09"})]
    before = run("new-glarus-wi", events, as_of="2026-07-09T23:00")
    assert "revoke_permit" not in actions(before)


def test_spencer_revocation_still_needs_a_stop_work_order_and_ten_days():
    # § 413-10B: "If the permittee does not cease the activity or comply ... within 10 days".
    events = [ISSUED, ev("violation", "2026-07-10", **{"from": "2026-07-08", "to": "2026-07-09"})]
    assert "revoke_permit" not in actions(run("spencer-wi", events))


def test_a_violation_before_any_permit_does_not_open_revocation_in_new_glarus():
    events = [ev("violation", "2026-04-10", **{"from": "2026-04-08", "to": "2026-04-09"}), ISSUED]
    assert "revoke_permit" not in actions(run("new-glarus-wi", events))


def test_a_stop_work_order_alone_does_not_open_new_glarus_revocation():
    # § 135-11B: "If the responsible party does not cease activity as required in a
    # stop-work order": posting it shows nothing was disobeyed yet.
    events = [ISSUED, ev("stop_work_order_posted", "2026-07-01")]
    assert "revoke_permit" not in actions(run("new-glarus-wi", events, as_of="2026-07-20T12:00"))


def test_a_violation_after_the_stop_work_order_opens_new_glarus_revocation_that_day():
    events = [
        ISSUED,
        ev("stop_work_order_posted", "2026-07-01"),
        ev("violation", "2026-07-10", **{"from": "2026-07-08", "to": "2026-07-09"}),
    ]
    assert actions(run("new-glarus-wi", events))["revoke_permit"]["from"] == "2026-07-10"


# -- § 135-11C: "where no permit has been issued, does not cease the activity after being
# notified by the Village Administrator" --------------------------------------------------


def test_new_glarus_cease_and_desist_request_needs_the_work_to_go_on_after_the_notice():
    # "does not cease the activity after being notified": the notice alone opens nothing;
    # a violation whose days begin after it (June 4, recorded June 5) opens the request.
    notice = ev("notified_to_cease", "2026-06-03")
    alone = run("new-glarus-wi", [notice], as_of="2026-06-20T12:00")
    assert "request_cease_and_desist" not in actions(alone)
    went_on = [notice, ev("violation", "2026-06-05", **{"from": "2026-06-04", "to": "2026-06-04"})]
    result = run("new-glarus-wi", went_on)
    request = actions(result)["request_cease_and_desist"]
    assert request["from"] == "2026-06-05"
    assert request["citation"] == "§ 135-11C"
    assert "revoke_permit" not in actions(result)


def test_a_notice_to_cease_given_to_a_permittee_does_not_open_the_no_permit_path():
    # The notice path is for "the responsible party, where no permit has been issued".
    result = run("new-glarus-wi", [ISSUED, ev("notified_to_cease", "2026-06-03")])
    assert "request_cease_and_desist" not in actions(result)


def test_a_notice_to_cease_does_not_open_spencer_referral_which_runs_from_an_order():
    # § 413-10C: "does not cease the activity within 10 days" of the stop-work order.
    assert actions(run("spencer-wi", [ev("notified_to_cease", "2026-06-03")])) == {}


# -- retraction: § 413-10D, § 135-11D -----------------------------------------------------


def test_a_retracted_stop_work_order_ends_its_waiting_periods_from_that_moment():
    events = [
        ISSUED,
        ev("stop_work_order_posted", "2026-07-01"),
        ev("order_retracted", "2026-07-05", order="stop_work_order", by="appeals_board"),
    ]
    assert actions(run("spencer-wi", events, as_of="2026-07-30T12:00")) == {}
    still_open = run("spencer-wi", events[:2], as_of="2026-07-30T12:00")
    assert set(actions(still_open)) == {"revoke_permit", "issue_notice_of_intent"}


def test_before_the_retraction_the_order_still_had_effect():
    events = [
        ISSUED,
        ev("stop_work_order_posted", "2026-07-01"),
        ev("order_retracted", "2026-07-20", order="stop_work_order", by="authority"),
    ]
    # July 1 + 10 = July 11: the notice of intent is open on July 15, before the retraction.
    assert "issue_notice_of_intent" in actions(run("spencer-wi", events, as_of="2026-07-15T12:00"))


def test_a_retracted_revocation_restores_the_permit():
    events = [
        ISSUED,
        ev("stop_work_order_posted", "2026-07-01"),
        ev("permit_revoked", "2026-07-15"),
        ev("order_retracted", "2026-08-01", order="revocation", by="appeals_board"),
    ]
    revoked = run("new-glarus-wi", events[:3])
    assert revoked["permit"]["revoked"] == "2026-07-15"
    restored = run("new-glarus-wi", events)
    assert restored["permit"].get("revoked") is None


def test_only_the_zoning_board_of_appeals_may_retract_in_new_glarus():
    # § 135-11D: "The Zoning Board of Appeals may retract"; Spencer § 413-10D also lets the
    # Building Inspector retract.
    events = [
        ISSUED,
        ev("stop_work_order_posted", "2026-07-01"),
        ev("order_retracted", "2026-07-05", order="stop_work_order", by="authority"),
    ]
    with pytest.raises(SiltfenceError) as raised:
        run("new-glarus-wi", events)
    assert str(raised.value).startswith("events[2].by: only the Zoning Board of Appeals")
    assert "§ 135-11D" in str(raised.value)
    assert actions(run("spencer-wi", events, as_of="2026-07-30T12:00")) == {}


def test_retracting_an_order_that_was_never_given_is_refused():
    events = [ISSUED, ev("order_retracted", "2026-07-05", order="revocation", by="authority")]
    with pytest.raises(SiltfenceError, match=r"^events\[1\]\.order: there is no earlier"):
        run("spencer-wi", events)


@pytest.mark.parametrize(
    ("field", "value"), [("order", "permit"), ("by", "village_board"), ("order", 3)]
)
def test_a_retraction_with_an_unknown_order_or_body_names_the_field(field, value):
    fields = {"order": "stop_work_order", "by": "authority", field: value}
    with pytest.raises(SiltfenceError, match=rf"^events\[0\]\.{field}: expected one of"):
        run("spencer-wi", [ev("order_retracted", "2026-07-05", **fields)])


# -- entry where work runs without a permit: § 413-9, § 135-10 (gap 9) ---------------------


def test_a_spencer_stop_work_order_with_no_permit_carries_the_entry_sentence():
    result = run("spencer-wi", [ev("stop_work_order_posted", "2026-07-01")])
    entry = next(n for n in result["notes"] if n["id"] == "entry-without-permit")
    assert "§ 66.0119" in entry["says"]
    assert entry["citations"] == ["§ 413-9"]


def test_a_new_glarus_notice_to_cease_carries_the_section_135_10_gap():
    result = run("new-glarus-wi", [ev("notified_to_cease", "2026-07-01")])
    assert {"entry-without-permit", "section-135-10-not-received"} <= notes(result)


def test_a_violation_found_at_an_unpermitted_site_carries_the_entry_sentence():
    # A complaint about an unpermitted site is recorded as a violation with no permit.
    violation = ev("violation", "2026-07-01", **{"from": "2026-06-30", "to": "2026-07-01"})
    assert "entry-without-permit" in notes(run("spencer-wi", [violation]))


def test_a_stop_work_order_on_a_permitted_site_has_no_entry_note():
    result = run("spencer-wi", [ISSUED, ev("stop_work_order_posted", "2026-07-01")])
    assert "entry-without-permit" not in notes(result)


# -- § 413-10E: "after 14 days from issuing the notice of intent" -------------------------


def test_spencer_village_work_says_after_14_days_and_falls_on_the_15th_day():
    events = [
        ISSUED,
        ev("stop_work_order_posted", "2026-07-01"),
        ev("notice_of_intent_issued", "2026-07-13"),
    ]
    work = actions(run("spencer-wi", events, as_of="2026-08-01T12:00"))["begin_village_work"]
    assert work["from"] == "2026-07-28"  # July 13 + 15
    assert "after 14 days from issuing" in work["because"]


def test_spencer_forfeiture_says_costs_are_unknown_not_false():
    # § 413-10E: "a forfeiture as provided in § 1-3", which is not in hand.
    events = [ev("violation", "2026-07-10", **{"from": "2026-07-08", "to": "2026-07-09"})]
    spencer = run("spencer-wi", events)["forfeiture"]
    assert spencer["plus_costs"] is None
    # § 135-11F: "and the costs of prosecution".
    assert run("new-glarus-wi", events)["forfeiture"]["plus_costs"] is True


def test_the_violation_that_led_to_the_order_does_not_show_it_disobeyed():
    # New Glarus § 135-11C: the referral follows a stop-work order violated. The violation
    # found on July 1, the day the order was posted for it, led to the order; it shows no
    # disobedience. Revocation is open from it on the other ground of § 135-11B ("fails to
    # comply with ... permit conditions"), recorded on a permitted site.
    found = ev("violation", "2026-07-01", **{"from": "2026-07-01", "to": "2026-07-05"})
    events = [ISSUED, found, ev("stop_work_order_posted", "2026-07-01T10:00")]
    offered = actions(run("new-glarus-wi", events, as_of="2026-07-06T12:00"))
    assert "request_cease_and_desist" not in offered
    assert offered["revoke_permit"]["from"] == "2026-07-01"
    # Work found going on from July 3, after the order: now the order was violated.
    went_on = ev("violation", "2026-07-03", **{"from": "2026-07-03", "to": "2026-07-03"})
    offered = actions(run("new-glarus-wi", [*events, went_on], as_of="2026-07-06T12:00"))
    assert offered["request_cease_and_desist"]["from"] == "2026-07-03"
