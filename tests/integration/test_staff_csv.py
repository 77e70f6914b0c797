"""Every list the village's staff see downloads as CSV: the review queue, the permits not
closed, the inspector's permits in force, the dashboard's duties (overdue; due this week),
the inspection round, the enforcement cases, the payments received and the public
register.

Each download has the page's columns under the same headings, and exactly the rows of the
list as the page shows it with the same filters (every page of it); it is refused to
whoever may not see the page, and another village's list is not found. A text cell that
a spreadsheet would run as a formula starts with an apostrophe. The file is named for the
village, the list and the day in the village. The download reads the same number of
queries at 3 rows as at 30, and stops at its bound with a line saying so.
"""

from __future__ import annotations

import csv
import datetime
import html
import io
import re
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

import factories
import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from factories import NEW_GLARUS, SPENCER, make_application
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from siltfence.apps.accounts.models import Membership, Role
from siltfence.apps.duties.services import permit_duties_recompute
from siltfence.apps.enforcement import services as enforcement
from siltfence.apps.payments import services as payments
from siltfence.apps.permits import services
from siltfence.apps.permits.models import Application, Permit, Village
from siltfence.presentation import tables

pytestmark = pytest.mark.django_db
CHICAGO = ZoneInfo("America/Chicago")
FEE = Decimal("75.00")
NAMES = {SPENCER: "Village of Spencer", NEW_GLARUS: "Village of New Glarus"}
# Work with no permit: "No landowner or land user may commence ... without receiving prior
# approval of a control plan for the site and a permit" (§ 413-8A, § 135-7A).
NO_PERMIT = {SPENCER: "§ 413-8A", NEW_GLARUS: "§ 135-7A"}


# The lists are read at noon on Thursday, December 3, 2026 in the villages (CST).
NOON = datetime.datetime(2026, 12, 3, 12, 0, tzinfo=CHICAGO)


