"""Control plans with their site geometry: revisions, areas measured in EPSG:3071, bad
GeoJSON refused with the field named, and the plan map's pages scoped to who may see them.

Areas are checked against the ellipsoid (pyproj.Geod on GRS80) rather than against the
code under test: Wisconsin Transverse Mercator's scale factor near Spencer (lon -90.3, on
the projection's central meridian, k0 = 0.9996) makes projected areas about 0.08% smaller
than the ellipsoidal ones, so they agree to 0.2%.
"""

from __future__ import annotations

import copy
import datetime
import json
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import DatabaseError, transaction
from django.urls import reverse
from django.utils import timezone
from pyproj import Geod
from shapely.geometry import shape

from siltfence.apps.accounts.models import Membership, Role
from siltfence.apps.audit.chain import chain_verify
from siltfence.apps.audit.models import AuditEvent
from siltfence.apps.documents.pdf import lines_to_pdf
from siltfence.apps.permits import services as permits
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import DocumentKind
from siltfence.apps.plans import errors
from siltfence.apps.plans.models import ControlPlan
from siltfence.apps.plans.selectors import control_plan_latest
from siltfence.apps.plans.services import control_plan_save
from siltfence.core.engineering.errors import GeometryError

pytestmark = pytest.mark.django_db
BACKEND = "django.contrib.auth.backends.ModelBackend"
FT2_PER_M2 = 1 / 0.3048**2

# A 60 m by 44 m lot just east of Spencer's Pacific Street, and a disturbed area inside it.
BOUNDARY = [
    [-90.2970, 44.7570],
    [-90.2962, 44.7570],
    [-90.2962, 44.7574],
    [-90.2970, 44.7574],
    [-90.2970, 44.7570],
]
PHASE_1 = [
    [-90.2969, 44.7571],
    [-90.2965, 44.7571],
    [-90.2965, 44.7573],
    [-90.2969, 44.7573],
    [-90.2969, 44.7571],
]
# Overlaps the east half of phase 1 and runs on east; it starts after phase 1 ends.
PHASE_2 = [
    [-90.2967, 44.7571],
    [-90.2963, 44.7571],
    [-90.2963, 44.7573],
    [-90.2967, 44.7573],
    [-90.2967, 44.7571],
]


def feature(kind: str, ring: list[list[float]], **properties: Any) -> dict[str, Any]:
    return {
        "type": "Feature",
        "properties": {"kind": kind, **properties},
        "geometry": {"type": "Polygon", "coordinates": [ring]},
    }


def a_plan(*features: dict[str, Any], village: str = "spencer-wi") -> dict[str, Any]:
    return {
        "jurisdiction": village,
        "on": "2026-06-01",
        "land_use": "residential",
        "runoff_leaves_site": True,
        "channel_originates_on_site": False,
        "site": {"type": "FeatureCollection", "features": list(features)},
    }


SITE = a_plan(
    feature("site_boundary", BOUNDARY),
    feature("disturbed_area", PHASE_1, id="D-1", start="2026-05-01", end="2026-06-30"),
)


def ellipsoid_ft2(ring: list[list[float]]) -> float:
    area, _ = Geod(ellps="GRS80").geometry_area_perimeter(
        shape({"type": "Polygon", "coordinates": [ring]})
    )
    return abs(area) * FT2_PER_M2


@pytest.fixture
def villages() -> dict[str, Any]:
    return {v.id: v for v in permits.village_sync(years=range(2026, 2028))}


@pytest.fixture
def people(villages: dict[str, Any]) -> dict[str, Any]:
    made = {}
    for name, village, role in [
        ("bi", "spencer-wi", Role.STAFF),
        ("spencer-inspector", "spencer-wi", Role.INSPECTOR),
        ("ng-admin", "new-glarus-wi", Role.STAFF),
        ("owner", None, None),
        ("other", None, None),
    ]:
        user = get_user_model().objects.create_user(name, password="x-long-password-1")
        if village:
            Membership.objects.create(user=user, village=villages[village], role=role)
        made[name] = user
    return made


@pytest.fixture
def application(villages: dict[str, Any], people: dict[str, Any]) -> Any:
    return permits.application_create(
        applicant=people["owner"],
        village=villages["spencer-wi"],
        address="220 S Pacific St",
        facts={"disturbed_area": 9000, "land_use": "residential"},
        on=datetime.date(2026, 5, 1),
    )


