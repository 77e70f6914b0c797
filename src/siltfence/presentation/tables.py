"""A list's columns, written once: the page's table and its CSV download are both drawn
from them, so the two cannot disagree on what a column holds or is called.

A ``Column`` is a heading in words and how to read its cell from a row. The page shows
the cell with a link where the column gives one, dates in words, times in the village's
clock with its zone, money with its dollar sign and a citation in small type; the CSV
writes the same cell plainly: dates and times in ISO 8601 (``2026-12-03``,
``2026-12-03T14:05-06:00``), money in decimal dollars (``1250.00``), a citation in
parentheses after its words, the lines of a cell that holds several joined by ``; ``.

A list's download is served by its own view (``?format=csv``), after the page's own
permission check, from the same query with the same filters: the whole list rather than
a page of it, streamed, and at most ``MAX_ROWS`` rows. A text cell a spreadsheet would
run as a formula (one starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return) gets a leading apostrophe.
"""

from __future__ import annotations

import csv
import datetime
import functools
import re
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.template.loader import render_to_string
from django.utils import formats, timezone
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst

# The most rows a download holds; past it the file ends with a line saying so.
MAX_ROWS = 100_000
CUT_SHORT = (
    "This download stops at {limit:,} rows; the list has more. "
    "Narrow it with the filters on the page, and download each part."
)
CUT_SHORT_PAGE = (
    "The list has {count:,} rows; a download holds the first {limit:,}. "
    "Narrow it with the filters first to have every row."
)
# Rows a download reads from the database at a time (with their related rows).
CHUNK = 2000
# The query's field asking for the download, and the one choosing a village.
FORMAT = "format"
VILLAGE = "village"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
NOT_A_FORMAT = "format: only csv can be downloaded; {shown} is not known"
NO_SUCH_VILLAGE = "village: no village {shown} among yours"
SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")


class ListQueryRefused(ValueError):
    """A list asked for with a filter it cannot take; the message names the field."""

    def __init__(self, message: str, *, field: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Item:
    """Words and the section behind them, in a cell (a duty and why it is owed), or as one
    line of a cell that holds several (a permit's duties, a site's orders)."""

    text: str
    cite: str = ""


@dataclass(frozen=True)
class Column[R]:
    """One column of a list, for the page and the CSV alike.

    ``value`` reads the cell from a row: text, a whole number, a yes or no, money (a
    ``Decimal``), a date, a time (aware, in the village's zone), an ``Item``, a list of
    them, or ``None`` for nothing. The rest shape the page only: ``link`` makes the cell a
    link, ``strong`` marks it, ``empty`` is shown where the cell holds nothing (the CSV
    leaves it blank), and ``markup`` draws a text with more than its words (the
    chapter's defined terms explained in place); it must escape what it is given."""

    heading: str
    value: Callable[[R], Any]
    link: Callable[[R], str] | None = None
    strong: Callable[[R], bool] | None = None
    empty: str = ""
    markup: Callable[[R, str], SafeString] | None = None

    def csv(self, row: R) -> str:
        return csv_text(self.value(row))

    def page(self, row: R) -> SafeString:
        value = self.value(row)
        if value is None or value == "" or value == []:
            shown: SafeString = conditional_escape(self.empty)
        else:
            shown = self._shown(value, row)
        if self.strong is not None and self.strong(row):
            shown = format_html("<strong>{}</strong>", shown)
        if self.link is not None:
            shown = format_html('<a href="{}">{}</a>', self.link(row), shown)
        return shown

    def _shown(self, value: Any, row: R) -> SafeString:
        if isinstance(value, list):
            return mark_safe("<br>".join(self._shown(v, row) for v in value))
        if isinstance(value, Item):
            parts = [self._text(value.text, row)]
            if value.cite:
                parts.append(format_html(' <span class="cite">{}</span>', value.cite))
            return mark_safe("".join(parts))
        if isinstance(value, str):
            return self._text(value, row)
        return conditional_escape(page_text(value))

    def _text(self, text: str, row: R) -> SafeString:
        return self.markup(row, text) if self.markup is not None else conditional_escape(text)


def cite(row: Any, text: str) -> SafeString:
    """``Column.markup`` for a column of citations: in small type, kept on one line."""
    return format_html('<span class="cite">{}</span>', text)


def page_text(value: Any) -> str:
    """A cell that is not text, as the page shows it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Decimal):
        return f"${value:,.2f}"
    if isinstance(value, datetime.datetime):
        return value.strftime("%Y-%m-%d %H:%M %Z")
    if isinstance(value, datetime.date):
        return str(formats.date_format(value))
    return str(value)


def csv_text(value: Any) -> str:
    """A cell as the CSV writes it: plain, and never a formula."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, Decimal):
        return f"{value:.2f}"
    if isinstance(value, datetime.datetime):
        return value.isoformat(timespec="minutes")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, list):
        return not_a_formula("; ".join(_item_text(v) for v in value))
    return not_a_formula(_item_text(value))


