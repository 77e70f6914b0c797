"""The words of the screens, in one place.

The core and the API speak in the contract's names (``disturbed_area``, ``ft**2``,
``plan.site.features[2].properties.start``); a clerk and a contractor read "Disturbed
area", "sq ft" and "feature 3 of the plan, start". ``LABELS`` is the table of every name
a screen may show; ``say`` turns a sentence from the core into the screens' words. The
API and the command line keep the contract's names: only templates use this module
(through the ``words``, ``says`` and ``gap_label`` filters of ``siltfence`` tags).
"""

from __future__ import annotations

import re

# Contract names -> the words a form or a screen uses for them.
LABELS: dict[str, str] = {
    # the facts of "Do I need a permit?"
    "disturbed_area": "Disturbed area",
    "excavation_fill_volume": "Excavation plus fill",
    "underground_pipe_length": "Underground pipe or facility",
    "channel_length_disturbed": "Open channel disturbed",
    "subdivision_plat": "Subdivision plat",
    "certified_survey": "Certified survey map",
    "road_work": "Road or bridge work",
    "activity_kind": "Kind of work",
    "routine_maintenance": "Routine maintenance",
    "state_funded": "Funded or conducted by the state",
    "state_agency": "Conducted by a state agency",
    "federal_npdes_exempt": "Exempt by federal law from an NPDES construction permit",
    "designated_by_authority": "Designated by the Village",
    "location": "Location",
    "land_use": "Land use",
    "runoff_leaves_site": "Runoff leaves the site",
    "area_disturbed_at_one_time": "Area disturbed at one time",
    "channel_originates_on_site": "A channel starts in the disturbed area",
    "channel_originates_in_disturbed_area": "A channel starts in the disturbed area",
    "part_of_common_plan": "Part of a larger common plan of development or sale",
    "common_plan_disturbed_area": "Area disturbed by the whole common plan",
    # choices
    "tree_harvesting": "tree harvesting",
    "extraterritorial": "extraterritorial",
    # plans
    "control_plan": "control plan",
    "control_plan_statement": "control plan statement",
    "erosion_and_sediment_control_plan": "erosion and sediment control plan",
    "plan_statement": "plan statement",
    # duties and their parties
    "review_decision": "Review decision",
    "re_review_decision": "Review decision after the information arrives",
    "start_notice": "Notice before work starts",
    "measure_completion_notice": "Notice that a control measure is installed",
    "rain_inspection": "Inspection after rain",
    "weekly_inspection": "Weekly inspection",
    "municipal_inspection": "Village inspection",
    "stabilization": "Stabilization",
    "authority": "Village",
    "permittee": "permit holder",
    # plan amendment triggers
    "design_change": "change of design",
    "construction_change": "change of construction",
    "operation_change": "change of operation",
    "maintenance_change": "change of maintenance",
    "ineffective": "the plan does not work",
    "ineffective_plan": "the plan does not work",
    # map and plan features
    "site_boundary": "site boundary",
    "stockpile": "stockpile",
    "drainage_channel": "drainage channel",
    "storm_inlet": "storm drain inlet",
    "silt_fence": "silt fence",
    "straw_bale": "straw bale line",
    "inlet_protection": "inlet protection",
    "sediment_basin": "sediment basin",
    "basin_drainage": "area draining to a basin",
    "sediment_trap": "sediment trap",
    "tracking_pad": "tracking pad",
    "downslope_edge": "downslope edge",
    "sideslope_edge": "side-slope edge",
    # design-check inputs
    "drainage_area": "drainage area",
    "basin_surface_area": "basin surface area",
    "basin_depth": "basin depth",
    "runoff_coefficient": "runoff coefficient",
    "particle_size": "particle size",
    "water_temperature": "water temperature",
    "surface_percent": "least surface, in percent of the drainage area",
    "min_depth": "least depth",
    "graveled_access": "graveled access",
    "basin_area_at_one_time": "area at one time from which basins are required",
    "pumping_rate": "pumping rate",
    "settling_area": "settling area",
    "slope_length": "slope length",
    "slope_percent": "slope",
    "setback_ft": "setback",
}

