"""Each answer that rests on a reading of unclear text names it: the gap's id and number
from the village's data (``rules.yaml`` ``gaps:``), on the answer itself and among the
notes. Dates worked out by hand from the ordinance texts:

- Spencer § 413-10B, C "within 10 days" (gap 21: from the posting of the order). Posted
  Wednesday July 1, 2026: the 10th day is Saturday July 11 (only a Sunday or a legal
  holiday moves it, § 990.001(4)), so the power arises Sunday July 12.
- New Glarus § 135-7C(1) "within 30 business days" of a complete application, which names
  no request for information (gap 22). Filed Wednesday April 1, 2026: business days
  April 2, 3, 6-10, 13-17, 20-24, 27-May 1, 4-8, 11, 12, 13; the 30th is May 13.
- "At least once each week" (gap 13): seven days from work started Monday June 1, 2026,
  then from each week's last day: June 8, 15, 22, 29.
- "Each rain of 0.5 inch or more" (gaps 4 and 20): 0.3 in on June 10 and 0.3 in on June 11
  sum to one rain of 0.6 in ending with June 11; 0.7 in on June 20 is a rain of its own.
"""

from __future__ import annotations

from .helpers import actions, duties, ev, one, run

SPENCER, NEW_GLARUS = "spencer-wi", "new-glarus-wi"
TEN_DAYS = [{"id": "ten-days-from", "gap": 21}]
WEEK = [{"id": "weekly-inspection", "gap": 13}]
A_RAIN = [{"id": "rain-event", "gap": 4}, {"id": "each-rain", "gap": 20}]


def _notes(result: dict) -> dict[str, int | None]:
    return {n["id"]: n.get("gap") for n in result["notes"]}


def test_spencer_revocation_names_from_what_the_ten_days_run():
    result = run(
        SPENCER,
        [ev("permit_issued", "2026-05-01"), ev("stop_work_order_posted", "2026-07-01")],
        "2026-07-15T12:00",
    )
    revoke = actions(result)["revoke_permit"]
    assert (revoke["from"], revoke["citation"]) == ("2026-07-12", "§ 413-10B")
    assert revoke["readings"] == TEN_DAYS
    assert "the 10 days to comply end 2026-07-11 (gap 21, the reading taken)" in revoke["because"]
    assert _notes(result)["ten-days-from"] == 21
    # § 413-10E's notice of intent runs "Ten days after posting" in so many words: no gap.
    assert "readings" not in actions(result)["issue_notice_of_intent"]


def test_spencer_cease_and_desist_request_names_from_what_the_ten_days_run():
    result = run(
        SPENCER,
        [ev("work_started", "2026-06-01T07:00"), ev("stop_work_order_posted", "2026-07-01")],
        "2026-07-15T12:00",
    )
    refer = actions(result)["request_cease_and_desist"]
    assert (refer["from"], refer["citation"]) == ("2026-07-12", "§ 413-10C")
    assert refer["readings"] == TEN_DAYS
    assert "(gap 21, the reading taken)" in refer["because"]


def test_new_glarus_steps_rest_on_no_ten_days():
    result = run(
        NEW_GLARUS,
        [
            ev("permit_issued", "2026-05-01"),
            ev("stop_work_order_posted", "2026-07-01"),
            ev("violation", "2026-07-03", **{"from": "2026-07-03", "to": "2026-07-03"}),
        ],
        "2026-07-15T12:00",
    )
    revoke = actions(result)["revoke_permit"]
    assert (revoke["from"], revoke["citation"]) == ("2026-07-03", "§ 135-11B")
    assert "readings" not in revoke
    assert "ten-days-from" not in _notes(result)


def test_new_glarus_review_clock_names_the_reading_of_a_request_for_information():
    result = run(NEW_GLARUS, [ev("application_received", "2026-04-01")], "2026-04-02T12:00")
    clock = one(result, "review_decision")
    assert (clock["due"], clock["citation"]) == ("2026-05-13", "§ 135-7C(1)")
    assert clock["readings"] == [{"id": "information-request-clock", "gap": 22}]
    assert clock["because"].endswith(
        "(approval, disapproval or a written request for information: gap 22, the reading taken)"
    )
    assert _notes(result)["information-request-clock"] == 22
    # Spencer's § 413-8D says so in words ("may either require needed information or
    # disapprove"): its clock rests on no reading.
    spencer = one(run(SPENCER, [ev("application_received", "2026-04-01")]), "review_decision")
    assert "readings" not in spencer and "gap" not in spencer["because"]


def test_each_weekly_and_each_rain_duty_names_its_reading_in_both_villages():
    events = [
        ev("permit_issued", "2026-05-01"),
        ev("work_started", "2026-06-01T07:00"),
        ev("rain", "2026-06-10", inches=0.3, runoff=True),
        ev("rain", "2026-06-11", inches=0.3, runoff=True),
        ev("rain", "2026-06-20", inches=0.7, runoff=True),
    ]
    for village in (SPENCER, NEW_GLARUS):
        result = run(village, events, "2026-06-25T12:00")
        weeks = duties(result, "weekly_inspection")
        assert [w["due"] for w in weeks] == ["2026-06-08", "2026-06-15", "2026-06-22", "2026-06-29"]
        for week in weeks:
            assert week["readings"] == WEEK, (village, week)
            assert "(7 days: gap 13, the reading taken)" in week["because"]
        rains = duties(result, "rain_inspection")
        assert [(r["rain"]["from"], r["rain"]["to"]) for r in rains] == [
            ("2026-06-10", "2026-06-11"),
            ("2026-06-20", "2026-06-20"),
        ]
        for rain in rains:
            assert rain["readings"] == A_RAIN, (village, rain)
            assert "gaps 4 and 20, the readings taken" in rain["because"]
        assert {"weekly-inspection": 13, "rain-event": 4, "each-rain": 20}.items() <= (
            _notes(result).items()
        )
