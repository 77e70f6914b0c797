from typing import Any

from django.contrib import admin

from siltfence.apps.payments.models import FeeCorrection, Payment, ReceiptCounter


# ModelAdmin is generic in the stubs only: not subscriptable at run time.
class _Books(admin.ModelAdmin):  # type: ignore[type-arg]
    """Read only, and never deleted: payments and corrections are written by the
    village's staff on the application and case pages, where each is checked and kept in
    the audit record; a mistake is corrected by a new entry with its reason."""

    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


@admin.register(Payment)
class PaymentAdmin(_Books):
    list_display = ["receipt_number", "village", "purpose", "amount", "received_on", "method"]
    list_filter = ["village", "purpose", "method"]
    search_fields = ["receipt_number", "check_number", "payer"]


@admin.register(FeeCorrection)
class FeeCorrectionAdmin(_Books):
    list_display = ["application", "amount_before", "amount", "corrected_at", "corrected_by"]


@admin.register(ReceiptCounter)
class ReceiptCounterAdmin(_Books):
    list_display = ["village", "year", "last"]
