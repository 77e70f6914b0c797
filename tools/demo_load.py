"""Load the demo into the configured database: ``python -m tools.demo_load`` (``make run``
and ``make dev`` run it after ``migrate``). See ``tools.demo``."""

from __future__ import annotations

import sys


def main() -> int:
    from siltfence.cli.ops import django_setup
    from siltfence.core.errors import SiltfenceError

    try:
        django_setup()
    except SiltfenceError as exc:
        sys.stderr.write(f"python -m tools.demo_load: {exc}\n")
        return 2
    from tools.demo import demo_load

    demo_load()
    return 0


if __name__ == "__main__":
    sys.exit(main())
