from django.urls import path

from siltfence.apps.people import views

app_name = "people"

urlpatterns = [
    path("staff/villages/<slug:village>/people/", views.people, name="people"),
    path("staff/villages/<slug:village>/people/add", views.person_add, name="person-add"),
    path("staff/villages/<slug:village>/people/<int:pk>/", views.person, name="person"),
    path("staff/villages/<slug:village>/people/<int:pk>/term", views.person_term, name="term"),
    path("staff/villages/<slug:village>/people/<int:pk>/end", views.person_end, name="end"),
    path("staff/villages/<slug:village>/people/<int:pk>/link", views.person_link, name="link"),
]
