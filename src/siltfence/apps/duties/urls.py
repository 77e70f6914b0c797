from django.urls import path

from siltfence.apps.duties import views

app_name = "duties"

urlpatterns = [
    path("staff/dashboard/", views.dashboard, name="dashboard"),
    path("staff/sites/<int:pk>/rain-station/", views.site_station, name="site-station"),
    path("staff/sites/<int:pk>/rain-station/nearest", views.unpin, name="site-station-unpin"),
]
