"""Load a jurisdiction's ordinance folder strictly.

A folder ``ordinances/<id>/`` holds ``jurisdiction.yaml``, ``sections.yaml``,
``parameters.yaml`` and ``rules.yaml``. Each is checked against the specs below; the
first problem found stops the load with the file, the dotted key and the reason.
Beyond the shapes, the loader checks what ties the files together: every citation of
the chapter names a section of its map, every condition names a known fact and a
known parameter whose unit fits the fact, and every value carries a citation.

``jurisdiction.yaml`` names the village's state (``state``), whose folder
(``ordinances/_states/<state>/``, ``siltfence.core.ordinance.states``) holds the legal
holidays and the state's counting rules; the village's counting rule is one of those, or
one of its own (``counting_rules``), named by id.
"""

from __future__ import annotations

import datetime
import itertools
import os
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from siltfence.core.board import rule as _board
from siltfence.core.errors import OrdinanceFileError, UnknownJurisdiction
from siltfence.core.facts import FACTS
from siltfence.core.mailing import EMAIL, PHONE, US_STATES, ZIP_CODE
from siltfence.core.ordinance import schema as _schema
from siltfence.core.ordinance import sentences as _sentences
from siltfence.core.ordinance import state_law as _state_law
from siltfence.core.ordinance import states as _states
from siltfence.core.ordinance.model import (
    Ordinance,
    Parameter,
    ParameterValue,
    Section,
    Version,
)
from siltfence.core.ordinance.schema import (
    EXTERNAL_CITATION,
    ORDINANCE_CITATION,
    Citation,
    Condition,
    Context,
    DatedValues,
    MapOf,
    Nullable,
    OneOf,
    as_date,
    check,
)
from siltfence.core.quantities import UNITS, convert_between

FILES = ("jurisdiction.yaml", "sections.yaml", "parameters.yaml", "rules.yaml")
DUTY_KINDS = (
    "review_decision",
    "re_review_decision",
    "start_notice",
    "measure_completion_notice",
    "rain_inspection",
    "weekly_inspection",
    "municipal_inspection",
    "stabilization",
)
ACTIONS = (
    "revoke_permit",
    "request_cease_and_desist",
    "issue_notice_of_intent",
    "begin_village_work",
    "certify_special_assessment",
)
PLAN_KINDS = ("control_plan", "control_plan_statement", "erosion_and_sediment_control_plan")
# The design checks of a control plan (docs/plan-format.md), by the id each result carries.
DESIGN_CHECKS = (
    "dewatering",
    "sediment-measure",
    "sediment-basin",
    "fence-coverage",
    "sheet-flow",
    "stockpile",
    "stabilization",
    "tracking",
    "inlet-protection",
)
# Design rules a chapter may state in words (a yes or no) rather than as a number.
STATED_RULES = ("perimeter_fences", "inlet_protection_required", "tracking_pad_required")
# The parts of a control plan, besides its map, that can show a plan-content item.
PLAN_FIELDS = ("schedule", "maintenance", "description")
_ID = r"[a-z][a-z0-9-]*"

JURISDICTION_SPEC = {
    "id": str,
    "name": str,
    # The id of the state's folder, ordinances/_states/<state>/ (its name, holidays and
    # counting rules).
    "state": str,
    "county": str,
    "time_zone": str,
    "chapter": str,
    "title": str,
    "source": str,
    "history": str,
    "adopted": datetime.date,
    "versions": [{"effective": datetime.date, "title": str, "note": str}],
    "authority": {"title": str, "citation": Citation},
    # Who applies for the permit, the sections that say so, and the party they are on the
    # record (the owner named on an application).
    "applicant_citations": [Citation],
    "applicant_role": OneOf("landowner", "land_user", "responsible_party"),
    "appeals_body": {"title": str, "citation": Citation},
    # How the appeals board sits and how many votes decide: the statute's, which the
    # chapter incorporates, as the village reads it (siltfence.core.board.rule).
    "board": _board.BOARD_SPEC,
    # Where a site map opens before anything is drawn: the village centre, WGS84 degrees.
    "map_centre": {"latitude": float, "longitude": float},
    "words": MapOf(str),
    # The village's own counting rules, in the shape of the state's (counting.yaml there).
    "counting_rules?": [_states.COUNTING_RULE_SPEC],
    "time_counting": {
        # The id of a rule of counting_rules above or of the state's counting.yaml.
        "rule": str,
        "citation": Citation,
        "stands_in": bool,
        # The village's own provision the rule stands in for, when it is not in hand.
        "stands_in_for?": str,
        "says": str,
        # The id of the state's list of legal holidays (its holidays.yaml).
        "holidays": str,
    },
    # The administering authority's office, as the notices print it: where to write, call
    # or pay (decision 46). A value the village has not given is null, and ``not_given``
    # says so; ``source`` says where the values come from.
    "office": {
        "name": str,
        "mailing_address": {"street": str, "city": str, "state": str, "zip": str},
        "phone": Nullable(str),
        "email": Nullable(str),
        "hours": Nullable(str),
        "source": str,
        "not_given?": str,
    },
    "office_calendar": {
        "citation": Citation,
        "business_days": bool,
        # The list of legal holidays the office's closure days are seeded from (its id).
        "closures_seeded_from": str,
        # Whether the office's established hours close it to the public on Saturdays, for
        # a counting rule that moves a filing off such a Saturday (saturday_filing). Null
        # when the village has not said; a reason is then due.
        "closed_on_saturdays?": Nullable(bool),
        "closed_on_saturdays_note?": str,
    },
}

