"""Allowed enforcement steps and their waiting periods, on both sides of each, and the
forfeiture's day count (docs/decisions/0006-enforcement-waiting-periods.md).

2026: July 1 is a Wednesday, so July 11 is a Saturday and July 12 a Sunday.
"""

from __future__ import annotations

import pytest

from .helpers import actions, ev, notes, run

PERMIT = ev("permit_issued", "2026-05-01")
ORDER = ev("stop_work_order_posted", "2026-07-01")


def test_spencer_notice_of_intent_is_allowed_ten_days_after_the_posting():
    # July 1 + 10 = Saturday July 11: not allowed on July 10, allowed on July 11.
    before = actions(run("spencer-wi", [PERMIT, ORDER], as_of="2026-07-10T16:00"))
    assert before["issue_notice_of_intent"]["from"] == "2026-07-11"
    assert before["issue_notice_of_intent"]["available"] is False
    on = actions(run("spencer-wi", [PERMIT, ORDER], as_of="2026-07-11T08:00"))
    assert on["issue_notice_of_intent"]["available"] is True
    assert on["issue_notice_of_intent"]["citation"] == "§ 413-10E"


def test_spencer_revocation_arises_the_day_after_the_ten_days_to_comply():
    # The 10th day is Saturday July 11 (a Saturday does not move for Spencer): revocation
    # from Sunday July 12. Not on July 11, yes on July 12.
    on_11 = actions(run("spencer-wi", [PERMIT, ORDER], as_of="2026-07-11T23:00"))
    assert on_11["revoke_permit"]["from"] == "2026-07-12"
    assert on_11["revoke_permit"]["available"] is False
    assert on_11["revoke_permit"]["citation"] == "§ 413-10B"
    on_12 = actions(run("spencer-wi", [PERMIT, ORDER], as_of="2026-07-12T08:00"))
    assert on_12["revoke_permit"]["available"] is True
    assert "request_cease_and_desist" not in on_12


def test_spencer_ten_days_to_comply_ending_on_a_sunday_run_to_monday():
    # Posted Thursday July 2: the 10th day is Sunday July 12 -> Monday July 13, so
    # revocation from Tuesday July 14. The notice of intent is a waiting period and does
    # not move: Sunday July 12.
    order = ev("stop_work_order_posted", "2026-07-02")
    result = actions(run("spencer-wi", [PERMIT, order], as_of="2026-07-13T12:00"))
    assert result["revoke_permit"]["from"] == "2026-07-14"
    assert "Sunday" in result["revoke_permit"]["moved"]
    assert result["issue_notice_of_intent"]["from"] == "2026-07-12"


def test_spencer_without_a_permit_offers_a_cease_and_desist_request_instead_of_revocation():
    result = actions(run("spencer-wi", [ORDER], as_of="2026-07-12T08:00"))
    assert result["request_cease_and_desist"]["from"] == "2026-07-12"
    assert result["request_cease_and_desist"]["citation"] == "§ 413-10C"
    assert "revoke_permit" not in result


def test_spencer_village_work_starts_after_14_days_from_the_notice_of_intent():
    # Notice Monday July 13 + 14 days ends July 27; the work may start July 28.
    events = [PERMIT, ORDER, ev("notice_of_intent_issued", "2026-07-13")]
    on_27 = actions(run("spencer-wi", events, as_of="2026-07-27T12:00"))
    assert on_27["begin_village_work"]["from"] == "2026-07-28"
    assert on_27["begin_village_work"]["available"] is False
    on_28 = actions(run("spencer-wi", events, as_of="2026-07-28T08:00"))
    assert on_28["begin_village_work"]["available"] is True


def test_village_work_is_never_offered_before_a_notice_of_intent():
    result = actions(run("spencer-wi", [PERMIT, ORDER], as_of="2026-08-30T12:00"))
    assert "begin_village_work" not in result
    result = actions(run("new-glarus-wi", [PERMIT, ORDER], as_of="2026-08-30T12:00"))
    assert "begin_village_work" not in result


