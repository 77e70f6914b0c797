"""Print the current sign-in code of a demo account: ``manage.py demo_code USERNAME``."""

from __future__ import annotations

import time
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django_otp.oath import TOTP

from siltfence.apps.accounts.second_factor import authenticator_of, key_text
from siltfence.apps.web.management.commands.demo.sign_in import demo_device, demo_usernames

NOT_DEMO = (
    "username: {username} is not one of the demo's accounts ({names}); codes are printed for "
    "the demo's accounts only"
)
NO_APP = (
    "username: {username} has no authenticator app, so signs in with the password alone "
    "(the demo's applicants do)"
)
NOT_DEMO_KEY = (
    "username: the authenticator of {username} is not the demo's published one (it was reset, "
    "or set up again on a phone), so its code is not printed; use that phone"
)


class Command(BaseCommand):
    help = (
        "Print the current 6-digit sign-in code of a demo staff or appeals board account "
        "(demo accounts whose authenticator has the demo's published key only)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--key",
            action="store_true",
            help="print the key instead, to add the account to an authenticator app",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        username = str(options["username"])[:150]
        names = ", ".join(sorted(demo_usernames()))
        if username not in demo_usernames():
            raise CommandError(NOT_DEMO.format(username=username, names=names))
        device = demo_device(username)
        if device is None:
            user = get_user_model().objects.filter(username=username).first()
            if user is None or authenticator_of(user) is None:
                raise CommandError(NO_APP.format(username=username))
            raise CommandError(NOT_DEMO_KEY.format(username=username))
        if options["key"]:
            self.stdout.write(key_text(device))
            return
        # What a phone shows now: the code of this time step, with no drift.
        totp = TOTP(device.bin_key, device.step, device.t0, device.digits)
        now = time.time()
        totp.time = now
        left = device.step - int(now - device.t0) % device.step
        self.stdout.write(f"{totp.token():0{device.digits}d}")
        self.stderr.write(
            f"the code for {username}; it changes in {left} seconds, and each code signs in once",
            style_func=lambda text: text,
        )
