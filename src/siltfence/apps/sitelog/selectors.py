"""Reads of the site log, scoped to the person asking: a photo is reached only through a
permit the person may see."""

from __future__ import annotations

import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.db.models import QuerySet, prefetch_related_objects

from siltfence.apps.permits.clocks import application_timeline
from siltfence.apps.permits.models import Permit
from siltfence.apps.permits.selectors import permits_visible_to
from siltfence.apps.sitelog.models import SiteLogEntry, SiteLogPhoto
from siltfence.core.ordinance.loader import load


def log_entries(permit: Permit) -> QuerySet[SiteLogEntry]:
    """The permit's log, newest first, each entry with its event and photos."""
    return permit.log.select_related("timeline_event").prefetch_related("photos")


def no_permit_from(permit: Permit) -> datetime.datetime:
    """The first moment with no permit once the permit's period has run: midnight, in the
    village, after its last day (§ 413-8E(1), § 135-7G: valid "for a period of 180 days")."""
    zone = ZoneInfo(load(permit.village_id).time_zone)
    day = permit.expires_on + datetime.timedelta(days=1)
    return datetime.datetime.combine(day, datetime.time(0), tzinfo=zone)


def after_last_day(permit: Permit, at: datetime.datetime) -> bool:
    """An entry at ``at`` falls after the permit's last day: an expired permit is no permit,
    so work recorded then is work without a permit (§ 413-8A, § 135-7A)."""
    return at >= no_permit_from(permit)


def entries_without_permit(permit: Permit) -> list[SiteLogEntry]:
    """The permit's log entries dated after its last day, oldest first: the work recorded
    without a permit (the pages ask only once that day has passed)."""
    return list(permit.log.filter(at__gte=no_permit_from(permit)).order_by("at", "id"))


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
