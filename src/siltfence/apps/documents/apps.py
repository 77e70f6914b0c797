from django.apps import AppConfig


class DocumentsConfig(AppConfig):
    name = "siltfence.apps.documents"
    label = "documents"
    verbose_name = "Generated documents"
