"""Reads of the site log, scoped to the person asking: a photo is reached only through a
permit the person may see."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet, prefetch_related_objects

from siltfence.apps.permits.clocks import application_timeline
from siltfence.apps.permits.models import Permit
from siltfence.apps.permits.selectors import permits_visible_to
from siltfence.apps.sitelog.models import SiteLogEntry, SiteLogPhoto


def log_entries(permit: Permit) -> QuerySet[SiteLogEntry]:
    """The permit's log, newest first, each entry with its event and photos."""
    return permit.log.select_related("timeline_event").prefetch_related("photos")


def site_log_photos_visible_to(user: Any) -> QuerySet[SiteLogPhoto]:
    return SiteLogPhoto.objects.filter(entry__permit__in=permits_visible_to(user))


def duties_met_by_entry(permit: Permit, entry_pk: int) -> list[dict[str, Any]]:
    """The duties (as the core computes them from the permit's timeline) that the permit's
    log entry ``entry_pk`` met: none for an entry of another permit or one that made no
    event (an inspection made while the rain still fell meets none)."""
    entry = permit.log.filter(pk=entry_pk).first()
    if entry is None or entry.timeline_event_id is None:
        return []
    # The timeline is read once, for the entry's position and for the duties.
    prefetch_related_objects([permit.application], "timeline")
    ids = [e.pk for e in permit.application.timeline.all()]
    if entry.timeline_event_id not in ids:
        return []
    position = ids.index(entry.timeline_event_id)
    duties = application_timeline(permit.application).to_json()["duties"]
    return [d for d in duties if (d.get("met_by") or {}).get("index") == position]
