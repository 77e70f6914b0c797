from django.urls import path

from siltfence.apps.notices import views

app_name = "notices"

urlpatterns = [
    path("reminders/emails", views.notices_choose, name="choose"),
]
