"""Lists a page at a time: Django's paginator, with the page links the screens show.

Any ``?page=`` works: a word or a blank is the first page, a number past the end the
last one, so a mistyped or stale link still lands on a page, never on an error."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.paginator import Page, Paginator
from django.http import HttpRequest
from django.urls import reverse

PAGE_SIZE = 50
# Longer than any real page number; a longer value is not one.
MAX_PAGE_TEXT = 12


def page_of(request: HttpRequest, items: Any, *, per_page: int | None = None) -> Page[Any]:
    number = str(request.GET.get("page", ""))[:MAX_PAGE_TEXT]
    return Paginator(items, per_page or PAGE_SIZE).get_page(number)


def page_links(request: HttpRequest, page: Page[Any]) -> list[dict[str, Any]]:
    """The numbered links around the current page, with gaps (``1 … 4 5 6 … 20``); each
    keeps the rest of the query (a search) and changes only the page."""
    links: list[dict[str, Any]] = []
    for number in page.paginator.get_elided_page_range(page.number, on_each_side=1, on_ends=1):
        # The stubs say the range yields ``str | int``; its gaps are ``ELLIPSIS`` itself, a
        # lazy string.
        if number == Paginator.ELLIPSIS:  # type: ignore[comparison-overlap]
            links.append({"gap": True})
        else:
            links.append(
                {
                    "number": number,
                    "href": href(request, int(number)),
                    "current": number == page.number,
                }
            )
    return links


def href(request: HttpRequest, number: int) -> str:
    query = request.GET.copy()
    query["page"] = str(number)
    return f"?{query.urlencode()}"


def paging(request: HttpRequest, page: Page[Any], label: str) -> dict[str, Any]:
    """What ``web/_pages.html`` shows: the page, its links, and the list's name (which
    names the navigation for a screen reader: "Pages of the review queue")."""
    return {
        "page": page,
        "pages_label": label,
        "page_links": page_links(request, page) if page.has_other_pages() else [],
        "previous_href": href(request, page.previous_page_number())
        if page.has_previous()
        else None,
        "next_href": href(request, page.next_page_number()) if page.has_next() else None,
    }


# A number no row has: where a row's pk goes in the path ``pk_path`` reverses once.
_PK_MARK = 987_654_321_987_654_321


def pk_path(name: str) -> Callable[[int], str]:
    """``reverse(name, args=[pk])`` for each row of a page, reversing once: the path with a
    mark where the pk goes. For a route whose one argument is an ``int`` pk."""
    path = reverse(name, args=[_PK_MARK])
    head, tail = path.split(str(_PK_MARK))
    return lambda pk: f"{head}{int(pk)}{tail}"
