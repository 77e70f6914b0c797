"""The year-end report to the village board (/staff/year-report/), checked against counts
worked out by hand from rows made through the services.

The world: Spencer in 2025, with a few rows on each side of the year's edges, and one New
Glarus permit and complaint that Spencer's report must not count. Every date below is in
the villages' time (Central).

Applications received (the complete filing):
    A1 2025-03-03, 21,780 sq ft (0.5 acre)   approved 03-05: P1, extended 30 days, expired
    A2 2025-07-01, 43,560 sq ft (1 acre)     approved 07-03: P2, closed 2025-11-15
    A3 2025-09-02                            disapproved 09-04
    A6 2025-10-01, no area given             approved 10-03: P6, in force into 2026
    A7 2025-11-03, 10,890 sq ft (0.25 acre)  approved 11-05: P7, revoked 2025-12-10
    A4 2025-12-31 23:30  (in 2025)           approved 2026-01-02: permit issued in 2026
    A5 2026-01-01 00:30  (in 2026)
2025: 6 received, 4 issued (P1 P2 P6 P7), 1 disapproved, 1 extended, 1 closed, 1 expired
(P1: active, its last day in 2025), 1 in force on December 31 (P6), 1.75 acres on the
permits issued, 1 with no area; 1 site of one acre or more (P2).
"""

from __future__ import annotations

import csv
import datetime
import io
import re
from decimal import Decimal
from html.parser import HTMLParser
from typing import Any
from zoneinfo import ZoneInfo

import factories
import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from factories import NEW_GLARUS, SPENCER, People
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from season_helpers import application_made

from siltfence.apps.duties.services import permit_duties_recompute
from siltfence.apps.enforcement import services as enforcement
from siltfence.apps.inspections.services import inspection_record
from siltfence.apps.payments import services as payments
from siltfence.apps.permits import services as permits
from siltfence.apps.permits.models import Application, Permit, Village
from siltfence.apps.sitelog.services import site_log_record

pytestmark = pytest.mark.django_db

