from django.urls import path

from siltfence.apps.rain import gauge_views, views

app_name = "rain"

urlpatterns = [
    path("import/", views.import_page, name="import"),
    path("import/<int:job_id>/", views.job_page, name="job"),
    path("import/<int:job_id>/stations/", views.choose_page, name="choose"),
    path("gauges/", gauge_views.gauges_page, name="gauges"),
    path("gauges/<str:station_id>/", gauge_views.gauge_page, name="gauge"),
]