def file_it(application: Any, owner: Any) -> None:
    contents = application.determination["plan"]["contents"]
    permits.application_checklist_set(
        application=application, user=owner, items=list(range(len(contents)))
    )
    permits.document_upload(
        application=application,
        user=owner,
        kind=DocumentKind.PLAN,
        name="plan.pdf",
        content=lines_to_pdf(["A control plan"], title="plan"),
        claimed_type="application/pdf",
    )
    permits.application_submit(application=application, user=owner, at=timezone.now())
    application.refresh_from_db()


def client_for(client: Any, user: Any) -> Any:
    client.force_login(user, backend=BACKEND)
    return client


# -- revisions and areas -------------------------------------------------------------------


def test_each_save_adds_a_revision_and_an_audit_event_and_keeps_the_earlier_one(
    application, people
):
    events = AuditEvent.objects.count()
    first = control_plan_save(application=application, user=people["owner"], plan_json=SITE)
    changed = copy.deepcopy(SITE)
    changed["description"] = "A house and garage on one lot."
    second = control_plan_save(application=application, user=people["owner"], plan_json=changed)

    assert (first.revision, second.revision) == (1, 2)
    assert ControlPlan.objects.filter(application=application).count() == 2
    assert control_plan_latest(application=application) == second
    assert ControlPlan.objects.get(pk=first.pk).plan == SITE
    saved = AuditEvent.objects.filter(action="control_plan_save").order_by("seq")
    # Each save of a draft's plan also determines the draft again on the measured areas.
    assert AuditEvent.objects.count() == events + 4
    assert AuditEvent.objects.filter(action="application_facts_update").count() == 2
    assert [e.after["control_plan_revision"] for e in saved] == [1, 2]
    assert saved[1].before == {"control_plan_revision": 1}
    assert saved[0].entity == "application" and saved[0].entity_id == application.pk
    assert chain_verify().ok


def test_a_revision_can_never_be_edited_in_the_database(application, people):
    saved = control_plan_save(application=application, user=people["owner"], plan_json=SITE)
    with pytest.raises(DatabaseError), transaction.atomic():
        ControlPlan.objects.filter(pk=saved.pk).update(disturbed_area_ft2=1)
    with pytest.raises(DatabaseError), transaction.atomic():
        ControlPlan.objects.filter(pk=saved.pk).delete()


def test_the_disturbed_area_of_a_lot_near_spencer_matches_the_ellipsoid_within_0_2_percent(
    application, people
):
    saved = control_plan_save(application=application, user=people["owner"], plan_json=SITE)
    expected = ellipsoid_ft2(PHASE_1)  # about 32 m x 22 m, some 7,600 sq ft
    assert 7000 < expected < 8200
    assert saved.disturbed_area_ft2 == pytest.approx(expected, rel=0.002)
    assert saved.area_disturbed_at_one_time_ft2 == pytest.approx(expected, rel=0.002)
    assert saved.at_one_time_on == datetime.date(2026, 5, 1)
    assert saved.evaluated_on == datetime.date(2026, 6, 1)


def test_overlapping_phases_count_once_and_the_largest_open_together_is_at_one_time(
    application, people
):
    plan = a_plan(
        feature("disturbed_area", PHASE_1, id="D-1", start="2026-05-01", end="2026-06-15"),
        feature("disturbed_area", PHASE_2, id="D-2", start="2026-06-16", end="2026-08-31"),
    )
    saved = control_plan_save(application=application, user=people["owner"], plan_json=plan)
    union = [
        [-90.2969, 44.7571],
        [-90.2963, 44.7571],
        [-90.2963, 44.7573],
        [-90.2969, 44.7573],
        [-90.2969, 44.7571],
    ]
    assert saved.disturbed_area_ft2 == pytest.approx(ellipsoid_ft2(union), rel=0.002)
    # The phases never overlap in time, and they are the same size: at one time is one phase.
    assert saved.area_disturbed_at_one_time_ft2 == pytest.approx(ellipsoid_ft2(PHASE_1), rel=0.002)

    overlapping = copy.deepcopy(plan)
    overlapping["site"]["features"][1]["properties"]["start"] = "2026-06-01"
    saved = control_plan_save(application=application, user=people["owner"], plan_json=overlapping)
    assert saved.area_disturbed_at_one_time_ft2 == pytest.approx(ellipsoid_ft2(union), rel=0.002)
    assert saved.at_one_time_on == datetime.date(2026, 6, 1)


