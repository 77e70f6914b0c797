"""Plans larger than a site's plan can be, refused over HTTP with the bound they pass: the
API with 400 and the field, the web page on its form (the ``MAX_`` bounds of ``plan``)."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest

from siltfence.core.engineering.plan import MAX_FEATURES, MAX_SHEET_FLOW

REPO = Path(__file__).resolve().parents[2]
SHEET_FLOW = REPO / "ordinances/spencer-wi/cases/design/sheet-flow.json"


def plan_of_phases(count: int) -> dict:
    """The reported plan: ``count`` disturbed areas, each starting on another day and all
    open to 2099-12-31 (1,000 of them: 319 kB, and 55 s before the bounds)."""
    plan = json.loads(SHEET_FLOW.read_text(encoding="utf-8"))
    lon, lat, step = -90.2968, 44.7578, 0.0001
    for i in range(count):
        x, y = lon + (i % 50) * step, lat + (i // 50) * step
        ring = [[x, y], [x + 0.8 * step, y], [x + 0.8 * step, y + 0.8 * step], [x, y]]
        start = datetime.date(2026, 1, 1) + datetime.timedelta(days=i)
        plan["site"]["features"].append(
            {
                "type": "Feature",
                "properties": {
                    "kind": "disturbed_area",
                    "id": f"D-{i + 2}",
                    "start": start.isoformat(),
                    "end": "2099-12-31",
                },
                "geometry": {"type": "Polygon", "coordinates": [ring]},
            }
        )
    return plan


@pytest.fixture
def api_client():
    from ninja import NinjaAPI
    from ninja.errors import ValidationError
    from ninja.testing import TestClient

    from siltfence.apps.api.api import bad_body, bad_input
    from siltfence.apps.api.design_checks import make_router
    from siltfence.core.errors import SiltfenceError

    api = NinjaAPI(urls_namespace="design-check-limits-test")
    api.add_exception_handler(SiltfenceError, bad_input)
    api.add_exception_handler(ValidationError, bad_body)
    api.add_router("", make_router())
    return TestClient(api)


def test_the_api_refuses_the_plan_of_1000_phases_with_400_naming_the_bound(api_client):
    plan = plan_of_phases(1000)
    assert len(plan["site"]["features"]) == 1004
    response = api_client.post("/v1/design-checks", json=plan)
    assert response.status_code == 400
    assert response.json() == {
        "detail": f"plan.site.features: at most {MAX_FEATURES} features; got 1,004",
        "field": "plan.site.features",
    }


def test_the_api_refuses_10000_sheet_flow_paths_naming_the_bound(api_client):
    plan = json.loads(SHEET_FLOW.read_text(encoding="utf-8"))
    plan["sheet_flow"] = plan["sheet_flow"][:1] * 10_000
    response = api_client.post("/v1/design-checks", json=plan)
    assert response.status_code == 400
    assert response.json()["detail"] == (
        f"plan.sheet_flow: at most {MAX_SHEET_FLOW} paths; got 10,000"
    )


def test_the_api_still_answers_a_plan_within_the_bounds(api_client):
    response = api_client.post("/v1/design-checks", json=plan_of_phases(20))
    assert response.status_code == 200
    assert len(response.json()["site"]["at_one_time_features"]) == 21


@pytest.mark.django_db
def test_the_web_page_gives_the_bound_back_on_the_form(client):
    response = client.post("/design-checks/", {"plan": json.dumps(plan_of_phases(300))})
    assert response.status_code == 400
    html = response.content.decode()
    assert 'data-field="plan.site.features"' in html
    assert f"at most {MAX_FEATURES} features; got 304" in html
