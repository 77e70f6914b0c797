from django.apps import AppConfig


class InspectionsConfig(AppConfig):
    name = "siltfence.apps.inspections"
    label = "inspections"
    verbose_name = "The village's inspections"
