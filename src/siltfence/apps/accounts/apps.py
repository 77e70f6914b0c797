from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "siltfence.apps.accounts"
    label = "accounts"
    verbose_name = "People and access"

    def ready(self) -> None:
        # Authenticator keys are stored encrypted and read through one function (decision
        # 33); failed sign-ins are counted per account as well as per address.
        # What signed-in requests keep in the shared cache stops counting when a person's
        # devices or roles change (decision 45).
        from siltfence.apps.accounts import checks, guessing, seeds, signed_in  # noqa: F401

        seeds.install()
        guessing.install()
        signed_in.install()