SECTIONS_SPEC = [
    {
        "section": str,
        "heading": str,
        "reconstructed": bool,
        "received?": bool,
        "text": Nullable(str),
        "note?": str,
    }
]

PARAMETER_SPEC = MapOf(
    {
        "description": str,
        "unit": OneOf(*UNITS, "month-day"),
        "values": DatedValues(
            {
                "value": Nullable(lambda v, p, c: None),  # typed against the unit below
                "citation": Citation,
                "text": str,
                "not_in_text?": str,
            }
        ),
    }
)

_FINDING_RULE = {
    "id": str,
    "citation": Citation,
    "when": Condition,
    "holds?": str,
    "fails?": str,
    "notwithstanding?": [str],
    "overridden_by?": [str],
    # A gap note (by id) to show whenever this exemption decides the answer: it holds
    # while a trigger also holds.
    "reading?": str,
}
# What a notice tells its addressee to do, and the section that says so.
_REMEDY = {"citation": Citation, "says": str}
_NOTE = {
    "id": str,
    "citations": [Citation],
    "when?": Condition,
    "when_applies?": bool,
    "says": str,
}
RULES_SPEC = {
    "territory": [
        {
            "location": OneOf(*FACTS["location"].choices),
            "covered": bool,
            "citation": Citation,
            "says": str,
            "gap?": str,
        }
    ],
    "triggers": [_FINDING_RULE],
    "exemptions": [_FINDING_RULE],
    "plans": [
        {
            "kind": OneOf(*PLAN_KINDS),
            "citation": Citation,
            "when?": Condition,
            "says": str,
            # Each item may say how a control plan shows it, for the plan-content checklist:
            # an id the plan preparer can declare, the kinds of site feature that show it
            # ("control_measure": any kind of control measure), and a part of the plan.
            "contents": [
                {
                    "item": str,
                    "citation": Citation,
                    "id?": str,
                    "features?": [str],
                    "plan_field?": OneOf(*PLAN_FIELDS),
                }
            ],
        }
    ],
    "requirements": [{"id": str, "citation": Citation, "when?": Condition, "says": str}],
    # Duties that bind every construction site in the territory, permit or not.
    "site_duties?": [{"id": str, "citation": Citation, "says": str, "responsible?": str}],
    "notes": [_NOTE],
    "gaps": [
        {
            **_NOTE,
            "number": int,
            "topic?": OneOf("duties", "inspections", "enforcement", "permits"),
        }
    ],
    "design_storms?": {
        "citation": Citation,
        "text": str,
        "storms": [
            {"duration_hours": float, "intensity_in_per_hour": float, "total_inches": float}
        ],
    },
    # The design checks of a control plan: where the chapter states the rule each check
    # applies, and what else the checks cite. A chapter that states no design rule of its
    # own (its numbers come from standards it incorporates) leaves out ``checks``.
    "design?": {
        "checks?": {f"{name}?": Citation for name in DESIGN_CHECKS},
        # The provision whose rules hold only where runoff leaves the site.
        "runoff_leaving_site?": Citation,
        # Where the authority identifies or approves the design criteria the text leaves open.
        "design_criteria?": Citation,
        # The provision that incorporates the technical standards of standards.yaml.
        "standards?": Citation,
        # Rules the chapter states in words rather than as a number in parameters.yaml.
        "stated?": {
            f"{name}?": {"value": bool, "citation": Citation, "text": str} for name in STATED_RULES
        },
    },
    "clocks": [
        {
            "kind": OneOf(*DUTY_KINDS),
            "from_event": str,
            "period": str,
            "days": OneOf("calendar", "business"),
            "citation": Citation,
            "says": str,
            # The gaps (by id) whose readings the clock's answer rests on, named on it.
            "readings?": [str],
        }
    ],
    "permit": {
        "duration": str,
        "extension_max": str,
        "citation": Citation,
        "approval_citation": Citation,
        "disapproval_citation": Citation,
        "surety_citation": Citation,
        "surety": str,
        "amendment_citation": Citation,
        "amendment": str,
        # The events on which the plan must be amended, or written permission asked.
        "amendment_triggers": [{"id": str, "citation": Citation, "says": str}],
        # Where the authority may add conditions to a permit (New Glarus § 135-7F).
        "added_conditions?": {"citation": Citation, "says": str},
        # What final stabilization is, and where the chapter says so.
        "final_stabilization": {
            "citation": Citation,
            "says": str,
            # Where the definition also needs the work finished, in its words.
            "activities_completed?": str,
        },
        # The rule that no one may commence the regulated activity without a permit.
        "required": {"citation": Citation, "says": str},
        # Filing an application authorises the authority to enter the site for the review.
        "entry_by_application": {"citation": Citation, "says": str},
    },
    "permit_conditions": [{"id": str, "citation": Citation, "says": str, "note?": str}],
    "duties": [
        {
            "kind": OneOf(*DUTY_KINDS),
            "party": OneOf("permittee", "authority"),
            "event": str,
            "relation": OneOf("after", "before", "every"),
            "period?": str,
            "threshold?": str,
            # Rain duties: which rains count (while the permit's duties run, or only
            # during active construction).
            "window?": OneOf("permit", "active_construction"),
            # The duty is a notice filed with the village office (a counting rule's
            # saturday_filing).
            "filed_with_office?": bool,
            # false: the last day is the plain count and never moves (gap 13).
            "moves?": bool,
            # true: a condition the permit imposes on the permittee ("All permits shall
            # require the permittee to ..."): owed only for what happens while a permit
            # is in force.
            "condition_of_permit?": bool,
            "citation": Citation,
            # The gaps (by id) whose readings each duty of the rule rests on, named on it.
            "readings?": [str],
        }
    ],
    "municipal_inspections?": {
        "citation": Citation,
        "seasons": [{"from": str, "to": str, "at_least": int, "per": OneOf("month", "season")}],
    },
    "enforcement": {
        "stop_work_order": {
            "citation": Citation,
            # What the order requires, in the chapter's words.
            "requires": {"citation": Citation, "says": str},
            "grounds": [
                # What the person must do about the ground, for the order's "What you must
                # do" paragraph.
                {"id": str, "citation": Citation, "says": str, "remedy?": _REMEDY}
            ],
            # How the order is lifted, in the chapter's terms.
            "lift?": _REMEDY,
        },
        "actions": [
            {
                "action": OneOf(*ACTIONS),
                "after_event": str,
                "wait?": str,
                "requires_permit?": bool,
                # true: the order or notice must have been disobeyed (a violation whose days
                # begin after it), not only given (New Glarus § 135-11B, C).
                "requires_disobedience?": bool,
                "citation": Citation,
                "says": str,
                # What the person the step's notice goes to must do (its "What you must do").
                "remedy?": _REMEDY,
                # The gaps (by id) whose readings the step's answer rests on, named on it.
                "readings?": [str],
            }
        ],
        "retraction": {
            "citation": Citation,
            "by": [OneOf("authority", "appeals_board")],
            "says": str,
        },
        "forfeiture": {
            "min": str,
            "max": str,
            "per_day": bool,
            "plus_costs": Nullable(bool),
            "plus_costs_unknown?": str,
            "citation": Citation,
            "says": str,
        },
        "injunction": {"citation": Citation, "says": str},
        # To whom the authority refers a case for a court order, and the statute under
        # which unpaid costs of village work are assessed (documents name them).
        "attorney?": {"title": str, "citation": Citation},
        "special_assessment?": {"law": str, "citation": Citation},
        # The authority's entry on land where work runs without a permit.
        "entry_without_permit": {"citation": Citation, "says": str, "gap?": str},
    },
    "appeals": {
        "body": str,
        "citation": Citation,
        "says": str,
        "who_may_appeal": [str],
        "who_citation": Citation,
        "not_appealable": [{"what": str, "citation": Citation}],
    },
}


