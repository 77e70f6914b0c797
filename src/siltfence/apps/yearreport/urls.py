from django.urls import path

from siltfence.apps.yearreport import views

app_name = "yearreport"

urlpatterns = [
    path("staff/year-report/", views.year_report_view, name="report"),
]
