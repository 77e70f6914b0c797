from django.urls import path

from siltfence.apps.web import views

app_name = "web"
urlpatterns = [
    path("", views.permit_check, name="permit-check"),
    path("permit-check/answer", views.permit_check_answer, name="permit-check-answer"),
    path("ordinances/", views.ordinance_list, name="ordinance-list"),
    path("ordinances/<slug:jurisdiction>/", views.ordinance_detail, name="ordinance-detail"),
    path(
        "ordinances/<slug:jurisdiction>/sections/<str:number>/",
        views.section_detail,
        name="section-detail",
    ),
    path("ordinances/<slug:left>/diff/<slug:right>/", views.ordinance_diff, name="ordinance-diff"),
]
