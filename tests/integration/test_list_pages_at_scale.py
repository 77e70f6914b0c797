"""The list pages hold at any number of permits: the staff's review queue and permits
list, the inspector's and the appeals board's homes, the applicant's own list and the
public register run the same number of queries at 3 applications as at 30, show a page
at a time with links a screen reader and a phone can use, and answer any ``?page=`` with
a page. The queue reads the decision day stored on each application (no events), overdue
first and paused clocks last. The permit page reads its related records once each,
however many there are.
"""

from __future__ import annotations

import datetime
import html
import re
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

import factories
import pytest
from django.test import Client
from django.urls import reverse
from factories import SPENCER, text_of

from siltfence.apps.enforcement import services as enforcement
from siltfence.apps.permits import services
from siltfence.apps.permits.clocks import review_clock
from siltfence.apps.permits.models import Application, ApplicationStatus, Permit
from siltfence.apps.web import official_home_views
from siltfence.presentation import paging

pytestmark = pytest.mark.django_db
CHICAGO = ZoneInfo("America/Chicago")

# Queries per page, whatever the number of rows. Every signed-in page: the session, the
# user, the second factor's devices, the memberships. Then the page's own: the queue a
# count and a page of rows, the fee schedule, the drafts owing it (and their count when
# there are more than a page) and the village names; the permits list a count and a page;
# the applicant's list a count and a page; the register (no sign-in) the audit chain's head
# (what a kept page is kept under), a count and a page of permits (one query for a search
# by text), the sites without a permit, and the villages to search; the inspector's home
# a count and a page of permits, their events (one query for the page), the office
# calendar, the applications under review and the village names; the appeals board's home
# its villages, the appeals waiting, a count and a page of decisions and the latest permits.
# The permit page reads the
# permit with its application, site and rain station (and whether it has any extension,
# surety, amendment or enforcement case), its letters, events, the office calendar and the
# audit record; then once each the extensions, sureties (and their draws and releases),
# amendments and cases it has.
QUEUE_QUERIES = 10
PERMITS_QUERIES = 6
PORTAL_QUERIES = 6
REGISTER_QUERIES = 6
INSPECTOR_QUERIES = 10
BOARD_QUERIES = 9
# The permit page: each kind of record once; a permit just approved has one kind of list,
# the emails about it (its approval was told), read for staff.
PERMIT_PAGE_QUERIES = 15
PERMIT_PAGE_BARE_QUERIES = 10

STATES = ("under_review", "information_requested", "approved", "disapproved", "draft")


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user, backend=factories.ModelBackend)
    return client


def rows_of(response: Any, testid: str | None = None) -> list[str]:
    page = response.content.decode()
    if testid is not None:
        page = page[page.index(f'data-testid="{testid}"') :]
    body = page[page.index("<tbody>") : page.index("</tbody>")]
    return re.findall(r"<tr[ >].*?</tr>", body, re.S)


def build(people: Any, count: int) -> list[Application]:
    """``count`` applications of applicant A in Spencer, in every state in turn, each
    filed a week before the last (so the queue's clocks fall due in filing order, the
    oldest long overdue); then a fee in force, which the drafts owe."""
    made = []
    for i in range(count):
        made.append(
            factories.make_application(
                applicant=people.applicant_a,
                village=SPENCER,
                state=STATES[i % len(STATES)],
                staff=people.staff[SPENCER],
                address=f"{i + 1} Scale St, Spencer",
                days_ago=3 + 7 * i,
            )
        )
    services.fee_schedule_set(
        village=made[0].village,
        staff=people.staff[SPENCER],
        effective_from=datetime.date(2026, 1, 1),
        amount=Decimal("75.00"),
        authority="Village Board resolution 2026-01",
    )
    return made


PAGES = {
    "queue": ("web:staff-queue", "staff", QUEUE_QUERIES),
    "permits": ("web:staff-permits", "staff", PERMITS_QUERIES),
    "portal": ("web:portal", "applicant", PORTAL_QUERIES),
    "register": ("register:register", "public", REGISTER_QUERIES),
    "inspections": ("web:inspector-home", "inspector", INSPECTOR_QUERIES),
    "board": ("web:appeals-home", "board", BOARD_QUERIES),
}


def client_for(people: Any, who: str) -> Client:
    if who == "staff":
        return signed_in(people.staff[SPENCER])
    if who == "applicant":
        return signed_in(people.applicant_a)
    if who == "inspector":
        return signed_in(people.inspector[SPENCER])
    if who == "board":
        return signed_in(people.board[SPENCER])
    return Client()


