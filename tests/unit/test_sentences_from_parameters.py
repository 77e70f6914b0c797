"""The sentences of rules.yaml take their numbers from parameters.yaml (decision 39).

A sentence writes ``{area_trigger}`` where it used to write "4,000 sq ft", so an amendment
entered as a new dated value in parameters.yaml changes the sentence with it, and a date
before the amendment keeps the old number. The loader refuses a placeholder it cannot fill
(file, key, rule and placeholder named); and no sentence may write out, outside quotation
marks, a number equal to a parameter's value (the drift the placeholders end), save the
exceptions listed below with their reasons.
"""

from __future__ import annotations

import dataclasses
import datetime
import shutil
from pathlib import Path

import pytest

from siltfence.core.analysis.amendment import with_proposed
from siltfence.core.errors import OrdinanceFileError
from siltfence.core.facts import parse_facts
from siltfence.core.ordinance import sentences
from siltfence.core.ordinance.loader import load_folder
from siltfence.core.ordinance.yamlfile import read_yaml
from siltfence.core.rules.determine import determine_with
from siltfence.core.timeline import compute

ORDINANCES = Path(__file__).resolve().parents[2] / "ordinances"
VILLAGES = sorted(p.name for p in ORDINANCES.iterdir() if (p / "rules.yaml").exists())
AMENDED = datetime.date(2030, 1, 1)
BEFORE = AMENDED - datetime.timedelta(days=1)


def copy_of(tmp_path: Path, jurisdiction: str) -> Path:
    folder = tmp_path / jurisdiction
    shutil.copytree(ORDINANCES / jurisdiction, folder, ignore=shutil.ignore_patterns("cases"))
    return folder


def edit(folder: Path, file: str, old: str, new: str) -> None:
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} should occur exactly once in {file}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def amend(folder: Path, name: str, value: str, citation: str) -> None:
    """A later dated value of parameter ``name``, as a village would enter an amendment."""
    path = folder / "parameters.yaml"
    text = path.read_text(encoding="utf-8")
    head = f"\n{name}:\n"
    assert text.count(head) == 1, name
    start = text.index(head) + len(head)
    end = text.find("\n\n", start)
    end = len(text.rstrip("\n")) if end == -1 else end
    entry = (
        f"\n    {AMENDED.isoformat()}:\n      value: {value}\n      citation: {citation}\n"
        f"      text: an amendment (a test's, no village's)"
    )
    path.write_text(text[:end] + entry + text[end:], encoding="utf-8")


def says(rules, group: str, ident: str) -> str:
    (rule,) = [r for r in rules[group] if r.get("id", r.get("kind")) == ident]
    return str(rule["says"])


# --- an amendment: the old number before it, the new one after ----------------------------


def test_an_amended_parameter_changes_the_sentence_from_its_date_only(tmp_path: Path) -> None:
    folder = copy_of(tmp_path, "spencer-wi")
    amend(folder, "sheet_flow_adjacent_area", "12000", "§ 413-7B(5)(a)")
    amend(folder, "stockpile_days", "10", "§ 413-7B(5)(d)")
    amend(folder, "review_period", "60", "§ 413-8D")
    amend(folder, "village_work_wait_days", "21", "§ 413-10E")
    amend(folder, "plan_tier_area", "2", "§ 413-8B")
    spencer = load_folder(folder)

    old, new = spencer.rules_on(BEFORE), spencer.rules_on(AMENDED)
    assert "over 10,000 sq ft must be diverted" in says(old, "requirements", "sheet-flow-diversion")
    assert "over 12,000 sq ft must be diverted" in says(new, "requirements", "sheet-flow-diversion")
    assert "piles remaining more than seven days" in says(old, "requirements", "stockpiles")
    assert "piles remaining more than ten days" in says(new, "requirements", "stockpiles")
    # The quoted words are the law's as held: they stay as written on every date.
    assert '"should not be located"' in says(new, "requirements", "stockpiles")
    assert "decides within 45 days" in says(old, "clocks", "review_decision")
    assert "decides within 60 days" in says(new, "clocks", "review_decision")
    actions = {a["action"]: a["says"] for a in new["enforcement"]["actions"]}
    assert "so from the 22nd day after the notice" in actions["begin_village_work"]
    assert "Exactly two acres is disturbed" in says(new, "gaps", "plan-tier-one-acre")
    assert "Exactly one acre is disturbed" in says(old, "gaps", "plan-tier-one-acre")
    # The undated rules speak as of the latest date the data holds.
    assert says(spencer.rules, "clocks", "review_decision") == says(
        new, "clocks", "review_decision"
    )
    # The folder as held is untouched by a copy's amendment.
    real = load_folder(ORDINANCES / "spencer-wi")
    assert "within 45 days" in says(real.rules_on(AMENDED), "clocks", "review_decision")


