from typing import Any

from django.contrib import admin
from django.db.models import QuerySet

from siltfence.apps.accounts.models import Membership


@admin.register(Membership)
# ModelAdmin is generic in the stubs only: not subscriptable at run time.
class MembershipAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Every membership, ended ones included, read only: a village's staff add, change and
    remove people on the village's people page (``/staff/villages/<village>/people/``),
    where each change is checked and kept in the audit record (decision 36)."""

    list_display = [
        "user",
        "village",
        "role",
        "term_start",
        "term_end",
        "added_at",
        "added_by",
        "ended_at",
        "ended_by",
    ]
    list_filter = ["village", "role", ("ended_at", admin.EmptyFieldListFilter)]
    search_fields = ["user__username", "user__email", "user__first_name", "user__last_name"]
    list_select_related = ["user", "added_by", "ended_by"]

    def get_queryset(self, request: Any) -> QuerySet[Membership]:
        return Membership.all_objects.select_related("user", "added_by", "ended_by")

    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False
