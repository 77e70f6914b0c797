"""The checks that tie a village's ordinance files together.

Beyond each file's shape (``specs``), the loader checks what ties the files together: every
citation of the chapter names a section of its map, every condition names a known fact and
a known parameter whose unit fits the fact, every name in ``rules.yaml`` points at a
parameter, rule or gap that exists, and the counting rule and the list of holidays the
village names are its own or its state's. Here too are the checks of the office's address,
the map centre and the time zone, and the reading of the section map, the parameters and
the versions, each stopping at the first problem with the file, the dotted key and the
reason.
"""

from __future__ import annotations

import datetime
import itertools
import re
from collections.abc import Mapping

from siltfence.core.errors import OrdinanceFileError
from siltfence.core.facts import FACTS
from siltfence.core.mailing import EMAIL, PHONE, US_STATES, ZIP_CODE
from siltfence.core.ordinance import states as _states
from siltfence.core.ordinance.model import Parameter, ParameterValue, Section, Version
from siltfence.core.ordinance.schema import (
    EXTERNAL_CITATION,
    ORDINANCE_CITATION,
    Context,
    as_date,
)
from siltfence.core.quantities import UNITS, convert_between

TYPE_CHECKING = False  # typing is not imported at run time: see siltfence/core/__init__.py
if TYPE_CHECKING:
    from typing import Any

_ID = r"[a-z][a-z0-9-]*"


def _check_state_references(
    jurisdiction: Mapping[str, Any], state: Mapping[str, Any], ctx: Context
) -> None:
    """The counting rule and the list of holidays the village names exist, in its own
    rules or in its state's."""
    where = f"{_states.STATES_DIR}/{jurisdiction['state']}"
    own: set[str] = set()
    for index, rule in enumerate(jurisdiction.get("counting_rules", [])):
        key = f"counting_rules[{index}]"
        _states.check_counting_rule(rule, key, ctx)
        if rule["id"] in own:
            raise OrdinanceFileError(ctx.file, f"{key}.id", f"{rule['id']!r} is used twice")
        own.add(rule["id"])
    states = {rule["id"] for rule in state["counting.yaml"]}
    for name in sorted(own & states):
        raise OrdinanceFileError(
            ctx.file,
            "counting_rules",
            f"{name!r} is also a rule of the state ({where}/counting.yaml); give the village's "
            "own rule another id",
        )
    rule = jurisdiction["time_counting"]["rule"]
    if rule not in own | states:
        known = ", ".join(sorted(own | states)) or "none"
        raise OrdinanceFileError(
            ctx.file,
            "time_counting.rule",
            f"names no counting rule: {rule!r}; the rules are this file's counting_rules and "
            f"those of {where}/counting.yaml ({known})",
        )
    calendar = state["holidays.yaml"]["id"]
    for key in ("time_counting.holidays", "office_calendar.closures_seeded_from"):
        group, field = key.split(".")
        if jurisdiction[group][field] != calendar:
            raise OrdinanceFileError(
                ctx.file,
                key,
                f"names no list of legal holidays: {jurisdiction[group][field]!r}; the state's "
                f"({where}/holidays.yaml) is {calendar!r}",
            )


def _versions(jurisdiction: dict[str, Any], ctx: Context) -> tuple[Version, ...]:
    versions = tuple(
        Version(effective=as_date(v["effective"]), title=v["title"], note=v["note"])
        for v in jurisdiction["versions"]
    )
    if not versions:
        raise OrdinanceFileError(ctx.file, "versions", "needs at least one version")
    for index, (a, b) in enumerate(itertools.pairwise(versions)):
        if b.effective <= a.effective:
            raise OrdinanceFileError(ctx.file, f"versions[{index + 1}]", "dates must ascend")
    return versions


def _check_map_centre(centre: dict[str, float], ctx: Context) -> None:
    for key, limit in (("latitude", 90), ("longitude", 180)):
        if not -limit <= centre[key] <= limit:
            raise OrdinanceFileError(
                ctx.file,
                f"map_centre.{key}",
                f"{centre[key]} is not a {key} in degrees (-{limit} to {limit})",
            )


