"""The public register pages the sites without a permit like its other rows: the permits
the search finds, newest first, then the sites without a permit that have a public order,
the newest case first, ``PAGE_SIZE`` rows a page. Every site is on one page and one only,
the page count covers them, and the search and filters apply to every page. The CSV and
GeoJSON downloads list every row of the search (they are not paged)."""

from __future__ import annotations

import csv
import datetime
import html
import io
import json
import math
import re
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse
from enforcement_helpers import at, permit_filed_on
from factories import NEW_GLARUS, SPENCER, People

from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement.register import PAGE_SIZE

pytestmark = pytest.mark.django_db

# The register page's queries, as test_enforcement_web bounds them: the audit chain's
# head, the counts, the page's permits and their cases and orders, its sites and their
# orders, the villages to search.
REGISTER_PAGE_QUERIES = 8
# Where the sites are put on the map: in each village.
PLACES = {SPENCER: (44.7573, -90.2966), NEW_GLARUS: (42.8136, -89.6351)}


def sites_without_permit(
    people: People,
    count: int,
    *,
    village: str = SPENCER,
    street: str = "Main St",
    first: datetime.datetime | None = None,
) -> list[str]:
    """``count`` sites in ``village`` where no permit was issued, each with a stop-work
    order posted, each case opened an hour after the last (the first on ``first``, July 1
    at midnight unless said); their addresses, newest first (the register's order)."""
    staff = people.staff[village]
    first = first or at("2026-07-01", 0)
    addresses = []
    for n in range(count):
        opened = first + datetime.timedelta(hours=n)
        address = f"{n + 1} {street}"
        case = s.violation_record(
            village=factories.Village.objects.get(pk=village),
            recorded_by=staff,
            source="observation",
            description="Mud on the street.",
            provision="§ 413-7B(3)" if village == SPENCER else "§ 135-6",
            days_from=opened.date(),
            at=opened,
            address=address,
            latitude=PLACES[village][0] + n / 10_000,
            longitude=PLACES[village][1],
        ).case
        s.stop_work_order_post(
            case=case,
            staff=staff,
            at=opened + datetime.timedelta(minutes=30),
            grounds=["no-permit"],
        )
        addresses.append(address)
    return addresses[::-1]


def permits(people: People, count: int) -> list[str]:
    """``count`` Spencer permits at Oak St, each filed a day after the last; their
    addresses, newest first (the register's order)."""
    addresses = []
    for n in range(count):
        address = f"{n + 1} Oak St"
        permit_filed_on(
            applicant=people.applicant_a,
            village=SPENCER,
            staff=people.staff[SPENCER],
            filed=(datetime.date(2026, 6, 1) + datetime.timedelta(days=n)).isoformat(),
            address=address,
        )
        addresses.append(address)
    return addresses[::-1]


def page_rows(response: Any) -> list[tuple[str, str]]:
    """Each row of a register page: its permit number ("none" for a site without one) and
    its site address."""
    assert response.status_code == 200
    page = response.content.decode()
    if "<tbody>" not in page:
        return []
    body = page[page.index("<tbody>") : page.index("</tbody>")]
    rows = []
    for row in re.findall(r"<tr[ >].*?</tr>", body, re.S):
        cells = {
            label: html.unescape(re.sub(r"<[^>]+>", "", value)).strip()
            for label, value in re.findall(
                r'<t[dh][^>]*data-label="([^"]+)"[^>]*>(.*?)</t[dh]>', row, re.S
            )
        }
        rows.append((cells["Permit"], cells["Site address"]))
    return rows


def page_count(response: Any) -> tuple[int, int]:
    """The page shown and the number of pages (one when there are no page links)."""
    text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())))
    found = re.search(r"Page (\d+) of (\d+)", text)
    return (int(found.group(1)), int(found.group(2))) if found else (1, 1)


def every_page(params: dict[str, str] | None = None) -> list[list[tuple[str, str]]]:
    """The rows of each page of the register for ``params``, the first page to the last,
    checking each page says which it is."""
    client = Client()
    first = client.get(reverse("register:register"), params or {})
    number, pages = page_count(first)
    assert number == 1
    shown = [page_rows(first)]
    for n in range(2, pages + 1):
        response = client.get(reverse("register:register"), {**(params or {}), "page": n})
        assert page_count(response) == (n, pages)
        shown.append(page_rows(response))
    return shown


def addresses(rows: list[tuple[str, str]]) -> list[str]:
    return [address for _, address in rows]


