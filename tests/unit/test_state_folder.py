"""A village's state is a folder of data: a village in another state needs data, not code.

Why this test exists. Wisconsin's legal holidays (§ 995.20 Wis. Stats.) and its rule for
counting time (§ 990.001(4) Wis. Stats.) live in ``ordinances/_states/wi/``, beside the
villages' folders, and a village names its state (``state: wi``) and its counting rule by
id. Here a made-up state, "Zedland", is written in ``tmp_path``: Wisconsin's folder with
its citations renamed and one holiday different (no Columbus Day; a "Founders Day" on
March 3, a legal holiday from 2026-03-03 on). A copy of Spencer's folder that names it
counts days around Founders Day, and not around Columbus Day, with no code changed.

2026: February 17 is a Tuesday, March 3 a Tuesday, September 28 a Monday, October 12 a
Monday. 2025: March 3 is a Monday.
"""

from __future__ import annotations

import datetime
import shutil
from pathlib import Path

import pytest

from siltfence.core.errors import OrdinanceFileError
from siltfence.core.ordinance.loader import load, load_folder
from siltfence.core.ordinance.model import Ordinance
from siltfence.core.timeline import OfficeCalendar, compute, rule_for

REPO = Path(__file__).resolve().parents[2]
ORDINANCES = REPO / "ordinances"
D = datetime.date

COLUMBUS_DAY = """  - name: Columbus Day
    month: 10
    weekday: monday
    nth: 2
"""
FOUNDERS_DAY = """  - name: Founders Day
    month: 3
    day: 3
    from: 2026-03-03
    citation: § 1.02(2) Zed. Stats.
"""


def _replaced(path: Path, *pairs: tuple[str, str]) -> None:
    text = path.read_text(encoding="utf-8")
    for old, new in pairs:
        assert old in text, f"{old!r} should be in {path.name}"
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")


def write_zedland(root: Path) -> Path:
    """``root`` with the state "zz" (Wisconsin's folder, renamed, one holiday changed) and
    a copy of Spencer's folder, "otherton-zz", that names it. Returns the village folder."""
    state = root / "_states" / "zz"
    shutil.copytree(ORDINANCES / "_states" / "wi", state)
    _replaced(
        state / "state.yaml",
        ("id: wi", "id: zz"),
        ("name: Wisconsin", "name: Zedland"),
        ("statutes: Wis. Stats.", "statutes: Zed. Stats."),
    )
    _replaced(
        state / "holidays.yaml",
        ("id: wisconsin-legal-holidays", "id: zedland-legal-holidays"),
        ("title: the Wisconsin legal holidays", "title: the Zedland legal holidays"),
        ("§ 995.20 Wis. Stats.", "§ 1.02 Zed. Stats."),
        ("§ 5.02(12s) Wis. Stats.", "§ 2.03(1) Zed. Stats."),
        ("§ 5.02(5) Wis. Stats.", "§ 2.03(2) Zed. Stats."),
        (COLUMBUS_DAY, FOUNDERS_DAY),
    )
    _replaced(
        state / "counting.yaml",
        ("wis-stats-990-001-4", "zed-stats-1-01-4"),
        ("990.001", "1.01"),
        ("Wis. Stats.", "Zed. Stats."),
    )
    village = root / "otherton-zz"
    shutil.copytree(ORDINANCES / "spencer-wi", village, ignore=shutil.ignore_patterns("cases"))
    _replaced(
        village / "jurisdiction.yaml",
        ("id: spencer-wi", "id: otherton-zz"),
        ("state: wi", "state: zz"),
        ("rule: wis-stats-990-001-4", "rule: zed-stats-1-01-4"),
        ("holidays: wisconsin-legal-holidays", "holidays: zedland-legal-holidays"),
        ("seeded_from: wisconsin-legal-holidays", "seeded_from: zedland-legal-holidays"),
        ("citation: § 990.001(4) Wis. Stats.", "citation: § 1.01(4) Zed. Stats."),
    )
    return village


@pytest.fixture
def otherton(tmp_path: Path) -> Ordinance:
    return load_folder(write_zedland(tmp_path))


# -- a village in another state counts around that state's holidays ----------------------


def test_the_village_takes_its_states_name_holidays_and_counting_rule(otherton):
    assert otherton.state == "Zedland"
    assert otherton.holidays.citation == "§ 1.02 Zed. Stats."
    assert otherton.counting_rule.id == "zed-stats-1-01-4"
    assert otherton.time_counting["citation"] == "§ 1.01(4) Zed. Stats."


