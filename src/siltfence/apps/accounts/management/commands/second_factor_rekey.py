"""Seal every authenticator key again under the current key: ``manage.py second_factor_rekey``.

The step of a change of key (docs/deploy.md, decision 33) between setting the new key,
with the old one in the fallbacks, and removing the old one. All or nothing: when any
stored key cannot be opened with the keys set, nothing is changed.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django_otp.plugins.otp_totp.models import TOTPDevice

from siltfence.apps.accounts.seeds import (
    FALLBACKS_SETTING,
    KEY_SETTING,
    SeedUnreadable,
    keys_check,
    seed_reseal,
)

UNREADABLE = (
    "{count} cannot be opened with {key} or {fallbacks} (of {people}); "
    "nothing was changed. Put the key they were sealed under back in {fallbacks}, or reset "
    "those people's sign-in codes (manage.py second_factor_reset)"
)


def _keys(count: int) -> str:
    return f"{count} authenticator key{'' if count == 1 else 's'}"


class Command(BaseCommand):
    help = (
        f"Encrypt every authenticator app's key again under {KEY_SETTING}, after a change of "
        f"key; the old key, still listed in {FALLBACKS_SETTING}, can be removed afterwards."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            keys_check()
        except ImproperlyConfigured as missing:
            raise CommandError(str(missing)) from None
        unreadable: list[str] = []
        with transaction.atomic():
            devices = list(
                TOTPDevice.objects.select_for_update(of=("self",))
                .select_related("user")
                .order_by("pk")
            )
            for device in devices:
                try:
                    sealed = seed_reseal(device.key)
                except SeedUnreadable:
                    unreadable.append(device.user.get_username())
                    continue
                TOTPDevice.objects.filter(pk=device.pk).update(key=sealed)
            if unreadable:
                transaction.set_rollback(True)
        if unreadable:
            raise CommandError(
                UNREADABLE.format(
                    count=_keys(len(unreadable)),
                    key=KEY_SETTING,
                    fallbacks=FALLBACKS_SETTING,
                    people=", ".join(sorted(set(unreadable))),
                )
            )
        done = _keys(len(devices))
        self.stdout.write(
            f"{done} {'is' if len(devices) == 1 else 'are'} now sealed under {KEY_SETTING}; "
            f"the old key can be removed from {FALLBACKS_SETTING}."
        )
