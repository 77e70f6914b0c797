"""Closing the permit at final stabilization."""

from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction

from siltfence.apps.audit.chain import event_record
from siltfence.apps.permits import errors
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import Permit, PermitStatus, TimelineEvent
from siltfence.apps.permits.services.common import (
    MAX_MEASURES_LENGTH,
    _day_moment,
    _not_before_issue,
    require_staff,
    village_ordinance,
)


def permit_close(
    *,
    permit: Permit,
    staff: Any,
    on: datetime.date,
    cover_percent: int | None,
    equivalent_measures: str = "",
    activities_completed: bool = False,
) -> None:
    """Close the permit at final stabilization.

    New Glarus § 135-13: "a uniform perennial vegetative cover has been established, with a
    density of at least 70% of the cover ... or employment of equivalent permanent
    stabilization measures". Staff record the cover, or describe the equivalent measures;
    either closes the permit. Spencer's chapter sets no cover density (§ 413-6), so staff
    record what they found. Where the chapter's final stabilization also needs the work
    finished (New Glarus § 135-13: "all land-disturbing construction activities at the
    construction site have been completed"), staff say so (``activities_completed``).
    """
    ordinance = village_ordinance(permit.village_id)
    require_staff(staff, permit, ordinance)
    final = ordinance.rules["permit"]["final_stabilization"]
    citation = final["citation"]
    if "activities_completed" in final and not activities_completed:
        raise ActionRefused(
            errors.ACTIVITIES_NOT_COMPLETED.format(
                says=final["activities_completed"], citation=citation
            ),
            field="completed",
        )
    measures = equivalent_measures.strip()
    if cover_percent is not None and not 0 <= cover_percent <= 100:
        raise ActionRefused(errors.COVER_OUT_OF_RANGE, field="cover")
    if "\x00" in measures:
        raise ActionRefused(errors.NUL_IN_TEXT.format(field="measures"), field="measures")
    if len(measures) > MAX_MEASURES_LENGTH:
        raise ActionRefused(
            errors.MEASURES_TOO_LONG.format(limit=MAX_MEASURES_LENGTH), field="measures"
        )
    if cover_percent is None and not measures:
        raise ActionRefused(
            errors.STABILIZATION_NOT_RECORDED.format(citation=citation), field="cover"
        )
    if "final_stabilization_cover" in ordinance.parameters and not measures:
        required = ordinance.parameter("final_stabilization_cover", on)
        citation = required.citation
        if (
            required.value is not None
            and cover_percent is not None
            and cover_percent < float(required.value)
        ):
            raise ActionRefused(
                errors.COVER_OR_MEASURES.format(
                    minimum=int(float(required.value)), citation=citation, given=cover_percent
                ),
                field="cover",
            )
    with transaction.atomic():
        locked = Permit.objects.select_for_update().get(pk=permit.pk)
        if locked.status != PermitStatus.ACTIVE:
            raise ActionRefused(
                errors.PERMIT_NOT_ACTIVE.format(status=locked.status), field="permit"
            )
        _not_before_issue(locked, on)
        locked.status = PermitStatus.CLOSED
        locked.closed_on = on
        locked.final_cover_percent = cover_percent
        locked.final_stabilization_measures = measures
        locked.save(
            update_fields=[
                "status",
                "closed_on",
                "final_cover_percent",
                "final_stabilization_measures",
            ]
        )
        TimelineEvent.objects.create(
            application_id=locked.application_id,
            type="final_stabilization",
            at=_day_moment(locked, on, ordinance),
        )
        how = []
        if cover_percent is not None:
            how.append(f"{cover_percent}% perennial cover")
        if measures:
            how.append(f"equivalent permanent stabilization measures: {measures}")
        event_record(
            actor=staff,
            entity="permit",
            entity_id=locked.pk,
            action="permit_close",
            village=locked.village_id,
            reason="final stabilization, " + "; ".join(how),
            citation=citation,
            before={"status": "active"},
            after={
                "status": "closed",
                "closed_on": on,
                "cover_percent": cover_percent,
                **({"equivalent_measures": measures} if measures else {}),
            },
        )
        from siltfence.apps.permits.services.letters import closeout_letter_store

        closeout_letter_store(permit=locked)
    permit.refresh_from_db()