CHICAGO = ZoneInfo("America/Chicago")
URL = "/staff/year-report/"
FUZZ = settings(
    max_examples=40,
    deadline=datetime.timedelta(seconds=3),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def at(day: str, hour: int = 9, minute: int = 0) -> datetime.datetime:
    return datetime.datetime.combine(
        datetime.date.fromisoformat(day), datetime.time(hour, minute), tzinfo=CHICAGO
    )


def day(text: str) -> datetime.date:
    return datetime.date.fromisoformat(text)


# -- the world ------------------------------------------------------------------------------


def filed(
    people: People,
    village: str,
    address: str,
    facts: dict[str, Any],
    received: datetime.datetime,
) -> Application:
    """A complete application, filed (received) at ``received``."""
    application = application_made(
        applicant=people.applicant_a,
        village=Village.objects.get(pk=village),
        address=address,
        facts=facts,
        on=received.astimezone(CHICAGO).date().isoformat(),
        landowner="Alex Schmid",
        description="year report test project",
    )
    permits.application_submit(application=application, user=people.applicant_a, at=received)
    return application


def approved(people: People, application: Application, when: datetime.datetime) -> Permit:
    permit = permits.application_approve(
        application=application, staff=people.staff[application.village_id], at=when
    )
    assert permit is not None
    return permit


def log(permit: Permit, people: People, kind: str, when: str, **data: str) -> None:
    site_log_record(
        permit=permit,
        user=people.applicant_a,
        kind=kind,
        at=when,
        data=data,
        photos=[],
        client_token="",
        now=timezone.now(),
    )


def inspected(permit: Permit, people: People, when: str) -> None:
    inspection_record(
        permit=permit,
        user=people.inspector[permit.village_id],
        at=when,
        result="compliant",
        answers={},
        findings="",
        photos=[],
        client_token="",
        now=timezone.now(),
    )


def complaint(village: str, when: datetime.datetime, text: str) -> Any:
    return enforcement.complaint_file(
        village=Village.objects.get(pk=village),
        description=text,
        at=when,
        address="5 Main St",
        email="neighbour@example.org",
    )


@pytest.fixture
def world(people: People) -> dict[str, Any]:
    staff = people.staff[SPENCER]
    a1 = filed(people, SPENCER, "1 Park St", {"disturbed_area": 21780}, at("2025-03-03"))
    p1 = approved(people, a1, at("2025-03-05", 10))
    a2 = filed(people, SPENCER, "2 Park St", {"disturbed_area": 43560}, at("2025-07-01"))
    p2 = approved(people, a2, at("2025-07-03", 10))
    a3 = filed(people, SPENCER, "3 Park St", {"disturbed_area": 9000}, at("2025-09-02"))
    permits.application_disapprove(
        application=a3, staff=staff, reasons="No inlet protection.", at=at("2025-09-04")
    )
    a6 = filed(people, SPENCER, "6 Park St", {"subdivision_plat": True}, at("2025-10-01"))
    p6 = approved(people, a6, at("2025-10-03", 10))
    a7 = filed(people, SPENCER, "7 Park St", {"disturbed_area": 10890}, at("2025-11-03"))
    p7 = approved(people, a7, at("2025-11-05", 10))
    a4 = filed(people, SPENCER, "4 Park St", {"disturbed_area": 9000}, at("2025-12-31", 23, 30))
    p4 = approved(people, a4, at("2026-01-02", 10))
    filed(people, SPENCER, "5 Park St", {"disturbed_area": 9000}, at("2026-01-01", 0, 30))

    # P1: work, the permittee's inspections, the village's; its duties stored as of
    # 2025-04-15 (see test_missed_inspections_are_read_from_the_stored_duties).
    log(p1, people, "work_started", "2025-03-10T08:00")
    for moment in ("2025-03-14T10:00", "2025-03-20T10:00"):
        log(p1, people, "self_inspection", moment, inspector="Foreman", phase="Grading")
    inspected(p1, people, "2025-04-10T10:00")
    permit_duties_recompute(permit_ids=[p1.pk], as_of=at("2025-04-15", 12))
    inspected(p1, people, "2025-05-12T10:00")
    permits.permit_extend(permit=p1, staff=staff, days=30, on=day("2025-08-01"))

    # P2 closed at final stabilization.
    permits.permit_close(permit=p2, staff=staff, on=day("2025-11-15"), cover_percent=80)

    # P6: the village's inspections either side of the new year; work with no inspection.
    inspected(p6, people, "2025-10-20T10:00")
    inspected(p6, people, "2025-12-31T23:30")
    inspected(p6, people, "2026-01-01T00:30")
    log(p6, people, "work_started", "2025-12-20T08:00")
    permit_duties_recompute(permit_ids=[p6.pk], as_of=at("2026-01-10", 12))
    surety = permits.surety_record(
        permit=p6,
        staff=staff,
        kind="letter_of_credit",
        amount=Decimal("5000"),
        issuer="Marathon County Bank",
        reference="LC-6",
        received_on=p6.issued_on,
    )
    permits.surety_draw(
        surety=surety, staff=staff, amount=Decimal("400"), on=day("2025-12-15"), reason="Fence"
    )

    # P7: a violation the village found, an order, the village's own work, billed and partly
    # paid, the permit revoked, and the case referred for a forfeiture.
    violation = enforcement.violation_record(
        village=p7.village,
        recorded_by=staff,
        source="observation",
        description="No inlet protection on the street inlet.",
        provision="§ 413-7B(4)",
        days_from=day("2025-11-20"),
        at=at("2025-11-20"),
        permit=p7,
    )
    case = violation.case
    enforcement.stop_work_order_post(
        case=case, staff=staff, at=at("2025-11-20", 10, 30), grounds=["conditions-not-met"]
    )
    enforcement.notice_of_intent_issue(
        case=case, staff=staff, at=at("2025-12-03"), work="Reinstall the silt fence."
    )
    enforcement.permit_revoke(case=case, staff=staff, at=at("2025-12-10"), reasons="No fence.")
    enforcement.village_work_begin(case=case, staff=staff, at=at("2025-12-22", 7))
    enforcement.work_cost_record(
        case=case,
        staff=staff,
        category="labour",
        description="Public works crew, 8 hours",
        amount="600.00",
        incurred_on=day("2025-12-22"),
    )
    invoice = enforcement.invoice_issue(case=case, staff=staff, on=day("2025-12-23"))
    payments.payment_receive(
        invoice=invoice, staff=staff, amount="250.00", received_on=day("2025-12-30"), method="cash"
    )
    enforcement.violation_end(
        violation=violation, staff=staff, days_to=day("2025-11-24"), at=at("2025-11-25")
    )
    enforcement.forfeiture_schedule_set(
        village=p7.village,
        staff=staff,
        effective_from=day("2025-01-01"),
        per_day_min="10",
        per_day_max="500",
        authority="Village Code § 1-3",
    )
    enforcement.prosecution_refer(case=case, staff=staff, at=at("2025-12-29", 12))

    # Complaints: found, dismissed, waiting at the year's last minutes, and one in 2026.
    found = complaint(SPENCER, at("2025-06-01"), "Mud on the street.")
    enforcement.violation_review(
        violation=found,
        staff=staff,
        at=at("2025-06-02"),
        found=True,
        provision="§ 413-7B(4)",
        permit=p1,
    )
    dismissed = complaint(SPENCER, at("2025-06-02"), "Dust.")
    enforcement.violation_review(
        violation=dismissed, staff=staff, at=at("2025-06-03"), found=False, note="Nothing seen."
    )
    complaint(SPENCER, at("2025-12-31", 23, 30), "Fence down.")
    complaint(SPENCER, at("2026-01-01", 0, 30), "Fence down again.")

    # New Glarus: none of this is Spencer's.
    ng = filed(people, NEW_GLARUS, "9 Railroad St", {"disturbed_area": 70000}, at("2025-05-01"))
    ng_permit = approved(people, ng, at("2025-05-02", 10))
    inspected(ng_permit, people, "2025-06-01T10:00")
    complaint(NEW_GLARUS, at("2025-06-01"), "Mud.")
    return {"p1": p1, "p2": p2, "p4": p4, "p6": p6, "p7": p7}


# -- reading the page and the CSV -----------------------------------------------------------


class Rows(HTMLParser):
    """Each figure row of the page (``data-figure``): key -> (section, name, value, how),
    and each month's row of the monthly table."""

    def __init__(self) -> None:
        super().__init__()
        self.figures: dict[str, tuple[str, str, str, str]] = {}
        self.months: dict[int, list[str]] = {}
        self._row: dict[str, Any] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "tr" and (found.get("data-figure") or found.get("data-month")):
            self._row = {**found, "cells": []}
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._row is not None and self._cell is not None:
            self._row["cells"].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            row, self._row = self._row, None
            if row.get("data-figure"):
                self.figures[row["data-figure"]] = (row["data-section"], *row["cells"])
            else:
                self.months[int(row["data-month"])] = row["cells"]

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def page(client: Client, **query: str) -> Rows:
    response = client.get(URL, {"village": SPENCER, **query})
    assert response.status_code == 200, response.content[:400]
    rows = Rows()
    rows.feed(response.content.decode())
    return rows


def values(client: Client, **query: str) -> dict[str, str]:
    return {key: row[2] for key, row in page(client, **query).figures.items()}


def csv_rows(client: Client, **query: str) -> list[dict[str, str]]:
    response = client.get(URL, {"village": SPENCER, "format": "csv", **query})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert response.content.startswith(b"\xef\xbb\xbf")  # so that Excel reads UTF-8
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))


