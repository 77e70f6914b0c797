"""The plan map in a real Chromium, with no internet and no tiles: the applicant imports a
GeoJSON site, saves it and reads the measured disturbed area, then draws a disturbed area
with Geoman, is told which field it lacks, gives it its dates and saves again.

Leaflet and Geoman are served from this site; the page's CSP allows scripts and styles from
'self' only. The test fails on any console error, so a CSP violation that would break the
map (a blocked script, a blocked stylesheet) cannot pass unnoticed.
"""

from __future__ import annotations

import datetime
import json
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect
from pyproj import Geod
from shapely.geometry import shape

from conftest import DESK, assert_accessible
from siltfence.apps.permits import services
from siltfence.apps.plans.models import ControlPlan
from siltfence.core.engineering.units import fmt

PASSWORD = "map-walk-through-password-2026"
FT2_PER_M2 = 1 / 0.3048**2
BOUNDARY = [
    [-90.2970, 44.7570],
    [-90.2962, 44.7570],
    [-90.2962, 44.7574],
    [-90.2970, 44.7574],
    [-90.2970, 44.7570],
]
DISTURBED = [
    [-90.2969, 44.7571],
    [-90.2965, 44.7571],
    [-90.2965, 44.7573],
    [-90.2969, 44.7573],
    [-90.2969, 44.7571],
]
SITE = {
    "type": "FeatureCollection",
    "features": [
        {
            "type": "Feature",
            "properties": {"kind": "site_boundary"},
            "geometry": {"type": "Polygon", "coordinates": [BOUNDARY]},
        },
        {
            "type": "Feature",
            "properties": {
                "kind": "disturbed_area",
                "id": "D-1",
                "phase": "foundation",
                "start": "2026-05-01",
                "end": "2026-06-30",
            },
            "geometry": {"type": "Polygon", "coordinates": [DISTURBED]},
        },
    ],
}


@pytest.fixture
def draft(purgeable_audit):
    villages = {v.id: v for v in services.village_sync()}
    owner = get_user_model().objects.create_user("owner", password=PASSWORD)
    return services.application_create(
        applicant=owner,
        village=villages["spencer-wi"],
        address="220 S Pacific St",
        facts={"disturbed_area": 9000, "land_use": "residential"},
        on=datetime.date(2026, 5, 1),
    )


def sign_in(page, base):
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill("owner")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()