def ordinances_root() -> Path:
    """Where the ordinance folders are: ``$SILTFENCE_ORDINANCES``, else the installed data."""
    override = os.environ.get("SILTFENCE_ORDINANCES")
    if override:
        return Path(override)
    return installed_root()


def installed_root() -> Path:
    """The ordinance data installed with siltfence (where a state folder is found for a
    village folder that has none beside it)."""
    installed = Path(__file__).resolve().parents[2] / "ordinances"
    if installed.is_dir():
        return installed
    # An editable install runs from the source tree, where the data sits at the top.
    return Path(__file__).resolve().parents[4] / "ordinances"


def jurisdiction_ids(root: Path | None = None) -> list[str]:
    base = root or ordinances_root()
    return sorted(p.name for p in base.iterdir() if (p / "jurisdiction.yaml").is_file())


@cache
def load(jurisdiction_id: str) -> Ordinance:
    """The ordinance of a jurisdiction, loaded once per process."""
    ids = jurisdiction_ids()
    if jurisdiction_id not in ids:
        raise UnknownJurisdiction(jurisdiction_id, ids)
    return load_folder(ordinances_root() / jurisdiction_id)


def load_all() -> list[Ordinance]:
    return [load(jid) for jid in jurisdiction_ids()]


def load_folder(folder: Path) -> Ordinance:
    """Load and check one jurisdiction folder; raises ``OrdinanceFileError``.

    A checked folder is remembered in the user's cache directory, keyed by each file's
    size and modification time and by the loader's own code, so the next process skips
    parsing and checking unchanged files (a cold CLI determination stays fast).
    """
    key = _cache_key(folder)
    cached = _cache_read(key)
    if cached is not None:
        try:
            return _build(folder, cached)
        except Exception:  # a damaged cache entry costs a fresh read, no more
            pass
    raw = _read_and_check(folder)
    _cache_write(key, raw)
    return _build(folder, raw)


