"""The public register: permits and the orders posted on sites, searchable, on a map, as
CSV, GeoJSON and an Atom feed, and the village board's reports as SVG charts.

Public means public: no login, and nothing private ever leaves here. Only these fields
are read for the public: permit number, site address, village, issue and expiry dates,
status; an order's kind, date, section and grounds. Never a person's name or contact,
a complainant, a violation's description or an internal note.
"""

from __future__ import annotations

import datetime
import json
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from decimal import Decimal
from typing import Any

from django.contrib.syndication.views import Feed
from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.db import connection
from django.db.models import Count, IntegerField, Prefetch, QuerySet, Window
from django.db.models.expressions import RawSQL
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.feedgenerator import Atom1Feed
from django.utils.html import escape
from django.views.decorators.http import require_GET

from siltfence.apps.enforcement.models import EnforcementAction, EnforcementCase, Invoice
from siltfence.apps.permits.models import Permit, PermitStatus, Site, Village
from siltfence.presentation.paging import MAX_PAGE_TEXT
from siltfence.presentation.tables import CHUNK, Column, Item, Table

PUBLIC_KINDS = ("stop_work_order", "revocation", "retraction", "compliance")
PAGE_SIZE = 25
MAX_QUERY = 100
# How long a page kept for the public may be served: a bound on any change that does not
# move the audit chain (none should), not the usual way a page is renewed.
PAGE_KEPT_SECONDS = 300
# A permit past its last day is expired, whatever the register's row says (§ 413-8E(1),
# § 135-7G): "active" finds only those still in force.
STATUSES = {**{s.value: s.label for s in PermitStatus}, "expired": "Expired"}
# What a row of the register reads of a permit, its application, site and village: the
# public fields, and no more (an application's determination alone is kilobytes a row).
PUBLIC_PERMIT_FIELDS = (
    "number",
    "issued_on",
    "expires_on",
    "status",
    "village__name",
    "application__site__address",
    "application__site__geometry",
)


def _public_actions() -> QuerySet[EnforcementAction]:
    return EnforcementAction.objects.filter(public=True, kind__in=PUBLIC_KINDS).order_by("at", "id")


def _permits(params: Any) -> tuple[QuerySet[Permit], dict[str, str]]:
    """The permits the search finds, newest first, each with what its row shows."""
    matching, query = _matching(params)
    return _with_rows(matching), query


def _search(params: Any) -> dict[str, str]:
    """The search as understood: the text, a known status or none, and the village."""
    # No stored text holds a NUL (PostgreSQL refuses one even in a search): it is dropped.
    status = str(params.get("status", ""))
    return {
        "q": str(params.get("q", "")).replace("\x00", "").strip()[:MAX_QUERY],
        "status": status if status in STATUSES else "",
        "village": str(params.get("village", "")).replace("\x00", "")[:MAX_QUERY],
    }


def _matching(params: Any) -> tuple[QuerySet[Permit], dict[str, str]]:
    """The permits the search finds, newest first, and the search as understood."""
    query = _search(params)
    permits = Permit.objects.order_by("-issued_on", "-id")
    if query["q"]:
        permits = permits.filter(pk__in=_found(query["q"]))
    today = timezone.localdate()
    if query["status"] == "expired":
        permits = permits.filter(status=PermitStatus.ACTIVE, expires_on__lt=today)
    elif query["status"] == PermitStatus.ACTIVE:
        permits = permits.filter(status=PermitStatus.ACTIVE, expires_on__gte=today)
    elif query["status"]:
        permits = permits.filter(status=query["status"])
    if query["village"]:
        permits = permits.filter(village_id=query["village"])
    return permits, query


def _with_rows(permits: QuerySet[Permit]) -> QuerySet[Permit]:
    """``permits`` with what a row of the register shows: the public fields of the permit,
    its site and village, and the public orders on it."""
    return (
        permits.select_related("application__site", "village")
        .only(*PUBLIC_PERMIT_FIELDS)
        .prefetch_related(
            Prefetch(
                "application__enforcement_cases",
                queryset=EnforcementCase.objects.only("id", "application_id"),
            ),
            Prefetch(
                "application__enforcement_cases__actions",
                queryset=_public_actions(),
                to_attr="public_actions",
            ),
        )
    )


