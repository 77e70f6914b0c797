from django.urls import path

from siltfence.apps.inspections import views

app_name = "inspections"

urlpatterns = [
    path("rounds/", views.round_view, name="round"),
    path("permits/<int:pk>/inspect/", views.inspect, name="inspect"),
    path("inspection-photos/<int:pk>/", views.photo, name="photo"),
]
