"""The permittee's erosion control log: inspections, repairs, notices given, work started,
measures installed, ground left inactive or stabilized, and rain without runoff.

Each entry is also the timeline event that closes its duty (``timeline_event``); the entry
keeps what the event does not: findings, repairs, evidence and photos (§ 135-7E(7):
"a written log ... of the date of inspection, the name of the person conducting the
inspection, and a description of the present phase of the construction at the site")."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class EntryKind(models.TextChoices):
    SELF_INSPECTION = "self_inspection", "Inspection of the control measures"
    START_NOTICE = "start_notice_given", "Notice of the start of work given"
    WORK_STARTED = "work_started", "Work started"
    MEASURE_INSTALLED = "measure_installed", "Control measure installed"
    COMPLETION_NOTICE = (
        "measure_completion_notice_given",
        "Notice that a control measure is in place given",
    )
    AREA_INACTIVE = "area_inactive", "Ground left inactive"
    AREA_STABILIZED = "area_stabilized", "Ground stabilized"
    NO_RUNOFF = "no_runoff", "A rain caused no runoff from the site"


class SiteLogEntry(models.Model):
    permit = models.ForeignKey("permits.Permit", on_delete=models.PROTECT, related_name="log")
    kind = models.CharField(max_length=40, choices=EntryKind.choices)
    at = models.DateTimeField(help_text="when it happened, or when the notice was given")
    inspector = models.CharField(max_length=200, blank=True)
    phase = models.CharField(max_length=200, blank=True)
    findings = models.TextField(blank=True)
    repairs = models.TextField(blank=True)
    measure = models.CharField(max_length=60, blank=True)
    area = models.CharField(max_length=60, blank=True)
    evidence = models.TextField(blank=True)
    timeline_event = models.OneToOneField(
        "permits.TimelineEvent", on_delete=models.PROTECT, related_name="site_log_entry"
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)
    # Made by the form when it is shown: a draft sent again after a lost connection is
    # recognised and not recorded twice.
    client_token = models.CharField(max_length=64)

    class Meta:
        ordering = ["-at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["permit", "client_token"], name="an_entry_is_recorded_once"
            ),
            models.CheckConstraint(
                condition=models.Q(kind__in=[k.value for k in EntryKind]), name="entry_kind_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.at:%Y-%m-%d}"


class SiteLogPhoto(models.Model):
    entry = models.ForeignKey(SiteLogEntry, on_delete=models.PROTECT, related_name="photos")
    file = models.FileField(upload_to="sitelog/%Y/%m/")
    original_name = models.CharField(max_length=255)
    content_type = models.CharField(max_length=100)
    size = models.PositiveIntegerField()
    sha256 = models.CharField(max_length=64)

    def __str__(self) -> str:
        return self.original_name