def test_a_last_day_on_the_states_own_holiday_moves_to_the_next_day(otherton):
    # Tuesday February 17 + 14 = Tuesday March 3, 2026 (February has 28 days): Founders Day
    # in Zedland, so the last day moves to Wednesday March 4. Not a Wisconsin holiday.
    counted = rule_for(otherton).days_after(D(2026, 2, 17), 14)
    assert counted.due == D(2026, 3, 4)
    assert counted.moved == (
        "the 14th day, 2026-03-03, fell on a legal holiday (Founders Day); "
        "moved to Wednesday 2026-03-04"
    )
    assert "(§ 1.01(4)(a), (b) Zed. Stats." in counted.counting.says
    assert rule_for(load("spencer-wi")).days_after(D(2026, 2, 17), 14).due == D(2026, 3, 3)


def test_the_states_holiday_is_not_one_before_the_day_it_took_effect(otherton):
    # Founders Day is a legal holiday from 2026-03-03 on: on that day it is one, and on
    # March 3, 2025 (a Monday) it is not, so February 17, 2025 + 14 stays on March 3.
    assert otherton.holidays.name_of(D(2026, 3, 3)) == "Founders Day"
    assert otherton.holidays.name_of(D(2025, 3, 3)) is None
    counted = rule_for(otherton).days_after(D(2025, 2, 17), 14)
    assert counted.due == D(2025, 3, 3) and counted.moved is None


def test_a_day_only_the_other_state_lists_does_not_move_the_last_day(otherton):
    # Monday September 28 + 14 = Monday October 12, 2026: Columbus Day in Wisconsin
    # (Spencer moves to Tuesday October 13), not a holiday in Zedland (stays).
    assert rule_for(load("spencer-wi")).days_after(D(2026, 9, 28), 14).due == D(2026, 10, 13)
    counted = rule_for(otherton).days_after(D(2026, 9, 28), 14)
    assert counted.due == D(2026, 10, 12) and counted.moved is None


def test_the_timeline_counts_a_notice_around_the_states_holiday(otherton):
    # § 413-8E(3)(b), the copy's own: notice within 14 days of installation. Installed
    # Tuesday February 17, 2026: due Tuesday March 3 in Spencer, Wednesday March 4 here.
    events = [
        {"type": "permit_issued", "at": "2026-02-02"},
        {"type": "measure_installed", "at": "2026-02-17", "measure": "SF-1"},
    ]
    as_of = datetime.datetime(2026, 2, 20, 12)

    def notice(jurisdiction: str | Ordinance) -> dict[str, object]:
        timeline = compute(jurisdiction, events, as_of).to_json()
        (found,) = [d for d in timeline["duties"] if d["kind"] == "measure_completion_notice"]
        return found

    assert notice("spencer-wi")["due"] == "2026-03-03"
    here = notice(otherton)
    assert here["due"] == "2026-03-04"
    assert "Founders Day" in str(here["moved"])
    notes = compute(otherton, events, as_of).to_json()["notes"]
    (rule_note,) = [n for n in notes if n["id"] == "counting-rule"]
    assert "§ 1.02 Zed. Stats." in rule_note["citations"]


def test_an_office_calendar_is_seeded_from_the_states_holidays(otherton):
    office = OfficeCalendar(holidays=otherton.holidays)
    assert office.closed(D(2026, 3, 3)) == "a legal holiday (Founders Day)"
    assert office.closed(D(2026, 10, 12)) is None
    assert office.says.startswith("closure days: the Zedland legal holidays (§ 1.02 Zed. Stats.)")


def test_a_change_to_the_state_folder_reaches_a_village_loaded_before(tmp_path):
    # The loader keeps a checked village folder; its state's files are part of the key.
    village = write_zedland(tmp_path)
    assert load_folder(village).holidays.name_of(D(2026, 3, 3)) == "Founders Day"
    _replaced(tmp_path / "_states" / "zz" / "holidays.yaml", ("    day: 3\n", "    day: 4\n"))
    moved = load_folder(village).holidays
    assert moved.name_of(D(2026, 3, 3)) is None
    assert moved.name_of(D(2026, 3, 4)) == "Founders Day"


# -- a state folder is checked like a village's ------------------------------------------