def _cache_dir() -> Path:
    explicit = os.environ.get("SILTFENCE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "siltfence"


def _cache_key(folder: Path) -> str:
    import hashlib

    parts = [str(folder.resolve())]
    code = (
        Path(__file__),
        Path(_schema.__file__),
        Path(_sentences.__file__),
        Path(_board.__file__),
        Path(_states.__file__),
        Path(_state_law.__file__),
    )
    for path in [*(folder / name for name in FILES), *code]:
        try:
            stat = path.stat()
        except OSError:
            return ""  # a missing file is reported by the full load, never cached
        parts.append(f"{path.name}:{stat.st_size}:{stat.st_mtime_ns}")
    # Every state folder the village's could be (its state is named in a file not yet
    # read): a change to any of them is a fresh read.
    for root in _states.state_roots(folder, installed_root()):
        parts.append(str(root.resolve()))
        for path in sorted(root.glob("*/*.yaml")):
            try:
                stat = path.stat()
            except OSError:
                return ""
            parts.append(f"{path.parent.name}/{path.name}:{stat.st_size}:{stat.st_mtime_ns}")
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:32]


# The cache holds the checked files as JSON (what YAML gave: text, numbers, true/false,
# lists and mappings), never a format that can run code when read.
CACHE_SUFFIX = ".json"