# -- bad GeoJSON: the message names the field, and nothing is written --------------------


def _with_ring(ring: list[list[float]]) -> dict[str, Any]:
    return a_plan(feature("disturbed_area", ring, start="2026-05-01", end="2026-06-30"))


UNCLOSED = _with_ring([*PHASE_1[:-1], [-90.29691, 44.7571]])
BOW_TIE = _with_ring(
    [[-90.2969, 44.7571], [-90.2965, 44.7573], [-90.2965, 44.7571], [-90.2969, 44.7573],
     [-90.2969, 44.7571]]
)  # fmt: skip
STATE_PLANE = copy.deepcopy(SITE)
STATE_PLANE["site"]["crs"] = {"type": "name", "properties": {"name": "EPSG:3071"}}
MADISON_SWAPPED = _with_ring([[lat, lon] for lon, lat in PHASE_1])  # latitude first
IN_IOWA = _with_ring([[lon - 1.5, lat - 3.0] for lon, lat in PHASE_1])

BAD = [
    pytest.param(
        UNCLOSED,
        "plan.site.features[0].geometry.coordinates[0]",
        "the ring is not closed",
        id="unclosed ring",
    ),
    pytest.param(
        BOW_TIE,
        "plan.site.features[0].geometry.coordinates",
        "the Polygon intersects itself",
        id="self-intersection",
    ),
    pytest.param(
        STATE_PLANE,
        "plan.site.crs",
        "declares the coordinate system 'EPSG:3071'; GeoJSON must be WGS84",
        id="not WGS84",
    ),
    pytest.param(
        MADISON_SWAPPED,
        "plan.site.features[0].geometry.coordinates[0][0]",
        "is outside Wisconsin (longitude -92.9 to -86.2, latitude 42.4 to 47.4); it looks like "
        "latitude, longitude",
        id="latitude first",
    ),
    pytest.param(
        IN_IOWA,
        "plan.site.features[0].geometry.coordinates[0][0]",
        "is outside Wisconsin",
        id="out of Wisconsin",
    ),
]


@pytest.mark.parametrize(("plan", "field", "words"), BAD)
def test_bad_geojson_is_refused_naming_the_field_and_nothing_is_written(
    application, people, plan, field, words
):
    events = AuditEvent.objects.count()
    with pytest.raises(GeometryError) as refused:
        control_plan_save(application=application, user=people["owner"], plan_json=plan)
    assert refused.value.field == field
    assert str(refused.value).startswith(f"{field}: ")
    assert words in str(refused.value)
    assert not ControlPlan.objects.exists()
    assert AuditEvent.objects.count() == events