@pytest.fixture(autouse=True)
def _noon_on_december_3(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(timezone, "now", lambda: NOON.astimezone(datetime.UTC))


# -- building the lists' rows through the services ---------------------------------------------


def fee_paid(application: Application, staff: Any, on: datetime.date, amount: Decimal) -> None:
    """The application fee recorded as paid, in cash."""
    payments.payment_receive(
        application=application, staff=staff, received_on=on, amount=amount, method="cash"
    )


def invoice_paid(invoice: Any, staff: Any, on: datetime.date, amount: str) -> None:
    payments.payment_receive(
        invoice=invoice,
        staff=staff,
        amount=amount,
        received_on=on,
        method="check",
        check_number="1042",
    )


def fees_in_force(people: Any) -> None:
    """Each village's application fee, $75 from January 1, 2025."""
    for village in (SPENCER, NEW_GLARUS):
        services.fee_schedule_set(
            village=Village.objects.get(pk=village),
            staff=people.staff[village],
            effective_from=datetime.date(2025, 1, 1),
            amount=FEE,
            authority="Village Board resolution 2025-01",
        )


def filed(
    people: Any,
    village: str,
    address: str,
    days_ago: int,
    *,
    approve: bool = False,
    paid_on: datetime.date | None = None,
) -> Application:
    """An application filed ``days_ago`` days ago with its fee paid (on ``paid_on``, or the
    day it was filed), and approved two days after filing if ``approve``."""
    staff = people.staff[village]
    application = make_application(
        applicant=people.applicant_a,
        village=village,
        state="draft",
        address=address,
        days_ago=days_ago,
    )
    at = timezone.now() - datetime.timedelta(days=days_ago)
    fee_paid(application, staff, paid_on or timezone.localdate(at), FEE)
    services.application_submit(application=application, user=people.applicant_a, at=at)
    if approve:
        services.application_approve(
            application=application, staff=staff, at=at + datetime.timedelta(days=2)
        )
    application.refresh_from_db()
    return application


def case_without_permit(people: Any, village: str, address: str) -> Any:
    """A site with no permit, a violation found there yesterday, and its stop-work order."""
    staff = people.staff[village]
    yesterday = timezone.now() - datetime.timedelta(days=1)
    violation = enforcement.violation_record(
        village=Village.objects.get(pk=village),
        recorded_by=staff,
        source="observation",
        description="Grading with no permit.",
        provision=NO_PERMIT[village],
        days_from=timezone.localdate(yesterday),
        at=yesterday,
        address=address,
    )
    enforcement.stop_work_order_post(
        case=violation.case, staff=staff, at=yesterday, grounds=["no-permit"]
    )
    return violation.case


def at(day: str, hour: int = 9) -> datetime.datetime:
    return datetime.datetime.combine(
        datetime.date.fromisoformat(day), datetime.time(hour), tzinfo=CHICAGO
    )


def invoice_for_village_work(people: Any) -> Any:
    """Spencer's work on a permit's site, billed $600 and paid $250 on 2026-07-15: a permit
    filed 2026-05-20, a stop-work order 2026-06-01, the notice of intent 2026-06-12 (more
    than 10 days later, § 413-10E), the work from 2026-06-27 (more than 14 days after the
    notice), billed 2026-06-28."""
    staff = people.staff[SPENCER]
    days_ago = (timezone.localdate() - datetime.date(2026, 5, 20)).days
    permit = filed(people, SPENCER, "9 Billed St, Spencer", days_ago, approve=True).permit
    violation = enforcement.violation_record(
        village=permit.village,
        recorded_by=staff,
        source="observation",
        description="No inlet protection.",
        provision="§ 413-7B(4)",
        days_from=datetime.date(2026, 6, 1),
        at=at("2026-06-01"),
        permit=permit,
    )
    case = violation.case
    enforcement.stop_work_order_post(
        case=case, staff=staff, at=at("2026-06-01", 10), grounds=["conditions-not-met"]
    )
    enforcement.notice_of_intent_issue(
        case=case, staff=staff, at=at("2026-06-12"), work="Reinstall the inlet protection."
    )
    enforcement.village_work_begin(case=case, staff=staff, at=at("2026-06-27", 7))
    enforcement.work_cost_record(
        case=case,
        staff=staff,
        category="labour",
        description="Public works crew, 8 hours",
        amount="600.00",
        incurred_on=datetime.date(2026, 6, 27),
    )
    invoice = enforcement.invoice_issue(case=case, staff=staff, on=datetime.date(2026, 6, 28))
    invoice_paid(invoice, staff, datetime.date(2026, 7, 15), "250.00")
    return invoice


def rows_in(people: Any, village: str, count: int, start: int = 0) -> None:
    """``count`` of each list's rows in ``village``: an application under review, a permit
    issued 58 days ago (the village's inspections of November missed, § 413-9), and a site
    with no permit under a stop-work order; each application's fee paid."""
    short = "Spencer" if village == SPENCER else "New Glarus"
    permits = []
    for i in range(start, start + count):
        filed(people, village, f"{i + 1} Review St, {short}", 5 + i)
        permits.append(
            filed(people, village, f"{i + 1} Permit St, {short}", 60, approve=True).permit.pk
        )
        case_without_permit(people, village, f"{i + 1} Mud Ln, {short}")
    permit_duties_recompute(permit_ids=permits, as_of=timezone.now())


@pytest.fixture
def both(people: Any) -> Any:
    """A clerk who is staff, and inspector, of both villages."""
    user = factories.make_user("both-clerk")
    for village in (SPENCER, NEW_GLARUS):
        for role in (Role.STAFF, Role.INSPECTOR):
            Membership.objects.create(user=user, village_id=village, role=role)
    return user


# -- reading the page's table and the CSV ------------------------------------------------------


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user, backend=factories.ModelBackend)
    return client


def words(fragment: str) -> str:
    text = html.unescape(re.sub(r"<[^>]+>", " ", fragment))
    return re.sub(r"\s+", " ", text).strip()


