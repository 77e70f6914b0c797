from django.urls import path

from siltfence.apps.reminders import views

app_name = "reminders"

urlpatterns = [
    path("reminders/", views.settings_view, name="settings"),
    path("reminders/calendars/new", views.feed_new, name="feed-new"),
    path("reminders/calendars/<int:pk>/revoke", views.feed_revoke, name="feed-revoke"),
    path("calendar/<str:token>.ics", views.feed, name="feed"),
]