def _found(text: str) -> QuerySet[Permit, Mapping[str, Any]]:
    """The ids of the permits whose number or site address holds ``text`` (any case).

    Two lookups, each served by its own index on PostgreSQL (the trigram indexes of
    migration permits 0005): the permits by number, and those of the sites by address,
    reached through the application. One condition over the joined tables (number OR
    address) would have to read every permit with its application and site."""
    by_number = Permit.objects.filter(number__icontains=text).values("pk")
    by_address = Permit.objects.filter(
        application__site__in=Site.objects.filter(address__icontains=text).values("pk")
    ).values("pk")
    return by_number.union(by_address)


def _sites_without_permit(query: dict[str, str]) -> QuerySet[EnforcementCase]:
    cases = (
        EnforcementCase.objects.filter(
            application__isnull=True, actions__public=True, actions__kind__in=PUBLIC_KINDS
        )
        .distinct()
        .select_related("village")
        .prefetch_related(Prefetch("actions", queryset=_public_actions(), to_attr="public_actions"))
        .order_by("-opened_at", "-id")
    )
    if query["q"]:
        cases = cases.filter(address__icontains=query["q"])
    if query["village"]:
        cases = cases.filter(village_id=query["village"])
    return cases


def _orders(actions: Iterable[EnforcementAction], village_id: str) -> list[dict[str, Any]]:
    """The orders of a site as the public sees them, and whether a stop-work order is in
    force now (posted and neither complied with nor retracted)."""
    from zoneinfo import ZoneInfo

    from siltfence.core.ordinance.loader import load

    zone = ZoneInfo(load(village_id).time_zone)
    shown = []
    for action in actions:
        shown.append(
            {
                "kind": action.get_kind_display(),
                "code": action.kind,
                "at": action.at.astimezone(zone),
                "citation": action.citation,
                "grounds": [f"{g['says']} ({g['citation']})" for g in action.grounds],
                "order": action.details.get("order", ""),
            }
        )
    return shown


def _in_force(orders: list[dict[str, Any]]) -> bool:
    open_ = False
    for order in orders:
        if order["code"] == "stop_work_order":
            open_ = True
        elif order["code"] == "compliance" or order["order"] == "stop_work_order":
            open_ = False
    return open_


def _permit_actions(permit: Permit) -> list[EnforcementAction]:
    found: list[EnforcementAction] = []
    for case in permit.application.enforcement_cases.all():
        found += getattr(case, "public_actions", [])
    return found


def _point(geometry: Any) -> tuple[float, float] | None:
    """A point for the map: the average of a GeoJSON geometry's positions (lon, lat)."""
    xs: list[float] = []
    ys: list[float] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key in ("coordinates", "geometry", "features", "geometries"):
                if key in value:
                    walk(value[key])
        elif isinstance(value, list):
            if len(value) >= 2 and all(isinstance(v, int | float) for v in value[:2]):
                xs.append(float(value[0]))
                ys.append(float(value[1]))
            else:
                for item in value[:5000]:
                    walk(item)

    walk(geometry)
    if not xs:
        return None
    lon, lat = sum(xs) / len(xs), sum(ys) / len(ys)
    if not (-180 <= lon <= 180 and -90 <= lat <= 90):
        return None
    return lon, lat


def _rows(permits: Iterable[Permit], cases: Iterable[EnforcementCase]) -> Iterator[dict[str, Any]]:
    for permit in permits:
        orders = _orders(_permit_actions(permit), permit.village_id)
        yield {
            "permit": permit.number,
            "village": permit.village.name,
            "address": permit.application.site.address,
            "issued_on": permit.issued_on,
            "expires_on": permit.expires_on,
            "status": permit.standing,
            "orders": orders,
            "order_in_force": _in_force(orders),
            "point": _point(permit.application.site.geometry),
        }
    for case in cases:
        orders = _orders(getattr(case, "public_actions", []), case.village_id)
        yield {
            "permit": "",
            "village": case.village.name,
            "address": case.address,
            "issued_on": None,
            "expires_on": None,
            "status": "No permit",
            "orders": orders,
            "order_in_force": _in_force(orders),
            "point": (case.longitude, case.latitude) if case.latitude is not None else None,
        }


@require_GET
def register(request: HttpRequest) -> HttpResponse:
    """The register's page. What the public is shown is kept, per search and page, until
    the record changes: the key holds the audit chain's head, which every change to a
    permit, a site, an order or a village moves in the transaction that makes it. A
    signed-in person's page (with their name and a sign-out form) is never kept."""
    if request.user.is_authenticated or not _kept_pages_are_safe():
        return _register_page(request)
    key = _page_key(request)
    kept = cache.get(key)
    if kept is not None:
        return HttpResponse(kept)
    response = _register_page(request)
    if response.status_code == 200:
        cache.set(key, response.content, PAGE_KEPT_SECONDS)
    return response