@pytest.fixture
def staff(people: People) -> Client:
    client = Client()
    client.force_login(people.staff[SPENCER])
    return client


# -- the figures ----------------------------------------------------------------------------


def test_the_permit_figures_of_2025_are_the_hand_counts(world: Any, staff: Client) -> None:
    shown = values(staff, year="2025")
    assert shown["applications-received"] == "6"  # A1 A2 A3 A6 A7, and A4 at 23:30 Dec 31
    assert shown["permits-issued"] == "4"  # P1 P2 P6 P7 (A4's permit is of 2026)
    assert shown["applications-disapproved"] == "1"  # A3
    assert shown["permits-extended"] == "1"  # P1, 30 days
    assert shown["permits-closed"] == "1"  # P2
    assert shown["permits-expired"] == "1"  # P1: active, its last day in 2025
    assert shown["permits-in-force"] == "1"  # P6 (P2 closed, P7 revoked, P1 expired)
    # 21,780 + 43,560 + 10,890 sq ft = 76,230 sq ft = 1.75 acres; P6 gave no area.
    assert shown["acres-disturbed"] == "1.75 acres"
    rows = page(staff, year="2025").figures
    assert "1 permit gave no area" in rows["acres-disturbed"][3]
    assert rows["permits-in-force"][1] == "Permits in force on December 31, 2025"
    assert "(1 extension in all)" in rows["permits-extended"][3]