def _cache_read(key: str) -> dict[str, Any] | None:
    if not key:
        return None
    import json

    try:
        with open(_cache_dir() / f"ordinance-{key}{CACHE_SUFFIX}", encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def _cache_write(key: str, raw: dict[str, Any]) -> None:
    if not key:
        return
    import json
    import tempfile

    directory = _cache_dir()
    try:
        text = json.dumps(raw, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return  # something JSON cannot hold exactly: not cached, read each time
    try:
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=directory, delete=False
        ) as handle:
            handle.write(text)
        os.replace(handle.name, directory / f"ordinance-{key}{CACHE_SUFFIX}")
    except OSError:
        pass  # a read-only home only costs speed


def _read_and_check(folder: Path) -> dict[str, Any]:
    from siltfence.core.ordinance.yamlfile import read_yaml

    raw: dict[str, Any] = {}
    contexts: dict[str, Context] = {}
    specs = {
        "jurisdiction.yaml": JURISDICTION_SPEC,
        "sections.yaml": SECTIONS_SPEC,
        "parameters.yaml": PARAMETER_SPEC,
        "rules.yaml": RULES_SPEC,
    }
    for name in FILES:
        display = f"{folder.name}/{name}"
        path = folder / name
        if not path.is_file():
            raise OrdinanceFileError(display, "", "is missing from the jurisdiction folder")
        data = read_yaml(path, display)
        ctx = Context(display, [], [])
        check(data, specs[name], "", ctx)
        raw[name] = data
        contexts[name] = ctx

    jurisdiction = raw["jurisdiction.yaml"]
    ctx = contexts["jurisdiction.yaml"]
    if jurisdiction["id"] != folder.name:
        raise OrdinanceFileError(
            ctx.file, "id", f"is {jurisdiction['id']!r} but the folder is {folder.name!r}"
        )
    _check_time_zone(jurisdiction["time_zone"], ctx)
    counting = jurisdiction["time_counting"]
    if "stands_in_for" in counting and not counting["stands_in"]:
        raise OrdinanceFileError(
            ctx.file,
            "time_counting.stands_in_for",
            "names what the rule stands in for, but stands_in is false",
        )
    roots = _states.state_roots(folder, installed_root())
    state = _states.read_state(_states.find_state(jurisdiction["state"], roots, ctx.file))
    raw[STATE_KEY] = state
    _check_state_references(jurisdiction, state, ctx)
    _check_map_centre(jurisdiction["map_centre"], ctx)
    _check_office(jurisdiction["office"], ctx)
    sections = _sections(raw["sections.yaml"], jurisdiction["chapter"], contexts["sections.yaml"])
    parameters = _parameters(raw["parameters.yaml"], jurisdiction, contexts["parameters.yaml"])
    numbers = {s.number for s in sections}
    statutes = _states.citation_form(state["state.yaml"]["statutes"])
    for name, context in contexts.items():
        _check_citations(context, jurisdiction["chapter"], numbers, statutes)
        if name == "rules.yaml":
            _check_conditions(context, parameters)
    _check_rule_references(raw["rules.yaml"], parameters, contexts["rules.yaml"])
    _board.check_board(
        jurisdiction["board"], ctx, key="board", gaps={g["id"] for g in raw["rules.yaml"]["gaps"]}
    )
    _sentences.check_sentences(
        raw["rules.yaml"], parameters, as_date(jurisdiction["adopted"]), contexts["rules.yaml"].file
    )
    _versions(jurisdiction, ctx)
    return raw


# Where the checked state folder is kept among the checked files (and in the cache).
STATE_KEY = "_state"


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


def _build(folder: Path, raw: dict[str, Any]) -> Ordinance:
    """The checked data as an ``Ordinance``."""
    jurisdiction = dict(raw["jurisdiction.yaml"])
    ctx = Context(f"{folder.name}/jurisdiction.yaml", [], [])
    versions = _versions(jurisdiction, ctx)
    jurisdiction["adopted"] = as_date(jurisdiction["adopted"])
    sections = _sections(
        raw["sections.yaml"],
        jurisdiction["chapter"],
        Context(f"{folder.name}/sections.yaml", [], []),
    )
    parameters = _parameters(
        raw["parameters.yaml"], jurisdiction, Context(f"{folder.name}/parameters.yaml", [], [])
    )
    # The sentences' numbers come from the parameters: ``rules`` holds them as of the
    # latest date the data holds (a version or a parameter's value), ``rules_on`` any other.
    sentences = _sentences.templates(raw["rules.yaml"])
    latest = max(
        [versions[-1].effective, *(v.effective for p in parameters.values() for v in p.values)]
    )
    rules = _sentences.filled(raw["rules.yaml"], sentences, parameters, latest)
    state = _states.build_state(raw[STATE_KEY])
    own = {
        rule["id"]: _states.build_rule(rule, f"{folder.name}/jurisdiction.yaml")
        for rule in jurisdiction.get("counting_rules", [])
    }
    rule_id = jurisdiction["time_counting"]["rule"]
    return Ordinance(
        id=jurisdiction["id"],
        name=jurisdiction["name"],
        state=state.name,
        county=jurisdiction["county"],
        time_zone=jurisdiction["time_zone"],
        chapter=jurisdiction["chapter"],
        title=jurisdiction["title"],
        history=jurisdiction["history"],
        adopted=jurisdiction["adopted"],
        versions=versions,
        authority=MappingProxyType(jurisdiction["authority"]),
        applicant_citations=tuple(jurisdiction["applicant_citations"]),
        applicant_role=jurisdiction["applicant_role"],
        appeals_body=MappingProxyType(jurisdiction["appeals_body"]),
        board=_board.board_of(jurisdiction["board"]),
        words=MappingProxyType(jurisdiction["words"]),
        time_counting=MappingProxyType(jurisdiction["time_counting"]),
        office_calendar=MappingProxyType(jurisdiction["office_calendar"]),
        office=MappingProxyType(jurisdiction["office"]),
        state_law=state,
        counting_rule=own.get(rule_id) or state.counting_rules[rule_id],
        map_centre=(
            float(jurisdiction["map_centre"]["latitude"]),
            float(jurisdiction["map_centre"]["longitude"]),
        ),
        sections=sections,
        parameters=MappingProxyType(parameters),
        rules=rules,
        folder=folder,
        sentences=sentences,
    )


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
