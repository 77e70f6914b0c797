from django.apps import AppConfig


class PlansConfig(AppConfig):
    name = "siltfence.apps.plans"
    label = "plans"
    verbose_name = "Control plans and their site geometry"
