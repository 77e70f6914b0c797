from django.contrib import admin
from django.urls import include, path

from siltfence.apps.api.api import api

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", api.urls),
    path("plans/", include("siltfence.apps.plans.urls")),
    path("", include("siltfence.apps.duties.urls")),
    path("", include("siltfence.apps.reminders.urls")),
    path("", include("siltfence.apps.sitelog.urls")),
    path("", include("siltfence.apps.inspections.urls")),
    path("", include("siltfence.apps.enforcement.urls")),
    path("", include("siltfence.apps.enforcement.register_urls")),
    path("", include("siltfence.apps.appeals.urls")),
    path("", include("siltfence.apps.web.urls")),
]
