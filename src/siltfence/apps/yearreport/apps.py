from django.apps import AppConfig


class YearReportConfig(AppConfig):
    name = "siltfence.apps.yearreport"
    label = "yearreport"
    verbose_name = "The year-end report to the village board"
