from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from siltfence.apps.api.api import api
from siltfence.apps.ops.health import health

urlpatterns = [
    path("health", health, name="health"),
    path("admin/", admin.site.urls),
    path("api/", api.urls),
    path("plans/", include("siltfence.apps.plans.urls")),
    path("rain/", include("siltfence.apps.rain.urls")),
    path("", include("siltfence.apps.duties.urls")),
    path("", include("siltfence.apps.reminders.urls")),
    path("", include("siltfence.apps.sitelog.urls")),
    path("", include("siltfence.apps.inspections.urls")),
    path("", include("siltfence.apps.enforcement.urls")),
    path("", include("siltfence.apps.enforcement.register_urls")),
    path("", include("siltfence.apps.appeals.urls")),
    path("", include("siltfence.apps.outbox.urls")),
    path("", include("siltfence.apps.notices.urls")),
    path("", include("siltfence.apps.yearreport.urls")),
    path("", include("siltfence.apps.payments.urls")),
    path("", include("siltfence.apps.people.urls")),
    path("", include("siltfence.apps.web.urls")),
]

if settings.SILTFENCE_BENCH:
    # The benchmarks' baseline page (bench/web.py); absent unless SILTFENCE_BENCH=1.
    from siltfence.apps.ops.bench import trivial

    urlpatterns.insert(0, path("bench/trivial", trivial, name="bench-trivial"))

# Plain pages (JSON under /api/) instead of Django's; they show no internals.
handler400 = "siltfence.apps.web.error_views.bad_request"
handler403 = "siltfence.apps.web.error_views.permission_denied"
handler404 = "siltfence.apps.web.error_views.page_not_found"
handler500 = "siltfence.apps.web.error_views.server_error"
