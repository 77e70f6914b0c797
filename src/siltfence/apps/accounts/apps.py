from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "siltfence.apps.accounts"
    label = "accounts"
    verbose_name = "People and access"