def test_a_determination_shows_the_numbers_in_force_on_its_date(tmp_path: Path) -> None:
    folder = copy_of(tmp_path, "new-glarus-wi")
    amend(folder, "area_trigger", "5000", "§ 135-4A(1)(a)")
    amend(folder, "routine_maintenance_area", "3", "§ 135-4A(2)(c)")
    glarus = load_folder(folder)
    facts = parse_facts(
        {"disturbed_area": 6000, "part_of_common_plan": True, "common_plan_disturbed_area": 9000}
    )

    def finding(on: datetime.date, ident: str) -> str:
        answer = determine_with(glarus, facts, on)
        (found,) = [f for f in answer.findings if f.id == ident]
        return found.says

    assert "the plan as a whole disturbs 4,000 sq ft or more" in finding(
        BEFORE, "common-plan-area-trigger"
    )
    assert "the plan as a whole disturbs 5,000 sq ft or more" in finding(
        AMENDED, "common-plan-area-trigger"
    )
    assert "routine maintenance of under five acres" in finding(BEFORE, "routine-maintenance")
    assert "routine maintenance of under three acres" in finding(AMENDED, "routine-maintenance")
    # The answer hands on the ordinance as of its date (the plan checklist reads it).
    answer = determine_with(glarus, facts, AMENDED)
    assert not [t for _, t in sentences.strings(answer.ordinance.rules) if "{" in t]


def test_a_timeline_s_note_has_the_numbers_of_the_day_its_rule_was_read(tmp_path: Path) -> None:
    folder = copy_of(tmp_path, "new-glarus-wi")
    amend(folder, "extension_max", "90", "§ 135-7G")
    glarus = load_folder(folder)

    def extension_note(issued: str, days: int, as_of: str) -> str:
        events = [
            {"type": "permit_issued", "at": issued},
            {"type": "permit_extended", "at": issued, "days": days},
            {"type": "permit_extended", "at": issued, "days": days},
        ]
        timeline = compute(glarus, events, as_of=datetime.datetime.fromisoformat(as_of))
        (note,) = [n for n in timeline.notes if n.id == "extension-total"]
        return note.says

    # The cap is read on the day of issue (clocks.permit_term), and so is its note.
    assert "each extension is for up to 180 days" in extension_note("2029-06-01", 100, "2029-07-01")
    assert "each extension is for up to 180 days" in extension_note("2029-06-01", 100, "2030-07-01")
    assert "each extension is for up to 90 days" in extension_note("2030-02-01", 50, "2030-03-01")


def test_a_proposed_amendment_fills_the_sentences_with_the_proposed_value() -> None:
    spencer = load_folder(ORDINANCES / "spencer-wi")
    on = datetime.date(2026, 6, 1)
    draft = with_proposed(spencer, on, {"basin_depth": "4 ft"})
    assert "at least 3 ft deep" in says(spencer.rules_on(on), "requirements", "sediment-basins")
    assert "at least 4 ft deep" in says(draft.rules_on(on), "requirements", "sediment-basins")
    # A copy with other rules keeps them; only the sentences are filled over them.
    rules = dict(spencer.rules)
    rules["appeals"] = {**rules["appeals"], "says": "changed"}
    changed = dataclasses.replace(spencer, rules=rules)
    assert changed.rules_on(on)["appeals"]["says"] == "changed"


# --- the loader refuses a placeholder it cannot fill ---------------------------------------