def _check_office(office: dict[str, Any], ctx: Context) -> None:
    """The office's address is one the post office can read, its phone and email are
    written as such, and a value left out says why."""
    address = office["mailing_address"]
    if address["state"] not in US_STATES:
        raise OrdinanceFileError(
            ctx.file,
            "office.mailing_address.state",
            f"{address['state']!r} is not a two-letter state code (e.g. WI)",
        )
    if not ZIP_CODE.match(str(address["zip"])):
        raise OrdinanceFileError(
            ctx.file,
            "office.mailing_address.zip",
            f"{address['zip']!r} is not a ZIP code: 5 digits, or 5 and 4 (12345-6789)",
        )
    for key, limit in (("street", 200), ("city", 100)):
        if len(address[key]) > limit:
            raise OrdinanceFileError(
                ctx.file, f"office.mailing_address.{key}", f"at most {limit} characters"
            )
    if office["phone"] is not None and not PHONE.match(office["phone"]):
        raise OrdinanceFileError(
            ctx.file,
            "office.phone",
            f"{office['phone']!r} is not a phone number written like 608-555-0100",
        )
    if office["email"] is not None and not EMAIL.match(office["email"]):
        raise OrdinanceFileError(
            ctx.file, "office.email", f"{office['email']!r} is not an email address"
        )
    missing = [key for key in ("phone", "email", "hours") if office[key] is None]
    if missing and not office.get("not_given"):
        raise OrdinanceFileError(
            ctx.file,
            "office.not_given",
            f"{', '.join(missing)} left empty: say why in not_given (e.g. not yet given by "
            "the village)",
        )
    if not missing and office.get("not_given"):
        raise OrdinanceFileError(
            ctx.file, "office.not_given", "every value is given: remove not_given"
        )


def _check_time_zone(name: str, ctx: Context) -> None:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise OrdinanceFileError(
            ctx.file, "time_zone", f"{name!r} is not a time zone (e.g. America/Chicago)"
        ) from None


def _sections(items: list[dict[str, Any]], chapter: str, ctx: Context) -> tuple[Section, ...]:
    seen: set[str] = set()
    sections = []
    for index, item in enumerate(items):
        key = f"[{index}].section"
        number = item["section"]
        if not re.fullmatch(rf"{chapter}-\d+", number):
            raise OrdinanceFileError(ctx.file, key, f"{number!r} is not a section of Ch. {chapter}")
        if number in seen:
            raise OrdinanceFileError(ctx.file, key, f"section {number} appears twice")
        seen.add(number)
        received = item.get("received", True)
        if received and not item["text"]:
            raise OrdinanceFileError(ctx.file, f"[{index}].text", "a received section needs text")
        if not received and not item.get("note"):
            raise OrdinanceFileError(
                ctx.file, f"[{index}].note", "a section not received needs a note saying so"
            )
        sections.append(
            Section(
                number=number,
                heading=item["heading"],
                reconstructed=item["reconstructed"],
                text=item["text"],
                received=received,
                note=item.get("note"),
            )
        )
    return tuple(sections)


def _parameters(
    raw: Mapping[str, Any], jurisdiction: Mapping[str, Any], ctx: Context
) -> dict[str, Parameter]:
    parameters = {}
    adopted = as_date(jurisdiction["adopted"])
    for name, entry in raw.items():
        if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
            raise OrdinanceFileError(ctx.file, name, "parameter names are lower_snake_case")
        values = []
        for key_text, item in sorted(entry["values"].items(), key=lambda kv: as_date(kv[0])):
            effective = as_date(key_text)
            key = f"{name}.values.{effective}"
            if effective < adopted:
                raise OrdinanceFileError(
                    ctx.file, key, f"takes effect before the chapter's adoption ({adopted})"
                )
            value = item["value"]
            if value is None:
                if "not_in_text" not in item:
                    raise OrdinanceFileError(
                        ctx.file,
                        f"{key}.value",
                        "has no value; say why in not_in_text (an amount the chapter leaves "
                        "to another document), or give the value",
                    )
            elif entry["unit"] == "month-day":
                if not (isinstance(value, str) and _is_month_day(value)):
                    raise OrdinanceFileError(
                        ctx.file, f"{key}.value", f"expected a month-day 'MM-DD', got {value!r}"
                    )
            elif isinstance(value, bool) or not isinstance(value, int | float):
                raise OrdinanceFileError(
                    ctx.file, f"{key}.value", f"expected a number in {entry['unit']}, got {value!r}"
                )
            values.append(
                ParameterValue(
                    effective=effective,
                    value=value if isinstance(value, str | None) else float(value),
                    citation=item["citation"],
                    text=item["text"],
                    not_in_text=item.get("not_in_text"),
                )
            )
        parameters[name] = Parameter(name, entry["description"], entry["unit"], tuple(values))
    return parameters


