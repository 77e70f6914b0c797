from django.urls import path

from siltfence.apps.outbox import views

app_name = "outbox"

urlpatterns = [
    path("staff/emails/", views.message_list, name="messages"),
    path("staff/emails/<int:pk>/send-again", views.message_again, name="send-again"),
]
