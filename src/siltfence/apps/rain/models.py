"""Imported rain records: stations and their days, one row per station and day.

Amounts are whole tenths of a millimetre, GHCN-Daily's own unit (``siltfence.core.rain``).
A day the file gives without a usable value (missing, or failed NOAA's quality control)
is kept too, with no amount, so that "no rain" and "no record" stay apart.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q


class Station(models.Model):
    """A station a rain file was imported from: a NOAA station or a site's own gauge; or
    the village's own gauge, added by its staff (``village``), whose days they may also
    enter by hand (``siltfence.apps.rain.gauges``)."""

    id = models.CharField(primary_key=True, max_length=40)
    name = models.CharField(max_length=120, blank=True)
    state = models.CharField(max_length=2, blank=True)
    latitude = models.FloatField(null=True, blank=True)
    longitude = models.FloatField(null=True, blank=True)
    elevation_m = models.FloatField(null=True, blank=True)
    # The village whose own gauge this is: only its staff enter the gauge's days by hand.
    village = models.ForeignKey(
        "permits.Village", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["id"]
        verbose_name = "imported rain station"
        constraints = [
            models.UniqueConstraint(
                fields=["village", "name"],
                condition=Q(village__isnull=False),
                name="rain_a_village_names_each_gauge_once",
            ),
            models.CheckConstraint(
                condition=Q(village__isnull=True)
                | Q(latitude__isnull=False, longitude__isnull=False),
                name="rain_a_village_gauge_has_a_place",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.id} {self.name}".strip()

    LISTED = ("name", "state", "latitude", "longitude", "elevation_m")

    @classmethod
    def listed_fields(cls, listing: Any) -> dict[str, Any]:
        """The fields of a row, from a station list's entry (the registry's, or a made-up
        county's): its name, state, place and elevation."""
        return {name: getattr(listing, name) for name in cls.LISTED}


class RainDay(models.Model):
    """One day at one station, as the file gave it."""

    station = models.ForeignKey(Station, on_delete=models.PROTECT, related_name="rain_days")
    day = models.DateField()
    tenths_mm = models.PositiveIntegerField(null=True, blank=True)
    set_aside = models.CharField(max_length=120, blank=True)
    source = models.CharField(max_length=20)

    class Meta:
        ordering = ["station", "day"]
        verbose_name = "imported rain day"
        constraints = [
            models.UniqueConstraint(fields=["station", "day"], name="rain_one_row_a_station_day"),
            models.CheckConstraint(
                condition=Q(set_aside="") | Q(tenths_mm__isnull=True),
                name="rain_a_set_aside_day_has_no_amount",
            ),
        ]

    def __str__(self) -> str:
        amount = "no value" if self.tenths_mm is None else f"{self.tenths_mm / 10} mm"
        return f"{self.station_id} {self.day}: {amount}"


class RainImportJob(models.Model):
    """A rain file uploaded on the staff page and too large to import while the page waits:
    the background worker imports it (``siltfence.apps.rain.tasks``), and its page shows how
    far it has got and then what it changed.

    The file is kept in the uploads folder under a name the server makes, readable by the
    server's account only. Whose it is: the person who uploaded it, and the staff of the
    villages that person was staff of when uploading (the only ones who may see the job)."""

    class Status(models.TextChoices):
        QUEUED = "queued", "waiting to start"
        CHECKING = "checking", "checking the file"
        CHOOSING = "choosing", "waiting for you to choose the stations"
        IMPORTING = "importing", "importing"
        DONE = "done", "imported"
        FAILED = "failed", "not imported"

    RUNNING = (Status.QUEUED, Status.CHECKING, Status.IMPORTING)
    ENDED = (Status.DONE, Status.FAILED)
    # A file whose stations may be chosen (again): the choice, then its import, the same.
    CHOOSABLE = (Status.CHOOSING, Status.DONE)

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    villages = models.JSONField(default=list)  # ids of the uploader's villages, as staff
    file = models.FileField(upload_to="rain/%Y/%m/")
    name = models.CharField(max_length=120)  # the uploader's name for the file, shown
    sha256 = models.CharField(max_length=64)
    station = models.CharField(max_length=40, blank=True)
    units = models.CharField(max_length=4, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    bytes_done = models.PositiveBigIntegerField(default=0)  # of the current step
    bytes_total = models.PositiveBigIntegerField()
    # Whether the uploader chooses the stations of a file that holds several (the upload
    # page asks; the command line and a job queued by code import every station).
    choose = models.BooleanField(default=False)
    # The stations the file holds, once checked: id, name, first and last day with an
    # amount, days with one, days without, place (at most MAX_STATIONS of the core's).
    found = models.JSONField(default=list, blank=True)
    chosen = models.JSONField(default=list, blank=True)  # the station ids to import
    imported = models.JSONField(default=list, blank=True)  # the station ids last imported
    summary = models.TextField(blank=True)  # the days new, changed and unchanged
    applied = models.TextField(blank=True)  # what the new rain changed on the permits
    error = models.CharField(max_length=500, blank=True)  # why it was not imported
    created_at = models.DateTimeField()
    updated_at = models.DateTimeField()  # the last news from the worker
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "rain import in the background"
        indexes = [models.Index(fields=["user", "created_at"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    status__in=["queued", "checking", "choosing", "importing", "done", "failed"]
                ),
                name="rain_job_status_known",
            ),
            models.CheckConstraint(
                condition=Q(bytes_done__lte=models.F("bytes_total")),
                name="rain_job_done_within_total",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["done", "failed"], finished_at__isnull=False)
                | Q(
                    status__in=["queued", "checking", "choosing", "importing"],
                    finished_at__isnull=True,
                ),
                name="rain_job_finished_when_ended",
            ),
            models.CheckConstraint(
                condition=Q(status="failed") & ~Q(error="") | ~Q(status="failed") & Q(error=""),
                name="rain_job_failed_says_why",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_status_display()})"

    @property
    def ended(self) -> bool:
        return self.status in self.ENDED

    @property
    def percent(self) -> int:
        """How far the current step has got, 0 to 100."""
        if not self.bytes_total:
            return 100 if self.ended else 0
        return min(100, self.bytes_done * 100 // self.bytes_total)
