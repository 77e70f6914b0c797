"""Reads of each person's reminder settings and calendar addresses, and of the permits
they may follow."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from siltfence.apps.permits.models import Permit
from siltfence.apps.permits.selectors import permits_visible_to
from siltfence.apps.reminders.models import CalendarFeed, ReminderPreference


def preference_of(user: Any) -> ReminderPreference:
    """The person's reminder settings: those saved, or the defaults (not saved)."""
    found = ReminderPreference.objects.filter(user=user).first()
    return found or ReminderPreference(user=user)


def calendar_feeds_of(user: Any) -> QuerySet[CalendarFeed]:
    """The person's calendar addresses in use, each with the permit it is limited to."""
    return CalendarFeed.objects.filter(user=user, revoked_at__isnull=True).select_related("permit")


def calendar_feed_at(token: str) -> CalendarFeed | None:
    """The calendar address in use with this secret token, with its owner."""
    return (
        CalendarFeed.objects.filter(token=token, revoked_at__isnull=True)
        .select_related("user")
        .first()
    )


def permits_in_force_visible_to(user: Any) -> QuerySet[Permit]:
    """The permits in force the person may see: those a calendar address may follow."""
    return permits_visible_to(user).filter(status="active")
