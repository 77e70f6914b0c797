from __future__ import annotations

from django import forms


class RainImportForm(forms.Form):
    file = forms.FileField(
        label="Rain file",
        help_text="NOAA GHCN-Daily, Climate Data Online, "
        "a daily CSV in inches, or a gauge CSV (timestamp,rain_in)",
    )
    station = forms.CharField(
        label="Station ID",
        required=False,
        max_length=40,
        help_text="Only for a file that names no station (the daily CSV, a gauge): NOAA's "
        "ID, like USW00014839, or for a gauge of the village's own or a site's, SITE- or "
        "GAUGE- and a number or name, like SITE-7",
    )
    units = forms.ChoiceField(
        label="Units of a Climate Data Online export",
        required=False,
        choices=[("", "tell from the file"), ("inch", "inches (Standard)"), ("mm", "mm (Metric)")],
    )