def page_table(response: Any, testid: str) -> tuple[list[str], list[list[str]]]:
    """The headings and the rows' cells (as text) of the page's table ``testid``."""
    assert response.status_code == 200, response.status_code
    content = response.content.decode()
    start = content.index(f'data-testid="{testid}"')
    table = content[start : content.index("</table>", start)]
    headings = [words(h) for h in re.findall(r"<th[^>]*>(.*?)</th>", table, re.S)]
    body = table[table.index("<tbody>") :]
    rows = [
        [words(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr[ >].*?</tr>", body, re.S)
    ]
    return headings, rows


def csv_of(response: Any) -> list[list[str]]:
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    data = b"".join(response.streaming_content)
    # The byte-order mark that makes Excel read the file as UTF-8 comes first, once.
    assert data.startswith(b"\xef\xbb\xbf") and not data[3:].startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))


def csv_link(response: Any, name: str) -> str:
    found = re.search(rf'<a href="([^"]+)" data-testid="csv-{name}"', response.content.decode())
    assert found, f"no download link for {name}"
    return html.unescape(found.group(1))


# Each list: its page, who may see it, its table's test id and download's name, the column
# that names a row, and the query its page is asked with in the tests.
LISTS = {
    "queue": ("web:staff-queue", "staff", "queue", "review-queue", "Application", {}),
    "permits": ("web:staff-permits", "staff", "permits", "permits", "Permit", {}),
    "inspector": (
        "web:inspector-home",
        "inspector",
        "inspector-permits",
        "permits-in-force",
        "Permit",
        {},
    ),
    "overdue": (
        "duties:dashboard",
        "staff",
        "overdue",
        "duties-overdue",
        "Permit",
        {},
    ),
    "round": ("inspections:round", "staff", "round", "inspection-round", "Permit", {}),
    "cases": ("enforcement:cases", "staff", "cases", "enforcement-cases", "Case", {}),
    "payments": ("web:staff-payments", "staff", "payments", "payments", "Number", {}),
    "register": ("register:register", "public", "register", "register", "Site address", {}),
}


def page_and_csv(client: Client, name: str, **query: str) -> tuple[Any, list[list[str]]]:
    url, _, _, download, _, _ = LISTS[name]
    page = client.get(reverse(url), query)
    link = csv_link(page, download)
    if name == "register":
        return page, csv_of(client.get(link))
    return page, csv_of(client.get(reverse(url) + link))


# -- the same columns, the same rows ----------------------------------------------------------


@pytest.mark.parametrize("name", list(LISTS))
def test_the_csv_has_the_page_s_columns_and_exactly_its_rows_for_the_village_chosen(
    people, both, name
):
    fees_in_force(people)
    rows_in(people, SPENCER, 2)
    rows_in(people, NEW_GLARUS, 2)
    _, who, testid, _, key, _ = LISTS[name]
    client = Client() if who == "public" else signed_in(both)

    page, written = page_and_csv(client, name, village=SPENCER)

    headings, shown = page_table(page, testid)
    assert written[0] == headings
    assert len(written) - 1 == len(shown) > 0
    column = headings.index(key)
    assert [r[column] for r in written[1:]] == [r[column] for r in shown]
    # Only the village chosen: Spencer's rows, none of New Glarus's.
    assert "New Glarus" not in "".join(",".join(r) for r in written)
    if "Village" in headings:
        place = headings.index("Village")
        assert {r[place] for r in written[1:]} == {NAMES[SPENCER]}


