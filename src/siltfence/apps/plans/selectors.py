"""Reads of control plans (a plan is reached through its application, which the views scope
to the user first)."""

from __future__ import annotations

from siltfence.apps.permits.models import Application
from siltfence.apps.plans.models import ControlPlan


def control_plan_latest(*, application: Application) -> ControlPlan | None:
    return application.control_plans.order_by("-revision").first()
