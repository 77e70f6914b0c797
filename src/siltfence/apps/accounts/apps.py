from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "siltfence.apps.accounts"
    label = "accounts"
    verbose_name = "People and access"

    def ready(self) -> None:
        # Authenticator keys are stored encrypted and read through one function (decision
        # 33); failed sign-ins are counted per account as well as per address.
        from siltfence.apps.accounts import checks, guessing, seeds  # noqa: F401 (checks)

        seeds.install()
        guessing.install()
