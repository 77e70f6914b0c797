"""``python -m siltfence.manage``: Django's management commands for siltfence."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "siltfence.config.settings")
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as exc:
        # A setting missing or wrong (SECRET_KEY in production...): one line, exit 2.
        print(f"siltfence: {exc}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