def _item_text(value: Any) -> str:
    if not isinstance(value, Item):
        return value if isinstance(value, str) else csv_text(value)
    return f"{value.text} ({value.cite})" if value.cite else value.text


def not_a_formula(text: str) -> str:
    """A text cell a spreadsheet will not run as a formula: one that would start with
    ``=``, ``+``, ``-``, ``@``, a tab or a carriage return starts with an apostrophe."""
    return "'" + text if text[:1] in FORMULA_STARTS else text


@dataclass(frozen=True)
class Table[R]:
    """A list's columns, its name in a download's file name (``permits``), and what the
    page marks a row with (``overdue``)."""

    name: str
    columns: tuple[Column[R], ...]
    testid: str = ""
    row_class: Callable[[R], str] | None = None
    label: str = ""

    @property
    def headings(self) -> list[str]:
        return [column.heading for column in self.columns]

    def page(self, rows: Iterable[R]) -> SafeString:
        """The table as the page shows it: a stacked USWDS table in a region that scrolls
        on its own, each cell labelled with its heading for a phone's width. Written here,
        not by a template: a list of fifty rows has hundreds of cells, which the template
        engine took a third of a staff page's time to write."""
        label = ""
        if self.label:
            label = format_html(' tabindex="0" role="region" aria-label="{}"', capfirst(self.label))
        testid = format_html(' data-testid="{}"', self.testid) if self.testid else ""
        labels = [conditional_escape(column.heading) for column in self.columns]
        parts = [
            f'<div class="table-wrap"{label}><table class="usa-table usa-table--borderless '
            f'usa-table--stacked"{testid}>\n<thead><tr>',
            *(f'<th scope="col">{heading}</th>' for heading in labels),
            "</tr></thead>\n<tbody>",
        ]
        for row in rows:
            shown = self.row_class(row) if self.row_class is not None else ""
            parts.append(f'<tr class="{conditional_escape(shown)}">\n' if shown else "<tr>\n")
            for heading, column in zip(labels, self.columns, strict=True):
                parts.append(f'<td data-label="{heading}">{column.page(row)}</td>\n')
            parts.append("</tr>\n")
        parts.append("</tbody></table></div>\n")
        return mark_safe("".join(parts))

    def csv(self, rows: Iterable[R], *, villages: Collection[str]) -> StreamingHttpResponse:
        """Every row, streamed, up to ``MAX_ROWS``; then, if there are more, a line saying
        so. The file is named for the villages, the list and today in the village."""
        writer = csv.writer(_Echo())
        limit = MAX_ROWS

        def lines() -> Iterator[str]:
            yield BOM
            yield writer.writerow(self.headings)
            for written, row in enumerate(rows):
                if written == limit:
                    yield writer.writerow([CUT_SHORT.format(limit=limit)])
                    return
                yield writer.writerow([column.csv(row) for column in self.columns])

        response = StreamingHttpResponse(lines(), content_type="text/csv; charset=utf-8")
        name = download_name(villages, self.name)
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response


