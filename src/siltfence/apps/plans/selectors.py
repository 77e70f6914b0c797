"""Reads of control plans, scoped like the applications they belong to."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from siltfence.apps.permits.models import Application
from siltfence.apps.permits.selectors import applications_visible_to
from siltfence.apps.plans.models import ControlPlan


def control_plans_visible_to(user: Any) -> QuerySet[ControlPlan]:
    return ControlPlan.objects.filter(application__in=applications_visible_to(user))


def control_plan_latest(*, application: Application) -> ControlPlan | None:
    return application.control_plans.order_by("-revision").first()