@pytest.mark.django_db(transaction=True)
def test_import_a_site_save_it_then_draw_a_disturbed_area_with_geoman(
    live_server, page, draft, tmp_path
):
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on(
        "console",
        lambda message: (
            problems.append(f"console {message.type}: {message.text}")
            if message.type == "error"
            else None
        ),
    )
    base = live_server.url
    sign_in(page, base)
    page.goto(f"{base}/portal/applications/{draft.pk}/")
    page.get_by_test_id("plan-map-link").click()

    # The vector view: no tiles, Leaflet's own panes and scale bar, the Geoman toolbar.
    expect(page.get_by_test_id("tiles-note")).to_contain_text("No map tiles are configured")
    expect(page.locator("#plan-map.leaflet-container")).to_be_visible()
    expect(page.locator(".leaflet-control-scale")).to_be_visible()
    expect(page.locator(".leaflet-pm-toolbar .leaflet-pm-icon-polygon")).to_be_visible()
    expect(page.locator(".leaflet-tile")).to_have_count(0)
    expect(page.get_by_test_id("plan-status")).to_have_text("No plan saved yet.")
    # Nothing drawn yet: the map opens on the village centre its ordinance data gives.
    opened = json.loads(page.locator("#plan-data").text_content())["centre"]
    assert opened == [44.7573, -90.2966]
    # Every drawing tool has a name a screen reader reads.
    tools = page.locator(".leaflet-pm-toolbar a.leaflet-buttons-control-button")
    assert tools.count() == 7
    expect(page.get_by_role("button", name="Draw an area (polygon)")).to_be_visible()
    expect(page.get_by_role("button", name="Delete features by clicking them")).to_be_visible()
    assert_accessible(page)

    # Import a GeoJSON file: the server checks and measures it before it is drawn.
    upload = tmp_path / "site.geojson"
    upload.write_text(json.dumps(SITE))
    page.locator("#import-file").set_input_files(str(upload))
    expect(page.get_by_test_id("plan-status")).to_contain_text("Imported 2 feature(s)")
    paths = page.locator("#plan-map svg path.plan-feature")
    expect(paths).to_have_count(2)
    expect(page.locator("#plan-map path.kind-disturbed_area")).to_have_count(1)
    expect(page.locator("#plan-map path.kind-site_boundary")).to_have_count(1)
    expect(page.get_by_test_id("feature-list").locator("li")).to_have_count(2)
    assert_accessible(page)

    page.get_by_test_id("save").click()
    expect(page.get_by_test_id("plan-status")).to_contain_text("Revision 1 saved")
    first = ControlPlan.objects.get(application=draft, revision=1)
    ellipsoid, _ = Geod(ellps="GRS80").geometry_area_perimeter(
        shape({"type": "Polygon", "coordinates": [DISTURBED]})
    )
    assert first.disturbed_area_ft2 == pytest.approx(abs(ellipsoid) * FT2_PER_M2, rel=0.002)
    expect(page.get_by_test_id("plan-status")).to_contain_text(
        f"disturbed area {fmt(first.disturbed_area_ft2, 'ft**2')}"
    )

    # Draw a second phase with Geoman's polygon tool: four clicks, then the first vertex.
    page.locator("#kind-picker").select_option("disturbed_area")
    page.locator(".leaflet-pm-icon-polygon").click()
    box = page.locator("#plan-map").bounding_box()
    corners = [(0.55, 0.15), (0.9, 0.15), (0.9, 0.4), (0.55, 0.4), (0.55, 0.15)]
    for fx, fy in corners:
        page.mouse.click(box["x"] + box["width"] * fx, box["y"] + box["height"] * fy)
    expect(paths).to_have_count(3)
    expect(page.get_by_test_id("feature-list").locator("li")).to_have_count(3)
    expect(page.locator("#feature-form")).to_be_visible()

    # Saved without its dates, the server names the field; the page shows it and nothing saves.
    page.get_by_test_id("save").click()
    expect(page.get_by_test_id("plan-error")).to_contain_text(
        "feature 3 of the plan, start: a disturbed area needs start"
    )
    assert ControlPlan.objects.filter(application=draft).count() == 1

    page.get_by_label("start, required").fill("2026-07-01")
    page.get_by_label("end, required").fill("2026-08-15")
    page.get_by_label("phase").fill("garage")
    page.get_by_role("button", name="Apply to the feature").click()
    page.get_by_test_id("save").click()
    expect(page.get_by_test_id("plan-status")).to_contain_text("Revision 2 saved")
    expect(page.get_by_test_id("plan-error")).to_be_hidden()
    second = ControlPlan.objects.get(application=draft, revision=2)
    drawn = second.plan["site"]["features"][2]
    assert drawn["properties"] == {
        "kind": "disturbed_area",
        "start": "2026-07-01",
        "end": "2026-08-15",
        "phase": "garage",
    }
    assert drawn["geometry"]["type"] == "Polygon"
    assert second.disturbed_area_ft2 > first.disturbed_area_ft2

    # The stored plan's report, from the link the save put on the page.
    page.get_by_role("link", name="Design-check report").click()
    expect(page.get_by_test_id("plan-revision")).to_contain_text("revision 2")
    expect(page.get_by_test_id("site-areas")).to_contain_text(
        re.compile(r"The plan disturbs [\d,]+ sq ft")
    )
    assert_accessible(page)
    # The one expected error: the browser logs the refused save's 400 response.
    refused = "Failed to load resource: the server responded with a status of 400"
    assert [p for p in problems if refused not in p] == []
    assert not [p for p in problems if "Content Security Policy" in p]


@pytest.mark.django_db(transaction=True)
def test_at_a_desk_the_map_page_is_accessible_and_its_tools_are_named(live_server, browser, draft):
    page = browser.new_context(viewport=DESK).new_page()
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/plans/applications/{draft.pk}/map/")
    expect(page.locator("#plan-map.leaflet-container")).to_be_visible()
    for name in ("Draw an area (polygon)", "Draw a rectangle", "Draw a line", "Draw a point"):
        expect(page.get_by_role("button", name=name)).to_be_visible()
    assert_accessible(page)
    page.context.close()
