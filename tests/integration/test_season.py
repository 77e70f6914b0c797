"""One season per village, run through the services as the village runs it, on the real
rain of 2025 at Milwaukee Mitchell (GHCN-Daily USW00014839).

Each village has three projects: a small home site (H), a subdivision phase in a larger
common plan (S) and a utility's road job (R). They are determined, filed and decided (one
information request, one approval with a surety, and in New Glarus one added condition,
§ 135-7F); then a season of weekly inspections and inspections after rain with one week
missed, the rain imported month by month as a clerk imports it; one site taken through a
stop-work order, a notice of intent, village work, costs, an invoice, non-payment and
certification to the tax roll; one revocation appealed, heard and decided; an extension;
and a closeout at final stabilization.

Every expected value is worked out by hand from the ordinance's words (the arithmetic is
in the comments), never copied from the program's output:

- Spencer Ch. 413 counts days by § 990.001(4) Wis. Stats. (its own Ch. 1 is not in hand):
  the first day excluded and the last included; a last day on a Sunday or legal holiday
  moves to the next secular day ((4)(b)); a Saturday does not move; hours leave out the
  whole of every Sunday and legal holiday ((4)(a)).
- New Glarus Ch. 135 counts by its Code Ch. 1, C: the last day moves off a Saturday, Sunday
  or legal holiday; a period under seven days skips them; business days are the days the
  Village Administrator's office is open (§ 135-13); hours are clock hours (gap 11).
- Legal holidays of 2025 (§ 995.20 Wis. Stats.) met in the season: Memorial Day Mon May 26,
  Juneteenth Thu June 19, Independence Day Fri July 4, Labor Day Mon September 1, Columbus
  Day Mon October 13.
- A permit's 180 days of validity never move (gap 18); "at least once each week" is due by
  the 7th day after the last inspection and never moves (gap 13).
- Rain (gap 4, gap 20): each day of the station's record in tenths of a millimetre;
  consecutive wet days summed until they reach 0.5 in = 12.7 mm, that is one rain, ending
  with its last day; summing starts again after it. Spencer's inspection after rain has
  no deadline in the text: the end of the next day (gap 3), counted by § 990.001(4).
  New Glarus: within 24 clock hours after the rain ends, "during active construction"
  (from the start of work to final stabilization, gap 23), runoff assumed unless the
  permittee records none (gap 19).

The days of 2025 at Milwaukee used here, read by hand from the CSV (PRCP in inches, times
25.4, to 0.1 mm): Apr 17 0.0394 in = 1.0 mm, Apr 18 0.8819 in = 22.4 mm (together 23.4 mm,
a rain); Apr 19 1.5 + Apr 20 8.9 = 10.4 mm (not one); May 1 24.6; May 15 20.6; May 20 28.2;
May 21 18.5; May 28 0.48818924 in = 12.4 mm (not one); Jun 3 16.0; Jun 4 13.0; Jun 17 0.5 +
Jun 18 31.8 = 32.3; Jun 24-27 3.8 + 1.0 + 6.4 + 1.3 = 12.5 (not one); Jul 4 8.1 + Jul 5 5.3
= 13.4 (a rain of two days, neither one alone); Jul 6 8.6 (left over, not one); Jul 10 2.3
+ Jul 11 38.1 = 40.4; Jul 30 26.4; Aug 9 145.8; Aug 10 29.7; Aug 12 27.4; Aug 16 0.8 +
Aug 17 2.8 + Aug 18 18.5 = 22.1; Sep 13 15.7; Sep 20 2.5 + Sep 21 0.3 + Sep 22 20.8 = 23.6;
Oct 18 22.4; Oct 19 9.9 + Oct 20 1.3 + Oct 21 1.3 = 12.5 (not one). Apr 2 28.2 fell before
any permit was issued.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

import pytest
from board_helpers import board_decides
from django.db.models import Q
from season_helpers import (
    Surety,
    application_made,
    approve_with_surety,
    at,
    case_document_text,
    day,
    dues,
    duties,
    log,
    month_of_rain,
    note_ids,
    pdf_text,
    permit_text,
    rain_import,
    register_rows,
    self_inspections,
    station_pinned,
    steps_open,
    timeline,
    village_inspection,
    village_people,
)

from siltfence.apps.appeals import services as appeals
from siltfence.apps.enforcement import services as enforcement
from siltfence.apps.enforcement.errors import ActionRefused as EnforcementRefused
from siltfence.apps.enforcement.selectors import forfeiture_summary
from siltfence.apps.permits import services as permits
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import ApplicationStatus, Permit

pytestmark = pytest.mark.django_db

SPENCER = "spencer-wi"
NEW_GLARUS = "new-glarus-wi"


def emails_about(case: Any, kind: str) -> dict[str, str]:
    """The emails of ``kind`` recorded in the outbox about ``case``: address to body."""
    from siltfence.apps.outbox.models import Message

    return {
        m.to_address: m.body
        for m in Message.objects.filter(kind=kind).filter(
            Q(case=case) | Q(permit__application=case.application)
        )
    }


def emails_of(kind: str) -> dict[str, str]:
    """Every email of ``kind`` recorded in the outbox: address to body."""
    from siltfence.apps.outbox.models import Message

    return {m.to_address: m.body for m in Message.objects.filter(kind=kind)}


def held(application: Any) -> set[str]:
    """The citations of the triggers the determination found met."""
    return {
        f["citation"]
        for f in application.determination["findings"]
        if f["kind"] == "trigger" and f["holds"]
    }


def requirement_ids(application: Any) -> set[str]:
    return {r["id"] for r in application.determination["requirements"]}


def determination_note_ids(application: Any) -> set[str]:
    return {n["id"] for n in application.determination["notes"]}


def rains(permit: Any, when: datetime.datetime) -> list[tuple]:
    """Each inspection after rain: (first day, last day, mm, due, status)."""
    return [
        (d["rain"]["from"], d["rain"]["to"], d["rain"]["mm"], d["due"], d["status"])
        for d in duties(permit, "rain_inspection", when)
    ]


# ---------------------------------------------------------------------------------------------
# Spencer, Ch. 413 (the Building Inspector)
# ---------------------------------------------------------------------------------------------


def test_a_season_in_spencer(tmp_path: Any, client: Any) -> None:
    v = village_people(SPENCER)
    staff, inspector = v.staff, v.inspector
    # The Building Inspector authorizes the interest on the costs of village work before
    # the season (§ 413-10E: "plus interest at the rate authorized by the Building
    # Inspector").
    enforcement.interest_rate_set(
        village=v.village,
        staff=staff,
        effective_from=day("2025-01-01"),
        annual_percent="6",
        authority="Building Inspector's order 2025-1",
    )

    # -- Determinations, Monday 2025-03-31 ---------------------------------------------
    home = application_made(
        applicant=v.homeowner,
        village=v.village,
        address="410 N Park St, Spencer",
        facts={"disturbed_area": "6000 sq ft", "land_use": "residential"},
        on="2025-03-31",
        landowner="Dana Kowalski",
        description="New house on a lot of record",
    )
    # § 413-7A(3): 6,000 sq ft "affecting a surface area of 4,000 square feet or more";
    # less than one acre (43,560 sq ft), so a control plan statement (§ 413-8C) of four
    # items; residential, so no tracking pad (§ 413-7B(3): "Each nonresidential site");
    # under 10 acres at one time, so fences or bales (§ 413-7B(5)(c)[3]).
    assert home.determination["applies"] is True
    assert held(home) == {"§ 413-7A(3)"}
    assert home.plan_kind == "control_plan_statement"
    assert home.determination["plan"]["citation"] == "§ 413-8C"
    assert len(home.determination["plan"]["contents"]) == 4
    assert "tracking" not in requirement_ids(home)
    assert {"fences-or-bales", "inlet-protection", "street-tracking-prohibition"} <= (
        requirement_ids(home)
    )
    assert "wpdes-permit" not in determination_note_ids(home)

    subdivision = application_made(
        applicant=v.developer,
        village=v.village,
        address="Meadow View plat, Phase 2 (lots 8-14), Spencer",
        facts={"subdivision_plat": True, "disturbed_area": "2.5 acres", "land_use": "residential"},
        on="2025-03-31",
        landowner="Meadow View Development LLC",
        description="Phase 2 of the Meadow View plat: street and seven lots",
    )
    # § 413-7A(1): houses on lots of an approved subdivision plat; § 413-7A(3): 2.5 acres
    # = 108,900 sq ft, 4,000 sq ft or more. "More than one acre": a control plan, § 413-8B,
    # with the 15 items of § 413-8B(1), (1)(a)-(h), (2) and (3)(a)-(e); one acre or more
    # also needs the DNR's WPDES permit (NR 216.42).
    assert held(subdivision) == {"§ 413-7A(1)", "§ 413-7A(3)"}
    assert subdivision.plan_kind == "control_plan"
    assert subdivision.determination["plan"]["citation"] == "§ 413-8B"
    assert len(subdivision.determination["plan"]["contents"]) == 1 + 8 + 1 + 5
    assert "wpdes-permit" in determination_note_ids(subdivision)

    road = application_made(
        applicant=v.utility,
        village=v.village,
        address="Clark St from Park St to Pacific St, Spencer",
        facts={
            "road_work": True,
            "underground_pipe_length": "900 ft",
            "disturbed_area": "0.8 acre",
            "land_use": "other",
        },
        on="2025-03-31",
        landowner="Central Wisconsin Gas Co.",
        description="Gas main replacement with street reconstruction",
    )
    # § 413-7A(3): 0.8 acre = 34,848 sq ft; § 413-7A(5): street reconstruction; § 413-7A(6):
    # 900 ft of pipe, "300 feet or more". Under one acre: a plan statement (§ 413-8C). Not
    # residential: graveled drives against tracking (§ 413-7B(3)). A utility is told of
    # the memorandum of agreement the note to § 413-7A asks for.
    assert held(road) == {"§ 413-7A(3)", "§ 413-7A(5)", "§ 413-7A(6)"}
    assert road.plan_kind == "control_plan_statement"
    assert "tracking" in requirement_ids(road)
    assert "utility-memorandum" in determination_note_ids(road)

    # -- Filing ------------------------------------------------------------------------
    permits.application_submit(application=home, user=v.homeowner, at=at("2025-04-01", 9))
    permits.application_submit(application=subdivision, user=v.developer, at=at("2025-04-01", 10))
    permits.application_submit(application=road, user=v.utility, at=at("2025-04-03", 9))
    # § 413-8D: "Within 45 days of receipt". Received Tue 2025-04-01: 29 days to Apr 30
    # and 16 more, Fri 2025-05-16. Received Thu 2025-04-03: 27 to Apr 30 and 18 more, Sun
    # 2025-05-18, which moves to Mon 2025-05-19 (§ 990.001(4)(b)).
    assert dues(home, "review_decision", at("2025-04-03", 17)) == [("2025-05-16", "open")]
    assert dues(subdivision, "review_decision", at("2025-04-03", 17)) == [("2025-05-16", "open")]
    [clock] = duties(road, "review_decision", at("2025-04-03", 17))
    assert (clock["due"], clock["status"], clock["citation"]) == ("2025-05-19", "open", "§ 413-8D")
    assert "2025-05-18" in clock["moved"]

    # -- The Building Inspector decides --------------------------------------------------
    # § 413-8D gives no power to add conditions (only New Glarus § 135-7F does).
    with pytest.raises(ActionRefused) as refused:
        permits.application_approve(
            application=home,
            staff=staff,
            at=at("2025-04-07", 10),
            conditions=["Sweep Park St every Friday"],
        )
    assert refused.value.field == "conditions"
    home_permit = permits.application_approve(
        application=home, staff=staff, at=at("2025-04-07", 10)
    )
    # § 413-8E(1): 180 days from issuance. Apr 7 + 180: 23 days to Apr 30, then May 31
    # (54), Jun 30 (84), Jul 31 (115), Aug 31 (146), Sep 30 (176), Oct 4 (180): Saturday
    # 2025-10-04, which never moves (gap 18).
    assert (home_permit.issued_on, home_permit.expires_on) == (day("2025-04-07"), day("2025-10-04"))
    assert dues(home, "review_decision", at("2025-04-07", 12)) == [("2025-05-16", "met")]
    words = permit_text(home_permit)
    assert f"CONSTRUCTION SITE EROSION CONTROL PERMIT No. {home_permit.number}" in words
    assert "Valid through: October 4, 2025" in words
    assert "Plan approved: control plan statement (§ 413-8C)" in words
    assert (
        "Inspect the control measures after each rain of 0.5 inch or more and at least once "
        "each week, and make needed repairs [§ 413-8E(3)(g)]" in words
    )
    assert "CONDITIONS ADDED" not in words
    station_pinned(home.site, staff)

    # § 413-8D: "may either require needed information". Asked Tue 2025-04-08, answered Mon
    # 2025-04-14: "Within 30 days of receipt of needed information": 16 days to Apr 30 and
    # 14 more, Wed 2025-05-14. The request is the decision the 45 days ask for.
    permits.application_information_request(
        application=subdivision,
        staff=staff,
        message="Show the stockpiles and the order in which lots 8-14 are graded.",
        at=at("2025-04-08", 10),
    )
    assert subdivision.status == ApplicationStatus.INFORMATION_REQUESTED
    permits.application_information_provide(
        application=subdivision,
        user=v.developer,
        response="Stockpile on lot 14, 40 ft from the street; lots graded 8 to 14.",
        at=at("2025-04-14", 15),
    )
    assert dues(subdivision, "review_decision", at("2025-04-14", 16)) == [("2025-05-16", "met")]
    assert dues(subdivision, "re_review_decision", at("2025-04-14", 16)) == [("2025-05-14", "open")]

    # Approval with a letter of credit (§ 413-8E(2)), received the day of approval.
    subdivision_permit = approve_with_surety(
        application=subdivision,
        staff=staff,
        when=at("2025-04-21", 10),
        surety=Surety("letter_of_credit", "25000", "Spencer State Bank", "LC-2025-117"),
    )
    # Apr 21 + 180: 9 days to Apr 30, then 31 (40), 30 (70), 31 (101), 31 (132), 30 (162),
    # 18 in October: Saturday 2025-10-18.
    assert subdivision_permit.expires_on == day("2025-10-18")
    [surety] = subdivision_permit.sureties.all()
    assert (surety.kind, surety.amount, surety.received_on) == (
        "letter_of_credit",
        Decimal("25000.00"),
        day("2025-04-21"),
    )
    assert dues(subdivision, "re_review_decision", at("2025-04-21", 12)) == [("2025-05-14", "met")]
    station_pinned(subdivision.site, staff)

    road_permit = permits.application_approve(
        application=road, staff=staff, at=at("2025-05-05", 10)
    )
    # May 5 + 180: 26 days to May 31, then 30 (56), 31 (87), 31 (118), 30 (148), 31 (179),
    # 1 in November: Saturday 2025-11-01.
    assert road_permit.expires_on == day("2025-11-01")
    assert dues(road, "review_decision", at("2025-05-05", 12)) == [("2025-05-19", "met")]
    station_pinned(road.site, staff)

    # The register as the public sees it (the permit's dates; its status is today's).
    shown = register_rows(client)
    assert {n: (r["Issued"], r["Valid through"]) for n, r in shown.items()} == {
        home_permit.number: ("2025-04-07", "2025-10-04"),
        subdivision_permit.number: ("2025-04-21", "2025-10-18"),
        road_permit.number: ("2025-05-05", "2025-11-01"),
    }

    # -- Work begins: the home site --------------------------------------------------------
    log(home_permit, v.homeowner, "work_started", "2025-04-09T08:00")
    log(home_permit, v.homeowner, "measure_installed", "2025-04-09T12:00", measure="SF-1")
    # § 413-8E(3)(a): notify "within 48 hours of commencing": Wed 04-09 08:00 + 48 hours,
    # no Sunday or legal holiday in between (§ 990.001(4)(a)): Fri 2025-04-11 08:00 CDT.
    assert dues(home, "start_notice", at("2025-04-09", 13)) == [
        ("2025-04-11T08:00:00-05:00", "open")
    ]
    log(home_permit, v.homeowner, "start_notice_given", "2025-04-09T16:00")
    # § 413-8E(3)(b): "within 14 days after their installation": Apr 9 + 14 = Wed 04-23.
    assert dues(home, "measure_completion_notice", at("2025-04-09", 17)) == [("2025-04-23", "open")]
    log(
        home_permit,
        v.homeowner,
        "measure_completion_notice_given",
        "2025-04-14T09:00",
        measure="SF-1",
    )
    assert dues(home, "start_notice", at("2025-04-14", 10)) == [
        ("2025-04-11T08:00:00-05:00", "met")
    ]
    assert dues(home, "measure_completion_notice", at("2025-04-14", 10)) == [("2025-04-23", "met")]
    # § 413-8E(3)(g) "at least once each week" (gap 13): work started Wed 04-09, the first
    # week is due Wed 04-16.
    assert dues(home, "weekly_inspection", at("2025-04-14", 10)) == [("2025-04-16", "open")]
    self_inspections(home_permit, v.homeowner, ["2025-04-16T16:00", "2025-04-19T09:00"], "footings")
    # § 413-9: the Building Inspector inspects at least once a month March to October; the
    # permit is in force from Apr 7, and April's inspection is due by Wed 2025-04-30.
    assert dues(home, "municipal_inspection", at("2025-04-21", 12)) == [("2025-04-30", "open")]
    village_inspection(home_permit, inspector, "2025-04-22T10:00")
    assert dues(home, "municipal_inspection", at("2025-04-22", 12)) == [("2025-04-30", "met")]
    self_inspections(home_permit, v.homeowner, ["2025-04-25T10:00", "2025-05-02T09:00"], "framing")

    # -- The subdivision and the road job begin ------------------------------------------
    log(subdivision_permit, v.developer, "work_started", "2025-04-28T07:00")
    log(subdivision_permit, v.developer, "start_notice_given", "2025-04-29T10:00")
    self_inspections(
        subdivision_permit,
        v.developer,
        ["2025-05-05T08:00", "2025-05-12T08:00", "2025-05-19T08:00", "2025-05-27T08:00"],
        "street grading",
    )
    log(road_permit, v.utility, "work_started", "2025-05-10T07:00")
    # Started Sat 05-10 07:00. § 990.001(4)(a): a time in hours leaves out "the whole of
    # Sunday": 17 hours to Saturday midnight, Sunday 05-11 skipped, 31 more from Monday
    # 00:00: Tue 2025-05-13 07:00 (not Mon 05-12 07:00). The notice of Mon 05-12 16:00
    # is on time.
    log(road_permit, v.utility, "start_notice_given", "2025-05-12T16:00")
    [notice] = duties(road, "start_notice", at("2025-05-12", 17))
    assert (notice["due"], notice["status"], notice["late"]) == (
        "2025-05-13T07:00:00-05:00",
        "met",
        False,
    )
    self_inspections(road_permit, v.utility, ["2025-05-19T07:00", "2025-05-27T07:00"], "trenching")

    # -- April's rain, imported Friday 2025-05-02 ------------------------------------------
    said = rain_import(month_of_rain(tmp_path, "2025-04-01", "2025-04-30"))
    assert "30 day(s) of USW00014839 (30 days): 30 new, 0 changed, 0 unchanged" in said
    # One rain onto the home site's permit, whose inspection was already logged. (How many
    # rains the sentence counts: test_the_import_counts_a_rain_of_two_days_as_one_rain.)
    assert "rain(s) written onto 1 permit(s); 0 permit(s) now owe an inspection after rain" in (
        said
    )
    # Apr 17 1.0 mm + Apr 18 22.4 mm = 23.4 mm, one rain ending with Fri 04-18; the next
    # day, Sat 2025-04-19 (a Saturday does not move under § 990.001(4)(b)). The home site's
    # inspection of Sat 04-19 09:00 came after it ended. Apr 2 (28.2 mm) fell before any
    # permit; Apr 19-20 (10.4 mm) is less than 12.7 mm.
    assert rains(home_permit, at("2025-05-02", 12)) == [
        ("2025-04-17", "2025-04-18", 23.4, "2025-04-19", "met")
    ]
    assert {"rain-event", "each-rain", "rain-inspection-deadline", "rain-inspection-window"} <= (
        note_ids(home_permit, at("2025-05-02", 12))
    )
    # The subdivision's permit was issued Apr 21, after that rain: nothing owed for it.
    assert rains(subdivision_permit, at("2025-05-02", 12)) == []

    # -- May ---------------------------------------------------------------------------------
    self_inspections(
        home_permit,
        v.homeowner,
        ["2025-05-09T10:00", "2025-05-16T08:00", "2025-05-21T08:00", "2025-05-22T08:00"],
        "framing",
    )
    village_inspection(home_permit, inspector, "2025-05-20T10:00")
    self_inspections(home_permit, v.homeowner, ["2025-05-29T10:00"], "roofing")
    self_inspections(subdivision_permit, v.developer, ["2025-06-02T08:00"], "utilities")

    # May's rain, imported Monday 2025-06-02: May 1 24.6 mm, May 15 20.6 mm, May 20 28.2 mm
    # and May 21 18.5 mm are rains of their own; May 28, 0.48818924 in = 12.4 mm, is not.
    # Spencer's deadline is the next day: Fri 05-02, Fri 05-16, Wed 05-21, Thu 05-22.
    said = rain_import(month_of_rain(tmp_path, "2025-05-01", "2025-05-31"))
    assert "31 day(s) of USW00014839 (31 days): 31 new" in said
    assert "written onto 3 permit(s); 0 permit(s) now owe an inspection after rain" in said
    assert rains(home_permit, at("2025-06-02", 12)) == [
        ("2025-04-17", "2025-04-18", 23.4, "2025-04-19", "met"),
        ("2025-05-01", "2025-05-01", 24.6, "2025-05-02", "met"),
        ("2025-05-15", "2025-05-15", 20.6, "2025-05-16", "met"),
        ("2025-05-20", "2025-05-20", 28.2, "2025-05-21", "met"),
        ("2025-05-21", "2025-05-21", 18.5, "2025-05-22", "met"),
    ]
    # The subdivision inspects on Mondays: each rain is met by the first inspection after
    # it ended (May 5, May 19, May 27, May 27), each after its day: late.
    assert [
        (d["rain"]["from"], d["due"], d["met_by"]["at"][:10], d["late"])
        for d in duties(subdivision_permit, "rain_inspection", at("2025-06-02", 12))
    ] == [
        ("2025-05-01", "2025-05-02", "2025-05-05", True),
        ("2025-05-15", "2025-05-16", "2025-05-19", True),
        ("2025-05-20", "2025-05-21", "2025-05-27", True),
        ("2025-05-21", "2025-05-22", "2025-05-27", True),
    ]
    # The road job's permit was issued May 5: May 1 is not its rain.
    assert [
        d["rain"]["from"] for d in duties(road_permit, "rain_inspection", at("2025-06-02", 12))
    ] == [
        "2025-05-15",
        "2025-05-20",
        "2025-05-21",
    ]

    # -- June: the week missed, and two stop-work orders -----------------------------------
    self_inspections(home_permit, v.homeowner, ["2025-06-04T08:00", "2025-06-05T08:00"], "siding")
    self_inspections(subdivision_permit, v.developer, ["2025-06-09T08:00"], "utilities")
    # The subdivision: the Building Inspector finds the downslope fence down (June's § 413-9
    # inspection), a violation of § 413-8E(3)(e), and posts a stop-work order.
    found = village_inspection(
        subdivision_permit,
        inspector,
        "2025-06-10T10:00",
        result="not_compliant",
        answers={"condition:maintain-systems": "needs_work"},
        findings="Silt fence down along the east (downslope) line of lots 8-14",
    )
    subdivision_case = found.timeline_event.application.enforcement_cases.get()
    assert subdivision_case.violations.get().provision == "§ 413-8E(3)(e)"
    enforcement.stop_work_order_post(
        case=subdivision_case,
        staff=staff,
        at=at("2025-06-10", 14),
        grounds=["plan-not-followed", "conditions-not-met"],
    )
    # § 413-10B: the permittee has "10 days" to comply (gap 21: from the posting): Tue
    # 06-10 + 10 = Fri 2025-06-20, the last day (Juneteenth, Thu 06-19, is not the last day
    # and does not move it); revocation is open from Sat 2025-06-21. § 413-10E: "Ten days
    # after posting": the notice of intent from Fri 2025-06-20. With a permit in force no
    # cease-and-desist referral (§ 413-10C: "where no permit has been issued").
    assert steps_open(subdivision_case, at("2025-06-11", 9)) == {
        "revoke_permit": ("2025-06-21", "§ 413-10B"),
        "issue_notice_of_intent": ("2025-06-20", "§ 413-10E"),
    }
    placard = case_document_text(subdivision_case, "stop_work_placard")
    assert "STOP WORK ORDER" in placard
    assert (
        "The Building Inspector orders that all land disturbing or land developing activity "
        "on this site be stopped [§ 413-10A(1)]" in placard
    )
    assert (
        "The control plan is not being implemented in a good faith manner [§ 413-10A(2)]" in placard
    )
    assert "The conditions of the permit are not being met [§ 413-10A(3)]" in placard
    assert "Posted: June 10, 2025 at 2:00 p.m." in placard
    assert "Who may appeal: applicant, permittee, landowner, land user [§ 413-12B]" in placard
    assert register_rows(client)[subdivision_permit.number]["Stop-work order in force"] == "yes"
    # The permittee is told by email of the order, what to do, and the section.
    told = emails_about(subdivision_case, "stop_work_order_post")
    assert v.developer.email in told
    assert "A stop-work order was posted at" in told[v.developer.email]
    assert "Stop the work the order names until the village lifts it" in told[v.developer.email]
    assert "Section: § 413-10A." in told[v.developer.email]

    # The home site's week due Thu 06-12 (7 days after the inspection of Thu 06-05) passes
    # with no inspection: missed, and the next week runs from its last day, due 06-19.
    assert dues(home, "weekly_inspection", at("2025-06-13", 12))[-3:] == [
        ("2025-06-11", "met"),
        ("2025-06-12", "overdue"),
        ("2025-06-19", "open"),
    ]
    self_inspections(home_permit, v.homeowner, ["2025-06-16T08:00"], "siding")
    self_inspections(subdivision_permit, v.developer, ["2025-06-16T08:00"], "utilities")

    # The road job: inlets unprotected and mud on Clark St (§ 413-8E(3)(d)).
    found = village_inspection(
        road_permit,
        inspector,
        "2025-06-17T10:00",
        result="not_compliant",
        answers={"condition:install-measures": "needs_work"},
        findings="No inlet protection at the two Clark St inlets; mud tracked onto Clark St",
    )
    road_case = found.timeline_event.application.enforcement_cases.get()
    assert road_case.violations.get().provision == "§ 413-8E(3)(d)"
    # Its permittee's weeks: started Sat 05-10, the first due Sat 05-17 and missed (the
    # first inspection was Mon 05-19); from 05-17, 05-24 met by 05-19; from 05-19, 05-26
    # missed (the next was 05-27); from 05-26, 06-02 met by 05-27; from 05-27, 06-03
    # missed, then 06-10 missed and 06-17 open.
    assert dues(road, "weekly_inspection", at("2025-06-17", 12)) == [
        ("2025-05-17", "overdue"),
        ("2025-05-24", "met"),
        ("2025-05-26", "overdue"),
        ("2025-06-02", "met"),
        ("2025-06-03", "overdue"),
        ("2025-06-10", "overdue"),
        ("2025-06-17", "open"),
    ]
    enforcement.stop_work_order_post(
        case=road_case, staff=staff, at=at("2025-06-17", 15), grounds=["conditions-not-met"]
    )
    # Tue 06-17 + 10 = Fri 06-27: revocation from Sat 2025-06-28, the notice from 06-27.
    assert steps_open(road_case, at("2025-06-18", 9)) == {
        "revoke_permit": ("2025-06-28", "§ 413-10B"),
        "issue_notice_of_intent": ("2025-06-27", "§ 413-10E"),
    }

    # The rain of Jun 17-18 (32.3 mm) ends with Wed 06-18; the next day is Thu 06-19,
    # Juneteenth, a legal holiday: the inspection is due Fri 2025-06-20 (§ 990.001(4)(b)).
    self_inspections(home_permit, v.homeowner, ["2025-06-20T08:00"], "siding")
    self_inspections(subdivision_permit, v.developer, ["2025-06-23T08:00"], "utilities")

    # The subdivision did not comply: revocation is refused on the 10th day, taken after.
    with pytest.raises(EnforcementRefused) as early:
        enforcement.permit_revoke(
            case=subdivision_case, staff=staff, at=at("2025-06-20", 16), reasons="No compliance."
        )
    assert str(early.value).endswith("lawful from 2025-06-21")
    revocation = enforcement.permit_revoke(
        case=subdivision_case,
        staff=staff,
        at=at("2025-06-23", 9),
        reasons="The east fence was still down on June 20; no compliance within 10 days.",
    )
    subdivision_permit.refresh_from_db()
    assert (revocation.citation, subdivision_permit.status) == ("§ 413-10B", "revoked")
    # Revoked: no revocation is offered again; the notice of intent still is.
    assert steps_open(subdivision_case, at("2025-06-23", 10)) == {
        "issue_notice_of_intent": ("2025-06-20", "§ 413-10E"),
    }
    revoked = case_document_text(subdivision_case, "revocation")
    assert f"REVOCATION OF PERMIT No. {subdivision_permit.number}" in revoked
    assert "The Building Inspector revokes this permit [§ 413-10B]." in revoked
    assert "Lawful from June 21, 2025" in revoked
    assert "may retract the stop-work order or the revocation [§ 413-10D]" in revoked
    row = register_rows(client)[subdivision_permit.number]
    assert (row["Status"], row["Stop-work order in force"]) == ("Revoked", "yes")
    assert row["Orders posted"] == (
        "Stop-work order 2025-06-10 14:00 (§ 413-10A); Permit revoked 2025-06-23 09:00 (§ 413-10B)"
    )
    # The site log of a revoked permit is closed.
    with pytest.raises(ActionRefused):
        log(
            subdivision_permit,
            v.developer,
            "self_inspection",
            "2025-06-30T08:00",
            inspector="Site foreman",
            phase="utilities",
        )

    village_inspection(home_permit, inspector, "2025-06-24T10:00")
    self_inspections(home_permit, v.homeowner, ["2025-06-26T10:00"], "siding")

    # The appeal (§ 413-12B: "Any applicant, permittee, landowner or land user").
    appeal = appeals.appeal_file(
        village=v.village,
        filed_by=v.developer,
        on=day("2025-06-25"),
        appellant_name="Meadow View Development LLC",
        standing="permittee",
        grounds="The east fence was reset and trenched on June 18, within the 10 days.",
        action=revocation,
    )
    appeals.appeal_hearing_schedule(
        appeal=appeal,
        user=v.board,
        hearing_at=at("2025-07-01", 18),
        notice_given_on=day("2025-06-26"),
        notice_to="Meadow View Development LLC; the Building Inspector",
        place="Village Hall",
    )

    # The road job's notice of intent: refused on the 9th day, issued on the 10th.
    with pytest.raises(EnforcementRefused) as early:
        enforcement.notice_of_intent_issue(
            case=road_case, staff=staff, at=at("2025-06-26", 16), work="Inlet protection"
        )
    assert str(early.value).endswith("lawful from 2025-06-27")
    notice = enforcement.notice_of_intent_issue(
        case=road_case,
        staff=staff,
        at=at("2025-06-27", 9),
        work="Protect the two Clark St inlets and sweep Clark St.",
    )
    # § 413-10E: "commence the work after 14 days from issuing the notice": Fri 06-27 + 14
    # = Fri 07-11, so from Sat 2025-07-12.
    assert (notice.citation, notice.details["work_from"]) == ("§ 413-10E", "2025-07-12")
    assert steps_open(road_case, at("2025-06-27", 10)) == {
        "revoke_permit": ("2025-06-28", "§ 413-10B"),
        "begin_village_work": ("2025-07-12", "§ 413-10E"),
    }
    intent = case_document_text(road_case, "notice_of_intent")
    assert "NOTICE OF INTENT TO PERFORM WORK" in intent
    assert "Stop-work order posted: June 17, 2025 at 3:00 p.m." in intent
    # (The day the work may begin, in the stored notice: see
    # test_the_stored_notice_of_intent_says_when_the_village_may_begin_the_work.)
    assert (
        "plus interest at 6% a year (the rate authorized: Building Inspector's order 2025-1)"
        in intent
    )

    # -- Tuesday 2025-07-01: the hearing and the decision -----------------------------------
    decided = board_decides(
        appeal,
        at=at("2025-07-01", 19, 30),
        decision="reverse",
        reasons="The fence was reset on June 18, within the 10 days of § 413-10B.",
    )
    subdivision_permit.refresh_from_db()
    assert subdivision_permit.status == "active"
    paper = pdf_text(decided.decision_document)
    assert f"DECISION OF THE ZONING BOARD OF APPEALS ON APPEAL No. {decided.number}" in paper
    assert "Appellant: Meadow View Development LLC (permittee; § 413-12B)" in paper
    # The appellant and the office are told that the board decided.
    told = emails_of("appeal_decide")
    assert v.developer.email in told and staff.email in told
    assert f"The board decided appeal {decided.number}" in told[v.developer.email]
    assert "DECISION: REVERSED (July 1, 2025)" in paper
    assert "The revocation is retracted [§ 413-10D]." in paper
    # Restored inside its period, which neither pauses nor restarts (decision 38).
    assert "The permit is again in force through October 18, 2025 [§ 413-8E(1)]." in paper
    retracted = case_document_text(subdivision_case, "retraction")
    assert (
        f"The revocation of permit {subdivision_permit.number} is retracted by the Zoning Board "
        f"of Appeals, deciding appeal {decided.number} [§ 413-10D]." in retracted
    )
    assert "The permit is in force again, with all its conditions, through October 18, 2025." in (
        retracted
    )
    # Neither chapter tolls the period while the permit was revoked (§ 413-8E(1)).
    assert "Its period is not lengthened by the time it was revoked" in retracted
    # The revocation undone, the order of 06-10 still stands: its steps are open again.
    assert steps_open(subdivision_case, at("2025-07-01", 20)) == {
        "revoke_permit": ("2025-06-21", "§ 413-10B"),
        "issue_notice_of_intent": ("2025-06-20", "§ 413-10E"),
    }
    enforcement.compliance_record(case=subdivision_case, staff=staff, at=at("2025-07-02", 9))
    assert steps_open(subdivision_case, at("2025-07-02", 10)) == {}
    # § 413-10E: each day a separate offense: June 10 to the compliance of July 2, 21 days
    # in June and 2 in July; the amount is § 1-3's, which is not entered.
    fine = forfeiture_summary(subdivision_case, at("2025-07-02", 12))
    assert fine is not None
    assert (fine["offenses"], fine["first_day"], fine["last_day"], fine["source"]) == (
        23,
        "2025-06-10",
        "2025-07-02",
        "not_entered",
    )
    row = register_rows(client)[subdivision_permit.number]
    assert row["Stop-work order in force"] == "no"
    assert row["Orders posted"] == (
        "Stop-work order 2025-06-10 14:00 (§ 413-10A); Permit revoked 2025-06-23 09:00 "
        "(§ 413-10B); Order retracted 2025-07-01 19:30 (§ 413-10D); Compliance achieved "
        "2025-07-02 09:00 (§ 413-10A)"
    )

    # June's rain, imported Wednesday 2025-07-02.
    rain_import(month_of_rain(tmp_path, "2025-06-01", "2025-06-30"))
    june = rains(home_permit, at("2025-07-02", 12))[5:]
    assert june == [
        ("2025-06-03", "2025-06-03", 16.0, "2025-06-04", "met"),
        ("2025-06-04", "2025-06-04", 13.0, "2025-06-05", "met"),
        ("2025-06-17", "2025-06-18", 32.3, "2025-06-20", "met"),
    ]
    [juneteenth] = [
        d
        for d in duties(home_permit, "rain_inspection", at("2025-07-02", 12))
        if d["due"] == "2025-06-20"
    ]
    assert "Juneteenth" in juneteenth["moved"] and juneteenth["late"] is False

    # -- July: the village does the work on the road job ----------------------------------
    self_inspections(
        home_permit,
        v.homeowner,
        ["2025-07-03T10:00", "2025-07-07T08:00", "2025-07-12T09:00", "2025-07-18T10:00"],
        "drywall",
    )
    self_inspections(
        subdivision_permit,
        v.developer,
        ["2025-07-07T08:00", "2025-07-14T08:00", "2025-07-21T08:00", "2025-07-28T08:00"],
        "paving",
    )
    with pytest.raises(EnforcementRefused) as early:
        enforcement.village_work_begin(case=road_case, staff=staff, at=at("2025-07-11", 16))
    assert str(early.value).endswith("lawful from 2025-07-12")
    enforcement.village_work_begin(case=road_case, staff=staff, at=at("2025-07-14", 7))
    for category, what, amount in (
        ("labour", "Public works crew, 12 hours at $80", "960.00"),
        ("equipment", "Street sweeper and skid steer", "450.00"),
        ("materials", "Inlet filter bags (2) and 100 ft of silt fence", "385.50"),
    ):
        enforcement.work_cost_record(
            case=road_case,
            staff=staff,
            category=category,
            description=what,
            amount=amount,
            incurred_on=day("2025-07-14"),
        )
    enforcement.compliance_record(case=road_case, staff=staff, at=at("2025-07-15", 15))
    village_inspection(home_permit, inspector, "2025-07-22T10:00")
    self_inspections(home_permit, v.homeowner, ["2025-07-25T10:00", "2025-07-31T08:00"], "drywall")

    # The bill, Fri 2025-08-01, due in 30 days: Sun 2025-08-31. $960.00 + $450.00 +
    # $385.50 = $1,795.50.
    invoice = enforcement.invoice_issue(case=road_case, staff=staff, on=day("2025-08-01"))
    assert (invoice.principal, invoice.due_on) == (Decimal("1795.50"), day("2025-08-31"))
    billed = case_document_text(road_case, "invoice")
    assert f"INVOICE No. {invoice.number} FOR WORK PERFORMED BY THE VILLAGE" in billed
    assert "Total due: $1,795.50" in billed and "Due: August 31, 2025" in billed
    assert "bear simple interest at 6% a year, the rate set by the Building Inspector" in billed

    # July's rain, imported Saturday 2025-08-02. Jul 4 8.1 mm and Jul 5 5.3 mm are neither
    # a rain alone; summed (gap 4) they are 13.4 mm, one rain ending with Sat 07-05: due
    # Sun 07-06, which moves to Mon 2025-07-07. Jul 6 (8.6 mm) is left over, less than
    # 12.7 mm. Jul 10-11: 40.4 mm ending Fri 07-11, due Sat 2025-07-12 (not moved). Jul
    # 30: 26.4 mm, due Thu 07-31.
    rain_import(month_of_rain(tmp_path, "2025-07-01", "2025-07-31"))
    assert rains(home_permit, at("2025-08-02", 12))[8:] == [
        ("2025-07-04", "2025-07-05", 13.4, "2025-07-07", "met"),
        ("2025-07-10", "2025-07-11", 40.4, "2025-07-12", "met"),
        ("2025-07-30", "2025-07-30", 26.4, "2025-07-31", "met"),
    ]

    # -- August and September: the costs go unpaid ----------------------------------------
    self_inspections(
        home_permit,
        v.homeowner,
        ["2025-08-07T10:00", "2025-08-11T08:00", "2025-08-13T08:00", "2025-08-19T08:00"],
        "finish grading",
    )
    village_inspection(home_permit, inspector, "2025-08-19T10:00")
    self_inspections(home_permit, v.homeowner, ["2025-08-26T10:00", "2025-09-02T08:00"], "seeding")
    # Not paid by the due day (Aug 31); recorded Tue 09-02 (Mon 09-01 is Labor Day). The
    # tax roll is then open (§ 413-10E: "fails to pay the amount due").
    with pytest.raises(EnforcementRefused):
        enforcement.costs_unpaid_record(invoice=invoice, staff=staff, at=at("2025-08-31", 12))
    enforcement.costs_unpaid_record(invoice=invoice, staff=staff, at=at("2025-09-02", 9))
    assert steps_open(road_case, at("2025-09-02", 10)) == {
        "certify_special_assessment": ("2025-09-02", "§ 413-10E"),
    }

    # August's rain, imported Tue 2025-09-02: Aug 9 (145.8 mm, a Saturday: due Sun 08-10,
    # moved to Mon 08-11), Aug 10 (29.7 mm, due Mon 08-11), Aug 12 (27.4 mm, due Wed
    # 08-13) and Aug 16-18 (0.8 + 2.8 + 18.5 = 22.1 mm, ending Mon 08-18, due Tue 08-19).
    rain_import(month_of_rain(tmp_path, "2025-08-01", "2025-08-31"))
    assert rains(home_permit, at("2025-09-02", 12))[11:] == [
        ("2025-08-09", "2025-08-09", 145.8, "2025-08-11", "met"),
        ("2025-08-10", "2025-08-10", 29.7, "2025-08-11", "met"),
        ("2025-08-12", "2025-08-12", 27.4, "2025-08-13", "met"),
        ("2025-08-16", "2025-08-18", 22.1, "2025-08-19", "met"),
    ]

    self_inspections(
        home_permit,
        v.homeowner,
        ["2025-09-09T10:00", "2025-09-15T08:00", "2025-09-22T08:00", "2025-09-23T08:00"],
        "seeding",
    )
    village_inspection(home_permit, inspector, "2025-09-16T10:00")
    self_inspections(home_permit, v.homeowner, ["2025-09-30T10:00"], "lawn established")

    # Certified Wed 2025-10-01. The rate authorized, 6% a year, on $1,795.50 for the 31
    # days after the due day of Aug 31 (simple interest, the bill's terms): 1,795.50 x 0.06
    # x 31 / 365 = 9.1497, $9.15; $1,804.65 in all, to the Village Administrator-Clerk/
    # Treasurer for the tax roll (§ 413-10E, § 66.0703 Wis. Stats.).
    with pytest.raises(EnforcementRefused) as no_parcel:
        enforcement.tax_roll_certify(invoice=invoice, staff=staff, at=at("2025-10-01", 10))
    assert no_parcel.value.field == "parcel number"
    enforcement.case_parcel_set(case=road_case, staff=staff, parcel_number="281-2503-104-0995")
    certified = enforcement.tax_roll_certify(invoice=invoice, staff=staff, at=at("2025-10-01", 10))
    assert (certified.citation, certified.details["interest"], certified.details["total"]) == (
        "§ 413-10E",
        "9.15",
        "1804.65",
    )
    assert steps_open(road_case, at("2025-10-01", 11)) == {}
    roll = case_document_text(road_case, "tax_roll_certification")
    assert "CERTIFICATION OF UNPAID COSTS TO THE TAX ROLL" in roll
    assert "To: the Village Administrator-Clerk/Treasurer" in roll
    assert "Parcel: 281-2503-104-0995" in roll
    assert "Interest to October 1, 2025: $9.15" in roll
    assert "Amount certified: $1,804.65" in roll
    assert (
        "as a special assessment against the parcel under § 66.0703, Wis. Stats. [§ 413-10E]"
        in roll
    )

    # September's rain, imported Thu 2025-10-02: Sep 13 (15.7 mm, a Saturday: due Sun
    # 09-14, moved to Mon 09-15); Sep 20-22 (2.5 + 0.3 + 20.8 = 23.6 mm, ending Mon 09-22:
    # due Tue 09-23).
    rain_import(month_of_rain(tmp_path, "2025-09-01", "2025-09-30"))

    # -- Friday 2025-10-03: final stabilization of the home site --------------------------
    village_inspection(home_permit, inspector, "2025-10-03T09:00")
    permits.permit_close(permit=home_permit, staff=staff, on=day("2025-10-03"), cover_percent=85)
    home_permit.refresh_from_db()
    assert (home_permit.status, home_permit.closed_on) == ("closed", day("2025-10-03"))
    done = at("2025-10-03", 20)
    # The season of the home site's inspections after rain: every rain of 0.5 inch or
    # more while the permit was in force, each met after it ended, on time.
    assert rains(home_permit, done) == [
        ("2025-04-17", "2025-04-18", 23.4, "2025-04-19", "met"),
        ("2025-05-01", "2025-05-01", 24.6, "2025-05-02", "met"),
        ("2025-05-15", "2025-05-15", 20.6, "2025-05-16", "met"),
        ("2025-05-20", "2025-05-20", 28.2, "2025-05-21", "met"),
        ("2025-05-21", "2025-05-21", 18.5, "2025-05-22", "met"),
        ("2025-06-03", "2025-06-03", 16.0, "2025-06-04", "met"),
        ("2025-06-04", "2025-06-04", 13.0, "2025-06-05", "met"),
        ("2025-06-17", "2025-06-18", 32.3, "2025-06-20", "met"),
        ("2025-07-04", "2025-07-05", 13.4, "2025-07-07", "met"),
        ("2025-07-10", "2025-07-11", 40.4, "2025-07-12", "met"),
        ("2025-07-30", "2025-07-30", 26.4, "2025-07-31", "met"),
        ("2025-08-09", "2025-08-09", 145.8, "2025-08-11", "met"),
        ("2025-08-10", "2025-08-10", 29.7, "2025-08-11", "met"),
        ("2025-08-12", "2025-08-12", 27.4, "2025-08-13", "met"),
        ("2025-08-16", "2025-08-18", 22.1, "2025-08-19", "met"),
        ("2025-09-13", "2025-09-13", 15.7, "2025-09-15", "met"),
        ("2025-09-20", "2025-09-22", 23.6, "2025-09-23", "met"),
    ]
    assert not any(d.get("late") for d in duties(home_permit, "rain_inspection", done))
    # Its weeks (gap 13): each due 7 days after the last inspection, never moved; the one
    # week missed (due 06-12) stays on the record; the duty ends at final stabilization
    # (the week that would fall due 10-07, after the inspection of 09-30, is not owed).
    assert dues(home, "weekly_inspection", done) == [
        *[(d, "met") for d in ("2025-04-16", "2025-04-23", "2025-04-26", "2025-05-02")],
        *[(d, "met") for d in ("2025-05-09", "2025-05-16", "2025-05-23", "2025-05-28")],
        *[(d, "met") for d in ("2025-05-29", "2025-06-05", "2025-06-11")],
        ("2025-06-12", "overdue"),
        *[(d, "met") for d in ("2025-06-19", "2025-06-23", "2025-06-27", "2025-07-03")],
        *[(d, "met") for d in ("2025-07-10", "2025-07-14", "2025-07-19", "2025-07-25")],
        *[(d, "met") for d in ("2025-08-01", "2025-08-07", "2025-08-14", "2025-08-18")],
        *[(d, "met") for d in ("2025-08-20", "2025-08-26", "2025-09-02", "2025-09-09")],
        *[(d, "met") for d in ("2025-09-16", "2025-09-22", "2025-09-29", "2025-09-30")],
    ]
    # § 413-9, once a month March to October; October's is due by the day the permit ended
    # at final stabilization, Fri 10-03, and the closing inspection met it.
    assert dues(home, "municipal_inspection", done) == [
        (d, "met")
        for d in (
            "2025-04-30",
            "2025-05-31",
            "2025-06-30",
            "2025-07-31",
            "2025-08-31",
            "2025-09-30",
            "2025-10-03",
        )
    ]
    with pytest.raises(ActionRefused):
        log(
            home_permit,
            v.homeowner,
            "self_inspection",
            "2025-10-06T08:00",
            inspector="Site foreman",
            phase="done",
        )

    # -- The subdivision is extended, the road job runs out --------------------------------
    self_inspections(subdivision_permit, v.developer, ["2025-10-13T08:00"], "houses")
    # § 413-8E(1): "may extend the period one or more times for up to an additional 180
    # days". 120 days from Sat 10-18: 13 to Oct 31, then 30 (43), 31 (74), 31 (105), 15 in
    # February: Sunday 2026-02-15, not moved (a period of validity, gap 18).
    extension = permits.permit_extend(
        permit=subdivision_permit,
        staff=staff,
        days=120,
        on=day("2025-10-10"),
        added_measures="Seed and mulch lots 8-14 before November 1",
    )
    assert (extension.expires_before, extension.expires_after) == (
        day("2025-10-18"),
        day("2026-02-15"),
    )
    term = timeline(subdivision_permit, at("2025-10-10", 13))["permit"]
    assert (term["expires"], term["status"]) == ("2026-02-15", "in_force")
    assert term["extensions"][0]["added_measures"] == ["Seed and mulch lots 8-14 before November 1"]

    # October's rain, imported Sun 2025-11-02: Oct 18 (22.4 mm, a Saturday: due Sun 10-19,
    # moved to Mon 2025-10-20) falls on the two permits still in force; the home site's
    # permit was closed. Oct 19-21 (9.9 + 1.3 + 1.3 = 12.5 mm) is less than 12.7 mm.
    self_inspections(subdivision_permit, v.developer, ["2025-10-20T08:00"], "houses")
    said = rain_import(month_of_rain(tmp_path, "2025-10-01", "2025-10-31"))
    assert "written onto 2 permit(s)" in said
    assert rains(subdivision_permit, at("2025-11-02", 12))[-1] == (
        "2025-10-18",
        "2025-10-18",
        22.4,
        "2025-10-20",
        "met",
    )
    assert rains(road_permit, at("2025-11-02", 12))[-1] == (
        "2025-10-18",
        "2025-10-18",
        22.4,
        "2025-10-20",
        "overdue",
    )
    assert rains(home_permit, at("2025-11-02", 12))[-1][0] == "2025-09-20"
    # The road job's last day was Sat 11-01: on Mon 11-03 there is no period left to extend.
    with pytest.raises(ActionRefused) as late:
        permits.permit_extend(permit=road_permit, staff=staff, days=30, on=day("2025-11-03"))
    assert "its last day was 2025-11-01" in str(late.value)

    # -- The public register today: the closed permit, the others past their last day ------
    shown = register_rows(client)
    assert {
        n: (r["Issued"], r["Valid through"], r["Status"], r["Stop-work order in force"])
        for n, r in shown.items()
    } == {
        home_permit.number: ("2025-04-07", "2025-10-04", "Closed at final stabilization", "no"),
        subdivision_permit.number: ("2025-04-21", "2026-02-15", "Expired", "no"),
        road_permit.number: ("2025-05-05", "2025-11-01", "Expired", "no"),
    }
    assert shown[road_permit.number]["Orders posted"] == (
        "Stop-work order 2025-06-17 15:00 (§ 413-10A); Compliance achieved 2025-07-15 15:00 "
        "(§ 413-10A)"
    )
    assert shown[home_permit.number]["Orders posted"] == ""
    page = client.get("/register/", {"q": road_permit.number}).content.decode()
    assert "Central Wisconsin Gas" not in page and "Notice of intent" not in page


# ---------------------------------------------------------------------------------------------
# New Glarus, Ch. 135 (the Village Administrator)
# ---------------------------------------------------------------------------------------------


def test_a_season_in_new_glarus(tmp_path: Any, client: Any) -> None:
    v = village_people(NEW_GLARUS)
    staff, inspector = v.staff, v.inspector
    # No interest rate is authorized in New Glarus this season (§ 135-11E, gap 24).

    # -- Determinations, Monday 2025-03-31 ---------------------------------------------
    home = application_made(
        applicant=v.homeowner,
        village=v.village,
        address="512 Sixth Ave, New Glarus",
        facts={"disturbed_area": "5000 sq ft", "land_use": "residential"},
        on="2025-03-31",
        landowner="Anna Streiff",
        description="New house on a lot of record",
    )
    # § 135-4A(1)(a): "Disturbs 4,000 square feet or more"; an erosion and sediment
    # control plan (§ 135-8A), whose contents are the Village's requirements document
    # (gap 7).
    assert held(home) == {"§ 135-4A(1)(a)"}
    assert home.plan_kind == "erosion_and_sediment_control_plan"
    assert home.determination["plan"]["citation"] == "§ 135-8A"
    assert "requirements-document" in determination_note_ids(home)

    subdivision = application_made(
        applicant=v.developer,
        village=v.village,
        address="Glarner Heights Phase 2, lots 7-9, New Glarus",
        facts={
            "disturbed_area": "3500 sq ft",
            "part_of_common_plan": True,
            "common_plan_disturbed_area": "12 acres",
        },
        on="2025-03-31",
        landowner="Glarner Heights LLC",
        description="Phase 2 of Glarner Heights: three lots",
    )
    # 3,500 sq ft alone is under 4,000, but a "construction site" includes "areas that are
    # part of a larger common plan of development or sale" (§ 135-13): the plan's 12 acres
    # (522,720 sq ft) meet § 135-4A(1)(a). The one trigger that holds is that one.
    assert held(subdivision) == {"§ 135-4A(1)(a)"}
    assert [
        f["id"]
        for f in subdivision.determination["findings"]
        if f["holds"] and f["kind"] == "trigger"
    ] == ["common-plan-area-trigger"]

    road = application_made(
        applicant=v.utility,
        village=v.village,
        address="2nd St ditch from 6th Ave to Railroad St, New Glarus",
        facts={
            "disturbed_area": "0.6 acre",
            "excavation_fill_volume": "600 cu yd",
            "channel_length_disturbed": "250 ft",
        },
        on="2025-03-31",
        landowner="Badger Gas & Electric",
        description="Gas main along the 2nd St ditch",
    )
    # § 135-4A(1)(a) 0.6 acre = 26,136 sq ft; (b) 600 cu yd, "in excess of 400"; (c) 250 ft
    # of road ditch, "100 linear feet".
    assert held(road) == {"§ 135-4A(1)(a)", "§ 135-4A(1)(b)", "§ 135-4A(1)(c)"}

    # -- Filing: the review clock counts business days (§ 135-7C(1), § 135-13) ------------
    permits.application_submit(application=home, user=v.homeowner, at=at("2025-04-01", 9))
    permits.application_submit(application=subdivision, user=v.developer, at=at("2025-04-01", 10))
    # "Within 30 business days": after Tue 04-01, Apr 2-4 (3), Apr 7-11 (8), 14-18 (13),
    # 21-25 (18), 28-30 (21), May 1-2 (23), May 5-9 (28), May 12 (29), May 13 (30): Tue
    # 2025-05-13 (no legal holiday in between; Good Friday is not one).
    assert dues(home, "review_decision", at("2025-04-01", 17)) == [("2025-05-13", "open")]

    home_permit = permits.application_approve(
        application=home, staff=staff, at=at("2025-04-07", 10)
    )
    # § 135-7G: 180 days from issuance, Mon 04-07 to Saturday 2025-10-04 (23 + 31 + 30 +
    # 31 + 31 + 30 + 4 = 180). A period of validity does not move off a Saturday (gap 18).
    assert (home_permit.issued_on, home_permit.expires_on) == (day("2025-04-07"), day("2025-10-04"))
    station_pinned(home.site, staff)

    # § 135-7C(4): information requested Tue 04-08 (the written request answers the 30
    # business days, gap 22) and received Mon 04-14: 10 business days, Apr 15-18 (4), Apr
    # 21-25 (9), Apr 28 (10): Mon 2025-04-28.
    permits.application_information_request(
        application=subdivision,
        staff=staff,
        message="Give the Phase 2 share of the Phase 1 basin and the stockpile of lots 7-9.",
        at=at("2025-04-08", 10),
    )
    permits.application_information_provide(
        application=subdivision,
        user=v.developer,
        response="Lots 7-9 drain to the Phase 1 basin (0.4 of its 9 acres); stockpile on lot 9.",
        at=at("2025-04-14", 15),
    )
    assert dues(subdivision, "review_decision", at("2025-04-14", 16)) == [("2025-05-13", "met")]
    assert dues(subdivision, "re_review_decision", at("2025-04-14", 16)) == [("2025-04-28", "open")]

    # -- The home site's work: notices before and after ------------------------------------
    log(home_permit, v.homeowner, "start_notice_given", "2025-04-11T15:00")
    log(home_permit, v.homeowner, "work_started", "2025-04-14T07:00")
    log(home_permit, v.homeowner, "measure_installed", "2025-04-14T12:00", measure="SF-1")
    # § 135-7E(1): "48 hours prior to commencing": Mon 04-14 07:00 less 48 clock hours
    # (gap 11) = Sat 2025-04-12 07:00; the notice of Fri 04-11 15:00 came before it.
    [notice] = duties(home, "start_notice", at("2025-04-14", 13))
    assert (notice["due"], notice["status"], notice["late"]) == (
        "2025-04-12T07:00:00-05:00",
        "met",
        False,
    )
    # § 135-7E(2): "within five days after their installation": under seven days, so
    # Saturdays and Sundays are left out (Ch. 1, C): Apr 15, 16, 17, 18, then Mon 04-21.
    assert dues(home, "measure_completion_notice", at("2025-04-14", 13)) == [("2025-04-21", "open")]
    log(
        home_permit,
        v.homeowner,
        "measure_completion_notice_given",
        "2025-04-18T10:00",
        measure="SF-1",
    )
    assert dues(home, "measure_completion_notice", at("2025-04-18", 12)) == [("2025-04-21", "met")]
    # The first week, from Mon 04-14: due Mon 04-21.
    assert dues(home, "weekly_inspection", at("2025-04-18", 12)) == [("2025-04-21", "open")]
    home_inspections = [
        "2025-04-19T10:00",
        "2025-04-25T10:00",
        "2025-05-02T09:00",
    ]
    self_inspections(home_permit, v.homeowner, home_inspections, "footings")
    # § 135-10 is not in the received text: no inspection schedule of the Village (gap 9).
    assert duties(home, "municipal_inspection", at("2025-04-25", 12)) == []
    assert "no-municipal-inspection-schedule" in note_ids(home, at("2025-04-25", 12))

    # -- The subdivision: approval with an added condition and a surety bond ---------------
    condition = (
        "Lots 7-9 drain to the Phase 1 sediment basin: keep its outlet clear and remove "
        "sediment when the basin is half full."
    )
    subdivision_permit = approve_with_surety(
        application=subdivision,
        staff=staff,
        when=at("2025-04-22", 10),
        surety=Surety("surety_bond", "15000", "Green County Surety Co.", "SB-4471"),
        conditions=[condition],
    )
    # Apr 22 + 180: 8 days to Apr 30, then 31 (39), 30 (69), 31 (100), 31 (131), 30 (161),
    # 19 in October: Sunday 2025-10-19, not moved (gap 18).
    assert subdivision_permit.expires_on == day("2025-10-19")
    assert subdivision_permit.added_conditions == [condition]
    assert dues(subdivision, "re_review_decision", at("2025-04-22", 12)) == [("2025-04-28", "met")]
    words = permit_text(subdivision_permit)
    assert "CONDITIONS ADDED BY THE VILLAGE ADMINISTRATOR [§ 135-7F]:" in words
    assert f"- {condition}" in words
    assert "Valid through: October 19, 2025" in words
    assert (
        "Notify the Village Administrator 48 hours prior to commencing any land-disturbing "
        "construction activity [§ 135-7E(1)]" in words
    )
    [bond] = subdivision_permit.sureties.all()
    assert (bond.kind, bond.amount) == ("surety_bond", Decimal("15000.00"))
    station_pinned(subdivision.site, staff)
    log(subdivision_permit, v.developer, "start_notice_given", "2025-04-25T14:00")
    log(subdivision_permit, v.developer, "work_started", "2025-04-28T07:00")
    self_inspections(
        subdivision_permit,
        v.developer,
        ["2025-05-05T08:00", "2025-05-12T08:00", "2025-05-19T08:00", "2025-05-27T08:00"],
        "grading",
    )

    # April's rain, imported Fri 2025-05-02: Apr 17-18, 23.4 mm, ends at midnight after
    # Fri 04-18; § 135-7E(7): "within 24 hours after", Sun 2025-04-20 00:00 CDT. The
    # inspection of Sat 04-19 10:00 met it.
    said = rain_import(month_of_rain(tmp_path, "2025-04-01", "2025-04-30"))
    assert "written onto 1 permit(s); 0 permit(s) now owe an inspection after rain" in said
    assert rains(home_permit, at("2025-05-02", 12)) == [
        ("2025-04-17", "2025-04-18", 23.4, "2025-04-20T00:00:00-05:00", "met")
    ]
    assert {"rain-event", "each-rain", "rain-runoff", "active-construction"} <= note_ids(
        home, at("2025-05-02", 12)
    )

    home_inspections = [
        "2025-05-09T10:00",
        "2025-05-16T08:00",
        "2025-05-21T08:00",
        "2025-05-22T08:00",
        "2025-05-29T10:00",
    ]
    self_inspections(home_permit, v.homeowner, home_inspections, "framing")

    # -- The road job is filed: 30 business days around three legal holidays --------------
    permits.application_submit(application=road, user=v.utility, at=at("2025-05-22", 9))
    # After Thu 05-22: May 23 (1); Mon 05-26 Memorial Day is closed; May 27-30 (5); Jun
    # 2-6 (10); Jun 9-13 (15); Jun 16-18 (18); Thu 06-19 Juneteenth closed; Jun 20 (19);
    # Jun 23-27 (24); Jun 30-Jul 3 (28); Fri 07-04 Independence Day closed; Jul 7 (29),
    # Jul 8 (30): Tue 2025-07-08.
    [clock] = duties(road, "review_decision", at("2025-05-22", 12))
    assert (clock["due"], clock["status"], clock["citation"]) == (
        "2025-07-08",
        "open",
        "§ 135-7C(1)",
    )
    assert all(h in clock["moved"] for h in ("Memorial Day", "Juneteenth", "Independence Day"))

    # May's rain, imported Mon 2025-06-02: May 1, 15, 20 and 21 (24.6, 20.6, 28.2 and 18.5
    # mm); 24 hours after each day's end. May 28 (12.4 mm) is not a rain of 0.5 inch.
    said = rain_import(month_of_rain(tmp_path, "2025-05-01", "2025-05-31"))
    assert "written onto 2 permit(s); 0 permit(s) now owe an inspection after rain" in said
    assert rains(home_permit, at("2025-06-02", 12))[1:] == [
        ("2025-05-01", "2025-05-01", 24.6, "2025-05-03T00:00:00-05:00", "met"),
        ("2025-05-15", "2025-05-15", 20.6, "2025-05-17T00:00:00-05:00", "met"),
        ("2025-05-20", "2025-05-20", 28.2, "2025-05-22T00:00:00-05:00", "met"),
        ("2025-05-21", "2025-05-21", 18.5, "2025-05-23T00:00:00-05:00", "met"),
    ]

    road_permit = permits.application_approve(
        application=road, staff=staff, at=at("2025-06-03", 10)
    )
    # Jun 3 + 180: 27 days to Jun 30, then 31 (58), 31 (89), 30 (119), 31 (150), 30 in
    # November: Sunday 2025-11-30, not moved.
    assert road_permit.expires_on == day("2025-11-30")
    assert dues(road, "review_decision", at("2025-06-03", 12)) == [("2025-07-08", "met")]
    station_pinned(road.site, staff)
    # The utility gave its notice an hour before starting Mon 06-09 07:00; it was due 48
    # hours before, Sat 2025-06-07 07:00: met, late.
    log(road_permit, v.utility, "start_notice_given", "2025-06-09T06:00")
    log(road_permit, v.utility, "work_started", "2025-06-09T07:00")
    [notice] = duties(road, "start_notice", at("2025-06-09", 12))
    assert (notice["due"], notice["late"]) == ("2025-06-07T07:00:00-05:00", True)

    home_inspections = [
        "2025-06-04T08:00",
        "2025-06-05T08:00",
        "2025-06-12T10:00",
        "2025-06-19T10:00",
    ]
    self_inspections(home_permit, v.homeowner, home_inspections, "siding")
    self_inspections(
        subdivision_permit,
        v.developer,
        ["2025-06-02T08:00", "2025-06-09T08:00", "2025-06-16T08:00", "2025-06-23T08:00"],
        "utilities",
    )
    self_inspections(road_permit, v.utility, ["2025-06-16T07:00"], "trenching")

    # -- The subdivision's permit revoked on a violation, and the appeal --------------------
    violation = enforcement.violation_record(
        village=v.village,
        recorded_by=staff,
        source="observation",
        description="Phase 1 basin outlet plugged; sediment from lots 7-9 in the 2nd St gutter.",
        provision="§ 135-7F",
        days_from=day("2025-06-23"),
        at=at("2025-06-23", 10),
        permit=subdivision_permit,
    )
    subdivision_case = violation.case
    # § 135-11B: "fails to comply with the ... plan or permit conditions": revocation is
    # open at once, with no stop-work order first.
    assert steps_open(subdivision_case, at("2025-06-23", 11)) == {
        "revoke_permit": ("2025-06-23", "§ 135-11B"),
    }
    revocation = enforcement.permit_revoke(
        case=subdivision_case,
        staff=staff,
        at=at("2025-06-24", 9),
        reasons="The added condition of § 135-7F is not kept: the basin outlet is plugged.",
    )
    revoked = case_document_text(subdivision_case, "revocation")
    assert "The Village Administrator revokes this permit [§ 135-11B]." in revoked
    assert "Lawful from June 23, 2025" in revoked
    assert (
        "The Zoning Board of Appeals may retract the stop-work order or the permit "
        "revocation [§ 135-11D]" in revoked
    )
    # § 135-11D: only the Zoning Board of Appeals may retract.
    with pytest.raises(EnforcementRefused) as refused:
        enforcement.order_retract(
            case=subdivision_case,
            staff=staff,
            at=at("2025-06-24", 15),
            order="revocation",
            reason="Outlet cleared",
        )
    assert refused.value.field == "by"
    row = register_rows(client)[subdivision_permit.number]
    assert (row["Status"], row["Orders posted"]) == (
        "Revoked",
        "Permit revoked 2025-06-24 09:00 (§ 135-11B)",
    )
    # § 135-12B: "any aggrieved person or ... any office ... of the Village": not a
    # "permittee" as such.
    appeal_of = {
        "village": v.village,
        "filed_by": v.developer,
        "on": day("2025-06-25"),
        "appellant_name": "Glarner Heights LLC",
        "grounds": "The outlet was cleared on June 24; revocation is out of proportion.",
        "action": revocation,
    }
    with pytest.raises(EnforcementRefused) as refused:
        appeals.appeal_file(standing="permittee", **appeal_of)
    assert refused.value.field == "standing"
    appeal = appeals.appeal_file(standing="aggrieved_person", **appeal_of)
    appeals.appeal_hearing_schedule(
        appeal=appeal,
        user=v.board,
        hearing_at=at("2025-07-01", 18),
        notice_given_on=day("2025-06-26"),
        notice_to="Glarner Heights LLC; the Village Administrator",
        place="Village Hall",
    )
    home_inspections = ["2025-06-26T10:00", "2025-07-03T10:00", "2025-07-06T09:00"]
    self_inspections(home_permit, v.homeowner, home_inspections, "siding")
    decided = board_decides(
        appeal,
        at=at("2025-07-01", 19, 30),
        decision="modify",
        reasons="The outlet was cleared the day after the revocation.",
        modification="Revocation reversed and the permit restored; the basin is logged weekly.",
        retracts=True,
    )
    subdivision_permit.refresh_from_db()
    assert subdivision_permit.status == "active"
    paper = pdf_text(decided.decision_document)
    assert "Appellant: Glarner Heights LLC (aggrieved person; § 135-12B)" in paper
    assert "DECISION: MODIFIED (July 1, 2025)" in paper
    assert "AS MODIFIED: Revocation reversed and the permit restored" in paper
    assert "The revocation is retracted [§ 135-11D]." in paper
    assert "The permit is again in force through October 19, 2025 [§ 135-7G]." in paper
    # The violation of 06-23 stays on the record and the permit is in force again, so
    # § 135-11B still allows revocation, from 06-23.
    assert steps_open(subdivision_case, at("2025-07-01", 20)) == {
        "revoke_permit": ("2025-06-23", "§ 135-11B"),
    }
    # The outlet cleared, the violation ends Thu 07-03: Jun 23-30 (8 days) and Jul 1-3
    # (3): 11 offenses at $100 to $500 each, $1,100 to $5,500, plus costs (§ 135-11F).
    enforcement.violation_end(
        violation=violation, staff=staff, days_to=day("2025-07-03"), at=at("2025-07-03", 12)
    )
    fine = forfeiture_summary(subdivision_case, at("2025-07-03", 13))
    assert fine is not None
    assert (fine["offenses"], fine["min"], fine["max"], fine["plus_costs"]) == (
        11,
        1100,
        5500,
        True,
    )

    # June's rain, imported Wed 2025-07-02. For the home site: Jun 3 and Jun 4, and Jun
    # 17-18 (32.3 mm) ending at midnight after Wed 06-18: due Fri 06-20 00:00 (clock
    # hours: Juneteenth changes nothing); its inspection of Thu 06-19 10:00 met it. For the
    # road job, work began Mon 06-09: Jun 3 and 4 fell before active construction (gap 23),
    # and Jun 17-18 is owed, not met (its one inspection, 06-16, came before).
    rain_import(month_of_rain(tmp_path, "2025-06-01", "2025-06-30"))
    assert rains(home_permit, at("2025-07-02", 12))[5:] == [
        ("2025-06-03", "2025-06-03", 16.0, "2025-06-05T00:00:00-05:00", "met"),
        ("2025-06-04", "2025-06-04", 13.0, "2025-06-06T00:00:00-05:00", "met"),
        ("2025-06-17", "2025-06-18", 32.3, "2025-06-20T00:00:00-05:00", "met"),
    ]
    assert rains(road_permit, at("2025-07-02", 12)) == [
        ("2025-06-17", "2025-06-18", 32.3, "2025-06-20T00:00:00-05:00", "overdue"),
    ]
    assert "rain-outside-construction" in note_ids(road, at("2025-07-02", 12))

    # -- July: the week missed, the road job stopped and the village's work ----------------
    # The home site's foreman was away from Mon 07-07: the week due Sun 07-13 (7 days after
    # the inspection of Sun 07-06) is missed, and the Jul 10-11 rain (40.4 mm, due Sun
    # 07-13 00:00) is met late by the inspection of Mon 07-14.
    assert dues(home, "weekly_inspection", at("2025-07-14", 6))[-3:] == [
        ("2025-07-10", "met"),
        ("2025-07-13", "overdue"),
        ("2025-07-20", "open"),
    ]
    self_inspections(home_permit, v.homeowner, ["2025-07-14T08:00"], "drywall")

    found = village_inspection(
        road_permit,
        inspector,
        "2025-07-15T10:00",
        result="not_compliant",
        answers={"condition:install-measures": "needs_work"},
        findings="No ditch checks in the 2nd St ditch; sediment in the inlet at 2nd St and 6th Ave",
    )
    road_case = found.timeline_event.application.enforcement_cases.get()
    assert road_case.violations.get().provision == "§ 135-7E(4)"
    assert steps_open(road_case, at("2025-07-15", 11)) == {
        "revoke_permit": ("2025-07-15", "§ 135-11B"),
    }
    enforcement.stop_work_order_post(
        case=road_case, staff=staff, at=at("2025-07-15", 14), grounds=["plan-not-followed"]
    )
    # § 135-11E: "After posting a stop-work order ... may issue a notice of intent": no
    # waiting period. § 135-11C's referral needs the order violated, not only posted.
    assert steps_open(road_case, at("2025-07-15", 15)) == {
        "revoke_permit": ("2025-07-15", "§ 135-11B"),
        "issue_notice_of_intent": ("2025-07-15", "§ 135-11E"),
    }
    placard = case_document_text(road_case, "stop_work_placard")
    assert (
        "The Village Administrator orders that all construction activity on the site be "
        "stopped [§ 135-13]" in placard
    )
    assert (
        "The erosion and sediment control plan is not being implemented in a good faith manner "
        "[§ 135-11A(2)]" in placard
    )
    assert "Who may appeal: aggrieved person, village office [§ 135-12B]" in placard
    assert "Not appealable: cease and desist order [§ 135-12A(1)]" in placard
    assert register_rows(client)[road_permit.number]["Stop-work order in force"] == "yes"

    notice = enforcement.notice_of_intent_issue(
        case=road_case,
        staff=staff,
        at=at("2025-07-17", 9),
        work="Build ditch checks in the 2nd St ditch and clean the inlet at 2nd St and 6th Ave.",
    )
    # § 135-11E: "may go on the land and commence the work after issuing the notice".
    assert (notice.citation, notice.details["work_from"]) == ("§ 135-11E", "2025-07-17")
    intent = case_document_text(road_case, "notice_of_intent")
    assert (
        "The Village Administrator has authorized no interest rate, so no interest is charged."
        in intent
    )
    enforcement.village_work_begin(case=road_case, staff=staff, at=at("2025-07-21", 7))
    for category, what, amount, on in (
        ("labour", "Public works crew, 9 hours at $80", "720.00", "2025-07-21"),
        ("contracts", "Ditch checks by Swiss Valley Excavating", "1250.00", "2025-07-22"),
        ("materials", "Clear stone and filter fabric", "214.40", "2025-07-21"),
    ):
        enforcement.work_cost_record(
            case=road_case,
            staff=staff,
            category=category,
            description=what,
            amount=amount,
            incurred_on=day(on),
        )
    enforcement.compliance_record(case=road_case, staff=staff, at=at("2025-07-25", 15))
    # The violation of 07-15 ran to the compliance of Fri 07-25: 11 days, $1,100 to $5,500.
    fine = forfeiture_summary(road_case, at("2025-07-25", 16))
    assert fine is not None
    assert (fine["offenses"], fine["min"], fine["max"]) == (11, 1100, 5500)

    home_inspections = ["2025-07-21T10:00", "2025-07-28T10:00", "2025-07-31T08:00"]
    self_inspections(home_permit, v.homeowner, home_inspections, "drywall")
    # Fri 2025-08-01, due in 30 days: Sun 08-31. $720.00 + $1,250.00 + $214.40 = $2,184.40.
    invoice = enforcement.invoice_issue(case=road_case, staff=staff, on=day("2025-08-01"))
    assert (invoice.principal, invoice.due_on, invoice.interest_rate_percent) == (
        Decimal("2184.40"),
        day("2025-08-31"),
        None,
    )
    billed = case_document_text(road_case, "invoice")
    assert "Total due: $2,184.40" in billed
    assert (
        "The Village Administrator has set no interest rate, so no interest is charged on "
        "this invoice [§ 135-11E]" in billed
    )

    # July's rain, imported Sat 2025-08-02: Jul 4-5 (13.4 mm: two days summed, gap 4) ends
    # at midnight after Sat 07-05, due Mon 07-07 00:00, met by the Sunday 07-06 inspection;
    # Jul 10-11 (40.4 mm), due Sun 07-13 00:00, met late Mon 07-14; Jul 30 (26.4 mm), due
    # Fri 08-01 00:00.
    rain_import(month_of_rain(tmp_path, "2025-07-01", "2025-07-31"))
    july = [
        (d["rain"]["from"], d["due"], d["status"], d["late"])
        for d in duties(home_permit, "rain_inspection", at("2025-08-02", 12))
    ][8:]
    assert july == [
        ("2025-07-04", "2025-07-07T00:00:00-05:00", "met", False),
        ("2025-07-10", "2025-07-13T00:00:00-05:00", "met", True),
        ("2025-07-30", "2025-08-01T00:00:00-05:00", "met", False),
    ]
    # Gap 23: the stop-work order of 07-15 to 07-25 did not pause "active construction";
    # the road job never inspected again after 06-16.
    assert [(r[0], r[4]) for r in rains(road_permit, at("2025-08-02", 12))] == [
        ("2025-06-17", "overdue"),
        ("2025-07-04", "overdue"),
        ("2025-07-10", "overdue"),
        ("2025-07-30", "overdue"),
    ]

    # -- August to October ----------------------------------------------------------------
    home_inspections = [
        "2025-08-07T10:00",
        "2025-08-10T09:00",
        "2025-08-11T08:00",
        "2025-08-13T08:00",
        "2025-08-19T08:00",
        "2025-08-26T10:00",
        "2025-09-02T10:00",
    ]
    self_inspections(home_permit, v.homeowner, home_inspections, "finish grading")
    rain_import(month_of_rain(tmp_path, "2025-08-01", "2025-08-31"))
    # Not paid by Sun 08-31; recorded Tue 09-02 (Mon 09-01 is Labor Day): "fails to pay the
    # amount due" (§ 135-11E) opens the tax roll. The violation of 07-15, found while the
    # permit was in force, still allows revocation (§ 135-11B sets no end to it).
    enforcement.costs_unpaid_record(invoice=invoice, staff=staff, at=at("2025-09-02", 9))
    assert steps_open(road_case, at("2025-09-02", 10)) == {
        "revoke_permit": ("2025-07-15", "§ 135-11B"),
        "certify_special_assessment": ("2025-09-02", "§ 135-11E"),
    }
    self_inspections(home_permit, v.homeowner, ["2025-09-09T10:00"], "seeding")
    # The Sep 13 rain (15.7 mm): the permittee records that no runoff left the site (§
    # 135-7E(7): "which results in runoff"; decision 14): no inspection is owed for it.
    log(
        home_permit,
        v.homeowner,
        "no_runoff",
        "2025-09-13T18:00",
        evidence="Lot seeded and mulched; the curb line stayed dry; photos kept.",
    )
    self_inspections(
        home_permit,
        v.homeowner,
        ["2025-09-16T10:00", "2025-09-23T08:00", "2025-09-30T10:00"],
        "lawn established",
    )
    # No rate authorized: no interest; $2,184.40 certified to the Clerk-Treasurer, Wed
    # 2025-10-01, under Subch. VII of Ch. 66 Wis. Stats. (§ 135-11E).
    enforcement.case_parcel_set(case=road_case, staff=staff, parcel_number="2316-0412.000")
    certified = enforcement.tax_roll_certify(invoice=invoice, staff=staff, at=at("2025-10-01", 10))
    assert (certified.citation, certified.details["interest"], certified.details["total"]) == (
        "§ 135-11E",
        "0.00",
        "2184.40",
    )
    roll = case_document_text(road_case, "tax_roll_certification")
    assert "To: the Clerk-Treasurer" in roll
    assert "Interest to October 1, 2025: $0.00 (no rate was set)" in roll
    assert "Amount certified: $2,184.40" in roll
    assert "under Subch. VII of Ch. 66, Wis. Stats. [§ 135-11E]" in roll
    rain_import(month_of_rain(tmp_path, "2025-09-01", "2025-09-30"))

    # -- Friday 2025-10-03: final stabilization of the home site --------------------------
    # § 135-13: "all land-disturbing construction activities ... completed and a uniform
    # perennial vegetative cover ... with a density of at least 70%".
    with pytest.raises(ActionRefused) as refused:
        permits.permit_close(
            permit=home_permit,
            staff=staff,
            on=day("2025-10-03"),
            cover_percent=65,
            activities_completed=True,
        )
    assert refused.value.field == "cover"
    with pytest.raises(ActionRefused) as refused:
        permits.permit_close(
            permit=home_permit, staff=staff, on=day("2025-10-03"), cover_percent=80
        )
    assert refused.value.field == "completed"
    permits.permit_close(
        permit=home_permit,
        staff=staff,
        on=day("2025-10-03"),
        cover_percent=80,
        activities_completed=True,
    )
    done = at("2025-10-03", 20)
    assert rains(home_permit, done) == [
        ("2025-04-17", "2025-04-18", 23.4, "2025-04-20T00:00:00-05:00", "met"),
        ("2025-05-01", "2025-05-01", 24.6, "2025-05-03T00:00:00-05:00", "met"),
        ("2025-05-15", "2025-05-15", 20.6, "2025-05-17T00:00:00-05:00", "met"),
        ("2025-05-20", "2025-05-20", 28.2, "2025-05-22T00:00:00-05:00", "met"),
        ("2025-05-21", "2025-05-21", 18.5, "2025-05-23T00:00:00-05:00", "met"),
        ("2025-06-03", "2025-06-03", 16.0, "2025-06-05T00:00:00-05:00", "met"),
        ("2025-06-04", "2025-06-04", 13.0, "2025-06-06T00:00:00-05:00", "met"),
        ("2025-06-17", "2025-06-18", 32.3, "2025-06-20T00:00:00-05:00", "met"),
        ("2025-07-04", "2025-07-05", 13.4, "2025-07-07T00:00:00-05:00", "met"),
        ("2025-07-10", "2025-07-11", 40.4, "2025-07-13T00:00:00-05:00", "met"),
        ("2025-07-30", "2025-07-30", 26.4, "2025-08-01T00:00:00-05:00", "met"),
        ("2025-08-09", "2025-08-09", 145.8, "2025-08-11T00:00:00-05:00", "met"),
        ("2025-08-10", "2025-08-10", 29.7, "2025-08-12T00:00:00-05:00", "met"),
        ("2025-08-12", "2025-08-12", 27.4, "2025-08-14T00:00:00-05:00", "met"),
        ("2025-08-16", "2025-08-18", 22.1, "2025-08-20T00:00:00-05:00", "met"),
        ("2025-09-20", "2025-09-22", 23.6, "2025-09-24T00:00:00-05:00", "met"),
    ]
    assert "rain-without-runoff" in note_ids(home, done)
    assert dues(home, "weekly_inspection", done) == [
        *[(d, "met") for d in ("2025-04-21", "2025-04-26", "2025-05-02", "2025-05-09")],
        *[(d, "met") for d in ("2025-05-16", "2025-05-23", "2025-05-28", "2025-05-29")],
        *[(d, "met") for d in ("2025-06-05", "2025-06-11", "2025-06-12", "2025-06-19")],
        *[(d, "met") for d in ("2025-06-26", "2025-07-03", "2025-07-10")],
        ("2025-07-13", "overdue"),
        *[(d, "met") for d in ("2025-07-20", "2025-07-21", "2025-07-28", "2025-08-04")],
        *[(d, "met") for d in ("2025-08-07", "2025-08-14", "2025-08-17", "2025-08-18")],
        *[(d, "met") for d in ("2025-08-20", "2025-08-26", "2025-09-02", "2025-09-09")],
        *[(d, "met") for d in ("2025-09-16", "2025-09-23", "2025-09-30")],
    ]

    # -- The subdivision is extended -------------------------------------------------------
    self_inspections(subdivision_permit, v.developer, ["2025-10-13T08:00"], "houses")
    # 90 days from Sun 10-19: 12 to Oct 31, then 30 (42), 31 (73), 17 in January:
    # Saturday 2026-01-17, not moved.
    extension = permits.permit_extend(
        permit=subdivision_permit,
        staff=staff,
        days=90,
        on=day("2025-10-14"),
        added_measures="Winter mulch on lots 7-9 by November 15",
    )
    assert extension.expires_after == day("2026-01-17")
    # October's rain, imported Sun 2025-11-02: Oct 18 (22.4 mm), due Mon 10-20 00:00; the
    # subdivision inspected Sun 10-19.
    self_inspections(subdivision_permit, v.developer, ["2025-10-19T10:00"], "houses")
    rain_import(month_of_rain(tmp_path, "2025-10-01", "2025-10-31"))
    assert rains(subdivision_permit, at("2025-11-02", 12))[-1] == (
        "2025-10-18",
        "2025-10-18",
        22.4,
        "2025-10-20T00:00:00-05:00",
        "met",
    )

    # -- The public register today ---------------------------------------------------------
    shown = register_rows(client)
    assert {
        n: (r["Issued"], r["Valid through"], r["Status"], r["Stop-work order in force"])
        for n, r in shown.items()
    } == {
        home_permit.number: ("2025-04-07", "2025-10-04", "Closed at final stabilization", "no"),
        subdivision_permit.number: ("2025-04-22", "2026-01-17", "Expired", "no"),
        road_permit.number: ("2025-06-03", "2025-11-30", "Expired", "no"),
    }
    assert shown[subdivision_permit.number]["Orders posted"] == (
        "Permit revoked 2025-06-24 09:00 (§ 135-11B); Order retracted 2025-07-01 19:30 (§ 135-11D)"
    )
    assert shown[road_permit.number]["Orders posted"] == (
        "Stop-work order 2025-07-15 14:00 (§ 135-11A); Compliance achieved 2025-07-25 15:00 "
        "(§ 135-11A)"
    )


# ---------------------------------------------------------------------------------------------
# What the program gets wrong, each on the least of the season that shows it
# ---------------------------------------------------------------------------------------------


def _spencer_home_permit(v: Any, filed: str, approved: str) -> Permit:
    application = application_made(
        applicant=v.homeowner,
        village=v.village,
        address="410 N Park St, Spencer",
        facts={"disturbed_area": "6000 sq ft", "land_use": "residential"},
        on=filed,
        landowner="Dana Kowalski",
        description="New house on a lot of record",
    )
    permits.application_submit(application=application, user=v.homeowner, at=at(filed, 9))
    permit = permits.application_approve(
        application=application, staff=v.staff, at=at(approved, 10)
    )
    station_pinned(application.site, v.staff)
    return permit


def test_the_import_counts_a_rain_of_two_days_as_one_rain(tmp_path: Any) -> None:
    v = village_people(SPENCER)
    _spencer_home_permit(v, "2025-04-01", "2025-04-07")
    said = rain_import(month_of_rain(tmp_path, "2025-04-01", "2025-04-30"))
    # The only rain of April 2025 after the permit of Apr 7: Apr 17 (1.0 mm) and Apr 18
    # (22.4 mm), summed to 23.4 mm, one rain (gap 4: "that is one rain").
    assert "1 qualifying rain(s) written onto 1 permit(s)" in said


def test_the_stored_notice_of_intent_says_when_the_village_may_begin_the_work() -> None:
    v = village_people(SPENCER)
    permit = _spencer_home_permit(v, "2025-05-01", "2025-05-05")
    case = enforcement.violation_record(
        village=v.village,
        recorded_by=v.staff,
        source="observation",
        description="No inlet protection at the street inlet",
        provision="§ 413-7B(4)",
        days_from=day("2025-06-17"),
        at=at("2025-06-17", 10),
        permit=permit,
    ).case
    enforcement.stop_work_order_post(
        case=case, staff=v.staff, at=at("2025-06-17", 15), grounds=["conditions-not-met"]
    )
    enforcement.notice_of_intent_issue(
        case=case, staff=v.staff, at=at("2025-06-27", 9), work="Protect the street inlet."
    )
    # § 413-10E: "after 14 days from issuing the notice of intent": Fri 06-27 + 14 = Fri
    # 07-11, so from Sat 2025-07-12, which the notice is written to state.
    assert "The work may begin on or after July 12, 2025." in case_document_text(
        case, "notice_of_intent"
    )


def test_rain_imported_after_the_permit_closed_still_owes_the_inspections_of_its_term(
    tmp_path: Any,
) -> None:
    v = village_people(SPENCER)
    permit = _spencer_home_permit(v, "2025-08-26", "2025-08-27")
    log(permit, v.homeowner, "work_started", "2025-09-01T08:00")
    self_inspections(permit, v.homeowner, ["2025-09-15T08:00"], "seeding")
    permits.permit_close(permit=permit, staff=v.staff, on=day("2025-09-26"), cover_percent=80)
    # The clerk imports September on Thu 2025-10-02. While the permit was in force (Aug
    # 27 to its final stabilization on Fri 09-26) two rains of 0.5 inch or more fell: Sat
    # 09-13 (15.7 mm), due Sun 09-14, moved to Mon 09-15 (§ 990.001(4)(b)) and met by the
    # inspection that day; Sep 20-22 (2.5 + 0.3 + 20.8 = 23.6 mm) ending Mon 09-22, due
    # Tue 09-23 and never inspected (§ 413-8E(3)(g); gap 16: every rain until final
    # stabilization).
    rain_import(month_of_rain(tmp_path, "2025-09-01", "2025-09-30"))
    assert rains(permit, at("2025-10-02", 12)) == [
        ("2025-09-13", "2025-09-13", 15.7, "2025-09-15", "met"),
        ("2025-09-20", "2025-09-22", 23.6, "2025-09-23", "overdue"),
    ]