def _kept_pages_are_safe() -> bool:
    """A kept page holds the nonce of the response it was made for. The policy lets scripts
    run by their source, never by a nonce, so an old one does no harm; were the policy to
    name nonces, the page would be made afresh each time."""
    from django.conf import settings
    from django.utils.csp import CSP

    policy = getattr(settings, "SECURE_CSP", {}) or {}
    return not any(CSP.NONCE in values for values in policy.values())


def _page_key(request: HttpRequest) -> str:
    import hashlib

    from siltfence.apps.audit.chain import chain_head

    # The chain's head, one query (a kept page costs little more than this read).
    head = chain_head().seq
    shown = json.dumps([head, _search(request.GET), request.GET.get("page", "")[:MAX_QUERY]])
    return "register-page:" + hashlib.sha256(shown.encode()).hexdigest()


def _register_page(request: HttpRequest) -> HttpResponse:
    matching, query = _matching(request.GET)
    page, permit_ids, sites = _page_of_rows(
        str(request.GET.get("page", "")), matching, _sites_without_permit(query), bool(query["q"])
    )
    permits = _with_rows(Permit.objects.filter(pk__in=permit_ids)).order_by("-issued_on", "-id")
    rows = list(_rows(permits, sites))
    features = [_feature(r) for r in rows if r["point"]]
    from urllib.parse import urlencode

    return render(
        request,
        "enforcement/register.html",
        {
            "rows": rows,
            "register": REGISTER.page(rows),
            "page": page,
            "query": urlencode({k: v for k, v in query.items() if v}),
            "q": query,
            "statuses": STATUSES,
            "villages": Village.objects.order_by("name"),
            "features": {"type": "FeatureCollection", "features": features},
        },
    )


# The register's rows, in the order of every page and every download: the permits the
# search finds, newest first, then the sites without a permit that have a public order,
# the newest case first. A page is ``PAGE_SIZE`` rows of that one sequence, wherever it
# falls: all permits, the last permits and the first sites, or sites alone.
PageOfRows = tuple["Page[int]", Iterable[int], QuerySet[EnforcementCase]]


def _page_of_rows(
    number_text: str,
    permits: QuerySet[Permit],
    sites: QuerySet[EnforcementCase],
    searched: bool,
) -> PageOfRows:
    """The page ``number_text`` of the register's rows (any text gets a page, as Django's
    paginator gives it): the page (its ``object_list`` the positions of its rows in the
    sequence, for the page links and the count), the ids of its permits and its sites.

    Only the page's own rows are then read with their site, village and orders. Both are
    counted in one query, and the page's permits are a subquery of the rows' query. A
    search by text finds its permits once, with both counts beside the page's ids; only a
    page with no permit on it (the sites' pages, or past the end) is then counted on its
    own."""
    if searched:
        found = _searched_page_of_rows(number_text, permits, sites)
        if found is not None:
            return found
    many_permits, many_sites = _counts(permits, sites)
    page = Paginator(range(many_permits + many_sites), PAGE_SIZE).get_page(number_text)
    bottom = (page.number - 1) * PAGE_SIZE
    top = bottom + PAGE_SIZE
    ids: Iterable[int] = []
    if bottom < many_permits:
        ids = permits.values_list("pk", flat=True)[bottom : min(top, many_permits)]
    return page, ids, _sites_on_page(sites, bottom, top, many_permits)


def _searched_page_of_rows(
    number_text: str, permits: QuerySet[Permit], sites: QuerySet[EnforcementCase]
) -> PageOfRows | None:
    """The page of a search by text, read with both counts in one query, or None when
    the page wanted has no permit on it (or is no page number: the paginator says which
    page it is)."""
    try:
        wanted = int(number_text) if len(number_text) <= MAX_PAGE_TEXT else 0
    except ValueError:
        wanted = 1
    if wanted < 1:
        return None
    bottom = (wanted - 1) * PAGE_SIZE
    top = bottom + PAGE_SIZE
    sql, params = _count_sql(sites)
    found = list(
        permits.annotate(
            in_all=Window(Count("*")), sites=RawSQL(sql, params, output_field=IntegerField())
        ).values_list("pk", "in_all", "sites")[bottom:top]
    )
    if not found:
        return None
    many_permits, many_sites = found[0][1], found[0][2]
    page = Paginator(range(many_permits + many_sites), PAGE_SIZE).page(wanted)
    ids = [pk for pk, _, _ in found]
    return page, ids, _sites_on_page(sites, bottom, top, many_permits)


