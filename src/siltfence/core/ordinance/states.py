"""Load a state folder strictly: the state law its villages count time by.

A village's ``jurisdiction.yaml`` names its state (``state: wi``). The state's folder is
``_states/<state>/``: first beside the village's own folder, else in the installed data
(so a village folder copied elsewhere still finds its state). It holds:

- ``state.yaml``: ``id`` (the folder's name), ``name`` (as an answer shows it) and
  ``statutes``, how the state's statutes are cited; every citation in the folder is a
  section of them (``§ <number> <statutes>``);
- ``holidays.yaml``: the statewide legal holidays, each a fixed date or the nth weekday of
  a month (``days_after`` it, in even or odd years), with the dates between which each rule
  is the law where they are known (``from``, ``until``), and the day a holiday is observed
  when it falls on a weekday the statute moves it off;
- ``counting.yaml``: the state's counting rules, each by id, in the shape a village's own
  rule has (``counting_rules`` in its ``jurisdiction.yaml``).

Each file is checked like a village's: an unknown or missing key, a wrong type or a date
that is not one is refused with the file, the dotted key and the reason.
"""

from __future__ import annotations

import datetime
import re
import string
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

from siltfence.core.errors import OrdinanceFileError
from siltfence.core.ordinance.schema import Citation, Context, MapOf, OneOf, as_date, check, fail
from siltfence.core.ordinance.state_law import (
    DAY_KINDS,
    LAST,
    OBSERVED_MOVES,
    WEEKDAYS,
    CountingRuleData,
    Holiday,
    HolidayCalendar,
    SaturdayFiling,
    ShortPeriod,
    StateLaw,
)

TYPE_CHECKING = False  # typing is not imported at run time: see siltfence/core/__init__.py
if TYPE_CHECKING:
    from typing import Any

STATES_DIR = "_states"
STATE_FILES = ("state.yaml", "holidays.yaml", "counting.yaml")
_ID = r"[a-z][a-z0-9-]*"

# The placeholders a counting rule's sentences may hold: the number of days or hours
# (``{n}``), "14 days" (``{days}``), "after the event" or "before the event"
# (``{direction}``), the citation the village counts by (``{citation}``), and, where the
# rule stands in for a village provision not in hand, ", standing in for ..., not in hand"
# (``{standing_in}``).
DAY_PLACEHOLDERS = ("n", "days", "citation", "standing_in")
HOUR_PLACEHOLDERS = ("n", "direction", "citation", "standing_in")


def _nth(value: Any, path: str, ctx: Context) -> None:
    if value == "last":
        return
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 4:
        raise fail(ctx, path, f"expected 1, 2, 3, 4 or last, got {value!r}")


COUNTING_RULE_SPEC = {
    "id": str,
    "citation": Citation,
    # The words of the provision, for a reader checking the rule against them.
    "text?": str,
    # A last day on one of these days moves to the next day that is none of them.
    "last_day_moves_off": [OneOf(*DAY_KINDS)],
    # A period stated in hours leaves out the whole of each of these days (none: clock hours).
    "hours_skip": [OneOf(*DAY_KINDS)],
    # A period of fewer than ``under_days`` days leaves out these days altogether.
    "short_period?": {"under_days": int, "skips": [OneOf(*DAY_KINDS)], "says": str},
    # A filing's last day on a Saturday moves too where the village office is closed then.
    "saturday_filing?": {"citation": Citation, "says": str},
    "says": {"days": str, "hours": str},
}

STATE_SPEC = {"id": str, "name": str, "statutes": str}

HOLIDAYS_SPEC = {
    "id": str,
    # How a sentence names the list: "closure days: <title> (<citation>)".
    "title": str,
    "citation": Citation,
    "text?": str,
    # What the list rests on, and what a clerk should check before relying on it.
    "note?": str,
    "observed?": {
        "citation": Citation,
        "says": str,
        "moves": MapOf(OneOf(*OBSERVED_MOVES)),
        "name": str,
    },
    "holidays": [
        {
            "name": str,
            "month": int,
            "day?": int,
            "weekday?": OneOf(*WEEKDAYS),
            "nth?": _nth,
            "days_after?": int,
            "years?": OneOf("even", "odd"),
            "from?": datetime.date,
            "until?": datetime.date,
            "citation?": Citation,
            "history?": str,
        }
    ],
}

COUNTING_SPEC = [COUNTING_RULE_SPEC]

_SPECS = {"state.yaml": STATE_SPEC, "holidays.yaml": HOLIDAYS_SPEC, "counting.yaml": COUNTING_SPEC}