# Excel opens a CSV file as UTF-8 only when it begins with the byte-order mark; without it
# "§ 413-8D" reads "Â§ 413-8D". Python's "utf-8-sig", pandas and LibreOffice read past it.
BOM = "\ufeff"


class _Echo:
    def write(self, value: str) -> str:
        return value


def download_name(villages: Collection[str], name: str) -> str:
    """``spencer-wi-permits-2026-12-03.csv``: the villages (``all-villages`` for a list of
    every village), the list, and the day the request is made, in the village's zone."""
    from siltfence.presentation.today import village_today

    ids = sorted(v for v in villages if SLUG.fullmatch(v))
    day = village_today(ids[0]) if ids else timezone.localdate(timezone.now())
    place = "-".join(ids) if ids else "all-villages"
    return f"{place}-{name}-{day.isoformat()}.csv"


def wants_csv(request: HttpRequest) -> bool:
    """Whether the list is asked for as a download (``?format=csv``); another format is
    refused, naming the field."""
    asked = str(request.GET.get(FORMAT, "")).strip()
    if asked == "":
        return False
    if asked == "csv":
        return True
    raise ListQueryRefused(NOT_A_FORMAT.format(shown=_shown(asked)), field=FORMAT)


def chosen_villages(request: HttpRequest, yours: Collection[str]) -> set[str]:
    """The villages a list shows: all of ``yours`` (the villages whose list the person may
    see), or the one asked for (``?village=``). A village not among them is not found,
    exactly like one that does not exist."""
    asked = str(request.GET.get(VILLAGE, "")).strip()
    if asked == "":
        return set(yours)
    if asked in yours:
        return {asked}
    raise Http404(NO_SUCH_VILLAGE.format(shown=_shown(asked)))


def village_choices(yours: Collection[str]) -> list[tuple[str, str]]:
    """(id, name) of each village a person may choose among, by name, from the ordinances
    (no database read); empty when there is only one, which needs no choosing."""
    from siltfence.core.ordinance.loader import load

    if len(yours) < 2:
        return []
    return sorted(((v, load(v).name) for v in yours), key=lambda pair: pair[1])


def download(
    request: HttpRequest, table: Table[Any], *, count: int | None = None, **extra: str
) -> dict[str, Any]:
    """What ``web/_download.html`` shows: the link to the list's CSV with the page's
    filters (and ``extra``), and, when ``count`` is known to pass ``MAX_ROWS``, that the
    download stops there."""
    query = {k: v for k, v in request.GET.items() if k not in ("page", FORMAT) and v != ""}
    query.update(extra)
    query[FORMAT] = "csv"
    over = count is not None and count > MAX_ROWS
    return {
        "href": "?" + urlencode(query),
        "name": table.name,
        "label": table.label,
        "over": CUT_SHORT_PAGE.format(count=count, limit=MAX_ROWS) if over else "",
    }


def village_filter(request: HttpRequest, yours: Collection[str]) -> dict[str, Any]:
    """What ``web/_village_filter.html`` shows: the villages a person of several may
    choose among (none for one), and the one chosen."""
    return {
        "choices": village_choices(yours),
        "chosen": str(request.GET.get(VILLAGE, "")).strip(),
    }


def refuses_bad_queries(
    view: Callable[..., HttpResponseBase],
) -> Callable[..., HttpResponseBase]:
    """A list view whose filters may be refused (``ListQueryRefused``): the answer is 400,
    a page saying which field and why, never a 500."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        try:
            return view(request, *args, **kwargs)
        except ListQueryRefused as exc:
            body = render_to_string("web/list_refused.html", {"error": str(exc)}, request=request)
            return HttpResponse(body, status=400)

    return wrapped


def _shown(value: str) -> str:
    """What was typed, short, as a message quotes it."""
    return repr(value if len(value) <= 20 else value[:20] + "...")
