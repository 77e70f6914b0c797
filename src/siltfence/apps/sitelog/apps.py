from django.apps import AppConfig


class SitelogConfig(AppConfig):
    name = "siltfence.apps.sitelog"
    label = "sitelog"
    verbose_name = "The site's erosion control log"
