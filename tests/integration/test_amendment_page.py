"""The staff page that answers "what would this amendment change?" over the village's own
applications or an uploaded file."""

from __future__ import annotations

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from siltfence.apps.accounts.models import Membership, Role
from siltfence.apps.permits import services
from siltfence.apps.permits.models import Village

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(django_user_model):
    services.village_sync(years=range(2026, 2027))
    user = django_user_model.objects.create_user("bi", password="x-long-password-1")
    Membership.objects.create(user=user, village_id="spencer-wi", role=Role.STAFF)
    owner = django_user_model.objects.create_user("owner", password="x-long-password-1")
    # Three past applications: 5,000, 30,000 and 50,000 sq ft (Spencer § 413-7A(3)).
    for area in (5000, 30000, 50000):
        services.application_create(
            applicant=owner,
            village=Village.objects.get(pk="spencer-wi"),
            address=f"{area} Main St",
            facts={"disturbed_area": area},
            on=datetime.date(2026, 5, 1),
        )
    return user


def test_a_one_acre_trigger_over_the_village_s_applications_drops_two_permits(client, staff):
    client.force_login(staff)
    url = reverse("web:village-amendment", args=["spencer-wi"])
    page = client.post(url, {"area_trigger": "1 acre", "source": "past"})
    assert page.status_code == 200
    text = page.content.decode()
    assert "3 permits now, 1 under the draft" in text
    assert "§ 413-7A(3)" in text
    assert "Area trigger" in text
    assert "area-trigger" not in text  # plain words on the screen


def test_an_uploaded_file_is_analysed_and_a_bad_value_names_the_field(client, staff):
    client.force_login(staff)
    url = reverse("web:village-amendment", args=["spencer-wi"])
    upload = SimpleUploadedFile("projects.csv", b"disturbed_area\n5000\n3000\n")
    page = client.post(url, {"area_trigger": "3000 sq ft", "source": "file", "projects": upload})
    assert page.status_code == 200
    assert "1 permits now, 2 under the draft" in page.content.decode()
    bad = client.post(url, {"area_trigger": "1 mile^2 ** 100", "source": "past"})
    assert bad.status_code == 400
    assert "proposed.area_trigger:" in bad.content.decode()


def test_a_binary_upload_is_refused_with_a_clear_message(client, staff):
    client.force_login(staff)
    url = reverse("web:village-amendment", args=["spencer-wi"])
    upload = SimpleUploadedFile("projects.csv", b"\xff\xfe\x00garbage")
    page = client.post(url, {"area_trigger": "1 acre", "source": "file", "projects": upload})
    assert page.status_code == 400
    assert "projects:" in page.content.decode()


def test_only_thresholds_that_decide_an_answer_are_offered(client, staff):
    # § 413-7A(3) decides whether a permit is needed; § 413-7B(1)'s 100 microns is a design
    # criterion that no determination turns on.
    client.force_login(staff)
    page = client.get(reverse("web:village-amendment", args=["spencer-wi"])).content.decode()
    assert 'name="area_trigger"' in page
    assert 'name="plan_tier_area"' in page
    assert 'name="dewatering_particle_size"' not in page