def test_the_inspection_complaint_and_money_figures_of_2025(world: Any, staff: Client) -> None:
    shown = values(staff, year="2025")
    # The village: P1 04-10 and 05-12, P6 10-20 and 12-31 23:30 (2026-01-01 00:30 is not).
    assert shown["village-inspections"] == "4"
    assert shown["sites-inspected"] == "2"
    assert shown["permittee-inspections"] == "2"  # P1, 03-14 and 03-20
    assert shown["complaints-received"] == "3"  # 06-01, 06-02, 12-31 23:30
    assert shown["complaints-found"] == "1"
    assert shown["complaints-dismissed"] == "1"
    assert shown["complaints-waiting"] == "1"
    assert shown["violations-found"] == "1"  # the observation on P7
    assert shown["action-stop_work_order"] == "1"
    assert shown["action-notice_of_intent"] == "1"
    assert shown["action-revocation"] == "1"
    assert shown["action-village_work"] == "1"
    assert shown["action-invoice"] == "1"
    assert shown["action-prosecution_referral"] == "1"
    assert shown["action-retraction"] == "0"
    assert shown["actions-total"] == "6"
    assert shown["costs-billed"] == "$600.00"
    assert shown["costs-recovered"] == "$250.00"
    assert shown["surety-draws"] == "$400.00"
    assert shown["forfeiture-referrals"] == "1"
    # Violation 2025-11-20 to 11-24: five days, five offenses, at $10 to $500 a day.
    assert shown["forfeiture-offenses"] == "5"
    assert shown["forfeiture-smallest"] == "$50.00"
    assert shown["forfeiture-largest"] == "$2,500.00"


def test_missed_inspections_are_read_from_the_stored_duties(world: Any, staff: Client) -> None:
    """P1's duties stored as of 2025-04-15: work started 03-10, so a week was due 03-17
    (met 03-14), then 03-21 (met 03-20), then 03-27, 04-03 and 04-10, all missed; 04-17 is
    still open. The village owed one inspection in March (issued 03-05) and made none:
    missed; April's (04-10) is met. P6's, as of 2026-01-10: work started 2025-12-20, the
    week to 12-27 missed (2025), the week to 2026-01-03 missed (2026)."""
    shown = values(staff, year="2025")
    assert shown["permittee-duties-missed"] == "4"
    assert shown["village-duties-missed"] == "1"
    later = values(staff, year="2026")
    assert later["permittee-duties-missed"] == "1"
    assert later["village-duties-missed"] == "0"


def test_the_year_s_edges_are_midnight_in_the_village(world: Any, staff: Client) -> None:
    later = values(staff, year="2026")
    assert later["applications-received"] == "1"  # A5, 2026-01-01 00:30
    assert later["permits-issued"] == "1"  # A4's, 2026-01-02
    assert later["complaints-received"] == "1"
    assert later["village-inspections"] == "1"
    months = page(staff, year="2025").months
    assert months[12][1:] == ["1", "0", "1", "0"]  # A4; P6's inspection at 23:30
    assert months[3][1:] == ["1", "1", "0", "2"]
    assert months[11][1:] == ["1", "1", "0", "0"]
    assert page(staff, year="2026").months[1][1:] == ["1", "1", "1", "0"]


def test_the_monthly_table_adds_up_to_the_year_and_the_charts_are_drawn(
    world: Any, staff: Client
) -> None:
    rows = page(staff, year="2025")
    totals = [sum(int(row[i]) for row in rows.months.values()) for i in (1, 2, 3, 4)]
    assert totals == [6, 4, 4, 2]
    html = staff.get(URL, {"village": SPENCER, "year": "2025"}).content.decode()
    for chart in ("applications", "permits", "inspections"):
        figure = re.search(rf'data-testid="chart-{chart}">(.*?)</figure>', html, re.S)
        assert figure and 'class="chart"' in figure.group(1)
        assert re.fullmatch(r"<figcaption>[^<]+</figcaption><svg.*</svg>", figure.group(1), re.S)
    assert "Applications received Mar: 1" in html


