from django.contrib import admin
from django.urls import include, path

from siltfence.apps.api.api import api

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", api.urls),
    path("plans/", include("siltfence.apps.plans.urls")),
    path("rain/", include("siltfence.apps.rain.urls")),
    path("", include("siltfence.apps.web.urls")),
]