REFUSED = [
    pytest.param(
        "spencer-wi",
        "rules.yaml",
        "particles of {dewatering_particle_size} or greater",
        "particles of {dewatering_particle_sise} or greater",
        [
            "spencer-wi/rules.yaml",
            "requirements[2].says",
            "rule 'dewatering'",
            "{dewatering_particle_sise}",
            "names no parameter",
        ],
        id="a placeholder naming no parameter",
    ),
    pytest.param(
        "spencer-wi",
        "rules.yaml",
        "(amount not in the chapter), each day a separate offense",
        "(at least {forfeiture_min}), each day a separate offense",
        [
            "spencer-wi/rules.yaml",
            "notes[9].says",
            "rule 'enforcement-penalty'",
            "{forfeiture_min}",
            "no value on 1993-10-04",
            "value: null",
        ],
        id="a parameter with no value (null)",
    ),
    pytest.param(
        "new-glarus-wi",
        "rules.yaml",
        "routine maintenance of under {routine_maintenance_area:words}",
        "routine maintenance of under {routine_maintenance_area:roman}",
        [
            "new-glarus-wi/rules.yaml",
            "exemptions[2].fails",
            "rule 'routine-maintenance'",
            "{routine_maintenance_area:roman}",
            "unknown style 'roman'",
        ],
        id="an unknown style",
    ),
    pytest.param(
        "spencer-wi",
        "rules.yaml",
        '"after 14 days from issuing the notice of intent"',
        '"after {village_work_wait_days} from issuing the notice of intent"',
        [
            "spencer-wi/rules.yaml",
            "enforcement.actions[3].says",
            "rule 'begin_village_work'",
            "{village_work_wait_days}",
            "inside quotation marks",
        ],
        id="a placeholder inside the law's quoted words",
    ),
    pytest.param(
        "spencer-wi",
        "rules.yaml",
        "text: For sites with less than 10 acres disturbed at one time",
        "text: For sites with less than {basin_area_at_one_time} disturbed at one time",
        ["spencer-wi/rules.yaml", "design.stated.perimeter_fences.text", "ordinance's own words"],
        id="a placeholder in a text field of the law's words",
    ),
    pytest.param(
        "spencer-wi",
        "rules.yaml",
        "after each rain of {rain_inspection_threshold} or more and",
        "after each {rain_inspection_threshold:ordinal} rain or more and",
        ["permit_conditions[6].says", "{rain_inspection_threshold:ordinal}", "no ordinal"],
        id="a style the value cannot take",
    ),
    pytest.param(
        "spencer-wi",
        "rules.yaml",
        "decides within {review_period} of receipt",
        "decides within {review_period of receipt",
        ["spencer-wi/rules.yaml", "clocks[0].says", "brace"],
        id="a brace that opens no placeholder",
    ),
]


@pytest.mark.parametrize("jurisdiction, file, old, new, expected", REFUSED)
def test_a_placeholder_that_cannot_be_filled_is_refused_by_the_loader(
    tmp_path: Path, jurisdiction: str, file: str, old: str, new: str, expected: list[str]
) -> None:
    folder = copy_of(tmp_path, jurisdiction)
    edit(folder, file, old, new)
    with pytest.raises(OrdinanceFileError) as raised:
        load_folder(folder)
    for needle in expected:
        assert needle in str(raised.value), f"{needle!r} not in {raised.value}"


def test_an_amendment_to_no_value_is_refused_for_a_sentence_that_shows_it(tmp_path: Path) -> None:
    folder = copy_of(tmp_path, "spencer-wi")
    amend(folder, "review_period", "null\n      not_in_text: left to a resolution", "§ 413-8D")
    with pytest.raises(OrdinanceFileError) as raised:
        load_folder(folder)
    message = str(raised.value)
    assert "clocks[0].says" in message and "{review_period}" in message
    assert f"no value on {AMENDED}" in message


def test_a_parameter_with_no_value_from_adoption_is_refused_in_a_sentence(tmp_path: Path) -> None:
    folder = copy_of(tmp_path, "spencer-wi")
    edit(
        folder,
        "parameters.yaml",
        "    1993-10-04:\n      value: 45\n",
        "    2001-01-01:\n      value: 45\n",
    )
    with pytest.raises(OrdinanceFileError) as raised:
        load_folder(folder)
    assert "{review_period}" in str(raised.value)
    assert "no value before 2001-01-01" in str(raised.value)


# --- how a value is written ---------------------------------------------------------------


@pytest.mark.parametrize(
    "value, unit, style, written",
    [
        (4000.0, "ft**2", "", "4,000 sq ft"),
        (0.5, "inch", "", "0.5 inch"),
        (2.0, "inch", "", "2 inches"),
        (1.0, "acre", "words", "one acre"),
        (5.0, "acre", "words", "five acres"),
        (10.0, "day", "Words", "Ten days"),
        (21.0, "day", "words", "twenty-one days"),
        (120.0, "day", "words", "120 days"),
        (7.0, "day", "number-words", "seven"),
        (30.0, "day", "number", "30"),
        (7.0, "day", "ordinal", "7th"),
        (180.0, "day", "ordinal", "180th"),
        (11.0, "day", "ordinal-after", "12th"),
        (20.0, "day", "ordinal-after", "21st"),
        (1.0, "percent", "", "1%"),
        (100.0, "USD", "", "$100"),
        (100.0, "um", "", "100 microns"),
        (7920.0, "ft", "miles", "1.5 miles"),
        ("09-15", "month-day", "", "September 15"),
    ],
)
def test_a_value_is_written_as_its_style_says(value, unit, style, written) -> None:
    assert sentences.write(value, unit, style) == written


