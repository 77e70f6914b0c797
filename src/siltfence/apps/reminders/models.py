"""Who is reminded of what, what was sent, and the secret addresses of calendar feeds."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class ReminderKind(models.TextChoices):
    DUE_SOON = "due_soon", "Before a duty falls due"
    OVERDUE = "overdue", "When a duty is overdue"


class ReminderPreference(models.Model):
    """What one person wants to be reminded of. Without a row, both kinds, two days ahead."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reminder_preference"
    )
    due_soon = models.BooleanField(default=True)
    overdue = models.BooleanField(default=True)
    days_ahead = models.PositiveSmallIntegerField(default=2)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(days_ahead__gte=1, days_ahead__lte=14), name="days_ahead_1_to_14"
            )
        ]

    def __str__(self) -> str:
        return f"reminders of {self.user}"


class ReminderSent(models.Model):
    """One reminder of one duty to one person: never twice for the same duty and kind."""

    permit = models.ForeignKey("permits.Permit", on_delete=models.PROTECT, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    duty_key = models.CharField(max_length=64)
    kind = models.CharField(max_length=20, choices=ReminderKind.choices)
    duty_kind = models.CharField(max_length=40)
    due = models.CharField(max_length=40)
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-sent_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["permit", "user", "duty_key", "kind"], name="a_reminder_is_sent_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} reminder of {self.duty_kind} to {self.user}"


class CalendarFeed(models.Model):
    """A secret address of an iCalendar feed: of one permit, or of all a person's permits.
    Revoking it makes the address answer 404 for good; a new address can be made."""

    token = models.CharField(max_length=64, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feeds"
    )
    permit = models.ForeignKey(
        "permits.Permit", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"calendar of {self.permit or 'all permits'} for {self.user}"
