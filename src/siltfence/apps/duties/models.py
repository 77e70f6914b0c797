"""Each site's rain station, the sweep's runs, and each permit's duties as last computed.
Stations and their days are the rain record's (``siltfence.apps.rain``: ``Station``,
``RainDay``).

The duties themselves are the core's (``siltfence.core.timeline``): they are recomputed
from a permit's events whenever an event lands on the permit, and stored here so that the
dashboard, the reminders and the round planner read one row per permit instead of
running the engine for every permit on every page.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q


class SiteStation(models.Model):
    """The station whose rain counts for a site: the nearest one, or one staff pinned with a
    reason (a closer private gauge, a station the nearest one misrepresents)."""

    site = models.OneToOneField("permits.Site", on_delete=models.PROTECT, related_name="rain")
    station = models.ForeignKey("rain.Station", on_delete=models.PROTECT, related_name="sites")
    distance_km = models.FloatField()
    latitude = models.FloatField()
    longitude = models.FloatField()
    pinned_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        indexes = [models.Index(fields=["station"])]
        constraints = [
            models.CheckConstraint(condition=Q(distance_km__gte=0), name="distance_not_negative")
        ]

    def __str__(self) -> str:
        return f"{self.site} → {self.station_id} ({self.distance_km:.1f} km)"


class SweepRun(models.Model):
    """One run of the daily sweep for a day: what it found and wrote."""

    day = models.DateField()
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    rain_events = models.PositiveIntegerField(default=0)
    permits_recomputed = models.PositiveIntegerField(default=0)
    reminders_sent = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-started_at"]

    def __str__(self) -> str:
        return f"sweep of {self.day}"


class PermitDuties(models.Model):
    """A permit's duties as the core last computed them, with the next one falling due."""

    permit = models.OneToOneField(
        "permits.Permit", on_delete=models.CASCADE, primary_key=True, related_name="duty_state"
    )
    village = models.ForeignKey("permits.Village", on_delete=models.PROTECT, related_name="+")
    computed_at = models.DateTimeField()
    as_of = models.DateTimeField()
    # The earliest due date of a duty still open: when a status next changes by itself.
    next_due = models.DateTimeField(null=True, blank=True)
    open_count = models.PositiveIntegerField(default=0)
    overdue_count = models.PositiveIntegerField(default=0)
    duties = models.JSONField(default=list)
    # When these duties change with no event (a duty falls due, a new inspection period
    # begins): the daily sweep recomputes them by then.
    recompute_by = models.DateTimeField(null=True, blank=True)
    # What they were computed from, but for the time: the ordinance data, the office
    # calendar and the code (one digest per village), and the permit's events (how many,
    # the last one's id). A recompute skips a permit whose inputs are unchanged.
    inputs = models.CharField(max_length=64, default="", blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["village", "next_due"]),
            models.Index(fields=["next_due"]),
            models.Index(fields=["recompute_by"]),
            models.Index(fields=["village", "overdue_count"]),
        ]

    def __str__(self) -> str:
        return f"duties of permit {self.permit_id}"