# The hint under a question of "Do I need a permit?", where the contract's meaning of the
# fact (core/facts.py, also the API's) is not the plainest words for a contractor.
HINTS: dict[str, str] = {
    "disturbed_area": "the ground graded, dug, filled, or stripped of its plants or cover",
    "excavation_fill_volume": "the earth dug out and the earth brought in, added together",
    "underground_pipe_length": (
        "length of underground pipe, cable or other facility laid, repaired, replaced or enlarged"
    ),
    "channel_length_disturbed": (
        "length of road ditch, grassed waterway or other open channel disturbed, with the "
        "pipes and utilities across it"
    ),
    "state_agency": "a state department, board or office does the work itself",
    "federal_npdes_exempt": (
        "an NPDES permit is the federal permit for stormwater from a construction site; a "
        "federal law or rule says this work needs none"
    ),
    "routine_maintenance": (
        "work that keeps a road, ditch, pond or other facility as it was built: its line "
        "and grade, how much water it carries, and its purpose"
    ),
    "runoff_leaves_site": "rain or melt water running off the work flows beyond the site",
    "designated_by_authority": (
        "the Village has told you that this site needs erosion control whatever its size"
    ),
    "location": "where the site is, in relation to the village",
    "land_use": "what the land will be used for once the work is done",
    "area_disturbed_at_one_time": (
        "the most ground left open at any one time, if the work is done in phases"
    ),
    "channel_originates_on_site": (
        "a ditch or other channel that carries runoff begins in the ground you disturb"
    ),
    "part_of_common_plan": (
        "the site is one part of a larger development or sale, built in separate pieces, "
        "perhaps at different times, under one plan"
    ),
    "common_plan_disturbed_area": (
        "all the ground the whole larger development or sale disturbs, this site included"
    ),
}

# The words of a choice on the permit check's form, where its contract name alone is not
# plain: (fact, choice) -> words.
FORM_CHOICES: dict[tuple[str, str], str] = {
    ("location", "inside"): "inside the village",
    ("location", "extraterritorial"): (
        "outside, but where the village reviews land divisions (extraterritorial)"
    ),
    ("location", "outside"): "outside the village and the land it reviews",
}

# Fields whose error starts with their contract name -> the label of the form that sent it.
FIELD_LABELS = {
    "on": "Date the work is judged on",
    "jurisdiction": "Village",
    "plan": "The plan",
}

# Units as the code writes them -> as a reader does.
UNITS = {"ft**2": "sq ft", "ft**3": "cu ft", "yd**3": "cu yd", "m**2": "m²", "m**3": "m³"}

_SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
_FACT_PATH = re.compile(r"\bfacts\.([a-z_]+)")
_FEATURE = re.compile(r"\bplan\.site\.features\[(\d+)\](?:\.properties\.([a-z_]+)|\.geometry)?")
_PLAN_PATH = re.compile(r"\bplan\.((?:[a-z_]+)(?:\[\d+\])?(?:\.[a-z_]+)*)")
_FLAG = re.compile(r"\b([a-z]+(?:_[a-z0-9]+)+) is (true|false)\b")
_GIVEN = re.compile(r"\b([a-z]+(?:_[a-z0-9]+)+) is (not )?given\b")
_CHOICE = re.compile(r"\b([a-z]+(?:_[a-z0-9]+)+) is ([a-z_]+|not given)\b")
_PARAMETER_PREFIX = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)+: ")
_DECISION_NOTE = re.compile(r"\bdocs/decisions/(\d{4})-([a-z0-9-]+)\.md")
_DOC = re.compile(r"\bdocs/([a-z0-9-]+)\.md")
_YAML = re.compile(r"\bordinances/([a-z-]+)/([a-z_]+)\.yaml\b|\b([a-z_]+)\.yaml\b")
_UNIT = re.compile(r"(?<=[\d\s(])(ft\*\*2|ft\*\*3|yd\*\*3|m\*\*2|m\*\*3)\b")
_MICRONS = re.compile(r"(\d)\s?um\b")
_TRAILING_ZERO = re.compile(r"\b(\d+)\.0\b(?=\s*(?:sq|cu|ft|in|µm|acre|%|$))")
_LIBRARY_CALL = re.compile(r"\s*\([a-z]+\.[a-z_.]+, Method='[A-Za-z]+'\)")