def test_each_list_holds_the_rows_worked_out_for_it(people, both):
    """Two of each in Spencer on December 3, 2026: applications under review filed on
    November 28 and 27 (5 and 6 days before), permits filed on October 4 and issued on
    October 6, sites with no permit found in breach on December 2, and the four
    applications' fees of $75, each paid the day it was filed."""
    fees_in_force(people)
    rows_in(people, SPENCER, 2)
    client = signed_in(people.staff[SPENCER])

    _, queue = page_and_csv(client, "queue")
    assert queue[0] == [
        "Decision due",
        "Section",
        "Days left",
        "Application",
        "Village",
        "Site",
        "Status",
    ]
    # § 413-8D: "Within 45 days of receipt of the application ...": November 27 + 45 days
    # is January 11, 2027, 39 days after December 3; November 28 + 45, January 12.
    assert [(r[0], r[1], r[2], r[5], r[6]) for r in queue[1:]] == [
        ("2027-01-11", "§ 413-8D", "39", "2 Review St, Spencer", "Under review"),
        ("2027-01-12", "§ 413-8D", "40", "1 Review St, Spencer", "Under review"),
    ]

    _, permits = page_and_csv(client, "permits")
    # § 413-8E(1): "valid for a period of 180 days ... from the date of issuance": October 6
    # + 180 days is April 4, 2027, 122 days after December 3.
    assert permits[0] == ["Last day", "Days left", "Permit", "Village", "Site", "Extensions"]
    assert sorted((r[0], r[1], r[3], r[4], r[5]) for r in permits[1:]) == [
        ("2027-04-04", "122", NAMES[SPENCER], "1 Permit St, Spencer", "0"),
        ("2027-04-04", "122", NAMES[SPENCER], "2 Permit St, Spencer", "0"),
    ]

    _, payments = page_and_csv(client, "payments")
    assert payments[0] == [
        "Paid on",
        "Receipt",
        "Payment of",
        "Number",
        "Village",
        "Site",
        "Paid by",
        "Amount paid",
    ]
    assert [(r[0], r[2], r[5], r[6], r[7]) for r in payments[1:3]] == [
        ("2026-11-28", "Application fee", "1 Review St, Spencer", "Cash", "75.00"),
        ("2026-11-27", "Application fee", "2 Review St, Spencer", "Cash", "75.00"),
    ]
    # One receipt a payment, numbered in turn within the village and the year.
    assert sorted(r[1] for r in payments[1:]) == [f"SP-R-2026-000{n}" for n in (1, 2, 3, 4)]
    assert sorted((r[0], r[2], r[5], r[7]) for r in payments[3:]) == [
        ("2026-10-04", "Application fee", "1 Permit St, Spencer", "75.00"),
        ("2026-10-04", "Application fee", "2 Permit St, Spencer", "75.00"),
    ]
    page = client.get(reverse("web:staff-payments"))
    assert "Received in 2026: $300.00" in factories.text_of(page)

    _, cases = page_and_csv(client, "cases")
    assert cases[0] == ["Case", "Village", "Site", "Permit", "Permit status", "Opened"]
    assert sorted((r[2], r[3], r[4], r[5]) for r in cases[1:]) == [
        ("1 Mud Ln, Spencer", "", "", "2026-12-02T12:00-06:00"),
        ("2 Mud Ln, Spencer", "", "", "2026-12-02T12:00-06:00"),
    ]


def test_the_village_s_inspection_missed_in_october_is_overdue_and_winter_s_on_the_round(
    people,
):
    """§ 413-9: "The Building Inspector shall inspect construction sites at least once a
    month during the period starting March 1 and ending October 31 and at least two times
    during the period starting November 1 and ending February 28". A permit issued on
    October 6 (filed 60 days before December 3, approved two days later) whose site nobody
    inspected: October's inspection, due October 31, is overdue; the winter's two, due
    February 28, 2027, put the site on the round, with October missed before."""
    fees_in_force(people)
    rows_in(people, SPENCER, 1)
    permit = Permit.objects.get(application__site__address="1 Permit St, Spencer")
    assert permit.issued_on == datetime.date(2026, 10, 6)
    client = signed_in(people.staff[SPENCER])

    page, overdue = page_and_csv(client, "overdue")
    assert overdue[0] == ["Permit", "Site", "Duty", "Whose", "Due", "Why"]
    [october] = overdue[1:]
    assert october[:5] == [
        permit.number,
        "1 Permit St, Spencer",
        "The village's inspection",
        "the village",
        "2026-10-31",
    ]
    assert october[5].endswith("(§ 413-9)")
    _, shown = page_table(page, "overdue")
    assert shown[0][4] == "2026-10-31" and shown[0][5].endswith("§ 413-9")
    # Nothing falls due from December 3 to 10: the list of the week is empty, same columns.
    assert "Nothing falls due this week." in factories.text_of(page)
    soon = client.get(reverse("duties:dashboard"), {"format": "csv", "list": "soon"})
    assert csv_of(soon) == [overdue[0]]

    _, stops = page_and_csv(client, "round")
    assert stops[0] == [
        "Stop",
        "Site",
        "Permit",
        "Village",
        "Km from the last stop",
        "Inspect by",
        "Overdue",
        "What is owed",
        "Missed before",
    ]
    [stop] = stops[1:]
    assert stop[:4] == ["1", "1 Permit St, Spencer", permit.number, NAMES[SPENCER]]
    assert stop[5:7] == ["2027-02-28", "no"]
    assert "at least 2 times in 2026-11-01 to 2027-02-28" in stop[7]
    assert stop[8] == "2026-10-01 to 2026-10-31"


