"""``siltfence determine``, the command people run most, kept light: it imports only what
a determination needs (the core and the standard library), so it starts like a small tool.

``run`` is the console entry point. An argument list that is exactly a determination
(``determine`` with its four options, nothing else) is read here with ``argparse`` and
answered at once; anything else (help, another command, a mistake) goes to the full
command line in ``siltfence.cli.main``, which prints the help and the errors. Both paths
call ``determine_and_print``, so they give the same answer.
"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

FORMATS = ("json", "text")


def determine_and_print(jurisdiction: str, facts: str, on: str | None, format: str) -> None:
    """Does this project need an erosion control permit, which plan, and why."""
    from siltfence.cli.inputs import date_or_today, print_json, read_json_file
    from siltfence.core.ordinance.loader import load
    from siltfence.core.rules import determine

    load(jurisdiction)  # an unknown jurisdiction is named before the facts are read
    raw = read_json_file(facts, "facts")
    when = date_or_today(on, "on", jurisdiction)
    result = determine(jurisdiction, raw, when)
    if format == "json":
        print_json(result.to_json())
    else:
        from siltfence.cli.text import determination_text

        sys.stdout.write(determination_text(result.to_json()))


class _NotOurs(Exception):
    """The arguments are not a plain determination: the full command line reads them."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _NotOurs(message)


def _determination(argv: list[str]) -> argparse.Namespace | None:
    """The options of a plain ``determine`` call, or None for anything else."""
    if not argv or argv[0] != "determine":
        return None
    parser = _Parser(add_help=False, allow_abbrev=False)
    parser.add_argument("--jurisdiction", required=True)
    parser.add_argument("--facts", required=True)
    parser.add_argument("--on", default=None)
    parser.add_argument("--format", default="json", choices=FORMATS)
    try:
        return parser.parse_args(argv[1:])
    except _NotOurs:
        return None


def run() -> None:
    """Console entry point: a determination at once, anything else by the full command line."""
    options = _determination(sys.argv[1:])
    if options is None:
        from siltfence.cli.main import run as full

        full()
        return
    from siltfence.core.errors import SiltfenceError

    try:
        determine_and_print(options.jurisdiction, options.facts, options.on, options.format)
    except SiltfenceError as exc:
        sys.stderr.write(f"siltfence: {exc}\n")
        sys.exit(2)
