"""Reads of the village's inspections, scoped to the person asking: a photo is reached only
through a permit the person may see."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from siltfence.apps.inspections.models import Inspection, InspectionPhoto
from siltfence.apps.permits.models import Permit
from siltfence.apps.permits.selectors import permits_visible_to


def recent_inspections(permit: Permit, count: int = 20) -> QuerySet[Inspection]:
    """The permit's latest ``count`` inspections, each with its inspector and photos."""
    return permit.inspections.select_related("inspector").prefetch_related("photos")[:count]


def inspection_photos_visible_to(user: Any) -> QuerySet[InspectionPhoto]:
    return InspectionPhoto.objects.filter(inspection__permit__in=permits_visible_to(user))