def state_roots(village_folder: Path, installed: Path) -> list[Path]:
    """Where a village's state folder is looked for, in order: beside the village's folder,
    then in the installed data."""
    roots = [village_folder.parent / STATES_DIR, installed / STATES_DIR]
    if roots[0].resolve() == roots[1].resolve():
        return roots[:1]
    return roots


def find_state(state_id: str, roots: list[Path], file: str) -> Path:
    """The folder of ``state_id``; refused, naming the village's file and key, if none."""
    if not re.fullmatch(_ID, state_id):
        raise OrdinanceFileError(
            file, "state", f"{state_id!r} is not a state folder's id (lower case, e.g. 'wi')"
        )
    for root in roots:
        if (root / state_id / "state.yaml").is_file():
            return root / state_id
    raise OrdinanceFileError(
        file,
        "state",
        f"names no state folder: {STATES_DIR}/{state_id}/state.yaml is neither beside the "
        "village folders nor in the installed data",
    )


def citation_form(statutes: str) -> re.Pattern[str]:
    """A section of the state's statutes: ``§ 1.23(4)(a), (b) <statutes>``."""
    return re.compile(rf"^§§? \d[\d.()a-z, and]* {re.escape(statutes)}$")


def read_state(folder: Path) -> dict[str, Any]:
    """The checked files of a state folder, as read (JSON-safe, for the loader's cache)."""
    from siltfence.core.ordinance.yamlfile import read_yaml

    raw: dict[str, Any] = {"folder": str(folder)}
    contexts: dict[str, Context] = {}
    for name in STATE_FILES:
        display = f"{STATES_DIR}/{folder.name}/{name}"
        path = folder / name
        if not path.is_file():
            raise OrdinanceFileError(display, "", "is missing from the state folder")
        data = read_yaml(path, display)
        ctx = contexts[name] = Context(display, [], [])
        check(data, _SPECS[name], "", ctx)
        raw[name] = data

    state = raw["state.yaml"]
    ctx = contexts["state.yaml"]
    if state["id"] != folder.name:
        raise OrdinanceFileError(
            ctx.file, "id", f"is {state['id']!r} but the folder is {folder.name!r}"
        )
    _check_holidays(raw["holidays.yaml"], contexts["holidays.yaml"])
    ids: set[str] = set()
    for index, rule in enumerate(raw["counting.yaml"]):
        check_counting_rule(rule, f"[{index}]", contexts["counting.yaml"])
        if rule["id"] in ids:
            raise OrdinanceFileError(
                contexts["counting.yaml"].file, f"[{index}].id", f"{rule['id']!r} is used twice"
            )
        ids.add(rule["id"])
    form = citation_form(state["statutes"])
    for context in contexts.values():
        for key, citation in context.citations:
            if not form.match(citation):
                raise OrdinanceFileError(
                    context.file,
                    key,
                    f"{citation!r} is not a citation of the state's statutes; write "
                    f"'§ <section> {state['statutes']}' (state.yaml: statutes)",
                )
    return raw


def check_counting_rule(rule: Mapping[str, Any], key: str, ctx: Context) -> None:
    """What the schema cannot say of a counting rule (the state's or a village's own)."""
    if not re.fullmatch(_ID, rule["id"]):
        raise fail(ctx, f"{key}.id", "ids are lower-case-with-hyphens")
    lists = [("last_day_moves_off", rule["last_day_moves_off"]), ("hours_skip", rule["hours_skip"])]
    short = rule.get("short_period")
    if short is not None:
        lists.append(("short_period.skips", short["skips"]))
        if short["under_days"] < 2:
            raise fail(ctx, f"{key}.short_period.under_days", "a short period is 2 days or more")
        _check_sentence(short["says"], DAY_PLACEHOLDERS, f"{key}.short_period.says", ctx)
    for name, kinds in lists:
        if len(set(kinds)) != len(kinds):
            raise fail(ctx, f"{key}.{name}", "names a kind of day twice")
    if "saturday_filing" in rule:
        if "saturday" in rule["last_day_moves_off"]:
            raise fail(
                ctx,
                f"{key}.saturday_filing",
                "the rule already moves every last day off a Saturday; remove saturday_filing",
            )
        says = rule["saturday_filing"]["says"]
        _check_sentence(says, DAY_PLACEHOLDERS, f"{key}.saturday_filing.says", ctx)
    _check_sentence(rule["says"]["days"], DAY_PLACEHOLDERS, f"{key}.says.days", ctx)
    _check_sentence(rule["says"]["hours"], HOUR_PLACEHOLDERS, f"{key}.says.hours", ctx)


