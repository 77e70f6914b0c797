"""Times as the village's clock shows them: ``{% load village_time %}``.

The database keeps UTC; every screen shows the jurisdiction's local time with its zone's
abbreviation (CST or CDT), the zone coming from the ordinance's data."""

from __future__ import annotations

import datetime

from django import template
from django.conf import settings

from siltfence.presentation import wording

register = template.Library()


@register.filter
def local_time(value: object, zone: str) -> str:
    """A stored time in the village's zone with its abbreviation: ``2026-11-30 11:55 CST``."""
    if not isinstance(value, datetime.datetime):
        return ""
    return wording.local_time(value, zone or settings.TIME_ZONE)


@register.filter
def when(value: object, zone: str) -> str:
    """A timeline date as is, or a timeline time in the village's zone."""
    return wording.when(str(value), zone or settings.TIME_ZONE) if value else ""


@register.filter
def in_village(value: object, village_id: str) -> str:
    """A stored time in the named village's zone: ``{{ t|in_village:application.village_id }}``."""
    from siltfence.core.ordinance.loader import load

    return local_time(value, load(village_id).time_zone)
