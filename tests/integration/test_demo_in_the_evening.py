"""The demo loads at any hour: at 11:30 p.m. in Spencer (Central time) the day in UTC is
already the next one, and a record dated by the UTC day would begin "after the day it is
recorded" by the village's calendar."""

from __future__ import annotations

import datetime
from io import StringIO
from unittest import mock

import pytest

from siltfence.apps.enforcement.models import Violation
from tools.demo import demo_load

# Monday 2026-11-30 at 23:30 CST (UTC-6) is Tuesday 2026-12-01 at 05:30 UTC.
EVENING = datetime.datetime(2026, 12, 1, 5, 30, tzinfo=datetime.UTC)


@pytest.mark.django_db
def test_the_demo_loads_late_in_the_evening_with_the_villages_own_days():
    with mock.patch("django.utils.timezone.now", return_value=EVENING):
        demo_load(out=StringIO())
    spencer = Violation.objects.get(case__village_id="spencer-wi")
    # Fourteen days before Monday 2026-11-30, Spencer's own day: Monday 2026-11-16.
    assert spencer.days_from == datetime.date(2026, 11, 16)