@pytest.mark.parametrize(
    ("file", "old", "new", "message"),
    [
        (
            "otherton-zz/jurisdiction.yaml",
            "state: zz",
            "state: qq",
            "otherton-zz/jurisdiction.yaml: state: names no state folder: _states/qq/state.yaml",
        ),
        (
            "otherton-zz/jurisdiction.yaml",
            "rule: zed-stats-1-01-4",
            "rule: zed-stats-1-01",
            "otherton-zz/jurisdiction.yaml: time_counting.rule: names no counting rule: "
            "'zed-stats-1-01'",
        ),
        (
            "otherton-zz/jurisdiction.yaml",
            "holidays: zedland-legal-holidays",
            "holidays: wisconsin-legal-holidays",
            "otherton-zz/jurisdiction.yaml: time_counting.holidays: names no list of legal "
            "holidays: 'wisconsin-legal-holidays'",
        ),
        (
            "_states/zz/state.yaml",
            "id: zz",
            "id: zed",
            "_states/zz/state.yaml: id: is 'zed' but the folder is 'zz'",
        ),
        (
            "_states/zz/holidays.yaml",
            "  - name: Founders Day\n    month: 3\n",
            "  - name: Founders Day\n    month: 3\n    weekdy: monday\n",
            "_states/zz/holidays.yaml: holidays[8].weekdy: unknown key",
        ),
        (
            "_states/zz/holidays.yaml",
            "    weekday: thursday\n    nth: 4\n",
            "    weekday: thursday\n    nth: 5\n",
            "_states/zz/holidays.yaml: holidays[10].nth: expected 1, 2, 3, 4 or last, got 5",
        ),
        (
            "_states/zz/holidays.yaml",
            "    month: 3\n    day: 3\n",
            "    month: 2\n    day: 30\n",
            "_states/zz/holidays.yaml: holidays[8].day: 2-30 is not a day of every year",
        ),
        (
            "_states/zz/holidays.yaml",
            "    month: 3\n    day: 3\n",
            "    month: 3\n    day: 3\n    weekday: monday\n",
            "_states/zz/holidays.yaml: holidays[8]: give day (a fixed date) or weekday and nth",
        ),
        (
            "_states/zz/holidays.yaml",
            "from: 2026-03-03",
            "from: 2026-02-30",
            "_states/zz/holidays.yaml: holidays[8].from: '2026-02-30' is not a real date",
        ),
        (
            "_states/zz/holidays.yaml",
            "citation: § 1.02 Zed. Stats.\ntext:",
            "citation: § 995.20 Wis. Stats.\ntext:",
            "_states/zz/holidays.yaml: citation: '§ 995.20 Wis. Stats.' is not a citation of "
            "the state's statutes",
        ),
        (
            "_states/zz/counting.yaml",
            "{days}, the day of the event excluded and the last day included; a last day on a\n"
            "      Sunday or legal holiday moves",
            "{day}, the day of the event excluded and the last day included; a last day on a\n"
            "      Sunday or legal holiday moves",
            "_states/zz/counting.yaml: [0].says.days: {day} is not a placeholder here",
        ),
        (
            "_states/zz/counting.yaml",
            "last_day_moves_off: [sunday, legal_holiday]",
            "last_day_moves_off: [sunday, holiday]",
            "_states/zz/counting.yaml: [0].last_day_moves_off[1]: expected one of saturday, "
            "sunday, legal_holiday; got 'holiday'",
        ),
    ],
)
def test_a_mistake_in_the_state_folder_or_its_naming_is_refused_with_file_and_key(
    tmp_path, file, old, new, message
):
    write_zedland(tmp_path)
    path = tmp_path / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} should occur exactly once in {file}"
    path.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(OrdinanceFileError) as raised:
        load_folder(tmp_path / "otherton-zz")
    assert str(raised.value).startswith(message), str(raised.value)


def test_a_missing_state_file_is_named(tmp_path):
    write_zedland(tmp_path)
    (tmp_path / "_states" / "zz" / "counting.yaml").unlink()
    with pytest.raises(OrdinanceFileError) as raised:
        load_folder(tmp_path / "otherton-zz")
    assert str(raised.value) == "_states/zz/counting.yaml: is missing from the state folder"


def test_a_village_folder_with_no_state_folder_beside_it_finds_the_installed_one(tmp_path):
    # A village copied on its own (as the tests and a county's ordinance root do) still
    # counts around Wisconsin's holidays.
    shutil.copytree(ORDINANCES / "new-glarus-wi", tmp_path / "new-glarus-wi")
    copy = load_folder(tmp_path / "new-glarus-wi")
    assert copy.state == "Wisconsin"
    assert copy.holidays.name_of(D(2026, 11, 26)) == "Thanksgiving Day"
