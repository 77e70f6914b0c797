"""Every email the program sends, recorded before it is sent.

A message is written in the same transaction as the change it tells of (a reminder
recorded, a password reset asked for), so a crash leaves either both or neither. The
worker sends it afterwards and marks it sent only once the mail server has accepted it; a
refusal or an unreachable server leaves it waiting, tried again later, and shown to staff.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class MessageStatus(models.TextChoices):
    WAITING = "waiting", "Waiting to be sent"
    SENT = "sent", "Sent"
    FAILED = "failed", "Not sent: the mail server refused it every time"


class Message(models.Model):
    """One email to one address."""

    kind = models.CharField(max_length=40)
    to_address = models.EmailField(max_length=254)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # The village whose staff see it, and the permit it is about (both may be empty: a
    # password reset belongs to no village).
    village = models.ForeignKey(
        "permits.Village", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    permit = models.ForeignKey(
        "permits.Permit", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # The enforcement case a notice is about (listed on the case's page for staff).
    case = models.ForeignKey(
        "enforcement.EnforcementCase",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    subject = models.CharField(max_length=200)
    body = models.TextField()
    # A body holding a secret link (a password reset) is shown to nobody, and emptied once
    # it is sent.
    secret = models.BooleanField(default=False)
    status = models.CharField(
        max_length=10, choices=MessageStatus.choices, default=MessageStatus.WAITING
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    next_attempt_at = models.DateTimeField()
    # Taken by one sender until then; another sender leaves it alone.
    claimed_until = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["status", "next_attempt_at"], name="outbox_due"),
            models.Index(fields=["village", "status", "-created_at"], name="outbox_village"),
            models.Index(fields=["permit", "-created_at"], name="outbox_permit"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=[s.value for s in MessageStatus]),
                name="outbox_status_known",
            ),
            models.CheckConstraint(
                condition=Q(status="sent", sent_at__isnull=False) | ~Q(status="sent"),
                name="outbox_sent_has_a_time",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.subject} to {self.to_address} ({self.status})"


class NoticePreference(models.Model):
    """Which kinds of notice one person has turned off (``notices.GROUPS``). Without a row,
    every kind. A notice the chapter requires in writing is sent whatever is chosen."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notice_preference"
    )
    off = models.JSONField(default=list, blank=True)

    def __str__(self) -> str:
        return f"notices of {self.user}"
