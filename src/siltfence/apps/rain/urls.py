from django.urls import path

from siltfence.apps.rain import views

app_name = "rain"

urlpatterns = [
    path("import/", views.import_page, name="import"),
    path("import/<int:job_id>/", views.job_page, name="job"),
]
