from django.urls import path

from siltfence.apps.enforcement import register

app_name = "register"
urlpatterns = [
    path("register/", register.register, name="register"),
    path("register/permits.csv", register.register_csv, name="csv"),
    path("register/permits.geojson", register.register_geojson, name="geojson"),
    path("register/feed.atom", register.RegisterFeed(), name="feed"),
    path("register/reports/", register.reports, name="reports"),
]