@pytest.mark.parametrize(("plan", "field", "words"), BAD)
def test_the_map_page_gets_the_same_message_as_a_400(
    client, application, people, plan, field, words
):
    response = client_for(client, people["owner"]).post(
        reverse("plans:save", args=[application.pk]),
        data=json.dumps(plan),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert words in response.json()["detail"]
    assert not ControlPlan.objects.exists()


def test_an_import_is_checked_and_measured_without_saving(client, application, people):
    url = reverse("plans:site-check", args=[application.pk])
    ok = client_for(client, people["owner"]).post(
        url, data=json.dumps({"site": SITE["site"]}), content_type="application/json"
    )
    assert ok.status_code == 200
    assert ok.json()["features"] == 2
    assert ok.json()["disturbed_area_ft2"] == pytest.approx(ellipsoid_ft2(PHASE_1), rel=0.002)
    bad = client.post(
        url, data=json.dumps({"site": STATE_PLANE["site"]}), content_type="application/json"
    )
    assert bad.status_code == 400
    assert bad.json()["field"] == "plan.site.crs"
    assert not ControlPlan.objects.exists()


def test_a_plan_for_another_village_is_refused(application, people):
    with pytest.raises(ActionRefused) as refused:
        control_plan_save(
            application=application,
            user=people["owner"],
            plan_json=a_plan(village="new-glarus-wi"),
        )
    assert str(refused.value) == errors.WRONG_JURISDICTION.format(
        village="spencer-wi", given="new-glarus-wi"
    )
    assert not ControlPlan.objects.exists()


def test_a_request_that_is_not_json_is_a_400_naming_the_plan(client, application, people):
    response = client_for(client, people["owner"]).post(
        reverse("plans:save", args=[application.pk]),
        data="{not json",
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["field"] == "plan"
    assert response.json()["detail"].startswith("plan: not valid JSON")


# -- who may change the plan, and when ------------------------------------------------------


def test_the_applicant_may_not_change_the_plan_once_filed_but_staff_may(application, people):
    file_it(application, people["owner"])
    with pytest.raises(ActionRefused) as refused:
        control_plan_save(application=application, user=people["owner"], plan_json=SITE)
    assert refused.value.field == "application"
    saved = control_plan_save(application=application, user=people["bi"], plan_json=SITE)
    assert saved.created_by == people["bi"]


def test_the_applicant_may_change_the_plan_when_information_is_requested(application, people):
    file_it(application, people["owner"])
    permits.application_information_request(
        application=application, staff=people["bi"], message="Show the stockpiles.",
        at=timezone.now(),
    )  # fmt: skip
    application.refresh_from_db()
    saved = control_plan_save(application=application, user=people["owner"], plan_json=SITE)
    assert saved.revision == 1


def test_nobody_changes_the_plan_of_a_decided_application_outside_an_amendment(application, people):
    file_it(application, people["owner"])
    permits.application_approve(application=application, staff=people["bi"], at=timezone.now())
    application.refresh_from_db()
    for user in (people["owner"], people["bi"]):
        with pytest.raises(ActionRefused) as refused:
            control_plan_save(application=application, user=user, plan_json=SITE)
        assert "§ 413-8E(3)(c)" in str(refused.value)
    assert not ControlPlan.objects.exists()


def test_an_inspector_sees_the_map_read_only_and_is_refused_a_save(client, application, people):
    control_plan_save(application=application, user=people["owner"], plan_json=SITE)
    inspector = client_for(client, people["spencer-inspector"])
    page = inspector.get(reverse("plans:map", args=[application.pk]))
    assert page.status_code == 200
    assert b'data-testid="read-only"' in page.content
    response = inspector.post(
        reverse("plans:save", args=[application.pk]),
        data=json.dumps(SITE),
        content_type="application/json",
    )
    assert response.status_code == 403
    assert response.json()["field"] == "application"
    assert ControlPlan.objects.count() == 1


PAGES = ["plans:map", "plans:report", "plans:report-pdf", "plans:geojson"]


@pytest.mark.parametrize("who", ["other", "ng-admin"])
def test_someone_elses_application_is_not_found_on_every_plan_page(
    client, application, people, who
):
    control_plan_save(application=application, user=people["owner"], plan_json=SITE)
    stranger = client_for(client, people[who])
    for name in PAGES:
        assert stranger.get(reverse(name, args=[application.pk])).status_code == 404, name
    for name in ("plans:save", "plans:site-check"):
        response = stranger.post(
            reverse(name, args=[application.pk]),
            data=json.dumps(SITE),
            content_type="application/json",
        )
        assert response.status_code == 404, name
    assert ControlPlan.objects.count() == 1


def test_a_visitor_who_is_not_signed_in_is_sent_to_sign_in(client, application, people):
    for name in PAGES:
        response = client.get(reverse(name, args=[application.pk]))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("web:login"))
    response = client.post(
        reverse("plans:save", args=[application.pk]),
        data=json.dumps(SITE),
        content_type="application/json",
    )
    assert response.status_code == 302
    assert not ControlPlan.objects.exists()


def test_a_save_without_the_csrf_token_is_refused(application, people):
    from django.test import Client

    guarded = Client(enforce_csrf_checks=True)
    guarded.force_login(people["owner"], backend=BACKEND)
    response = guarded.post(
        reverse("plans:save", args=[application.pk]),
        data=json.dumps(SITE),
        content_type="application/json",
    )
    assert response.status_code == 403
    assert not ControlPlan.objects.exists()


# -- the pages ------------------------------------------------------------------------------


def test_the_map_page_carries_its_data_as_json_with_no_inline_script_or_style(
    client, application, people
):
    control_plan_save(application=application, user=people["owner"], plan_json=SITE)
    page = client_for(client, people["owner"]).get(reverse("plans:map", args=[application.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert '<script id="plan-data" type="application/json">' in html
    assert "style=" not in html
    scripts = html.count("<script")
    assert scripts == html.count("<script src=") + 1  # only the JSON data block has no src
    assert "No map tiles are configured" in html
    # Every script and stylesheet is served from here (no CDN): read from the tags, not from
    # the whole page, whose random form token may spell "cdn".
    assets = re.findall(r'<script src="([^"]*)"', html) + re.findall(
        r'<link [^>]*href="([^"]*)"', html
    )
    assert assets and all(url.startswith(("/static/", "data:")) for url in assets), assets
    assert "script-src 'self'" in page["Content-Security-Policy"]
    assert "Revision 1" in html
    assert "sq ft" in html


def test_with_a_tile_url_the_page_may_load_those_tiles_and_nothing_else(
    client, application, people, settings
):
    settings.SILTFENCE_TILE_URL = "https://{s}.tiles.example.org/{z}/{x}/{y}.png"
    settings.SILTFENCE_TILE_ATTRIBUTION = "© example contributors"
    page = client_for(client, people["owner"]).get(reverse("plans:map", args=[application.pk]))
    policy = page["Content-Security-Policy"]
    assert "img-src 'self' data: https://*.tiles.example.org" in policy
    assert "script-src 'self'" in policy
    assert "No map tiles are configured" not in page.content.decode()
    assert "https://{s}.tiles.example.org/{z}/{x}/{y}.png" in page.content.decode()


def test_the_report_pdf_and_geojson_are_of_the_latest_revision(client, application, people):
    control_plan_save(application=application, user=people["owner"], plan_json=SITE)
    changed = copy.deepcopy(SITE)
    changed["site"]["features"].append(
        feature("sediment_trap", PHASE_2),
    )
    control_plan_save(application=application, user=people["owner"], plan_json=changed)
    owner = client_for(client, people["owner"])

    report = owner.get(reverse("plans:report", args=[application.pk]))
    assert report.status_code == 200
    html = report.content.decode()
    assert "Control plan revision 2" in html
    assert 'data-testid="site-areas"' in html and "at one time" in html
    assert "§ 413-" in html

    pdf = owner.get(reverse("plans:report-pdf", args=[application.pk]))
    assert pdf.status_code == 200
    assert pdf["Content-Type"] == "application/pdf"
    assert pdf["Content-Disposition"].startswith("attachment;")
    assert f"{application.number}-r2.pdf" in pdf["Content-Disposition"]
    assert pdf.content.startswith(b"%PDF-")

    geojson = owner.get(reverse("plans:geojson", args=[application.pk]))
    assert geojson["Content-Type"].startswith("application/geo+json")
    assert geojson["Content-Disposition"].startswith("attachment;")
    assert json.loads(geojson.content) == changed["site"]


def test_before_any_plan_is_saved_the_report_says_so(client, application, people):
    owner = client_for(client, people["owner"])
    for name in ("plans:report", "plans:report-pdf", "plans:geojson"):
        response = owner.get(reverse(name, args=[application.pk]))
        assert response.status_code == 404
        assert b"No control plan has been saved" in response.content
    page = owner.get(reverse("plans:map", args=[application.pk]))
    assert page.status_code == 200
    assert b"No plan saved yet." in page.content


def test_the_application_pages_link_to_the_plan_map(client, application, people):
    link = reverse("plans:map", args=[application.pk]).encode()
    owner = client_for(client, people["owner"])
    assert link in owner.get(reverse("web:portal-application", args=[application.pk])).content
    staff = client_for(client, people["bi"])
    assert link in staff.get(reverse("web:staff-application", args=[application.pk])).content


def test_a_drafts_determination_follows_the_areas_measured_on_its_plan(application, people):
    saved = control_plan_save(application=application, user=people["owner"], plan_json=SITE)
    application.refresh_from_db()
    assert application.facts["disturbed_area"] == pytest.approx(saved.disturbed_area_ft2, abs=0.1)
    assert application.facts["area_disturbed_at_one_time"] == pytest.approx(
        saved.area_disturbed_at_one_time_ft2, abs=0.1
    )
    area = next(f for f in application.determination["findings"] if f["id"] == "area-trigger")
    assert area["holds"] is True
    update = AuditEvent.objects.get(action="application_facts_update")
    assert update.reason == "areas measured on control plan revision 1"