def test_a_download_link_keeps_the_page_s_filters_and_not_its_page(people, both):
    fees_in_force(people)
    rows_in(people, SPENCER, 1)
    client = signed_in(both)
    page = client.get(reverse("web:staff-payments"), {"village": SPENCER, "year": "2026"})
    assert csv_link(page, "payments") == f"?village={SPENCER}&year=2026&format=csv"
    page = client.get(reverse("web:staff-permits"), {"village": SPENCER, "page": "1"})
    assert csv_link(page, "permits") == f"?village={SPENCER}&format=csv"
    # A clerk of both villages chooses one on the list; a clerk of one has nothing to choose.
    assert 'data-testid="village-filter"' in page.content.decode()
    one = signed_in(people.staff[SPENCER]).get(reverse("web:staff-permits"))
    assert 'data-testid="village-filter"' not in one.content.decode()
    page = Client().get(reverse("register:register"), {"q": "Permit St", "village": SPENCER})
    assert csv_link(page, "register") == f"/register/permits.csv?q=Permit+St&village={SPENCER}"


# -- payments: a year, both sides of its ends -------------------------------------------------


def test_the_payments_of_a_year_are_those_paid_from_january_1_to_december_31(people):
    fees_in_force(people)
    staff = signed_in(people.staff[SPENCER])
    days_ago = (timezone.localdate() - datetime.date(2025, 12, 30)).days
    last = filed(people, SPENCER, "1 Old Year St", days_ago, paid_on=datetime.date(2025, 12, 31))
    first = filed(people, SPENCER, "2 New Year St", days_ago, paid_on=datetime.date(2026, 1, 1))
    invoice = invoice_for_village_work(people)

    def numbers(year: str) -> list[tuple[str, str, str]]:
        written = csv_of(staff.get(reverse("web:staff-payments"), {"year": year, "format": "csv"}))
        return [(r[0], r[3], r[7]) for r in written[1:]]

    assert numbers("2025") == [("2025-12-31", last.number, "75.00")]
    paid_2026 = numbers("2026")
    assert ("2026-01-01", first.number, "75.00") in paid_2026
    # The invoice: $250 paid to date, its last payment on 2026-07-15.
    assert ("2026-07-15", invoice.number, "250.00") in paid_2026
    assert last.number not in {n for _, n, _ in paid_2026}
    page = staff.get(reverse("web:staff-payments"), {"year": "2026"})
    _, shown = page_table(page, "payments")
    [invoice_row] = [r for r in shown if r[3] == invoice.number]
    assert invoice_row[2] == "Invoice for the village's work" and invoice_row[7] == "$250.00"
    assert invoice_row[6] == "Check No. 1042"
    assert invoice_row[0] == "July 15, 2026"


