"""Which enforcement steps the public register publishes: a policy, held in every format.

Decision 30 ("The public register"): the register, its CSV, GeoJSON, Atom feed and API
show "each stop-work order, revocation, compliance and retraction with its date, section
and grounds. It never shows a person's name or contact, a complaint or its reporter, a
referral to the attorney (with its notes, which are the officials' alone), an invoice, or
an internal note: those are records too, but ones a custodian weighs before release, not
ones to publish by default."

So every kind of step is taken here, through the enforcement services, on four sites in
both villages (three with a permit, one without), and each public output is read as the
public reads it (no login). Exactly the four public kinds may appear; no referral (cease
and desist, injunction, prosecution), notice, village work, invoice, unpaid costs or
certification ever does.
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import re
import xml.etree.ElementTree as ET
from collections import Counter
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from enforcement_helpers import at, permit_filed_on
from factories import NEW_GLARUS, SPENCER, People

from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement.models import ActionKind, EnforcementAction, InterestRate
from siltfence.apps.permits.models import Site

pytestmark = pytest.mark.django_db

# Decision 30, written out here (not read from the register's code).
PUBLIC = {"stop_work_order", "revocation", "compliance", "retraction"}
NEVER_PUBLIC = {
    "warning_letter",  # a courtesy to the parties, not a step of the chapter (decision 54)
    "notice_to_cease",
    "cease_and_desist_referral",
    "notice_of_intent",
    "village_work",
    "invoice",
    "costs_unpaid",
    "certification",
    "injunction_referral",
    "prosecution_referral",
}
LABEL_TO_KIND = {label: kind for kind, label in ActionKind.choices}
ATOM = "{http://www.w3.org/2005/Atom}"


def _with_point(permit: Any, lon: float, lat: float) -> Any:
    """The permit's site drawn on the map (a point), so the GeoJSON has a feature for it."""
    Site.objects.filter(pk=permit.application.site_id).update(
        geometry={"type": "Point", "coordinates": [lon, lat]}
    )
    return permit


def _spencer_permit(people: People, address: str, lon: float) -> Any:
    permit = permit_filed_on(
        applicant=people.applicant_a,
        village=SPENCER,
        staff=people.staff[SPENCER],
        filed="2026-06-01",
        address=address,
    )
    return _with_point(permit, lon, 44.7573)


def _violation(people: People, permit: Any, day: str = "2026-07-01") -> Any:
    return s.violation_record(
        village=permit.village,
        recorded_by=people.staff[SPENCER],
        source="observation",
        description="No inlet protection on the street inlet.",
        provision="§ 413-7B(4)",
        days_from=datetime.date.fromisoformat(day),
        at=at(day, 9),
        permit=permit,
    )


@pytest.fixture
def every_kind(people: People, villages: Any) -> dict[str, Any]:
    """One case per site; together they hold a step of every kind there is."""
    staff = people.staff[SPENCER]

    # Spencer, 12 Park St: an order, then the village's own work, billed, unpaid, certified
    # to the tax roll, and the case referred to the attorney twice.
    work = _violation(people, _spencer_permit(people, "12 Park St, Spencer", -90.2966)).case
    s.warning_letter_send(case=work, staff=staff, at=at("2026-07-01", 10), asks="A fence")
    s.stop_work_order_post(
        case=work, staff=staff, at=at("2026-07-01", 10, 30), grounds=["conditions-not-met"]
    )
    s.notice_of_intent_issue(case=work, staff=staff, at=at("2026-07-11"), work="Silt fence")
    s.village_work_begin(case=work, staff=staff, at=at("2026-07-26", 7))
    s.work_cost_record(
        case=work,
        staff=staff,
        category="labour",
        description="Public works crew, 8 hours",
        amount="600.00",
        incurred_on=datetime.date(2026, 7, 26),
    )
    InterestRate.objects.create(
        village_id=SPENCER,
        effective_from=datetime.date(2026, 1, 1),
        annual_percent=12,
        authority="Building Inspector order 2026-1",
    )
    invoice = s.invoice_issue(case=work, staff=staff, on=datetime.date(2026, 8, 1))
    s.costs_unpaid_record(invoice=invoice, staff=staff, at=at("2026-09-01"))
    s.case_parcel_set(case=work, staff=staff, parcel_number="031-1040")
    s.tax_roll_certify(invoice=invoice, staff=staff, at=at("2026-09-30"))
    s.injunction_refer(case=work, staff=staff, at=at("2026-10-01", 12), note="ATTORNEY-NOTE")
    s.prosecution_refer(case=work, staff=staff, at=at("2026-10-02", 12))

    # Spencer, 14 Park St: an order, the permit revoked after the ten days, then the
    # revocation retracted by the Building Inspector (§ 413-10D).
    revoked = _violation(people, _spencer_permit(people, "14 Park St, Spencer", -90.2960)).case
    s.stop_work_order_post(
        case=revoked, staff=staff, at=at("2026-07-01", 11), grounds=["conditions-not-met"]
    )
    s.permit_revoke(case=revoked, staff=staff, at=at("2026-07-12", 10), reasons="No fence.")
    s.order_retract(
        case=revoked, staff=staff, at=at("2026-07-13", 10), order="revocation", reason="Fixed."
    )

    # Spencer, 16 Park St: an order, then compliance.
    complied = _violation(people, _spencer_permit(people, "16 Park St, Spencer", -90.2950)).case
    s.stop_work_order_post(
        case=complied, staff=staff, at=at("2026-07-02", 10), grounds=["conditions-not-met"]
    )
    s.compliance_record(case=complied, staff=staff, at=at("2026-07-03", 10))

    # New Glarus, a site with no permit: a notice to cease, not obeyed, the request to the
    # attorney for a cease-and-desist order (§ 135-11C), and a stop-work order (§ 135-11A).
    ng_staff = people.staff[NEW_GLARUS]
    place = {"address": "9 Railroad St, New Glarus", "latitude": 42.8136, "longitude": -89.6354}
    no_permit = s.violation_record(
        village=villages[NEW_GLARUS],
        recorded_by=ng_staff,
        source="observation",
        description="Grading with no permit.",
        provision="§ 135-6",
        days_from=datetime.date(2026, 7, 1),
        at=at("2026-07-01"),
        **place,
    ).case
    s.notice_to_cease_give(case=no_permit, staff=ng_staff, at=at("2026-07-01", 13))
    s.violation_record(
        village=villages[NEW_GLARUS],
        recorded_by=ng_staff,
        source="observation",
        description="Grading went on the next day.",
        provision="§ 135-6",
        days_from=datetime.date(2026, 7, 2),
        at=at("2026-07-02"),
        **place,
    )
    s.cease_and_desist_refer(case=no_permit, staff=ng_staff, at=at("2026-07-02", 14))
    # Then a stop-work order posted there, so the site is on the register with its row.
    s.stop_work_order_post(
        case=no_permit, staff=ng_staff, at=at("2026-07-03", 9), grounds=["no-permit"]
    )

    taken = Counter(EnforcementAction.objects.values_list("kind", flat=True))
    assert set(taken) == set(ActionKind.values), (
        "every kind of step is taken here; a new kind needs a decision on whether it is "
        f"public: missing {sorted(set(ActionKind.values) - set(taken))}"
    )
    assert set(ActionKind.values) == PUBLIC | NEVER_PUBLIC
    return {"taken": taken}


