"""Print the current sign-in code of a demo account: ``python -m tools.demo_code USERNAME``
(``make demo-code WHO=USERNAME``), or with ``--key`` its key. Any account that is not one
of the demo's, or whose authenticator is not the demo's published one, is refused: exit
status 2 and one line on stderr."""

from __future__ import annotations

import argparse
import sys
import time

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


class NotADemoCode(Exception):
    """The account has no code of the demo's to print. One line."""


def demo_code(username: str, *, key: bool = False) -> tuple[str, str]:
    """What a phone shows now for the demo account ``username`` (or, with ``key``, the key
    to add it to an authenticator app), and a line about it for stderr."""
    from django.contrib.auth import get_user_model
    from django_otp.oath import TOTP

    from siltfence.apps.accounts.second_factor import authenticator_of, key_text
    from tools.demo.sign_in import demo_device, demo_usernames

    username = username[:150]
    if username not in demo_usernames():
        names = ", ".join(sorted(demo_usernames()))
        raise NotADemoCode(NOT_DEMO.format(username=username, names=names))
    device = demo_device(username)
    if device is None:
        user = get_user_model().objects.filter(username=username).first()
        if user is None or authenticator_of(user) is None:
            raise NotADemoCode(NO_APP.format(username=username))
        raise NotADemoCode(NOT_DEMO_KEY.format(username=username))
    if key:
        return key_text(device), ""
    # What a phone shows now: the code of this time step, with no drift.
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits)
    now = time.time()
    totp.time = now
    left = device.step - int(now - device.t0) % device.step
    return (
        f"{totp.token():0{device.digits}d}",
        f"the code for {username}; it changes in {left} seconds, and each code signs in once",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.demo_code",
        description="Print the current 6-digit sign-in code of a demo staff or appeals board "
        "account (demo accounts whose authenticator has the demo's published key only).",
    )
    parser.add_argument("username")
    parser.add_argument(
        "--key",
        action="store_true",
        help="print the key instead, to add the account to an authenticator app",
    )
    options = parser.parse_args(argv)
    from siltfence.cli.ops import django_setup
    from siltfence.core.errors import SiltfenceError

    try:
        django_setup()
        printed, note = demo_code(options.username, key=options.key)
    except (NotADemoCode, SiltfenceError) as exc:
        sys.stderr.write(f"{parser.prog}: {exc}\n")
        return 2
    sys.stdout.write(printed + "\n")
    if note:
        sys.stderr.write(note + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
