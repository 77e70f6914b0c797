from django.urls import path

from siltfence.apps.plans import views

app_name = "plans"
urlpatterns = [
    path("applications/<int:pk>/map/", views.plan_map, name="map"),
    path("applications/<int:pk>/plan", views.plan_save, name="save"),
    path("applications/<int:pk>/plan/site-check", views.site_check, name="site-check"),
    path("applications/<int:pk>/report/", views.plan_report, name="report"),
    path("applications/<int:pk>/report.pdf", views.plan_report_pdf, name="report-pdf"),
    path("applications/<int:pk>/plan.geojson", views.plan_geojson, name="geojson"),
]
