"""The season outlook on the application page, from the rain record in the database.

History made for the test at Marshfield (the station nearest the plan's Spencer site):
every day of May on record, 1991 to 2020; two rains of 0.60 inch (152 tenths of a mm,
each alone between dry days) in each May of 1991-2005, four in each May of 2006-2020. For
a schedule of May: fifteen years of 2 and fifteen of 4, so the median is 3 (the 15th and
16th of 30 are 2 and 4), the 10th percentile 2 and the 90th 4."""

from __future__ import annotations

import copy
import datetime
import json
from pathlib import Path

import factories
import pytest
from django.test import Client

from siltfence.apps.duties.stations import stations_sync
from siltfence.apps.plans.services import control_plan_save
from siltfence.apps.rain.days import rain_days_record

pytestmark = pytest.mark.django_db
REPO = Path(__file__).resolve().parents[2]
PLAN = json.loads((REPO / "ordinances/spencer-wi/cases/design/stockpiles.json").read_text())
MARSHFIELD = "USC00475120"


@pytest.fixture
def draft(people):
    application = factories.make_application(
        applicant=people.applicant_a, village=factories.SPENCER, state="draft"
    )
    plan = copy.deepcopy(PLAN)
    plan["schedule"] = [{"activity": "grading", "start": "2027-05-01", "end": "2027-05-31"}]
    control_plan_save(application=application, user=people.applicant_a, plan_json=plan)
    stations_sync()
    return application


def page(application, user) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(f"/portal/applications/{application.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def test_without_history_the_page_says_none_is_on_record_and_names_the_station(draft, people):
    content = page(draft, people.applicant_a)
    assert "no rain history for" in content and MARSHFIELD in content


def test_with_thirty_years_of_may_the_page_gives_the_median_and_the_percentiles(draft, people):
    for year in range(1991, 2021):
        days = {datetime.date(year, 5, d): 0 for d in range(1, 32)}
        wet = (3, 10) if year <= 2005 else (3, 10, 17, 24)
        days.update({datetime.date(year, 5, d): 152 for d in wet})
        rain_days_record(station_id=MARSHFIELD, days=days, source="test")
    content = page(draft, people.applicant_a)
    assert "about <strong>3</strong> inspections after rain" in content
    assert "(between 2 and 4 in eight years of ten)" in content
    assert "30 years of rain (1991 to 2020)" in content
    assert "§ 413-8E(3)(g)" in content