def test_the_ms4_part_maps_each_figure_and_marks_what_is_not_held(
    world: Any, staff: Client
) -> None:
    rows = page(staff, year="2025").figures
    ms4 = {k: v for k, v in rows.items() if k.startswith("ms4-")}
    assert ms4["ms4-sites-permitted"][2] == "4"
    assert ms4["ms4-plans"][2] == "6"
    assert ms4["ms4-one-acre"][2] == "1"  # P2, 43,560 sq ft
    assert ms4["ms4-sites-active"][2] == "1"
    assert ms4["ms4-sites-inspected"][2] == "2"
    assert ms4["ms4-inspections"][2] == "4"
    assert ms4["ms4-enforcement"][2] == "6"
    assert "Stop-work order 1" in ms4["ms4-enforcement"][3]
    assert ms4["ms4-complaints"][2] == "3"
    assert ms4["ms4-complaints-responded"][2] == "2"
    assert ms4["ms4-ordinance"][2] == "Chapter 413, Construction Site Erosion Control"
    by_hand = {k for k, v in ms4.items() if v[2] == "Not recorded in siltfence — fill in by hand"}
    assert by_hand == {"ms4-training", "ms4-form-fields", "ms4-ordinance-changes"}
    html = staff.get(URL, {"village": SPENCER, "year": "2025"}).content.decode()
    assert "Construction site pollutant control (minimum control measure 4)" in html
    assert "holds a WPDES permit" in html


def test_the_csv_rows_are_the_page_s_figures(world: Any, staff: Client) -> None:
    rows = page(staff, year="2025")
    shown = {(s, name, value, how) for s, name, value, how in rows.figures.values()}
    for cells in rows.months.values():
        for name, value in zip(
            (
                "Applications received",
                "Permits issued",
                "Inspections by the village",
                "Inspections by permittees",
            ),
            cells[1:],
            strict=True,
        ):
            shown.add(("By month", f"{name}, {cells[0]}", value, ""))
    written = csv_rows(staff, year="2025")
    assert list(written[0]) == ["Section", "Figure", "Value", "How counted"]
    got = {
        (
            r["Section"],
            r["Figure"],
            r["Value"],
            "" if r["Section"] == "By month" else r["How counted"],
        )
        for r in written
    }
    assert len(written) == len(rows.figures) + 12 * 4
    assert got == shown


def test_the_words_are_a_clerk_s(world: Any, staff: Client) -> None:
    from test_plain_words import offences, read

    response = staff.get(URL, {"village": SPENCER, "year": "2025"})
    assert offences(read(response.content.decode()).text) == []
    rows = page(staff, year="2025").figures
    for key, (_, name, value, how) in rows.items():
        for text in (name, value, how):
            assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), (key, text)
            assert not re.search(r"\d{4}-\d{2}-\d{2}", text), (key, text)
    money = [rows[k][2] for k in ("costs-billed", "costs-recovered", "forfeiture-largest")]
    assert all(re.fullmatch(r"\$[\d,]+\.\d\d", m) for m in money)
    assert rows["action-prosecution_referral"][1] == "Forfeiture prosecution referral"


# -- the year asked for ---------------------------------------------------------------------


def test_the_year_defaults_to_the_current_year_in_the_village(
    people: People, staff: Client
) -> None:
    year = timezone.now().astimezone(CHICAGO).year
    response = staff.get(URL)
    assert response.status_code == 200
    assert f"Village of Spencer: {year}" in factories.text_of(response)
    running = factories.text_of(response)
    today = timezone.now().astimezone(CHICAGO).date()
    words = f"{today:%B} {today.day}, {today.year}"
    assert f"counted to today, {words}" in running
    assert f"Permits in force on {words} (today)" in running


@pytest.mark.parametrize(
    "year", ["1989", "2101", "20255", "25", "abcd", "2025.0", "-2025", "２０２５", " ", "2025x"]
)
def test_a_year_out_of_range_or_not_digits_is_refused_naming_the_field(
    people: People, staff: Client, year: str
) -> None:
    response = staff.get(URL, {"village": SPENCER, "year": year})
    if not year.strip():
        assert response.status_code == 200  # no year: this year
        return
    assert response.status_code == 400
    assert "year: give the year as four digits from 1990 to 2100" in factories.text_of(response)


def test_the_first_and_last_years_are_shown(people: People, staff: Client) -> None:
    for year in ("1990", "2100"):
        response = staff.get(URL, {"village": SPENCER, "year": year})
        assert response.status_code == 200
    assert "has not begun" in factories.text_of(response)