def test_a_notice_of_intent_issued_too_early_is_noted():
    events = [PERMIT, ORDER, ev("notice_of_intent_issued", "2026-07-05")]
    assert "notice-of-intent-early" in notes(run("spencer-wi", events))


def test_new_glarus_steps_have_no_waiting_period():
    # § 135-11E: the notice of intent "After posting", village work "after issuing the
    # notice". § 135-11B, C: revocation and the referral need the order disobeyed (a
    # violation from July 2, recorded July 2), not the posting alone.
    posted = actions(run("new-glarus-wi", [PERMIT, ORDER], as_of="2026-07-01T12:00"))
    assert {name: a["from"] for name, a in posted.items()} == {
        "issue_notice_of_intent": "2026-07-01",
    }
    # Once the notice is issued (July 2), it is not offered again; village work is.
    events = [PERMIT, ORDER, ev("notice_of_intent_issued", "2026-07-02")]
    result = actions(run("new-glarus-wi", events, as_of="2026-07-02T12:00"))
    assert {name: a["from"] for name, a in result.items()} == {
        "begin_village_work": "2026-07-02",
    }
    assert result["begin_village_work"]["citation"] == "§ 135-11E"
    disobeyed = [
        *events,
        ev("violation", "2026-07-02", **{"from": "2026-07-02", "to": "2026-07-02"}),
    ]
    result = actions(run("new-glarus-wi", disobeyed, as_of="2026-07-02T12:00"))
    assert (result["revoke_permit"]["from"], result["revoke_permit"]["citation"]) == (
        "2026-07-02",
        "§ 135-11B",
    )
    assert result["request_cease_and_desist"]["from"] == "2026-07-02"


def test_no_step_is_offered_before_a_stop_work_order_or_after_compliance():
    assert run("spencer-wi", [PERMIT])["allowed_actions"] == []
    events = [PERMIT, ORDER, ev("compliance_achieved", "2026-07-05")]
    assert run("spencer-wi", events, as_of="2026-08-01T12:00")["allowed_actions"] == []


def test_a_permit_already_revoked_is_not_offered_for_revocation_again():
    events = [PERMIT, ORDER, ev("permit_revoked", "2026-07-12")]
    result = actions(run("spencer-wi", events, as_of="2026-07-13T12:00"))
    assert "revoke_permit" not in result


def test_unpaid_costs_allow_certification_to_the_tax_roll():
    events = [PERMIT, ORDER, ev("costs_unpaid", "2026-09-01")]
    for jurisdiction, citation in (("spencer-wi", "§ 413-10E"), ("new-glarus-wi", "§ 135-11E")):
        result = actions(run(jurisdiction, events))
        assert result["certify_special_assessment"]["from"] == "2026-09-01"
        assert result["certify_special_assessment"]["citation"] == citation


# -- forfeiture ---------------------------------------------------------------------------


def test_overlapping_violations_are_each_an_offense_on_each_of_their_days():
    # § 135-11F: "for each violation. Each day a violation exists or continues shall
    # constitute a separate offense." July 1-5 (5 days) and July 4-10 (7 days) are
    # 12 offenses on 10 distinct days. $100 to $500 each, plus costs.
    events = [
        ev("violation", "2026-07-06", **{"from": "2026-07-01", "to": "2026-07-05"}),
        ev("violation", "2026-07-11", **{"from": "2026-07-04", "to": "2026-07-10"}),
    ]
    fine = run("new-glarus-wi", events)["forfeiture"]
    assert (fine["days"], fine["offenses"]) == (10, 12)
    assert (fine["min"], fine["max"]) == (1200, 6000)  # 12 x $100, 12 x $500
    assert (fine["min_per_day"], fine["max_per_day"]) == (100, 500)
    assert fine["plus_costs"] is True
    assert fine["citation"] == "§ 135-11F"


def test_two_violations_on_the_same_three_days_are_six_offenses():
    events = [
        ev("violation", "2026-07-04", **{"from": "2026-07-01", "to": "2026-07-03"}),
        ev("violation", "2026-07-04", **{"from": "2026-07-01", "to": "2026-07-03"}),
    ]
    for jurisdiction in ("spencer-wi", "new-glarus-wi"):
        fine = run(jurisdiction, events)["forfeiture"]
        assert (fine["days"], fine["offenses"]) == (3, 6)


