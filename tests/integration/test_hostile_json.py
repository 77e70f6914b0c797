"""Deep JSON and hostile quantities where a signed-in applicant sends them: the plan map's
save and site check, and a GeoJSON document. Each is refused naming the field, and nothing
is written."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest
from django.urls import reverse

from siltfence.apps.permits import services as permits
from siltfence.apps.permits.models import Document, DocumentKind
from siltfence.apps.plans.models import ControlPlan
from siltfence.core.errors import SiltfenceError

pytestmark = pytest.mark.django_db
BACKEND = "django.contrib.auth.backends.ModelBackend"
DEEP = "[" * 100_000 + "]" * 100_000
DEEP_SITE = '{"site": ' + '{"a": ' * 100_000 + "1" + "}" * 100_000 + "}"
STOCKPILES = Path(__file__).resolve().parents[2] / "ordinances/spencer-wi/cases/design"


@pytest.fixture
def application(villages, people):
    return permits.application_create(
        applicant=people.applicant_a,
        village=villages["spencer-wi"],
        address="220 S Pacific St",
        facts={"disturbed_area": 9000, "land_use": "residential"},
        on=datetime.date(2026, 5, 1),
    )


@pytest.fixture
def owner(client, people):
    client.force_login(people.applicant_a, backend=BACKEND)
    return client


@pytest.mark.parametrize("name", ["plans:save", "plans:site-check"])
@pytest.mark.parametrize("body", [DEEP, DEEP_SITE], ids=["arrays", "objects"])
def test_the_map_refuses_json_nested_100000_levels_deep_and_saves_nothing(
    owner, application, name, body
):
    response = owner.post(
        reverse(name, args=[application.pk]), data=body, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["detail"] == "plan: the JSON is nested more than 64 levels deep"
    assert response.json()["field"] == "plan"
    assert not ControlPlan.objects.exists()


def test_a_saved_plan_with_a_hostile_stockpile_volume_is_refused_naming_its_path(
    owner, application
):
    plan = json.loads((STOCKPILES / "stockpiles.json").read_text(encoding="utf-8"))
    index, pile = next(
        (i, f)
        for i, f in enumerate(plan["site"]["features"])
        if f["properties"]["kind"] == "stockpile"
    )
    pile["properties"]["volume"] = "1 mile^2 ** 100"
    response = owner.post(
        reverse("plans:save", args=[application.pk]),
        data=json.dumps(plan),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["field"] == f"plan.site.features[{index}].properties.volume"
    assert not ControlPlan.objects.exists()


def test_a_geojson_document_nested_100000_levels_deep_is_refused_naming_the_file(
    application, people
):
    with pytest.raises(SiltfenceError) as refused:
        permits.document_upload(
            application=application,
            user=people.applicant_a,
            kind=DocumentKind.GEOJSON,
            name="site.geojson",
            content=DEEP.encode(),
            claimed_type="application/geo+json",
        )
    assert refused.value.field == "file"
    assert "nested more than 64 levels deep" in str(refused.value)
    assert not Document.objects.exists()


def test_the_upload_page_answers_a_deep_geojson_with_a_message_not_an_error(owner, application):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("site.geojson", DEEP.encode(), "application/geo+json")
    response = owner.post(
        reverse("web:portal-upload", args=[application.pk]),
        {"kind": DocumentKind.GEOJSON, "file": upload},
    )
    assert response.status_code == 302
    (message,) = [str(m) for m in response.wsgi_request._messages]
    assert "nested more than 64 levels deep" in message.lower()
    assert not Document.objects.exists()
