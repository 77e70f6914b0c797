"""Reads of the imported rain record."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Max, Min, Q

from siltfence.apps.rain.models import Station


def stations_with_days() -> list[dict[str, Any]]:
    """Each imported station with how many days it holds and from when to when."""
    return list(
        Station.objects.annotate(
            days=Count("rain_days"),
            with_value=Count("rain_days", filter=Q(rain_days__tenths_mm__isnull=False)),
            first=Min("rain_days__day"),
            last=Max("rain_days__day"),
        )
        .order_by("id")
        .values("id", "name", "state", "days", "with_value", "first", "last")
    )
