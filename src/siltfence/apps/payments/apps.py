from django.apps import AppConfig


class PaymentsConfig(AppConfig):
    name = "siltfence.apps.payments"
    label = "payments"
    verbose_name = "Fees, payments and receipts"
