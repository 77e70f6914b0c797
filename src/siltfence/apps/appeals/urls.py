from django.urls import path

from siltfence.apps.appeals import views

app_name = "appeals"
urlpatterns = [
    path("appeals/docket/", views.docket_view, name="docket"),
    path("appeals/new/", views.appeal_new, name="new"),
    path("appeals/<int:pk>/", views.appeal_detail, name="detail"),
    path("appeals/<int:pk>/hearing", views.appeal_hearing, name="hearing"),
    path("appeals/<int:pk>/decide", views.appeal_decide, name="decide"),
    path("appeals/<int:pk>/decision.pdf", views.appeal_document, name="document"),
]