def expected_rows(made: list[Application], name: str) -> int:
    states = [a.status for a in made]
    if name == "queue":
        return sum(s in ("under_review", "information_requested") for s in states)
    if name == "board":
        return states.count(ApplicationStatus.APPROVED) + states.count(
            ApplicationStatus.DISAPPROVED
        )
    if name == "inspections":
        # Permits in force: approved and not past their last day.
        today = datetime.date.today()
        return sum(
            a.status == ApplicationStatus.APPROVED and a.permit.expires_on >= today for a in made
        )
    if name in ("permits", "register"):
        return states.count(ApplicationStatus.APPROVED)
    return len(states)


@pytest.mark.parametrize("count", [3, 30])
@pytest.mark.parametrize("name", list(PAGES))
def test_a_list_page_runs_the_same_queries_at_3_and_at_30_applications(
    people, django_assert_max_num_queries, name, count
):
    made = build(people, count)
    url, who, bound = PAGES[name]
    client = client_for(people, who)
    with django_assert_max_num_queries(bound):
        response = client.get(reverse(url))
    assert response.status_code == 200
    assert len(rows_of(response)) == expected_rows(made, name)
    if name == "queue":
        drafts = sum(a.status == ApplicationStatus.DRAFT for a in made)
        if drafts:
            assert len(rows_of(response, "awaiting-fee")) == drafts


def test_the_queue_is_ordered_by_the_stored_decision_day_overdue_first_paused_last(people):
    made = build(people, 12)
    filed = [a for a in made if a.status == ApplicationStatus.UNDER_REVIEW]
    paused = [a for a in made if a.status == ApplicationStatus.INFORMATION_REQUESTED]
    response = signed_in(people.staff[SPENCER]).get(reverse("web:staff-queue"))
    numbers = re.findall(r">([A-Z]+-\d{4}-\d{4})</a>", "".join(rows_of(response, "queue")))

    # Filed a week apart, oldest last in ``made``: § 413-8D gives each 45 days, so the
    # oldest is due first; the paused ones follow, whatever their filing day.
    running = sorted(filed, key=lambda a: a.received_at)
    assert numbers == [a.number for a in running] + [
        a.number for a in sorted(paused, key=lambda a: a.received_at)
    ]
    rows = rows_of(response, "queue")
    for application, row in zip(running, rows, strict=False):
        clock = review_clock(application)
        assert clock is not None
        stored = Application.objects.get(pk=application.pk).decision_due
        assert stored is not None and stored.isoformat() == clock["due"]
        assert clock["due"] in row
        assert ("OVERDUE" in row) == (clock["status"] == "overdue")
    # Filed 59 days ago, 45 days to decide: overdue, and at the top.
    assert "OVERDUE" in rows[0] and 'class="overdue"' in rows[0]
    assert "Paused: waiting for information since" in rows[-1]


def test_the_queue_shows_a_page_at_a_time_with_links_to_the_others(people, monkeypatch):
    monkeypatch.setattr(paging, "PAGE_SIZE", 2)
    made = build(people, 12)
    waiting = [
        a.number
        for a in Application.objects.filter(pk__in=[a.pk for a in made])
        .exclude(decision_due=None)
        .order_by("decision_due")
    ]
    client = signed_in(people.staff[SPENCER])

    first = client.get(reverse("web:staff-queue")).content.decode()
    nav = first[first.index('<nav aria-label="Pages of the review queue"') :]
    nav = nav[: nav.index("</nav>")]
    # Six rows in the queue (three filed, three paused) at two a page: three pages.
    assert 'aria-current="page" aria-label="Page 1, this page">1</a>' in nav
    assert 'href="?page=2" aria-label="Page 2">2</a>' in nav
    assert 'href="?page=3" aria-label="Page 3">3</a>' in nav
    assert 'href="?page=2" rel="next">' in nav and 'Next<span class="sr"> page</span>' in nav
    assert 'rel="prev"' not in nav
    assert "Page 1 of 3: 1 to 2 of 6." in text_of_html(first)

    seen = []
    for number in (1, 2, 3):
        response = client.get(reverse("web:staff-queue"), {"page": number})
        seen += re.findall(r">([A-Z]+-\d{4}-\d{4})</a>", "".join(rows_of(response, "queue")))
    assert seen[: len(waiting)] == waiting
    assert len(seen) == len(set(seen)) == 6

    last = client.get(reverse("web:staff-queue"), {"page": 3}).content.decode()
    assert 'href="?page=2" rel="prev">' in last and 'rel="next"' not in last


