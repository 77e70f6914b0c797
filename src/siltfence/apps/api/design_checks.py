"""``POST /api/v1/design-checks``: the design-check report of a control plan.

The body is the plan itself (docs/plan-format.md), checked strictly by the core: an unknown
key, a wrong type, a unit that does not fit or bad GeoJSON raises a ``SiltfenceError`` naming
the field path (``plan.site.features[2].properties.volume``), which the API answers with 400.
Mounted in ``api.py`` with ``api.add_router("", router)``.
"""

from __future__ import annotations

import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.http import HttpRequest
from ninja import Router
from ninja.params.functions import Body

from siltfence.apps.api.schemas import ErrorOut
from siltfence.core.engineering.report import review_plan
from siltfence.core.errors import SiltfenceError
from siltfence.core.ordinance.loader import load

DESCRIPTION = (
    "The body is a control plan (`jurisdiction`, `on`, `site` GeoJSON, `dewatering`, "
    "`sheet_flow`, `schedule`, `inactive_areas`, `maintenance`, `contents`...; see "
    "docs/plan-format.md). The answer "
    "is one report: the site areas measured from the geometry, the determination made with "
    "them, the plan checklist ticked from what the plan holds, and every design check sorted "
    "failures first (fail, needs-action, pass, info), each with its inputs, formula, steps, "
    "result, citation and fix."
)


def plan_date(plan: Any) -> datetime.date | None:
    """None when the plan gives its own ``on``; else today in the village's time zone."""
    if not isinstance(plan, dict) or "on" in plan:
        return None
    jurisdiction = plan.get("jurisdiction")
    if not isinstance(jurisdiction, str):
        return None  # the core names the missing or bad jurisdiction
    return datetime.datetime.now(ZoneInfo(load(jurisdiction).time_zone)).date()


def make_router() -> Router:
    """A fresh router (a ninja Router mounts on one API only; tests mount their own)."""
    router = Router(tags=["design checks"])

    @router.post(
        "/v1/design-checks",
        response={200: dict[str, Any], 400: ErrorOut},
        summary="Design-check report of a control plan",
        description=DESCRIPTION,
    )
    def post_design_checks(
        request: HttpRequest,
        plan: dict[str, Any] = Body(...),  # noqa: B008 (ninja's way to take the whole body)
    ) -> dict[str, Any]:
        if not isinstance(plan, dict):
            raise SiltfenceError("plan: expected a JSON object", field="plan")
        return review_plan(plan, on=plan_date(plan)).to_dict()

    return router


router = make_router()
