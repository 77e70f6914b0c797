"""Load a jurisdiction's ordinance folder strictly.

A folder ``ordinances/<id>/`` holds ``jurisdiction.yaml``, ``sections.yaml``,
``parameters.yaml`` and ``rules.yaml``. Each is checked against its spec
(``siltfence.core.ordinance.specs``); the first problem found stops the load with the file,
the dotted key and the reason. Beyond the shapes, the loader checks what ties the files
together (``siltfence.core.ordinance.checks``): every citation of the chapter names a
section of its map, every condition names a known fact and a known parameter whose unit fits
the fact, and every value carries a citation. A checked folder is kept in a cache
(``siltfence.core.ordinance.cache``).

``jurisdiction.yaml`` names the village's state (``state``), whose folder
(``ordinances/_states/<state>/``, ``siltfence.core.ordinance.states``) holds the legal
holidays and the state's counting rules; the village's counting rule is one of those, or
one of its own (``counting_rules``), named by id.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from types import MappingProxyType

from siltfence.core.board import rule as _board
from siltfence.core.errors import OrdinanceFileError, UnknownJurisdiction
from siltfence.core.ordinance import sentences as _sentences
from siltfence.core.ordinance import states as _states
from siltfence.core.ordinance.cache import CACHE_SUFFIX, _cache_key, _cache_read, _cache_write
from siltfence.core.ordinance.checks import (
    _check_citations,
    _check_conditions,
    _check_map_centre,
    _check_office,
    _check_rule_references,
    _check_state_references,
    _check_time_zone,
    _parameters,
    _sections,
    _versions,
)
from siltfence.core.ordinance.model import Ordinance
from siltfence.core.ordinance.schema import Context, as_date, check
from siltfence.core.ordinance.specs import (
    ACTIONS,
    DESIGN_CHECKS,
    DUTY_KINDS,
    FILES,
    JURISDICTION_SPEC,
    PARAMETER_SPEC,
    PLAN_FIELDS,
    PLAN_KINDS,
    RULES_SPEC,
    SECTIONS_SPEC,
    STATED_RULES,
)

TYPE_CHECKING = False  # typing is not imported at run time: see siltfence/core/__init__.py
if TYPE_CHECKING:
    from typing import Any

# What this module offers: the loading entry points, and the names now kept beside it (the
# specs, the cache's file suffix) that other code has always imported from here.
__all__ = [
    "ACTIONS",
    "CACHE_SUFFIX",
    "DESIGN_CHECKS",
    "DUTY_KINDS",
    "FILES",
    "JURISDICTION_SPEC",
    "PARAMETER_SPEC",
    "PLAN_FIELDS",
    "PLAN_KINDS",
    "RULES_SPEC",
    "SECTIONS_SPEC",
    "STATED_RULES",
    "STATE_KEY",
    "installed_root",
    "jurisdiction_ids",
    "load",
    "load_all",
    "load_folder",
    "ordinances_root",
]


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
    cached = _cache_read(folder, key)
    if cached is not None:
        try:
            return _build(folder, cached)
        except Exception:  # a damaged cache entry costs a fresh read, no more
            pass
    raw = _read_and_check(folder)
    _cache_write(folder, key, raw)
    return _build(folder, raw)


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