def test_an_unknown_village_or_format_is_refused_naming_the_field(
    people: People, staff: Client
) -> None:
    response = staff.get(URL, {"village": "nowhere-wi"})
    assert response.status_code == 400
    assert "village: no village 'nowhere-wi' is known" in factories.text_of(response)
    response = staff.get(URL, {"village": SPENCER, "format": "pdf"})
    assert response.status_code == 400
    assert factories.text_of(response).count("format: only csv") == 1


@FUZZ
@given(year=st.text(max_size=12), village=st.text(max_size=30))
def test_no_year_or_village_sent_answers_a_500(
    people: People, staff: Client, year: str, village: str
) -> None:
    response = staff.get(URL, {"year": year, "village": village})
    assert response.status_code in (200, 400, 403)
    if response.status_code == 400:
        assert re.search(r"\b(year|village): ", factories.text_of(response))


@FUZZ
@given(year=st.integers(min_value=-10_000, max_value=10_000), csv_too=st.booleans())
def test_every_whole_year_is_shown_or_refused(
    people: People, staff: Client, year: int, csv_too: bool
) -> None:
    query = {"village": SPENCER, "year": str(year), **({"format": "csv"} if csv_too else {})}
    response = staff.get(URL, query)
    assert response.status_code == (200 if 1990 <= year <= 2100 else 400)


# -- who may see it -------------------------------------------------------------------------


def test_only_the_village_s_staff_see_it(people: People) -> None:
    anonymous = Client().get(URL, {"village": SPENCER})
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    for user in (
        people.staff[NEW_GLARUS],
        people.applicant_a,
        people.inspector[SPENCER],
        people.board[SPENCER],
    ):
        client = Client()
        client.force_login(user)
        for query in ({"village": SPENCER}, {"village": SPENCER, "format": "csv"}):
            assert client.get(URL, query).status_code == 403, user.username
    own = Client()
    own.force_login(people.staff[NEW_GLARUS])
    assert own.get(URL, {"village": NEW_GLARUS}).status_code == 200
    assert own.get(URL).status_code == 200  # their own village, unasked
    assert own.post(URL, {"village": NEW_GLARUS}).status_code == 405


def test_the_review_queue_links_to_it_beside_the_emails(people: People, staff: Client) -> None:
    html = staff.get("/staff/").content.decode()
    assert re.search(
        r'href="/staff/emails/">Emails sent</a>\s*<a [^>]*href="/staff/year-report/"', html
    )


# -- how it is counted ----------------------------------------------------------------------


def test_the_queries_do_not_grow_with_the_records(people: People, staff: Client) -> None:
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert staff.get(URL, {"village": SPENCER, "year": "2025"}).status_code == 200
        return len(captured)

    first = filed(people, SPENCER, "1 Oak St", {"disturbed_area": 9000}, at("2025-04-01"))
    approved(people, first, at("2025-04-02", 10))
    queries()  # the first request of a session reads what the next ones find cached
    few = queries()
    for n in range(3):
        more = filed(people, SPENCER, f"{n} Elm St", {"disturbed_area": 9000}, at("2025-05-01"))
        inspected(approved(people, more, at("2025-05-02", 10)), people, "2025-05-03T10:00")
        complaint(SPENCER, at("2025-06-01"), "Mud.")
    assert queries() == few
    assert values(staff, year="2025")["applications-received"] == "4"


def test_the_page_fits_a_phone(people: People, staff: Client) -> None:
    """390 px wide: the figures' tables stack (USWDS stacked tables, a card per figure, as
    the other lists do), the monthly table scrolls inside its own wrapper (as the board
    reports' does), and the charts scale to the width (viewBox, class chart)."""
    html = staff.get(URL, {"village": SPENCER, "year": "2025"}).content.decode()
    wrapped = re.findall(r"<div ([^>]*)><table ([^>]*)>", html)
    assert len(wrapped) == len(re.findall(r"<table", html)) == 7
    for wrapper, table in wrapped:
        if 'data-testid="months"' in table:
            assert 'class="table-wrap"' in wrapper and 'role="region"' in wrapper
        else:
            assert 'class="table-wrap stacks"' in wrapper and "usa-table--stacked" in table
    assert "duties/terms" in html  # the stylesheet that sizes .chart to the width
    for svg in re.findall(r"<svg[^>]*>", html):
        assert "viewBox" in svg and 'class="chart"' in svg and "width=" not in svg
