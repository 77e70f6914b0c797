"""A village whose chapter has other numbers, another name and another id runs end to end
with no code: it is made from its folder, answers the API, takes an application to a
permit, and its staff post a stop-work order, each citing its own sections; the public
register lists it under its own name.

The village is Spencer's Ch. 413 copied as Ch. 952 of the "Village of Otherton"
(``tests/renumbered.py``): the same law under other numbers. A rule the code chose by a
section number or a village id would answer in Spencer's numbers here, or fail.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from factories import text_of

from renumbered import write_root
from siltfence.apps.accounts.models import Role
from siltfence.apps.enforcement import services as enforcement
from siltfence.apps.permits.models import DocumentKind, Village
from siltfence.core.ordinance.loader import load

pytestmark = pytest.mark.django_db
OTHERTON = "otherton-wi"


@pytest.fixture
def otherton(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, villages: dict[str, Any]
) -> Iterator[dict[str, Any]]:
    root = write_root(tmp_path / "ordinances")
    monkeypatch.setenv("SILTFENCE_ORDINANCES", str(root))
    monkeypatch.setenv("SILTFENCE_CACHE_DIR", str(tmp_path / "cache"))
    load.cache_clear()
    factories.villages()  # the village made from its folder, as on any installation
    yield {
        "staff": factories.make_user("otherton-staff", village=OTHERTON, role=Role.STAFF),
        "applicant": factories.make_user("otherton-applicant"),
    }
    load.cache_clear()


def test_the_village_is_made_from_its_folder_and_answers_the_api(otherton):
    assert Village.objects.get(pk=OTHERTON).name == "Village of Otherton"
    client = Client()
    listed = {j["id"]: j for j in client.get("/api/v1/jurisdictions").json()}
    assert listed[OTHERTON]["name"] == "Village of Otherton"
    answer = client.post(
        "/api/v1/determinations",
        {"jurisdiction": OTHERTON, "on": "2026-06-01", "facts": {"disturbed_area": "1.5 acre"}},
        content_type="application/json",
    ).json()
    assert answer["applies"] is True
    area = next(f for f in answer["findings"] if f["id"] == "area-trigger")
    assert area["holds"] is True and area["citation"] == "§ 952-7A(3)"
    # More than one acre: the control plan of 952-8B, not the statement of 952-8C.
    assert answer["plan"]["kind"] == "control_plan"
    assert answer["plan"]["citation"] == "§ 952-8B"


def test_an_application_becomes_a_permit_and_an_order_is_posted_in_its_own_sections(otherton):
    staff, applicant = otherton["staff"], otherton["applicant"]
    application = factories.make_application(
        applicant=applicant,
        village=OTHERTON,
        state="approved",
        staff=staff,
        address="12 Elm St, Otherton",
        facts={"disturbed_area": 9000, "land_use": "residential"},
    )
    permit = application.permit
    assert application.documents.filter(kind=DocumentKind.PERMIT).exists()
    client = Client()
    client.force_login(staff, backend=factories.ModelBackend)
    page = text_of(client.get(reverse("web:permit", args=[permit.pk])))
    assert "§ 952-8E(1)" in page  # the permit's term
    assert "§ 413-" not in page and "Spencer" not in page

    now = timezone.now()
    case = enforcement.violation_record(
        village=permit.village,
        recorded_by=staff,
        source="observation",
        description="Silt fence down along the east lot line.",
        provision="§ 952-7B(5)(c)",
        days_from=timezone.localdate(now) - datetime.timedelta(days=1),
        at=now - datetime.timedelta(hours=2),
        permit=permit,
    ).case
    enforcement.stop_work_order_post(
        case=case, staff=staff, at=now - datetime.timedelta(hours=1), grounds=["plan-not-followed"]
    )
    shown = text_of(client.get(reverse("enforcement:case", args=[case.pk])))
    assert "§ 952-10A" in shown and "§ 952-7B(5)(c)" in shown
    assert "§ 413-" not in shown

    register = text_of(Client().get(reverse("register:register"), {"village": OTHERTON}))
    assert permit.number in register and "Village of Otherton" in register
    assert "§ 952-10A" in register
