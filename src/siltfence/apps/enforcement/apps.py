from django.apps import AppConfig


class EnforcementConfig(AppConfig):
    name = "siltfence.apps.enforcement"
    label = "enforcement"
    verbose_name = "Enforcement: violations, orders, village work and costs"
