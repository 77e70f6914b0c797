"""Imported rain records: stations and their days, one row per station and day.

Amounts are whole tenths of a millimetre, GHCN-Daily's own unit (``siltfence.core.rain``).
A day the file gives without a usable value (missing, or failed NOAA's quality control)
is kept too, with no amount, so that "no rain" and "no record" stay apart.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.models import Q


class Station(models.Model):
    """A station a rain file was imported from: a NOAA station or a site's own gauge."""

    id = models.CharField(primary_key=True, max_length=40)
    name = models.CharField(max_length=120, blank=True)
    state = models.CharField(max_length=2, blank=True)
    latitude = models.FloatField(null=True, blank=True)
    longitude = models.FloatField(null=True, blank=True)
    elevation_m = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        verbose_name = "imported rain station"

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
