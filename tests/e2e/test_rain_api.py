"""``POST /api/v1/rain/storms`` and ``POST /api/v1/duties`` with a rain file, through
Django's test client. The storms are the ones worked out by hand from the Milwaukee record
(tests/unit/rain/test_storms_milwaukee.py)."""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[1] / "unit" / "rain" / "fixtures"
BY_STATION = (FIXTURES / "USW00014839-by_station.csv").read_text()


def post(client, path: str, body: dict):
    return client.post(path, data=json.dumps(body), content_type="application/json")


def storms_body(**changes):
    body = {
        "jurisdiction": "new-glarus-wi",
        "file": BY_STATION,
        "from": "2024-05-01",
        "to": "2024-05-31",
        "site": "42.8147,-89.6351",
    }
    return {**body, **changes}


def test_the_storms_of_may_2024_from_a_by_station_file(client):
    response = post(client, "/api/v1/rain/storms", storms_body())
    assert response.status_code == 200, response.content
    answer = response.json()
    assert answer["station"]["id"] == "USW00014839"
    assert 141 < answer["station"]["distance_km"] < 143
    qualifying = [
        (s["first_day"], s["last_day"], s["mm"]) for s in answer["storms"] if s["qualifies"]
    ]
    assert qualifying == [
        ("2024-05-02", "2024-05-04", 27.0),
        ("2024-05-07", "2024-05-07", 31.0),
        ("2024-05-20", "2024-05-20", 29.7),
        ("2024-05-26", "2024-05-28", 55.1),
    ]
    # The fixture's 2024-05-16 (3.6 mm) carries quality flag K: it is set aside, with a note.
    assert "2024-05-16" not in [s["first_day"] for s in answer["storms"]]
    assert any("Q flag K" in n["says"] for n in answer["notes"])


def test_a_bad_rain_file_is_a_400_with_the_clis_sentence(client):
    response = post(client, "/api/v1/rain/storms", storms_body(file="name,address\nJo,Main\n"))
    assert response.status_code == 400
    assert response.json()["detail"].startswith("rain: line 1: not a rain file siltfence reads")
    assert response.json()["field"] == "rain"


def test_a_rain_file_over_the_size_bound_is_a_400(client):
    big = "USW00014839,20240501,PRCP,0,,,W,2400\n" * 110_000  # 4.07 million characters
    response = post(client, "/api/v1/rain/storms", storms_body(file=big))
    assert response.status_code == 400
    assert response.json()["detail"] == "file: String should have at most 4000000 characters"


def test_a_bad_day_or_unknown_field_is_a_400_naming_it(client):
    assert post(client, "/api/v1/rain/storms", storms_body(to="May 31")).json()["detail"] == (
        "to: expected a date written YYYY-MM-DD, got 'May 31'"
    )
    unknown = post(client, "/api/v1/rain/storms", storms_body(gauge="yes"))
    assert unknown.status_code == 400
    assert unknown.json()["detail"] == "gauge: unknown field"


def test_duties_with_a_rain_file_owe_an_inspection_for_each_qualifying_storm(client):
    events = [
        {"type": "permit_issued", "at": "2024-04-20"},
        {"type": "work_started", "at": "2024-05-01T08:00"},
    ]
    body = {
        "jurisdiction": "new-glarus-wi",
        "events": events,
        "as_of": "2024-05-31",
        "rain": BY_STATION,
        "station": "USW00014839",
    }
    response = post(client, "/api/v1/duties", body)
    assert response.status_code == 200, response.content
    answer = response.json()
    inspections = [d for d in answer["duties"] if d["kind"] == "rain_inspection"]
    assert [d["rain"]["from"] for d in inspections] == [
        "2024-05-02",
        "2024-05-07",
        "2024-05-20",
        "2024-05-26",
    ]
    # May 2024 has 14 wet days (2, 3, 4, 7, 9, 10, 13, 14, 16, 20, 24, 26, 27, 28); the
    # fixture's 05-16 is set aside for its Q flag: 13 are added.
    assert answer["rain"]["rain_days_added"] == 13
    assert answer["rain"]["station"]["id"] == "USW00014839"


def test_duties_with_a_bad_rain_file_are_a_400_not_a_500(client):
    body = {
        "jurisdiction": "spencer-wi",
        "events": [{"type": "permit_issued", "at": "2024-04-20"}],
        "rain": "USW00014839,20240501,PRCP,0,,,W,2400\nUSW00014839,20240502,PRCP\n",
    }
    response = post(client, "/api/v1/duties", body)
    assert response.status_code == 400
    assert response.json()["detail"].startswith("rain: line 2: expected ID,YYYYMMDD")