def _is_month_day(text: str) -> bool:
    try:
        datetime.date.fromisoformat(f"2000-{text}")
    except ValueError:
        return False
    return bool(re.fullmatch(r"\d\d-\d\d", text))


def _check_citations(
    ctx: Context, chapter: str, sections: set[str], statutes: re.Pattern[str] | None = None
) -> None:
    for key, citation in ctx.citations:
        match = ORDINANCE_CITATION.match(citation)
        if match:
            number = f"{match['chapter']}-{match['section']}"
            if match["chapter"] != chapter:
                raise OrdinanceFileError(
                    ctx.file, key, f"{citation!r} cites another chapter than Ch. {chapter}"
                )
            if number not in sections:
                raise OrdinanceFileError(
                    ctx.file, key, f"{citation!r} cites § {number}, which the section map lacks"
                )
        elif not EXTERNAL_CITATION.match(citation) and not (
            statutes is not None and statutes.match(citation)
        ):
            raise OrdinanceFileError(
                ctx.file,
                key,
                f"{citation!r} is not a citation; write '§ {chapter}-7A(3)' for this chapter, "
                "or name a statute ('§ 283.33 Wis. Stats.') or rule ('NR 216.42 Wis. Adm. Code')",
            )


_COMPARISONS = ("at_least", "more_than", "less_than", "at_most", "equals")


def _check_conditions(ctx: Context, parameters: Mapping[str, Parameter]) -> None:
    for key, condition in ctx.conditions:
        _check_condition(condition, key, ctx, parameters)


def _check_condition(
    cond: Any, key: str, ctx: Context, parameters: Mapping[str, Parameter]
) -> None:
    if not isinstance(cond, dict) or len(cond) == 0:
        raise OrdinanceFileError(
            ctx.file, key, "a condition is a mapping such as {fact: ..., is: true}"
        )
    if "all" in cond or "any" in cond:
        (op,) = cond.keys() if len(cond) == 1 else (None,)
        if op not in ("all", "any") or not isinstance(cond[op], list) or not cond[op]:
            raise OrdinanceFileError(ctx.file, key, "'all'/'any' take a non-empty list, alone")
        for index, sub in enumerate(cond[op]):
            _check_condition(sub, f"{key}.{op}[{index}]", ctx, parameters)
        return
    if "not" in cond:
        if len(cond) != 1:
            raise OrdinanceFileError(ctx.file, key, "'not' stands alone")
        _check_condition(cond["not"], f"{key}.not", ctx, parameters)
        return
    fact = cond.get("fact")
    if not isinstance(fact, str) or fact not in FACTS:
        raise OrdinanceFileError(
            ctx.file, f"{key}.fact", f"{fact!r} is not a fact of the public contract"
        )
    spec = FACTS[fact]
    ops = [k for k in cond if k != "fact"]
    if len(ops) != 1:
        raise OrdinanceFileError(ctx.file, key, "give exactly one test besides 'fact'")
    op = ops[0]
    value = cond[op]
    where = f"{key}.{op}"
    if op == "given":
        if not isinstance(value, bool):
            raise OrdinanceFileError(ctx.file, where, "'given' takes true or false")
    elif op == "is":
        if spec.kind != "bool" or not isinstance(value, bool):
            raise OrdinanceFileError(
                ctx.file, where, f"'is' tests a true/false fact; {fact} is not"
            )
    elif op in ("in", "not_in"):
        if spec.kind != "choice" or not isinstance(value, list):
            raise OrdinanceFileError(ctx.file, where, f"'{op}' takes a list of {fact}'s choices")
        for choice in value:
            if choice not in spec.choices:
                raise OrdinanceFileError(
                    ctx.file, where, f"{choice!r} is not one of {', '.join(spec.choices)}"
                )
    elif op in _COMPARISONS:
        if spec.kind != "quantity":
            raise OrdinanceFileError(ctx.file, where, f"'{op}' compares a quantity; {fact} is not")
        if isinstance(value, int | float) and not isinstance(value, bool):
            return  # a literal in the fact's own unit
        if value not in parameters:
            raise OrdinanceFileError(ctx.file, where, f"names no parameter: {value!r}")
        unit = parameters[value].unit
        assert spec.unit is not None
        if unit not in UNITS or convert_between(1.0, unit, spec.unit) is None:
            raise OrdinanceFileError(
                ctx.file,
                where,
                f"parameter {value} is in {unit}, which does not fit {fact} ({spec.unit})",
            )
    else:
        raise OrdinanceFileError(
            ctx.file,
            where,
            f"unknown test {op!r}; use is, given, in, not_in, {', '.join(_COMPARISONS)}",
        )


