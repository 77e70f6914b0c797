"""``siltfence determine``, the command people run most, kept light: it imports only what
a determination needs (the core and the standard library), so it starts like a small tool.

``run`` is the console entry point. An argument list that is exactly a determination
(``determine`` with its four options, nothing else) is read here by hand and answered at
once; anything else (help, another command, a mistake) goes to the full
command line in ``siltfence.cli.main``, which prints the help and the errors. Both paths
call ``determine_and_print``, so they give the same answer.
"""

from __future__ import annotations

import sys

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


OPTIONS = ("--jurisdiction", "--facts", "--on", "--format")


def _determination(argv: list[str]) -> dict[str, str | None] | None:
    """The options of a plain ``determine`` call, or None for anything else.

    Read by hand, not with ``argparse`` (which costs a tenth of the command's start): only
    ``--name value`` and ``--name=value`` of the four options, each at most once, with
    ``--jurisdiction`` and ``--facts`` given and no value that looks like an option (but
    ``-``, standard input). Anything
    else, however harmless, goes to the full command line, so this reader can only ever take
    less than it does, never read something differently."""
    if not argv or argv[0] != "determine":
        return None
    given: dict[str, str] = {}
    rest = argv[1:]
    while rest:
        word, rest = rest[0], rest[1:]
        name, equals, value = word.partition("=")
        if name not in OPTIONS or name in given:
            return None
        if not equals:
            if not rest:
                return None
            value, rest = rest[0], rest[1:]
        if value.startswith("-") and value != "-":  # "-" is standard input
            return None
        given[name] = value
    if "--jurisdiction" not in given or "--facts" not in given:
        return None
    if given.get("--format", "json") not in FORMATS:
        return None
    return {
        "jurisdiction": given["--jurisdiction"],
        "facts": given["--facts"],
        "on": given.get("--on"),
        "format": given.get("--format", "json"),
    }


def run() -> None:
    """Console entry point: a determination at once, anything else by the full command line."""
    options = _determination(sys.argv[1:])
    if options is None:
        from siltfence.cli.main import run as full

        full()
        return
    from siltfence.core.errors import SiltfenceError

    try:
        determine_and_print(
            str(options["jurisdiction"]),
            str(options["facts"]),
            options["on"],
            str(options["format"]),
        )
    except SiltfenceError as exc:
        sys.stderr.write(f"siltfence: {exc}\n")
        sys.exit(2)