@settings(
    deadline=3000,
    max_examples=60,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    file=st.text(max_size=400),
    station=st.one_of(st.none(), st.text(max_size=20)),
    site=st.one_of(st.none(), st.text(max_size=30)),
    units=st.one_of(st.none(), st.text(max_size=8)),
    start=st.text(max_size=12),
)
@example(file=BY_STATION, station=None, site=None, units=None, start="2024-05-01")
@example(file=BY_STATION, station=" usw00014839", site="42.8,-89.6", units="mm", start="2024-05-20")
@example(file=BY_STATION, station="USW00014838", site=None, units=None, start="2024-05-01")
@example(file=BY_STATION, station="nope", site=None, units=None, start="2024-05-01")
@example(file=BY_STATION, station=None, site="north", units=None, start="2024-05-01")
@example(file=BY_STATION, station=None, site=None, units=None, start="May 1")
def test_any_storms_body_is_answered_200_or_400(client, file, station, site, units, start):
    body = storms_body(file=file, station=station, site=site, units=units)
    body["from"] = start
    response = post(client, "/api/v1/rain/storms", body)
    assert response.status_code in (200, 400), response.content
    answer = response.json()
    # The body is read in this order, and the first field found wrong is the one named.
    wrong = [
        name
        for name, bad in [
            ("from", not is_day(start)),
            ("site", site is not None and not is_point(site)),
            ("station", station is not None and not is_station(station)),
        ]
        if bad
    ]
    if response.status_code == 400:
        assert answer["detail"].startswith(f"{answer['field']}: "), answer
        if wrong:
            assert answer["field"] == wrong[0], answer
        else:  # the file, its units, or a period the file or the rule cannot give
            assert answer["field"] in ("rain", "to", "from"), answer
        return
    assert not wrong, answer
    assert (answer["jurisdiction"], answer["from"], answer["to"]) == (
        "new-glarus-wi",
        start,
        "2024-05-31",
    )
    if station is not None:
        assert answer["station"]["id"] == station.strip().upper()
    days = (datetime.date(2024, 5, 31) - datetime.date.fromisoformat(start)).days + 1
    assert 0 <= answer["missing_days"] <= days
    for storm in answer["storms"]:
        assert start <= storm["first_day"] <= storm["last_day"] <= "2024-05-31"
        assert storm["mm"] > 0


def is_day(text: str) -> bool:
    """YYYY-MM-DD, a real day from 1900 to 2100."""
    if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text):
        return False
    try:
        return 1900 <= datetime.date.fromisoformat(text).year <= 2100
    except ValueError:
        return False


def is_point(text: str) -> bool:
    """LAT,LON in decimal degrees."""
    try:
        latitude, longitude = (float(part) for part in text.split(","))
    except ValueError:
        return False
    return -90 <= latitude <= 90 and -180 <= longitude <= 180


def is_station(text: str) -> bool:
    """A NOAA ID of 11 letters and digits, or SITE-/GAUGE- and a name, in any case."""
    cleaned = text.strip().upper()
    return cleaned.isascii() and bool(
        re.fullmatch(r"[A-Z]{2}[A-Z0-9]{9}|(SITE|GAUGE)-[A-Z0-9][A-Z0-9-]{0,33}", cleaned)
    )


def test_duties_take_the_unit_of_a_cdo_file_that_cannot_tell(client):
    cdo = '"STATION","DATE","PRCP"\n"USW00014839","2024-05-07","13"\n'
    body = {
        "jurisdiction": "new-glarus-wi",
        "events": [
            {"type": "permit_issued", "at": "2024-04-20"},
            {"type": "work_started", "at": "2024-05-01T08:00"},
        ],
        "as_of": "2024-05-31",
        "rain": cdo,
    }
    unclear = post(client, "/api/v1/duties", body)
    assert unclear.status_code == 400
    assert "the unit is unclear" in unclear.json()["detail"]
    told = post(client, "/api/v1/duties", {**body, "units": "mm"})
    assert told.status_code == 200, told.content
    [inspection] = [d for d in told.json()["duties"] if d["kind"] == "rain_inspection"]
    assert inspection["rain"]["mm"] == 13.0  # 13 mm is 0.5 inch or more (12.7 mm)
