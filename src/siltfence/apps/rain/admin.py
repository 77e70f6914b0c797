from typing import Any

from django.contrib import admin

from siltfence.apps.rain.models import RainDay, Station


@admin.register(Station)
# ModelAdmin is generic in the stubs only: not subscriptable at run time.
class StationAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["id", "name", "state", "latitude", "longitude", "village"]


@admin.register(RainDay)
# ModelAdmin is generic in the stubs only: not subscriptable at run time.
class RainDayAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
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
