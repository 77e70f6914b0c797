from django.urls import path

from siltfence.apps.sitelog import views

app_name = "sitelog"

urlpatterns = [
    path("permits/<int:pk>/log/", views.site_log, name="log"),
    path("site-log/photos/<int:pk>/", views.photo, name="photo"),
]