def test_more_than_a_page_of_sites_without_a_permit_are_each_on_one_page(
    people: People, django_assert_max_num_queries: Any
) -> None:
    sites = sites_without_permit(people, 27)
    oak = permits(people, 3)
    elsewhere = sites_without_permit(
        people, 2, village=NEW_GLARUS, street="Railroad St", first=at("2026-07-10")
    )
    total = len(sites) + len(oak) + len(elsewhere)
    assert total == 32 > PAGE_SIZE

    pages = every_page()
    assert len(pages) == math.ceil(total / PAGE_SIZE) == 2
    assert [len(p) for p in pages] == [PAGE_SIZE, total - PAGE_SIZE]
    shown = [row for page in pages for row in page]
    # Every row once, none twice; the permits first (newest first), then the sites without
    # a permit (the newest case first, whichever village), as on the first page before.
    assert len(shown) == len(set(shown)) == total
    assert addresses(shown[: len(oak)]) == oak
    assert all(permit != "none" for permit, _ in shown[: len(oak)])
    assert addresses(shown[len(oak) :]) == elsewhere + sites
    assert all(permit == "none" for permit, _ in shown[len(oak) :])
    # Page 2 holds the last sites (they are on no other page).
    assert addresses(pages[1]) == (elsewhere + sites)[PAGE_SIZE - len(oak) :]
    assert set(addresses(pages[0])).isdisjoint(addresses(pages[1]))

    # A page past the end is the last page; a word is the first.
    client = Client()
    assert page_rows(client.get(reverse("register:register"), {"page": 99})) == pages[1]
    assert page_rows(client.get(reverse("register:register"), {"page": "abc"})) == pages[0]

    # The same queries on a page of sites alone as on a page of permits and sites.
    for number in ("1", "2"):
        with django_assert_max_num_queries(REGISTER_PAGE_QUERIES):
            assert Client().get(reverse("register:register"), {"page": number}).status_code == 200


def test_the_search_and_filters_apply_on_every_page(people: People) -> None:
    sites = sites_without_permit(people, 27)
    oak = permits(people, 3)
    elsewhere = sites_without_permit(
        people, 2, village=NEW_GLARUS, street="Railroad St", first=at("2026-07-10")
    )

    # A text search: its permits first, then its sites, paged as without it. Both the
    # search that finds permits and sites alike ("St") and the one that finds sites alone.
    for q, expected in (("St", oak + elsewhere + sites), ("Main", sites)):
        pages = every_page({"q": q})
        shown = [row for page in pages for row in page]
        assert addresses(shown) == expected, q
        assert len(pages) == math.ceil(len(expected) / PAGE_SIZE) == 2, q
        assert len(shown) == len(set(shown)), q

    # A village: the other village's sites are on no page.
    pages = every_page({"village": NEW_GLARUS})
    assert pages == [[("none", a) for a in elsewhere]]
    pages = every_page({"village": SPENCER})
    assert len(pages) == 2
    assert addresses([row for page in pages for row in page]) == oak + sites

    # A search that finds no site without a permit shows none on any page.
    pages = every_page({"q": "Oak"})
    assert len(pages) == 1 and addresses(pages[0]) == oak
    assert all(permit != "none" for permit, _ in pages[0])
    for number in ("1", "2", "3"):
        response = Client().get(reverse("register:register"), {"q": "Oak", "page": number})
        assert addresses(page_rows(response)) == oak

    # Nothing found at all: one page, and it says so.
    response = Client().get(reverse("register:register"), {"q": "Nowhere Rd", "page": "2"})
    assert page_rows(response) == [] and "Nothing matches the search." in response.content.decode()


@pytest.mark.parametrize(
    ("many_permits", "many_sites", "pages"),
    [(0, 25, 1), (0, 26, 2), (2, 23, 1), (2, 24, 2)],
)
def test_a_page_of_rows_either_side_of_the_boundary(
    people: People, many_permits: int, many_sites: int, pages: int
) -> None:
    sites = sites_without_permit(people, many_sites)
    oak = permits(people, many_permits)
    for params in ({}, {"q": "St"}):
        shown = every_page(params)
        assert len(shown) == pages, params
        assert [len(p) for p in shown] == (
            [PAGE_SIZE] if pages == 1 else [PAGE_SIZE, many_permits + many_sites - PAGE_SIZE]
        ), params
        assert addresses([row for page in shown for row in page]) == oak + sites, params


def test_the_downloads_list_every_site_without_a_permit(people: People) -> None:
    """The CSV and the GeoJSON are every page of the search: they are not paged."""
    sites = sites_without_permit(people, 27)
    oak = permits(people, 3)
    elsewhere = sites_without_permit(
        people, 2, village=NEW_GLARUS, street="Railroad St", first=at("2026-07-10")
    )
    client = Client()

    def csv_addresses(params: dict[str, str]) -> list[str]:
        response = client.get(reverse("register:csv"), params)
        text = b"".join(response.streaming_content).decode()
        rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
        return [row["Site address"] for row in rows]

    assert csv_addresses({}) == oak + elsewhere + sites
    assert csv_addresses({"village": SPENCER}) == oak + sites
    assert csv_addresses({"q": "Main"}) == sites

    # The GeoJSON: a feature for each row with a point, here each site without a permit
    # (the permits' sites were drawn with no geometry).
    for params, expected in (({}, elsewhere + sites), ({"village": SPENCER}, sites)):
        data = json.loads(client.get(reverse("register:geojson"), params).content)
        features = [f["properties"] for f in data["features"]]
        assert [f["address"] for f in features if not f["permit"]] == expected, params