# --- no sentence writes out a parameter's value -------------------------------------------

# (village, rule id or dotted key, the words around the number, why it stays written out)
EXCEPTIONS = [
    (
        "spencer-wi",
        "stockpiles",
        "in-street piles closer than 25 ft",
        "the in-street clause of § 413-7B(5)(d) states its own distance, which no parameter "
        "holds; it equals stockpile_setback only by the text as held",
    ),
    (
        "spencer-wi",
        "stockpiles",
        "covered with tarps after seven days",
        "the in-street clause's own period, which no parameter holds",
    ),
    (
        "spencer-wi",
        "weekly-inspection",
        "each calendar week or seven days",
        'what a week is: a reading of the quoted "once each week", not the parameter',
    ),
    (
        "new-glarus-wi",
        "weekly-inspection",
        "each calendar week or seven days",
        'what a week is: a reading of the quoted "once each week", not the parameter',
    ),
    (
        "new-glarus-wi",
        "counting-time",
        "less than seven days excludes",
        "the rule of Code Ch. 1, C (counting time), which is not in parameters.yaml",
    ),
    (
        "new-glarus-wi",
        "rain-event",
        "one day's total",
        "a day's rainfall, not the inspection's 24 hours",
    ),
]


def _rule_id(rules, path) -> str:
    node = rules
    ident = sentences.dotted(path)
    for part in path[:-1]:
        node = node[part]
        if isinstance(node, dict) and isinstance(node.get("id"), str):
            ident = node["id"]
    return ident


def _written_out(village: str) -> list[tuple[str, str, str, tuple[str, ...]]]:
    """Numbers that equal a parameter's value and are written out in a sentence."""
    ordinance = load_folder(ORDINANCES / village)
    latest = max(v.effective for p in ordinance.parameters.values() for v in p.values)
    rules = read_yaml(ORDINANCES / village / "rules.yaml", f"{village}/rules.yaml")
    found = []
    for path, text in sentences.strings(rules):
        if path[-1] in ("id", "text"):  # an id; the ordinance's own words
            continue
        if len(path) > 1 and path[-2] == "readings":  # a gap's id, named by a rule
            continue
        for start, end, literal, names in sentences.literal_values(
            text, ordinance.parameters, latest
        ):
            around = text[max(0, start - 60) : end + 60]
            found.append((_rule_id(rules, path), literal, around, names))
    return found


@pytest.mark.parametrize("village", VILLAGES)
def test_no_sentence_writes_out_a_number_a_parameter_holds(village: str) -> None:
    excepted = [(rule, words) for v, rule, words, _ in EXCEPTIONS if v == village]
    used: set[tuple[str, str]] = set()
    drift = []
    for rule, literal, around, names in _written_out(village):
        match = [(r, w) for r, w in excepted if r == rule and w in around and literal in w]
        if match:
            used.update(match)
        else:
            drift.append(f"{rule}: {literal!r} equals {', '.join(names)} (...{around}...)")
    assert drift == [], "write these as placeholders such as {name}:\n" + "\n".join(drift)
    assert sorted(used) == sorted(excepted), "an exception no sentence needs any more"


def test_the_check_sees_a_number_written_out(tmp_path: Path) -> None:
    """The check is not blind: the old literal sentence is found."""
    ordinance = load_folder(ORDINANCES / "spencer-wi")
    on = datetime.date(2026, 6, 1)
    text = 'Inspect after each rain of 0.5 inch or more, "at least 0.5 inch" quoted, § 413-7B(5)'
    found = sentences.literal_values(text, ordinance.parameters, on)
    assert [(literal, names) for _, _, literal, names in found] == [
        ("0.5 inch", ("rain_inspection_threshold",))
    ]
    found = sentences.literal_values("within 1.5 miles or $500", ordinance.parameters, on)
    assert found == []  # Spencer holds neither value
