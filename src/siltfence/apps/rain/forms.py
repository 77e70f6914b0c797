from __future__ import annotations

from typing import Any

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


class StationChoiceForm(forms.Form):
    """Which of a kept file's stations to import (every one ticked at first)."""

    stations = forms.MultipleChoiceField(
        label="Stations to import",
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "required": "Choose at least one station to import.",
            "invalid_choice": "%(value)s is not a station of this file.",
        },
    )

    def __init__(self, *args: Any, found: list[dict[str, Any]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["stations"]
        assert isinstance(field, forms.MultipleChoiceField)
        field.choices = [(s["id"], s["id"]) for s in found]


class GaugeForm(forms.Form):
    village = forms.ChoiceField(label="Village")
    name = forms.CharField(
        label="Name of the gauge",
        max_length=120,
        help_text="Where it stands, as the village calls it, like Public works yard",
    )
    latitude = forms.CharField(
        label="Latitude",
        max_length=30,
        help_text="Decimal degrees north, like 44.7573 (a map app shows it for a place)",
    )
    longitude = forms.CharField(
        label="Longitude",
        max_length=30,
        help_text="Decimal degrees, west is negative, like -90.2966",
    )

    def __init__(self, *args: Any, villages: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["village"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = villages
        if len(villages) == 1:
            field.initial = villages[0][0]
            field.widget = forms.HiddenInput()


class ReadingForm(forms.Form):
    day = forms.DateField(
        label="Day the rain fell",
        widget=forms.DateInput(attrs={"type": "date"}),
        input_formats=["%Y-%m-%d"],
        help_text="The day the gauge's reading is for",
        error_messages={"invalid": "Give the day as a date, like 2026-07-08."},
    )
    inches = forms.CharField(
        label="Rain, in inches",
        max_length=10,
        help_text="To the hundredth, like 0.62; 0 for a dry day",
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
    )
    reason = forms.CharField(
        label="Reason for a correction",
        required=False,
        max_length=300,
        help_text="Only to change a day already recorded: say why, like misread the gauge",
    )