def choice(fact: str, value: str) -> str:
    """The words of one choice of a fact on a form: ``FORM_CHOICES``, else its label."""
    return FORM_CHOICES.get((fact, value), label(value))


def label(name: str) -> str:
    """The screens' word for a contract name; any other name reads without underscores."""
    if name in LABELS:
        return LABELS[name]
    return name.replace("_", " ")


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:] if text[1:2].islower() or len(text) == 1 else text


def gap(number: object) -> str:
    """A gap of the ordinance's text: "Unclear in the text (note 7)"."""
    return f"Unclear in the text (note {number})"


def say(text: str) -> str:
    """A sentence from the core in the screens' words.

    ``facts.disturbed_area: '5 kg' is not an area`` -> ``Disturbed area: '5 kg' is not an
    area``; ``routine_maintenance is false`` -> ``routine maintenance: no``; ``4000.0 ft**2``
    -> ``4000 sq ft``; ``100 um`` -> ``100 µm``; ``plan.site.features[2].properties.start``
    -> ``feature 3 of the plan, start``.
    """
    if not text:
        return text
    field, colon, rest = text.partition(": ")
    if colon and field in FIELD_LABELS:
        text = f"{FIELD_LABELS[field]}: {rest}"
    text = _PARAMETER_PREFIX.sub("", text)
    text = _LIBRARY_CALL.sub("", text)
    text = _FACT_PATH.sub(lambda m: label(m.group(1)), text)
    text = _FEATURE.sub(_feature, text)
    text = _PLAN_PATH.sub(lambda m: "the plan's " + _path_words(m.group(1)), text)
    text = _DECISION_NOTE.sub(lambda m: f"decision note {int(m.group(1))}", text)
    text = _DOC.sub(lambda m: f"the {m.group(1).replace('-', ' ')} page", text)
    text = _YAML.sub(_data_file, text)
    text = _FLAG.sub(lambda m: f"{_lower(label(m.group(1)))}: {_yes_no(m.group(2))}", text)
    text = _GIVEN.sub(lambda m: f"{_lower(label(m.group(1)))} is {m.group(2) or ''}given", text)
    text = _CHOICE.sub(lambda m: f"{_lower(label(m.group(1)))} is {label(m.group(2))}", text)
    text = _UNIT.sub(lambda m: UNITS[m.group(1)], text)
    text = _MICRONS.sub(r"\1 µm", text)
    text = _TRAILING_ZERO.sub(lambda m: f"{int(m.group(1)):,}", text)
    text = _SNAKE.sub(lambda m: _lower(label(m.group(0))), text)
    return text


_SPACED = sorted(
    ((key.replace("_", " "), words) for key, words in LABELS.items() if "_" in key),
    key=lambda pair: -len(pair[0]),
)
_SPACED_NAME = re.compile(r"\b(" + "|".join(re.escape(k) for k, _ in _SPACED) + r")\b")
_SPACED_WORDS = dict(_SPACED)


def say_names(text: str) -> str:
    """A sentence that writes contract names with spaces (``federal npdes exempt``), as
    the comparison of two chapters does, in the screens' words; then as ``say``."""
    text = _SPACED_NAME.sub(lambda m: _lower(_SPACED_WORDS[m.group(1)]), text)
    return say(text)


def _yes_no(value: str) -> str:
    return "yes" if value == "true" else "no"


def _feature(match: re.Match[str]) -> str:
    words = f"feature {int(match.group(1)) + 1} of the plan"
    if match.group(2):
        words += f", {label(match.group(2))}"
    return words


def _path_words(path: str) -> str:
    parts = [p for p in re.split(r"[.\[\]]+", path) if p and not p.isdigit()]
    return ", ".join(label(p) for p in parts)


def _data_file(match: re.Match[str]) -> str:
    name = match.group(2) or match.group(3)
    return f"the village's {label(name)} data"
