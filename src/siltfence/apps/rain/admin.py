from typing import Any

from django.contrib import admin

from siltfence.apps.rain.models import RainDay, Station


@admin.register(Station)
class StationAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "state", "latitude", "longitude", "village"]


@admin.register(RainDay)
class RainDayAdmin(admin.ModelAdmin):
    """Read only: rain sets duties, so a day changes only through an import or a day
    entered at the village's gauge, both on the audit record (``siltfence rain import``,
    the rain import page, the gauge's page)."""

    list_display = ["station", "day", "tenths_mm", "set_aside", "source"]
    list_filter = ["station"]
    date_hierarchy = "day"

    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False
