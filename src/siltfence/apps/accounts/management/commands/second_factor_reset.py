"""Reset a person's sign-in codes from the server: ``manage.py second_factor_reset USERNAME
--reason TEXT``. For when no administrator of the village can (the only one lost both the
phone and the backup codes); the web page of the village's staff is the usual way."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from siltfence.apps.accounts.second_factor import (
    SecondFactorRefused,
    second_factor_required,
    second_factor_reset_by_operator,
)

UNKNOWN = "username: there is no account {username!r}"


class Command(BaseCommand):
    help = (
        "Remove a person's authenticator app and backup codes (a lost phone), recorded in the "
        "audit record with the reason. An official sets up an app again at the next sign-in."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("username")
        parser.add_argument("--reason", required=True, help="why, for the audit record")

    def handle(self, *args: Any, **options: Any) -> None:
        username = str(options["username"])
        user = get_user_model().objects.filter(username=username[:150]).first()
        if user is None:
            raise CommandError(UNKNOWN.format(username=username[:150]))
        try:
            second_factor_reset_by_operator(user=user, reason=str(options["reason"]))
        except SecondFactorRefused as refused:
            raise CommandError(f"reason: {refused}") from None
        then = (
            "sets up an authenticator app again at the next sign-in"
            if second_factor_required(user)
            else "signs in with the password only"
        )
        self.stdout.write(f"The sign-in codes of {user.get_username()} were reset; {then}.")