def test_a_violations_days_end_on_the_day_compliance_is_recorded():
    # Found June 7 and still open on November 16, but compliance was recorded July 8:
    # June 7 to July 8 is 32 days (24 in June, 8 in July), the compliance day included.
    events = [
        ev("violation", "2026-06-07", **{"from": "2026-06-07", "to": "2026-11-16"}),
        ev("compliance_achieved", "2026-07-08"),
    ]
    fine = run("new-glarus-wi", events, as_of="2026-11-16T12:00")["forfeiture"]
    assert (fine["offenses"], fine["first_day"], fine["last_day"]) == (
        32,
        "2026-06-07",
        "2026-07-08",
    )
    assert fine["violations"][0]["compliance"] == "2026-07-08"
    # A compliance recorded before the violation began does not end it.
    earlier = [ev("compliance_achieved", "2026-06-01"), *events[:1]]
    late = run("new-glarus-wi", earlier, as_of="2026-11-16T12:00")["forfeiture"]
    assert late["offenses"] == 163  # June 7 to November 16


def test_spencer_forfeiture_counts_days_but_leaves_the_amount_to_the_clerk():
    # One day, July 3 to July 3, inclusive.
    events = [ev("violation", "2026-07-04", **{"from": "2026-07-03", "to": "2026-07-03"})]
    result = run("spencer-wi", events)
    fine = result["forfeiture"]
    assert fine["days"] == 1
    assert fine["min"] is None and fine["max"] is None
    assert fine["citation"] == "§ 413-10E"
    assert "forfeiture-amount" in notes(result)


@pytest.mark.parametrize("jurisdiction", ["spencer-wi", "new-glarus-wi"])
def test_no_violation_means_no_forfeiture(jurisdiction):
    assert run(jurisdiction, [PERMIT])["forfeiture"] is None


def test_a_step_taken_is_not_offered_again():
    # Spencer: order July 1; notice of intent from July 11 (§ 413-10E), issued July 11;
    # village work from July 26 (the 15th day), begun July 27; the referral (§ 413-10C)
    # would follow a no-permit order. Each step taken leaves the list; the others stay.
    events = [PERMIT, ORDER, ev("notice_of_intent_issued", "2026-07-11")]
    offered = actions(run("spencer-wi", events, as_of="2026-07-27T12:00"))
    assert set(offered) == {"revoke_permit", "begin_village_work"}
    events.append(ev("village_work_begun", "2026-07-27"))
    offered = actions(run("spencer-wi", events, as_of="2026-07-28T12:00"))
    assert set(offered) == {"revoke_permit"}


def test_each_unpaid_invoice_is_certified_once():
    unpaid = [
        ev("costs_unpaid", "2026-09-01", id="INV-1"),
        ev("costs_unpaid", "2026-09-15", id="INV-2"),
    ]
    assert "certify_special_assessment" in actions(run("new-glarus-wi", unpaid))
    one = [*unpaid, ev("special_assessment_certified", "2026-09-20", id="INV-2")]
    certify = actions(run("new-glarus-wi", one))["certify_special_assessment"]
    assert certify["from"] == "2026-09-01"  # INV-1 is still to certify
    both = [*one, ev("special_assessment_certified", "2026-09-21", id="INV-1")]
    assert "certify_special_assessment" not in actions(run("new-glarus-wi", both))


def test_a_referral_requested_is_not_offered_again():
    # Spencer, no permit: order July 1, referral from July 12 (§ 413-10C), requested then.
    events = [ev("stop_work_order_posted", "2026-07-01")]
    assert "request_cease_and_desist" in actions(run("spencer-wi", events, as_of="2026-07-12"))
    events.append(ev("cease_and_desist_requested", "2026-07-12"))
    assert "request_cease_and_desist" not in actions(run("spencer-wi", events, as_of="2026-07-13"))
