"""The village's inspections of permitted sites (Spencer § 413-9): when, by whom, the
checklist of the control measures on the stored plan, findings and photos."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Result(models.TextChoices):
    COMPLIANT = "compliant", "In compliance"
    NOT_COMPLIANT = "not_compliant", "Not in compliance"


class Inspection(models.Model):
    permit = models.ForeignKey(
        "permits.Permit", on_delete=models.PROTECT, related_name="inspections"
    )
    inspector = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField()
    result = models.CharField(max_length=20, choices=Result.choices)
    checklist = models.JSONField(default=list)
    findings = models.TextField(blank=True)
    timeline_event = models.OneToOneField(
        "permits.TimelineEvent", on_delete=models.PROTECT, related_name="inspection"
    )
    violation_event = models.OneToOneField(
        "permits.TimelineEvent",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="inspection_violation",
    )
    violation_ref = models.CharField(max_length=60, blank=True)
    recorded_at = models.DateTimeField(auto_now_add=True)
    client_token = models.CharField(max_length=64)

    class Meta:
        ordering = ["-at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["permit", "client_token"], name="an_inspection_is_recorded_once"
            ),
            models.CheckConstraint(
                condition=models.Q(result__in=[r.value for r in Result]),
                name="inspection_result_known",
            ),
        ]
        indexes = [models.Index(fields=["permit", "at"])]

    def __str__(self) -> str:
        return f"inspection of {self.permit_id} on {self.at:%Y-%m-%d}"


class InspectionPhoto(models.Model):
    inspection = models.ForeignKey(Inspection, on_delete=models.PROTECT, related_name="photos")
    file = models.FileField(upload_to="inspections/%Y/%m/")
    original_name = models.CharField(max_length=255)
    content_type = models.CharField(max_length=100)
    size = models.PositiveIntegerField()
    sha256 = models.CharField(max_length=64)

    def __str__(self) -> str:
        return self.original_name