def text_of_html(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def test_page_links_keep_the_register_search(people, monkeypatch):
    from siltfence.apps.enforcement import register

    monkeypatch.setattr(register, "PAGE_SIZE", 1)
    build(people, 15)
    response = Client().get(reverse("register:register"), {"q": "Scale St", "village": SPENCER})
    page = response.content.decode()
    assert f"q=Scale+St&amp;village={SPENCER}&amp;page=2" in page


BAD_PAGES = ["abc", "", "0", "-1", "1.5", "999999", "9" * 5000, "2%00", "\x00", "１"]


@pytest.mark.parametrize("name", list(PAGES))
def test_any_page_number_gets_a_page_never_an_error(people, monkeypatch, name):
    monkeypatch.setattr(paging, "PAGE_SIZE", 1)
    from siltfence.apps.enforcement import register

    monkeypatch.setattr(register, "PAGE_SIZE", 1)
    monkeypatch.setattr(official_home_views, "INSPECTOR_PAGE", 1)
    monkeypatch.setattr(official_home_views, "BOARD_PAGE", 1)
    build(people, 12)
    url, who, _ = PAGES[name]
    client = client_for(people, who)
    for page in BAD_PAGES:
        response = client.get(reverse(url), {"page": page})
        assert response.status_code == 200, page
        assert rows_of(response), page
    # Not a number: the first page; past the end: the last one.
    first = text_of(client.get(reverse(url), {"page": "abc"}))
    number, pages = re.search(r"Page (\d+) of (\d+)", first).groups()  # type: ignore[union-attr]
    assert number == "1" and int(pages) > 1
    last = text_of(client.get(reverse(url), {"page": "999999"}))
    assert f"Page {pages} of {pages}" in last


def test_a_huge_search_or_filter_is_answered_with_a_page(people):
    build(people, 3)
    client = Client()
    for params in ({"q": "x" * 100_000}, {"village": "v" * 10_000}, {"q": "Nowhere\x00"}):
        response = client.get(reverse("register:register"), params)
        assert response.status_code == 200
        assert "Nothing matches the search." in text_of(response)
    # A NUL is no character of any address (PostgreSQL cannot even search for one): it
    # is dropped, and a status that is not one is no filter.
    for params in (
        {"q": "Scale St\x00"},
        {"q": "\x00"},
        {"village": SPENCER + "\x00"},
        {"status": "s" * 10_000},
        {"status": "\x00"},
    ):
        response = client.get(reverse("register:register"), params)
        assert response.status_code == 200
        assert len(rows_of(response)) == 1, params
    for url in (reverse("register:csv"), reverse("register:geojson")):
        assert client.get(url, {"q": "\x00", "village": "\x00"}).status_code == 200
    staff = signed_in(people.staff[SPENCER])
    assert staff.get(reverse("web:staff-queue"), {"page": "p" * 100_000}).status_code == 200


def test_the_permit_page_reads_each_kind_of_record_once_however_many(
    people, django_assert_max_num_queries
):
    staff = people.staff[SPENCER]
    bare = factories.make_application(
        applicant=people.applicant_a, village=SPENCER, state="approved", staff=staff
    ).permit
    busy = factories.make_application(
        applicant=people.applicant_a,
        village=SPENCER,
        state="approved",
        staff=staff,
        address="2 Busy St, Spencer",
        days_ago=30,
    ).permit
    today = datetime.date.today()
    for days in (10, 20):
        services.permit_extend(permit=busy, staff=staff, days=days, on=today)
    for reference in ("B-1", "B-2"):
        services.surety_record(
            permit=busy,
            staff=staff,
            kind="surety_bond",
            amount=Decimal("5000"),
            issuer="Badger Surety",
            reference=reference,
            received_on=today,
        )
    for _ in range(2):
        factories.request_amendment(Permit.objects.get(pk=busy.pk), people.applicant_a)
    for day in (1, 2):
        enforcement.violation_record(
            village=busy.village,
            recorded_by=staff,
            source="observation",
            description="Fence down.",
            provision="§ 413-7B(4)",
            days_from=today - datetime.timedelta(days=day),
            at=datetime.datetime.now(datetime.UTC) - datetime.timedelta(days=day),
            permit=busy,
        )

    for user in (staff, people.applicant_a):
        client = signed_in(user)
        with django_assert_max_num_queries(PERMIT_PAGE_BARE_QUERIES):
            response = client.get(reverse("web:permit", args=[bare.pk]))
        assert response.status_code == 200
        page = text_of(response)
        assert "No violation has been recorded on this permit." in page
        shown = response.content.decode()
        assert "<h2>Extensions</h2>" not in shown and "<h2>Surety <span" not in shown
        with django_assert_max_num_queries(PERMIT_PAGE_QUERIES):
            response = client.get(reverse("web:permit", args=[busy.pk]))
        assert response.status_code == 200
        page = text_of(response)
        shown = response.content.decode()
        assert "<h2>Extensions</h2>" in shown and "<h2>Surety <span" in shown
        assert page.count("Surety bond of $5000.00") == 2 and "B-2" in page
        assert "10 days" in page and "20 days" in page
        assert page.count("Move the stockpile to the west side.") == 2
        # Both violations are on the one case the site's record holds.
        assert page.count("Enforcement case ") == 1
        assert "No violation has been recorded" not in page


def test_the_register_search_finds_a_permit_by_any_part_of_its_number_or_address_in_any_case(
    people, django_assert_max_num_queries
):
    made = build(people, 10)
    permits = list(Permit.objects.filter(application__in=made).order_by("-issued_on", "-id"))
    assert len(permits) == 2
    first, second = permits
    client = Client()

    def found(q: str) -> list[str]:
        response = client.get(reverse("register:register"), {"q": q})
        assert response.status_code == 200
        if "Nothing matches the search." in text_of(response):
            return []
        return [re.sub(r"<[^>]+>", "", row).split()[0] for row in rows_of(response)]

    # The middle of a number, in lower case; the number itself.
    assert found(first.number[2:].lower()) == [first.number]
    assert found(second.number) == [second.number]
    # A part of the address, in another case: "1 Scale St" is made first, "6 Scale St" sixth.
    address = first.application.site.address
    assert found(address.split(",")[0].upper()) == [first.number]
    assert found("scale st") == [first.number, second.number]
    # LIKE's wildcards are letters like any other here.
    assert found("%") == found("_") == found("Scale%St") == []
    with django_assert_max_num_queries(REGISTER_QUERIES):
        assert client.get(reverse("register:register"), {"q": "Scale St"}).status_code == 200


@pytest.mark.parametrize(
    "number", ["", "1", "2", "3", "4", "99", "0", "-1", "abc", "1.5", "１", "9" * 5000]
)
def test_a_text_search_s_page_and_count_come_from_one_query_and_are_the_paginator_s(
    people, number, monkeypatch
):
    """Five permits match "Scale St", two a page: pages 1 and 2 are full, page 3 holds the
    fifth, and any other ``?page=`` is the page Django's paginator gives (the first for a
    word, the last past the end or below 1). A page that has rows is read in one query,
    with both counts (the permits and the sites without a permit) beside its ids."""
    from django.core.paginator import Paginator
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from siltfence.apps.enforcement import register

    build(people, 25)
    monkeypatch.setattr(register, "PAGE_SIZE", 2)
    matching, query = register._matching({"q": "Scale St"})
    sites = register._sites_without_permit(query)
    django_s = Paginator(matching.values_list("pk", flat=True), 2).get_page(number)
    with CaptureQueriesContext(connection) as queries:
        ours, ids, _ = register._page_of_rows(number, matching, sites, True)
        ids = list(ids)
    assert (ours.number, ours.paginator.count, ours.paginator.num_pages) == (
        django_s.number,
        django_s.paginator.count,
        django_s.paginator.num_pages,
    )
    assert ours.paginator.count == 5 and ours.paginator.num_pages == 3
    assert ids == list(django_s.object_list)
    assert len(ids) == (1 if ours.number == 3 else 2)
    assert ours.number == {"2": 2, "3": 3, "4": 3, "99": 3, "0": 3, "-1": 3}.get(number, 1)
    # Past the end: the page read found nothing, then both are counted and the last page
    # read; below 1, or longer than a page number, counted and read without the search's
    # one query.
    assert len(queries) == {"4": 3, "99": 3, "0": 2, "-1": 2, "9" * 5000: 2}.get(number, 1)


def test_the_inspector_s_home_shows_each_permit_s_duties_as_its_own_page_works_them_out(people):
    """The home reads a page's events in one query and the office calendar once; what it
    shows for each permit is what the permit's own timeline says, duty by duty, with its
    due day and the section behind it, the village's own inspection (§ 413-9) among them."""
    from siltfence.apps.permits.clocks import application_timeline
    from siltfence.presentation.wording import duty_words

    build(people, 15)
    response = signed_in(people.inspector[SPENCER]).get(reverse("web:inspector-home"))
    rows = rows_of(response, "inspector-permits")
    permits = Permit.objects.filter(village_id=SPENCER, status="active")
    assert len(rows) == permits.count() == 3
    for permit in permits:
        (row,) = [r for r in rows if f">{permit.number}<" in r]
        text = html.unescape(re.sub(r"<[^>]+>", " ", row))
        # § 413-9: the village inspects every permitted site, monthly from March to October.
        assert "Village inspection" in text and "§ 413-9" in text
        for duty in application_timeline(permit.application).to_json()["duties"]:
            if duty["status"] in ("open", "overdue"):
                words = duty_words(duty, zone="America/Chicago")
                assert words["label"] in text and duty["citation"] in text


@pytest.mark.parametrize("name", ["web:staff-application", "web:permit", "enforcement:case"])
def test_a_rows_link_is_the_path_django_reverses_for_its_pk(name):
    path_of = paging.pk_path(name)
    for pk in (1, 7, 10, 987, 2**31, 987_654_321_987_654_321 + 1):
        assert path_of(pk) == reverse(name, args=[pk])