def _sites_on_page(
    sites: QuerySet[EnforcementCase], bottom: int, top: int, many_permits: int
) -> QuerySet[EnforcementCase]:
    """The sites on the page of rows ``bottom`` to ``top``: they follow the permits."""
    if top <= many_permits:
        return sites.none()
    return sites[max(bottom - many_permits, 0) : top - many_permits]


def _count_sql(queryset: QuerySet[Any]) -> tuple[str, tuple[Any, ...]]:
    """``(SELECT COUNT(*) ...)`` of the rows of ``queryset``, as SQL and its parameters
    (a subquery of the ids: a ``DISTINCT`` of the queryset counts its rows, not its joins)."""
    sql, params = queryset.order_by().values("pk").query.sql_with_params()
    return f"(SELECT COUNT(*) FROM ({sql}) counted)", tuple(params)


def _counts(permits: QuerySet[Permit], sites: QuerySet[EnforcementCase]) -> tuple[int, int]:
    """How many permits and how many sites without a permit, read in one query."""
    permits_sql, permits_params = _count_sql(permits)
    sites_sql, sites_params = _count_sql(sites)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {permits_sql}, {sites_sql}", (*permits_params, *sites_params))
        many_permits, many_sites = cursor.fetchone()
    return int(many_permits), int(many_sites)


def _feature(row: dict[str, Any]) -> dict[str, Any]:
    lon, lat = row["point"]
    return {
        "type": "Feature",
        "geometry": {"type": "Point", "coordinates": [round(lon, 6), round(lat, 6)]},
        "properties": {
            "permit": row["permit"],
            "village": row["village"],
            "address": row["address"],
            "issued_on": row["issued_on"].isoformat() if row["issued_on"] else None,
            "expires_on": row["expires_on"].isoformat() if row["expires_on"] else None,
            "status": row["status"],
            "stop_work_order_in_force": row["order_in_force"],
            "orders": [
                {"kind": o["kind"], "at": o["at"].isoformat(), "citation": o["citation"]}
                for o in row["orders"]
            ],
        },
    }


def _orders_posted(row: dict[str, Any]) -> list[Item]:
    return [Item(f"{o['kind']} {o['at']:%Y-%m-%d %H:%M}", o["citation"]) for o in row["orders"]]


def _grounds(row: dict[str, Any]) -> list[str]:
    """Each order's grounds, after the order they were given for."""
    return [
        f"{o['kind']} {o['at']:%Y-%m-%d %H:%M}: {', '.join(o['grounds'])}"
        for o in row["orders"]
        if o["grounds"]
    ]


# The register, on its page and in its download.
REGISTER = Table[dict[str, Any]](
    name="register",
    label="permits and orders",
    testid="register",
    columns=(
        Column("Permit", lambda r: r["permit"], empty="none"),
        Column("Village", lambda r: r["village"]),
        Column("Site address", lambda r: r["address"]),
        Column("Issued", lambda r: r["issued_on"], empty="-"),
        Column("Valid through", lambda r: r["expires_on"], empty="-"),
        Column("Status", lambda r: r["status"]),
        Column(
            "Stop-work order in force",
            lambda r: r["order_in_force"],
            strong=lambda r: r["order_in_force"],
        ),
        Column("Orders posted", _orders_posted, empty="none"),
        Column("Grounds of the orders", _grounds, empty="-"),
    ),
)


@require_GET
def register_csv(request: HttpRequest) -> StreamingHttpResponse:
    """The register as the search finds it (the page's filters), every page of it: the
    permits, then the sites with no permit that have an order."""
    permits, query = _permits(request.GET)
    cases = _sites_without_permit(query).iterator(chunk_size=CHUNK)
    rows = _rows(permits.iterator(chunk_size=CHUNK), cases)
    return REGISTER.csv(rows, villages=[query["village"]] if query["village"] else [])


@require_GET
def register_geojson(request: HttpRequest) -> HttpResponse:
    permits, query = _permits(request.GET)
    features = [
        _feature(r)
        for r in _rows(permits.iterator(chunk_size=500), _sites_without_permit(query))
        if r["point"]
    ]
    response = HttpResponse(
        json.dumps({"type": "FeatureCollection", "features": features}),
        content_type="application/geo+json",
    )
    response["Content-Disposition"] = 'attachment; filename="permit-register.geojson"'
    return response


