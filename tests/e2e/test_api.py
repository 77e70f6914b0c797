"""The HTTP API through Django's test client: real requests, real JSON."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.django_db


def post(client, body, path="/api/v1/determinations"):
    return client.post(path, data=json.dumps(body), content_type="application/json")


def test_a_new_glarus_excavation_of_exactly_400_cubic_yards_is_not_covered(client):
    response = post(
        client,
        {
            "jurisdiction": "new-glarus-wi",
            "on": "2026-06-01",
            "facts": {"excavation_fill_volume": 400},
        },
    )
    assert response.status_code == 200
    answer = response.json()
    assert answer["applies"] is False
    assert answer["plan"] is None
    volume = next(f for f in answer["findings"] if f["id"] == "volume-trigger")
    assert volume["holds"] is False and volume["citation"] == "§ 135-4A(1)(b)"


def test_quantities_in_other_units_are_converted(client):
    # 0.1 acre = 4,356 sq ft, which is 4,000 sq ft or more (§ 413-7A(3)).
    response = post(
        client,
        {"jurisdiction": "spencer-wi", "on": "2026-06-01", "facts": {"disturbed_area": "0.1 acre"}},
    )
    assert response.status_code == 200
    assert response.json()["applies"] is True
    assert response.json()["facts"]["disturbed_area"] == pytest.approx(4356)


@pytest.mark.parametrize(
    "body, field",
    [
        ({"facts": {}}, "jurisdiction"),
        ({"jurisdiction": "nowhere-wi", "facts": {}}, "jurisdiction"),
        ({"jurisdiction": "spencer-wi", "facts": {"disturbed_area": "5 kg"}}, "disturbed_area"),
        ({"jurisdiction": "spencer-wi", "facts": {"acreage": 1}}, "acreage"),
        ({"jurisdiction": "spencer-wi", "facts": {"state_funded": "no"}}, "state_funded"),
        ({"jurisdiction": "spencer-wi", "on": "yesterday", "facts": {}}, "on"),
        ({"jurisdiction": "spencer-wi", "on": "1993-10-03", "facts": {}}, "on"),
        ({"jurisdiction": "spencer-wi", "facts": {}, "extra": 1}, "extra"),
        ({"jurisdiction": "spencer-wi", "facts": []}, "facts"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(client, body, field):
    response = post(client, body)
    assert response.status_code == 400, response.content
    assert field in response.json()["detail"]


def test_a_body_that_is_not_json_is_a_400(client):
    response = client.post("/api/v1/determinations", data="{bad", content_type="application/json")
    assert response.status_code == 400


def test_the_api_and_the_cli_say_the_same_sentence_for_bad_facts(client):
    from siltfence.core.errors import FactsError
    from siltfence.core.facts import parse_facts

    with pytest.raises(FactsError) as raised:
        parse_facts({"disturbed_area": "5 kg"})
    response = post(client, {"jurisdiction": "spencer-wi", "facts": {"disturbed_area": "5 kg"}})
    assert response.json()["detail"] == str(raised.value)


def test_jurisdictions_lists_both_villages_with_their_words(client):
    response = client.get("/api/v1/jurisdictions")
    assert response.status_code == 200
    by_id = {j["id"]: j for j in response.json()}
    assert by_id["spencer-wi"]["words"]["control_plan"] == "control plan"
    assert by_id["new-glarus-wi"]["words"]["control_plan"] == "erosion and sediment control plan"
    assert by_id["new-glarus-wi"]["business_days"] is True
    assert by_id["spencer-wi"]["time_zone"] == "America/Chicago"


def test_the_openapi_document_describes_the_contract(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    document = response.json()
    assert "/api/v1/determinations" in document["paths"]
    assert "/api/v1/jurisdictions" in document["paths"]
    schemas = document["components"]["schemas"]
    assert {"jurisdiction", "facts", "on"} <= set(schemas["DeterminationIn"]["properties"])


def test_the_wizard_page_and_a_section_page_render(client):
    assert client.get("/").status_code == 200
    page = client.get("/ordinances/spencer-wi/sections/413-8/", {"cite": "§ 413-8C"})
    assert page.status_code == 200
    assert (
        "Content of control plan statement for land disturbing activities" in page.content.decode()
    )
    assert client.get("/ordinances/spencer-wi/sections/413-99/").status_code == 404
    assert client.get("/ordinances/nowhere-wi/").status_code == 404


def test_the_wizard_answer_links_each_citation_to_its_section(client):
    response = client.post(
        "/permit-check/answer",
        {
            "jurisdiction": "spencer-wi",
            "on": "2026-06-01",
            "disturbed_area": "5000",
            "runoff_leaves_site": "on",
        },
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "Yes, a permit is required" in html
    assert "/ordinances/spencer-wi/sections/413-7/?cite=" in html


def test_the_wizard_shows_bad_input_naming_the_field(client):
    response = client.post(
        "/permit-check/answer", {"jurisdiction": "spencer-wi", "disturbed_area": "lots"}
    )
    assert response.status_code == 400
    assert "disturbed_area" in response.content.decode()


def test_a_no_permit_answer_still_carries_the_street_tracking_duty_over_http(client):
    # § 413-11B binds "activity at a construction site", with or without a permit.
    response = post(
        client,
        {"jurisdiction": "spencer-wi", "on": "2026-06-01", "facts": {"disturbed_area": 3000}},
    )
    assert response.status_code == 200
    body = response.json()
    assert body["applies"] is False
    duty = next(r for r in body["requirements"] if r["citation"] == "§ 413-11B")
    assert duty["scope"] == "every_site"
    assert "subcontractors" in duty["responsible"]


def test_the_home_page_says_the_street_duty_binds_without_a_permit(client):
    response = client.post(
        "/permit-check/answer",
        {"jurisdiction": "spencer-wi", "on": "2026-06-01", "disturbed_area": "3000"},
    )
    text = response.content.decode()
    assert "No permit is required" in text
    assert "§ 413-11B" in text
    assert "Binds every construction site, with or without a permit." in text
