"""``POST /api/v1/duties`` through Django's test client: real requests, real JSON."""

from __future__ import annotations

import datetime
import json

import pytest

from siltfence.core.errors import SiltfenceError
from siltfence.core.timeline import compute

pytestmark = pytest.mark.django_db

EVENTS = [
    {"type": "permit_issued", "at": "2026-05-01"},
    {"type": "work_started", "at": "2026-06-01T07:00"},
    {"type": "rain", "at": "2026-06-10", "inches": 0.3, "runoff": True},
    {"type": "rain", "at": "2026-06-11", "inches": 0.25, "runoff": True},
    {"type": "stop_work_order_posted", "at": "2026-07-01"},
    {"type": "violation", "at": "2026-07-11", "from": "2026-07-01", "to": "2026-07-10"},
]


def post(client, body):
    return client.post("/api/v1/duties", data=json.dumps(body), content_type="application/json")


def test_new_glarus_duties_come_back_in_the_contract_shape(client):
    response = post(
        client, {"jurisdiction": "new-glarus-wi", "events": EVENTS, "as_of": "2026-07-15T12:00"}
    )
    assert response.status_code == 200, response.content
    answer = response.json()
    assert answer["permit"]["expires"] == "2026-10-28"
    rain = next(d for d in answer["duties"] if d["kind"] == "rain_inspection")
    # 7.6 + 6.4 = 14.0 mm over June 10-11; 24 clock hours after the end of June 11.
    assert rain["due"] == "2026-06-13T00:00:00-05:00"
    assert rain["status"] == "overdue"
    assert rain["citation"] == "§ 135-7E(7)"
    assert rain["counting"]["rule"] == "weekends-and-holidays-excluded"
    # § 135-11B: the violation of July 1-10, recorded July 11 on a permitted site, opens
    # revocation that day; the posting of July 1 alone showed no order disobeyed.
    revoke = next(a for a in answer["allowed_actions"] if a["action"] == "revoke_permit")
    assert revoke == {**revoke, "from": "2026-07-11", "citation": "§ 135-11B"}
    # Ten days, one violation: ten offenses, $100 to $500 each, plus costs.
    fine = answer["forfeiture"]
    assert (fine["days"], fine["min"], fine["max"], fine["plus_costs"]) == (10, 1000, 5000, True)


def test_the_api_answers_exactly_what_the_core_computes(client):
    body = {"jurisdiction": "spencer-wi", "events": EVENTS, "as_of": "2026-07-15T12:00"}
    expected = compute("spencer-wi", EVENTS, datetime.datetime(2026, 7, 15, 12), None).to_json()
    assert post(client, body).json() == expected


def test_office_closures_in_the_body_replace_the_holidays(client):
    events = [{"type": "application_received", "at": "2026-11-20"}]
    body = {"jurisdiction": "new-glarus-wi", "events": events, "as_of": "2026-12-01"}
    assert post(client, body).json()["duties"][0]["due"] == "2027-01-06"
    weekends = post(client, {**body, "office_closures": []}).json()
    assert weekends["duties"][0]["due"] == "2027-01-01"


def test_no_permit_gives_a_null_permit_and_no_forfeiture_a_null_forfeiture(client):
    answer = post(
        client, {"jurisdiction": "spencer-wi", "events": [], "as_of": "2026-05-01"}
    ).json()
    assert answer["permit"] is None and answer["forfeiture"] is None
    assert answer["duties"] == [] and answer["allowed_actions"] == []


@pytest.mark.parametrize(
    ("body", "start"),
    [
        ({"events": []}, "jurisdiction: "),
        ({"jurisdiction": "nowhere-wi", "events": []}, "jurisdiction: "),
        ({"jurisdiction": "spencer-wi"}, "events: "),
        ({"jurisdiction": "spencer-wi", "events": {}}, "events: "),
        (
            {"jurisdiction": "spencer-wi", "events": [{"type": "oops", "at": "2026-05-01"}]},
            "events[0].type: ",
        ),
        (
            {
                "jurisdiction": "spencer-wi",
                "events": [{"type": "rain", "at": "2026-05-01", "inches": -1}],
            },
            "events[0].inches: ",
        ),
        ({"jurisdiction": "spencer-wi", "events": [], "as_of": "later"}, "as_of: "),
        (
            {"jurisdiction": "spencer-wi", "events": [], "office_closures": ["x"]},
            "office_closures[0]: ",
        ),
        ({"jurisdiction": "spencer-wi", "events": [], "extra": 1}, "extra: "),
        ({"jurisdiction": "spencer-wi", "events": [], "as_of": "9999-12-31"}, "as_of: "),
    ],
)
def test_bad_input_is_a_400_naming_the_field(client, body, start):
    response = post(client, body)
    assert response.status_code == 400, response.content
    assert response.json()["detail"].startswith(start), response.json()


def test_the_api_and_the_core_say_the_same_sentence_for_a_bad_extension(client):
    events = [
        {"type": "permit_issued", "at": "2026-05-01"},
        {"type": "permit_extended", "at": "2026-09-01", "days": 181},
    ]
    with pytest.raises(SiltfenceError) as raised:
        compute("spencer-wi", events)
    response = post(client, {"jurisdiction": "spencer-wi", "events": events})
    assert response.status_code == 400
    assert response.json()["detail"] == str(raised.value)
    assert "§ 413-8E(1)" in response.json()["detail"]


@pytest.mark.parametrize(
    ("events", "field", "says"),
    [
        ([None], "events[0]", "expected an object with type and at"),
        ([[1, 2]], "events[0]", "expected an object with type and at"),
        ([{"type": ["rain"], "at": "2026-05-01"}], "events[0].type", "unknown event type"),
        (
            [{"type": "rain", "at": 20260501, "inches": 1}],
            "events[0].at",
            "expected an ISO 8601 date or datetime",
        ),
        (
            [{"type": "rain", "at": "2026-05-01", "inches": {"v": 1}}],
            "events[0].inches",
            "expected a number of inches",
        ),
        (
            [{"type": "rain", "at": "2026-05-01", "inches": "NaN"}],
            "events[0].inches",
            "expected a number of inches",
        ),
        (
            [
                {"type": "permit_issued", "at": "2026-05-01"},
                {"type": "permit_extended", "at": "2026-06-01", "days": 1e400},
            ],
            # The number is refused as the body is read, before any event is: the body is
            # what is named (as for JSON nested too deep, test_hostile_input.py).
            "(body)",
            "the number 1e400 is too large to be a measurement",
        ),
        (
            [{"type": "violation", "at": "2026-05-01", "from": 5, "to": "2026-05-01"}],
            "events[0].from",
            "expected a date written YYYY-MM-DD",
        ),
        (
            [{"type": "work_planned", "at": "2026-05-01", "start": "2199-12-31T23:00"}],
            "events[0].start",
            "expected a date from 1900 to 2100",
        ),
    ],
)
def test_odd_bodies_are_400s_never_500s(client, events, field, says):
    response = client.post(
        "/api/v1/duties",
        data=json.dumps({"jurisdiction": "new-glarus-wi", "events": events}).replace(
            "Infinity", "1e400"
        ),
        content_type="application/json",
    )
    assert response.status_code == 400, response.content
    error = response.json()
    assert error["field"] == field, error
    assert error["detail"].startswith(f"{field}: {says}"), error


def test_the_openapi_document_lists_the_duties_endpoint(client):
    document = client.get("/api/openapi.json").json()
    assert "/api/v1/duties" in document["paths"]