class RegisterFeed(Feed):  # type: ignore[type-arg]
    """New permits, orders posted and orders retracted (on appeal or by the authority),
    newest first (Atom): a reversal is announced as the order was."""

    feed_type = Atom1Feed
    title = "Construction site erosion control: new permits and orders"
    subtitle = (
        "Permits issued, and stop-work orders and revocations posted or retracted, from the "
        "public register."
    )

    def link(self) -> str:
        return reverse("register:register")

    def items(self) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        for permit in Permit.objects.select_related("application__site", "village").order_by(
            "-issued_on", "-id"
        )[:50]:
            items.append(
                {
                    "id": f"permit-{permit.pk}",
                    "title": f"Permit {permit.number} issued: {permit.application.site.address}",
                    "text": f"{permit.village.name}. Valid {permit.issued_on} to "
                    f"{permit.expires_on}.",
                    "when": datetime.datetime.combine(
                        permit.issued_on, datetime.time(12), tzinfo=datetime.UTC
                    ),
                }
            )
        for action in (
            EnforcementAction.objects.filter(
                public=True, kind__in=("stop_work_order", "revocation", "retraction")
            )
            .select_related("case", "case__village")
            .order_by("-at", "-id")[:50]
        ):
            title = action.get_kind_display()
            if action.kind == "retraction":
                what = (
                    "Revocation"
                    if action.details.get("order") == "revocation"
                    else ("Stop-work order")
                )
                by = (
                    f" on appeal {action.details['appeal']}" if action.details.get("appeal") else ""
                )
                title = f"{what} retracted{by}"
            items.append(
                {
                    "id": f"order-{action.pk}",
                    "title": f"{title}: {action.case.address}",
                    "text": f"{action.case.village.name}. {title} on "
                    f"{timezone.localtime(action.at):%Y-%m-%d %H:%M} ({action.citation}).",
                    "when": action.at,
                }
            )
        items.sort(key=lambda i: i["when"], reverse=True)
        return items[:50]

    def item_title(self, item: dict[str, Any]) -> str:
        return str(item["title"])

    def item_description(self, item: dict[str, Any]) -> str:
        return escape(item["text"])

    def item_link(self, item: dict[str, Any]) -> str:
        return reverse("register:register") + f"#{item['id']}"

    def item_guid(self, item: dict[str, Any]) -> str:
        return str(item["id"])

    def item_pubdate(self, item: dict[str, Any]) -> datetime.datetime:
        return item["when"]  # type: ignore[no-any-return]

    def item_updateddate(self, item: dict[str, Any]) -> datetime.datetime:
        return item["when"]  # type: ignore[no-any-return]


# -- reports for the village board ----------------------------------------------------------


def _month(value: datetime.date | datetime.datetime) -> str:
    return f"{value:%Y-%m}"


def report_data(village_id: str | None = None) -> dict[str, Any]:
    actions = EnforcementAction.objects.exclude(kind__in=("compliance", "costs_unpaid"))
    invoices = Invoice.objects.all()
    if village_id:
        actions = actions.filter(case__village_id=village_id)
        invoices = invoices.filter(case__village_id=village_id)
    by_month: dict[str, int] = defaultdict(int)
    by_kind: dict[str, int] = defaultdict(int)
    forfeitures: dict[str, list[Decimal]] = defaultdict(lambda: [Decimal(0), Decimal(0)])
    forfeiture_days = 0
    for action in actions.only("kind", "at", "details"):
        month = _month(timezone.localtime(action.at))
        by_month[month] += 1
        by_kind[action.get_kind_display()] += 1
        if action.kind == "prosecution_referral":
            forfeiture_days += int(action.details.get("offenses", action.details.get("days")) or 0)
            for index, key in enumerate(("min", "max")):
                if action.details.get(key) is not None:
                    forfeitures[month][index] += Decimal(str(action.details[key]))
    billed: dict[str, Decimal] = defaultdict(Decimal)
    recovered: dict[str, Decimal] = defaultdict(Decimal)
    for invoice in invoices.only("issued_on", "principal", "paid_amount", "paid_on"):
        billed[_month(invoice.issued_on)] += invoice.principal
        if invoice.paid_amount and invoice.paid_on:
            recovered[_month(invoice.paid_on)] += invoice.paid_amount
    months = sorted(set(by_month) | set(billed) | set(recovered) | set(forfeitures))
    return {
        "months": months,
        "actions_by_month": [by_month.get(m, 0) for m in months],
        "actions_by_kind": dict(sorted(by_kind.items())),
        "billed": [billed.get(m, Decimal(0)) for m in months],
        "recovered": [recovered.get(m, Decimal(0)) for m in months],
        "forfeiture_min": [forfeitures[m][0] if m in forfeitures else Decimal(0) for m in months],
        "forfeiture_max": [forfeitures[m][1] if m in forfeitures else Decimal(0) for m in months],
        "forfeiture_days": forfeiture_days,
        "total_billed": sum(billed.values(), Decimal(0)),
        "total_recovered": sum(recovered.values(), Decimal(0)),
    }


