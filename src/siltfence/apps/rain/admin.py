from django.contrib import admin

from siltfence.apps.rain.models import RainDay, Station


@admin.register(Station)
class StationAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "state", "latitude", "longitude"]


@admin.register(RainDay)
class RainDayAdmin(admin.ModelAdmin):
    list_display = ["station", "day", "tenths_mm", "set_aside", "source"]
    list_filter = ["station"]
    date_hierarchy = "day"