def test_a_year_that_is_not_one_is_refused_naming_the_field(people):
    staff = signed_in(people.staff[SPENCER])
    for year in ("1989", "2101", "26", "twenty", "2026x"):
        response = staff.get(reverse("web:staff-payments"), {"year": year})
        assert response.status_code == 400
        assert "year: give the year as four digits from 1990 to 2100" in factories.text_of(response)
    for year in ("1990", "2100"):
        assert staff.get(reverse("web:staff-payments"), {"year": year}).status_code == 200


# -- who may download ---------------------------------------------------------------------------

STAFF_LISTS = [n for n in LISTS if n != "register"]


def csv_url(name: str, **query: str) -> str:
    url = LISTS[name][0]
    extra = {"list": "overdue"} if name == "overdue" else {}
    return reverse(url) + "?" + "&".join(f"{k}={v}" for k, v in {**query, **extra}.items())


@pytest.mark.parametrize("name", STAFF_LISTS)
def test_an_applicant_is_refused_and_another_village_s_staff_do_not_find_the_list(people, name):
    fees_in_force(people)
    rows_in(people, SPENCER, 1)
    spencer_rows = [a.number for a in Application.objects.filter(village_id=SPENCER)]
    other = people.inspector if LISTS[name][1] == "inspector" else people.staff

    assert Client().get(csv_url(name, format="csv")).status_code == 302  # to sign in
    assert signed_in(people.applicant_a).get(csv_url(name, format="csv")).status_code == 403
    theirs = signed_in(other[NEW_GLARUS])
    asked = theirs.get(csv_url(name, format="csv", village=SPENCER))
    assert asked.status_code == 404
    own = theirs.get(csv_url(name, format="csv"))
    written = "\n".join(",".join(r) for r in csv_of(own))
    assert not [n for n in spencer_rows if n in written]
    assert "Spencer" not in written


# -- a spreadsheet runs no formula --------------------------------------------------------------


def test_a_site_named_as_a_formula_is_written_as_text(people):
    fees_in_force(people)
    evil = '=HYPERLINK("http://example.com/x","Click here")'
    filed(people, SPENCER, evil, 60, approve=True)
    client = signed_in(people.staff[SPENCER])

    page, written = page_and_csv(client, "permits")

    [row] = written[1:]
    assert row[4] == "'" + evil
    _, shown = page_table(page, "permits")
    assert shown[0][4] == evil  # the page shows what was typed, as text
    assert "&quot;http://example.com/x&quot;" in page.content.decode()


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_a_text_starting_as_a_formula_gets_an_apostrophe(start):
    assert tables.csv_text(f"{start}1+1") == f"'{start}1+1"
    assert tables.csv_text([tables.Item(f"{start}SUM(A1)", "§ 1")]) == f"'{start}SUM(A1) (§ 1)"


def test_a_text_that_is_no_formula_and_a_number_are_written_as_they_are():
    assert tables.csv_text("1 Main St") == "1 Main St"
    assert tables.csv_text("Main St - east") == "Main St - east"
    assert tables.csv_text(-3) == "-3"
    assert tables.csv_text(Decimal("-12.5")) == "-12.50"
    assert tables.csv_text(Decimal("1250")) == "1250.00"
    assert tables.csv_text(datetime.date(2026, 12, 3)) == "2026-12-03"
    moment = datetime.datetime(2026, 12, 3, 14, 5, tzinfo=CHICAGO)
    assert tables.csv_text(moment) == "2026-12-03T14:05-06:00"
    assert tables.csv_text(None) == "" and tables.csv_text(True) == "yes"