def _public_counts(taken: Counter[str]) -> Counter[str]:
    return Counter({kind: n for kind, n in taken.items() if kind in PUBLIC})


def _kinds_of_labels(labels: list[str]) -> Counter[str]:
    unknown = [label for label in labels if label not in LABEL_TO_KIND]
    assert not unknown, f"orders shown under names no step has: {unknown}"
    return Counter(LABEL_TO_KIND[label] for label in labels)


def test_the_register_page_shows_exactly_the_public_kinds(every_kind: dict[str, Any]) -> None:
    page = Client().get(reverse("register:register"))
    assert page.status_code == 200
    html = page.content.decode()
    cells = re.findall(r'<td data-label="Orders posted">(.*?)</td>', html, re.S)
    assert len(cells) == 4  # three permits and the site with none
    labels = [
        label.strip()
        for cell in cells
        for label in re.findall(
            r"(?:^|<br>)([^<>]+?) \d{4}-\d{2}-\d{2} \d{2}:\d{2} <span class=\"cite\">", cell
        )
    ]
    assert _kinds_of_labels(labels) == _public_counts(every_kind["taken"])
    # The map's data on the page holds the same orders.
    features = json.loads(
        re.search(
            r'<script id="register-features" type="application/json">(.*?)</script>', html, re.S
        ).group(1)
    )
    shown = [o["kind"] for f in features["features"] for o in f["properties"]["orders"]]
    assert _kinds_of_labels(shown) == _public_counts(every_kind["taken"])
    for private in ("ATTORNEY-NOTE", "Village Attorney"):
        assert private not in html


def test_the_register_csv_shows_exactly_the_public_kinds(every_kind: dict[str, Any]) -> None:
    response = Client().get(reverse("register:csv"))
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 4
    labels = [
        label
        for row in rows
        for label in re.findall(
            r"(?:^|; )(.+?) \d{4}-\d{2}-\d{2} \d{2}:\d{2} \(", row["Orders posted"]
        )
    ]
    assert _kinds_of_labels(labels) == _public_counts(every_kind["taken"])


def test_the_register_geojson_shows_exactly_the_public_kinds(every_kind: dict[str, Any]) -> None:
    data = json.loads(Client().get(reverse("register:geojson")).content)
    assert len(data["features"]) == 4
    labels = [o["kind"] for f in data["features"] for o in f["properties"]["orders"]]
    assert _kinds_of_labels(labels) == _public_counts(every_kind["taken"])


def test_the_register_feed_announces_orders_and_never_a_private_step(
    every_kind: dict[str, Any],
) -> None:
    """The feed announces what is posted or lifted on a site: new permits, stop-work orders
    and revocations, and their retractions (its subtitle). Compliance is on the register's
    rows, not announced; nothing outside the public kinds ever is."""
    feed = ET.fromstring(Client().get(reverse("register:feed")).content)
    ids = [entry.findtext(f"{ATOM}id") or "" for entry in feed.iter(f"{ATOM}entry")]
    orders = [int(i.removeprefix("order-")) for i in ids if i.startswith("order-")]
    kinds = Counter(EnforcementAction.objects.get(pk=pk).kind for pk in orders)
    assert set(kinds) <= PUBLIC
    taken = every_kind["taken"]
    assert kinds == Counter({k: taken[k] for k in ("stop_work_order", "revocation", "retraction")})
    assert len([i for i in ids if i.startswith("permit-")]) == 3


def test_the_api_has_no_register_that_could_publish_steps(every_kind: dict[str, Any]) -> None:
    """Decision 30 names an API of the register, but the API publishes none: its paths are
    the determinations, duties, design checks, rain and the jurisdictions. Were a register
    path added, this fails, and the policy above must be asserted of it too."""
    schema = Client().get("/api/openapi.json")
    assert schema.status_code == 200
    paths = list(schema.json()["paths"])
    suspicious = [
        p for p in paths if re.search(r"register|enforcement|order|action|case|permit", p)
    ]
    assert not suspicious, f"an API path may publish the register: {suspicious}"