def bar_chart(
    title: str, labels: list[str], series: list[tuple[str, list[Any], str]], *, money: bool = False
) -> str:
    """A grouped bar chart as SVG text, drawn on the server (no script, no CDN)."""
    width, height, left, bottom, top = 640, 260, 60, 40, 30
    values = [float(v) for _, data, _ in series for v in data] or [0.0]
    peak = max(values) or 1.0
    groups = max(len(labels), 1)
    slot = (width - left - 10) / groups
    bar = max(slot / (len(series) + 1), 2)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
        f'class="chart" aria-labelledby="t-{abs(hash(title))}">',
        f'<title id="t-{abs(hash(title))}">{escape(title)}</title>',
        f'<line x1="{left}" y1="{height - bottom}" x2="{width - 10}" y2="{height - bottom}" '
        'stroke="#1b1b1b"/>',
        f'<text x="4" y="{top - 8}" font-size="12">{escape(_fmt(peak, money))}</text>',
        f'<line x1="{left}" y1="{top}" x2="{width - 10}" y2="{top}" stroke="#ddd"/>',
    ]
    plot = height - bottom - top
    for g, label in enumerate(labels):
        x0 = left + g * slot
        for s_index, (name, data, colour) in enumerate(series):
            value = float(data[g])
            h = plot * value / peak
            x = x0 + bar * (s_index + 0.5)
            parts.append(
                f'<rect x="{x:.1f}" y="{height - bottom - h:.1f}" width="{bar:.1f}" '
                f'height="{h:.1f}" fill="{colour}"><title>{escape(name)} {escape(label)}: '
                f"{escape(_fmt(value, money))}</title></rect>"
            )
        parts.append(
            f'<text x="{x0 + slot / 2:.1f}" y="{height - bottom + 16}" font-size="11" '
            f'text-anchor="middle">{escape(label)}</text>'
        )
    for s_index, (name, _, colour) in enumerate(series):
        x = left + s_index * 170
        parts.append(f'<rect x="{x}" y="{height - 14}" width="12" height="12" fill="{colour}"/>')
        parts.append(f'<text x="{x + 16}" y="{height - 4}" font-size="12">{escape(name)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _fmt(value: float, money: bool) -> str:
    return f"${value:,.2f}" if money else f"{value:,.0f}"


@require_GET
def reports(request: HttpRequest) -> HttpResponse:
    from django.utils.safestring import mark_safe

    village = str(request.GET.get("village", ""))
    villages = Village.objects.order_by("name")
    if village not in {v.id for v in villages}:
        village = ""
    data = report_data(village or None)
    months = data["months"]
    charts = {
        "actions": bar_chart(
            "Enforcement actions by month",
            months,
            [("Actions", data["actions_by_month"], "#005ea2")],
        ),
        "forfeitures": bar_chart(
            "Forfeitures referred for prosecution by month (smallest and largest total)",
            months,
            [
                ("Smallest", data["forfeiture_min"], "#00a398"),
                ("Largest", data["forfeiture_max"], "#e5a000"),
            ],
            money=True,
        ),
        "costs": bar_chart(
            "Costs of village work billed and recovered by month",
            months,
            [("Billed", data["billed"], "#d83933"), ("Recovered", data["recovered"], "#00a91c")],
            money=True,
        ),
    }
    return render(
        request,
        "enforcement/reports.html",
        {
            "data": data,
            # Every text inside the SVG was escaped by bar_chart.
            "charts": {k: mark_safe(v) for k, v in charts.items()},
            "villages": villages,
            "village": village,
            "rows": list(
                zip(
                    months, data["actions_by_month"], data["billed"], data["recovered"], strict=True
                )
            ),
        },
    )