def _check_rule_references(
    rules: Mapping[str, Any], parameters: Mapping[str, Parameter], ctx: Context
) -> None:
    """Names used in rules.yaml point at parameters and rules that exist."""
    refs: list[tuple[str, str]] = []
    for index, clock in enumerate(rules["clocks"]):
        refs.append((f"clocks[{index}].period", clock["period"]))
    refs += [("permit.duration", rules["permit"]["duration"])]
    refs += [("permit.extension_max", rules["permit"]["extension_max"])]
    for index, duty in enumerate(rules["duties"]):
        for field in ("period", "threshold"):
            if field in duty:
                refs.append((f"duties[{index}].{field}", duty[field]))
    for index, action in enumerate(rules["enforcement"]["actions"]):
        if "wait" in action:
            refs.append((f"enforcement.actions[{index}].wait", action["wait"]))
    forfeiture = rules["enforcement"]["forfeiture"]
    refs += [("enforcement.forfeiture.min", forfeiture["min"])]
    refs += [("enforcement.forfeiture.max", forfeiture["max"])]
    for key, name in refs:
        if name not in parameters:
            raise OrdinanceFileError(ctx.file, key, f"names no parameter: {name!r}")

    ids: set[str] = set()
    for group in ("triggers", "exemptions", "requirements", "notes", "gaps"):
        for index, rule in enumerate(rules[group]):
            if not re.fullmatch(_ID, rule["id"]):
                raise OrdinanceFileError(
                    ctx.file, f"{group}[{index}].id", "ids are lower-case-with-hyphens"
                )
            if rule["id"] in ids and group != "requirements":
                raise OrdinanceFileError(
                    ctx.file, f"{group}[{index}].id", f"{rule['id']!r} is used twice"
                )
            ids.add(rule["id"])
    triggers = {t["id"] for t in rules["triggers"]}
    gaps = {g["id"] for g in rules["gaps"]}
    for group, field, known in (
        ("triggers", "notwithstanding", triggers),
        ("exemptions", "overridden_by", triggers),
    ):
        for index, rule in enumerate(rules[group]):
            for name in rule.get(field, []):
                if name not in known:
                    raise OrdinanceFileError(
                        ctx.file, f"{group}[{index}].{field}", f"names no trigger: {name!r}"
                    )
    for index, plan in enumerate(rules["plans"]):
        named: set[str] = set()
        for number, item in enumerate(plan["contents"]):
            if "id" not in item:
                continue
            key = f"plans[{index}].contents[{number}].id"
            if not re.fullmatch(r"[a-z][a-z0-9_]*", item["id"]):
                raise OrdinanceFileError(ctx.file, key, "plan-content ids are lower_snake_case")
            if item["id"] in named:
                raise OrdinanceFileError(
                    ctx.file, key, f"{item['id']!r} is used twice in this plan"
                )
            named.add(item["id"])
    for index, place in enumerate(rules["territory"]):
        if "gap" in place and place["gap"] not in gaps:
            raise OrdinanceFileError(
                ctx.file, f"territory[{index}].gap", f"names no gap: {place['gap']!r}"
            )
    for index, rule in enumerate(rules["exemptions"]):
        if "reading" in rule and rule["reading"] not in gaps:
            raise OrdinanceFileError(
                ctx.file, f"exemptions[{index}].reading", f"names no gap: {rule['reading']!r}"
            )
    for group, found in (
        ("clocks", rules["clocks"]),
        ("duties", rules["duties"]),
        ("enforcement.actions", rules["enforcement"]["actions"]),
    ):
        for index, rule in enumerate(found):
            for name in rule.get("readings", []):
                if name not in gaps:
                    raise OrdinanceFileError(
                        ctx.file, f"{group}[{index}].readings", f"names no gap: {name!r}"
                    )
    forfeiture = rules["enforcement"]["forfeiture"]
    if forfeiture["plus_costs"] is None and "plus_costs_unknown" not in forfeiture:
        raise OrdinanceFileError(
            ctx.file,
            "enforcement.forfeiture.plus_costs",
            "has no value; say why in plus_costs_unknown, or write true or false",
        )
