from django.urls import path

from siltfence.apps.appeals import views

app_name = "appeals"
urlpatterns = [
    path("appeals/docket/", views.docket_view, name="docket"),
    path("appeals/new/", views.appeal_new, name="new"),
    path("appeals/<int:pk>/", views.appeal_detail, name="detail"),
    path("appeals/<int:pk>/hearing", views.appeal_hearing, name="hearing"),
    path("appeals/<int:pk>/roll", views.appeal_roll, name="roll"),
    path("appeals/<int:pk>/vote", views.appeal_vote, name="vote"),
    path("appeals/<int:pk>/not-reversed", views.appeal_close, name="not-reversed"),
    path("appeals/<int:pk>/notice.pdf", views.appeal_notice, name="notice"),
    path("appeals/<int:pk>/decision.pdf", views.appeal_document, name="document"),
    path("appeals/agenda/<slug:village>/<str:day>.pdf", views.agenda, name="agenda"),
]