# -- the file's name ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("utc", "day"),
    [
        # 23:59 on December 3 in Spencer (CST, six hours behind), December 4 in UTC.
        (datetime.datetime(2026, 12, 4, 5, 59, tzinfo=datetime.UTC), "2026-12-03"),
        # Midnight in Spencer: December 4.
        (datetime.datetime(2026, 12, 4, 6, 0, tzinfo=datetime.UTC), "2026-12-04"),
    ],
)
def test_the_file_is_named_for_the_village_the_list_and_the_day_in_the_village(
    people, monkeypatch, utc, day
):
    fees_in_force(people)
    rows_in(people, SPENCER, 1)
    monkeypatch.setattr(timezone, "now", lambda: utc)
    client = signed_in(people.staff[SPENCER])

    response = client.get(reverse("web:staff-permits"), {"format": "csv"})

    assert response["Content-Disposition"] == (
        f'attachment; filename="spencer-wi-permits-{day}.csv"'
    )
    register = Client().get(reverse("register:csv"))
    assert register["Content-Disposition"] == (
        f'attachment; filename="all-villages-register-{day}.csv"'
    )
    register = Client().get(reverse("register:csv"), {"village": NEW_GLARUS})
    assert register["Content-Disposition"] == (
        f'attachment; filename="new-glarus-wi-register-{day}.csv"'
    )


# -- bounded, and the queries do not grow with the rows ----------------------------------------


@pytest.mark.parametrize(("bound", "cut"), [(3, False), (2, True)])
def test_a_download_stops_at_its_bound_and_says_so(people, monkeypatch, bound, cut):
    fees_in_force(people)
    rows_in(people, SPENCER, 3)
    monkeypatch.setattr(tables, "MAX_ROWS", bound)
    client = signed_in(people.staff[SPENCER])

    page, written = page_and_csv(client, "permits")

    assert len(written) == 1 + bound + (1 if cut else 0)
    if cut:
        assert written[-1] == [
            "This download stops at 2 rows; the list has more. Narrow it with the filters "
            "on the page, and download each part."
        ]
    over = 'data-testid="csv-over"' in page.content.decode()
    assert over is cut
    if cut:
        assert "The list has 3 rows; a download holds the first 2." in factories.text_of(page)


def _queries(client: Client, name: str) -> int:
    url = csv_url(name, format="csv")
    if name == "register":
        url = reverse("register:csv")
    with CaptureQueriesContext(connection) as seen:
        rows = csv_of(client.get(url))
    return len(seen.captured_queries), len(rows) - 1


def test_every_download_reads_as_many_queries_at_30_rows_as_at_3(people):
    fees_in_force(people)
    staff, inspector = signed_in(people.staff[SPENCER]), signed_in(people.inspector[SPENCER])
    invoice_for_village_work(people)
    rows_in(people, SPENCER, 3)
    clients = {"staff": staff, "inspector": inspector, "public": Client()}
    # Once first: what a process reads once and keeps is not counted.
    for name in LISTS:
        _queries(clients[LISTS[name][1]], name)
    few = {n: _queries(clients[LISTS[n][1]], n) for n in LISTS}
    rows_in(people, SPENCER, 27, start=3)
    many = {n: _queries(clients[LISTS[n][1]], n) for n in LISTS}
    for name in LISTS:
        assert many[name][1] > few[name][1] >= 3, (name, few[name], many[name])
        assert many[name][0] == few[name][0], (name, few[name], many[name])


# -- whatever is typed in the query -------------------------------------------------------------


@settings(
    max_examples=40, deadline=5000, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    name=st.sampled_from(STAFF_LISTS),
    field=st.sampled_from(["format", "village", "year", "list", "page"]),
    value=st.one_of(
        st.text(max_size=30),
        st.sampled_from(["csv", "CSV", SPENCER, NEW_GLARUS, "2026", "0", "overdue", "soon"]),
    ),
    csv_too=st.booleans(),
)
def test_any_filter_typed_gets_a_page_a_download_or_a_refusal_never_a_500(
    people, name, field, value, csv_too
):
    who = people.inspector if LISTS[name][1] == "inspector" else people.staff
    query = {field: value, **({"format": "csv"} if csv_too and field != "format" else {})}
    response = signed_in(who[SPENCER]).get(reverse(LISTS[name][0]), query)
    assert response.status_code in (200, 400, 404)
    if response.status_code == 400:
        said = factories.text_of(response)
        assert any(f"{f}: " in said for f in ("format", "year", "list")), said
    if response.streaming:
        assert b"".join(response.streaming_content).count(b"\r\n") >= 1  # the headings