def _check_sentence(text: str, allowed: tuple[str, ...], key: str, ctx: Context) -> None:
    words = ", ".join("{" + name + "}" for name in allowed)
    try:
        parts = list(string.Formatter().parse(text))
    except ValueError as exc:
        raise fail(ctx, key, f"has a stray brace ({exc}); placeholders are {words}") from None
    for _, name, spec, conversion in parts:
        if name is not None and (name not in allowed or spec or conversion):
            shown = "{" + name + (f"!{conversion}" if conversion else "") + "}"
            if spec:
                shown = shown[:-1] + f":{spec}" + "}"
            raise fail(ctx, key, f"{shown} is not a placeholder here; use {words}")


def _check_holidays(data: Mapping[str, Any], ctx: Context) -> None:
    if not re.fullmatch(_ID, data["id"]):
        raise fail(ctx, "id", "ids are lower-case-with-hyphens")
    observed = data.get("observed")
    if observed is not None:
        for day in observed["moves"]:
            if day not in WEEKDAYS:
                raise fail(ctx, f"observed.moves.{day}", f"expected one of {', '.join(WEEKDAYS)}")
        if "{name}" not in observed["name"]:
            raise fail(ctx, "observed.name", "write {name} where the holiday's name goes")
    for index, item in enumerate(data["holidays"]):
        key = f"holidays[{index}]"
        if not 1 <= item["month"] <= 12:
            raise fail(ctx, f"{key}.month", f"expected a month, 1 to 12, got {item['month']}")
        fixed = "day" in item
        weekday = "weekday" in item or "nth" in item
        if fixed == weekday:
            raise fail(
                ctx,
                key,
                "give day (a fixed date) or weekday and nth (the nth weekday of the month), "
                "one of the two",
            )
        if fixed:
            try:
                datetime.date(2001, item["month"], item["day"])
            except ValueError:
                raise fail(
                    ctx, f"{key}.day", f"{item['month']}-{item['day']} is not a day of every year"
                ) from None
        else:
            for part in ("weekday", "nth"):
                if part not in item:
                    raise fail(ctx, f"{key}.{part}", "is required with weekday and nth")
        if not 0 <= item.get("days_after", 0) <= 6:
            raise fail(ctx, f"{key}.days_after", "counts 0 to 6 days after the day")
        if "from" in item and "until" in item and as_date(item["until"]) <= as_date(item["from"]):
            raise fail(ctx, f"{key}.until", "must come after from")


def build_rule(raw: Mapping[str, Any], where: str) -> CountingRuleData:
    short = raw.get("short_period")
    filing = raw.get("saturday_filing")
    return CountingRuleData(
        id=raw["id"],
        citation=raw["citation"],
        last_day_moves_off=frozenset(raw["last_day_moves_off"]),
        hours_skip=frozenset(raw["hours_skip"]),
        says_days=raw["says"]["days"],
        says_hours=raw["says"]["hours"],
        short_period=None
        if short is None
        else ShortPeriod(short["under_days"], frozenset(short["skips"]), short["says"]),
        saturday_filing=None
        if filing is None
        else SaturdayFiling(filing["citation"], filing["says"]),
        text=raw.get("text"),
        where=where,
    )


def build_state(raw: Mapping[str, Any]) -> StateLaw:
    """The checked files of ``read_state`` as a ``StateLaw``."""
    folder = Path(raw["folder"])
    state = raw["state.yaml"]
    data = raw["holidays.yaml"]
    observed = data.get("observed") or {}
    moves = tuple(
        (WEEKDAYS.index(day), OBSERVED_MOVES[to]) for day, to in observed.get("moves", {}).items()
    )
    holidays = tuple(
        Holiday(
            name=item["name"],
            month=item["month"],
            day=item.get("day"),
            weekday=WEEKDAYS.index(item["weekday"]) if "weekday" in item else None,
            nth=None if "nth" not in item else LAST if item["nth"] == "last" else item["nth"],
            days_after=item.get("days_after", 0),
            years=item.get("years"),
            starts=as_date(item["from"]) if "from" in item else None,
            ends=as_date(item["until"]) if "until" in item else None,
            citation=item.get("citation"),
        )
        for item in data["holidays"]
    )
    calendar = HolidayCalendar(
        id=data["id"],
        title=data["title"],
        citation=data["citation"],
        holidays=holidays,
        moves=moves,
        observed_name=observed.get("name", "{name}"),
    )
    where = f"{STATES_DIR}/{folder.name}/counting.yaml"
    rules = {rule["id"]: build_rule(rule, where) for rule in raw["counting.yaml"]}
    return StateLaw(
        id=state["id"],
        name=state["name"],
        statutes=state["statutes"],
        holidays=calendar,
        counting_rules=MappingProxyType(rules),
        folder=folder,
    )
