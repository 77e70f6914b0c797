"""What an amendment would change, on projects whose answers are worked out by hand."""

from __future__ import annotations

import ast
import csv
import datetime
import io
import json
import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from siltfence.core.analysis import (
    ProjectsError,
    columns_from_records,
    compare,
    read_projects,
    report_text,
    with_proposed,
)
from siltfence.core.errors import SiltfenceError
from siltfence.core.facts import FACTS
from siltfence.core.ordinance.loader import load
from siltfence.core.quantities import MAX_MAGNITUDE

ON = datetime.date(2026, 6, 1)
# Spencer § 413-7A(3): 4,000 sq ft or more needs a permit; § 413-8B/C: one acre
# (43,560 sq ft) or more needs a full control plan (gap 1: exactly one acre too).
PROJECTS = [
    {"disturbed_area": 3000},  # no permit either way
    {"disturbed_area": 5000},  # permit today; not under a 1-acre trigger
    {"disturbed_area": 30000},  # permit today; not under a 1-acre trigger
    {"disturbed_area": 50000},  # permit either way (over one acre)
    {"disturbed_area": 3000, "road_work": True},  # permit either way (§ 413-7A(5))
]


def report_for(proposed: dict[str, object]):
    spencer = load("spencer-wi")
    draft = with_proposed(spencer, ON, proposed)
    columns = columns_from_records(PROJECTS)
    return compare(
        spencer, draft, columns, before_on=ON, after_on=ON, before_name="now", after_name="draft"
    )


def test_raising_the_area_trigger_to_one_acre_drops_two_permits_and_names_the_trigger():
    report = report_for({"area_trigger": "1 acre"})
    assert (report.permits_before, report.permits_after) == (4, 2)
    permit_changes = [c for c in report.changes if c.outcome == "permit needed"]
    assert [(c.before, c.after, c.projects) for c in permit_changes] == [
        ("needed", "not needed", 2)
    ]
    assert report.drivers[0][:2] == ("area-trigger", "§ 413-7A(3)")
    assert report.drivers[0][2] == 2


def test_the_inspection_workload_follows_section_413_9():
    # § 413-9: once a month March to October (8) and twice November to February (2).
    report = report_for({"area_trigger": "1 acre"})
    assert report.inspection_citation == "§ 413-9"
    assert (report.inspections_before, report.inspections_after) == (40.0, 20.0)


def test_lowering_the_plan_tier_to_half_an_acre_asks_a_full_plan_of_a_30000_sq_ft_site():
    # 30,000 sq ft is 0.69 acre: a plan statement today, a full control plan at half an acre.
    report = report_for({"plan_tier_area": "0.5 acre"})
    plan_changes = {(c.before, c.after): c.projects for c in report.changes}
    assert plan_changes == {("control_plan_statement", "control_plan"): 1}
    assert report.permits_before == report.permits_after == 4


def test_the_same_version_twice_changes_nothing():
    report = report_for({"area_trigger": "4000 sq ft"})
    assert report.changes == ()
    assert "No project changes outcome." in report_text(report)


def test_new_glarus_has_no_village_inspection_rate_in_its_received_text():
    glarus = load("new-glarus-wi")
    draft = with_proposed(glarus, ON, {"area_trigger": "5000 sq ft"})
    report = compare(
        glarus,
        draft,
        columns_from_records([{"disturbed_area": 4500}]),
        before_on=ON,
        after_on=ON,
        before_name="now",
        after_name="draft",
    )
    assert report.inspections_before is None
    assert report.permits_before - report.permits_after == 1


@pytest.mark.parametrize(
    ("proposed", "field"),
    [
        ({"area_trigger": "5 kg"}, "proposed.area_trigger"),
        ({"no_such_thing": 1}, "proposed.no_such_thing"),
        ({"seeding_cutoff": "10-01"}, "proposed.seeding_cutoff"),
    ],
)
def test_a_bad_proposal_names_the_parameter(proposed, field):
    spencer = load("spencer-wi")
    with pytest.raises(SiltfenceError) as refused:
        with_proposed(spencer, ON, proposed)
    assert str(refused.value).startswith(f"{field}: ")


def test_a_csv_and_a_jsonl_file_read_the_same(tmp_path: Path):
    csv_file = tmp_path / "projects.csv"
    csv_file.write_text("disturbed_area,road_work,land_use\n5000,false,residential\n,true,\n")
    jsonl = tmp_path / "projects.jsonl"
    jsonl.write_text(
        '{"disturbed_area": "5,000 sq ft", "road_work": false, "land_use": "residential"}\n'
        '{"road_work": true}\n'
    )
    a, b = read_projects(csv_file), read_projects(jsonl)
    assert a.n == b.n == 2
    assert list(a.values["disturbed_area"]) == list(b.values["disturbed_area"]) == [5000.0, 0.0]
    assert list(a.given["disturbed_area"]) == [True, False]
    assert list(a.values["road_work"]) == list(b.values["road_work"]) == [False, True]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("disturbed_area,colour\n1,red\n", "row 0, column 'colour': unknown fact"),
        ("disturbed_area\n5 kg\n", "row 1, column 'disturbed_area': "),
        ("road_work\nmaybe\n", "row 1, column 'road_work': expected true or false"),
        ("land_use\nfarm\n", "row 1, column 'land_use': expected one of"),
        ("disturbed_area,road_work\n1\n", "row 1: 1 cells where the header names 2"),
        ('{"disturbed_area": 1}\n{"x": 2}\n', "row 2, column 'x': unknown fact"),
        ('{"disturbed_area": 1}\n[1, 2\n', "row 2: not a JSON object"),
    ],
)
def test_a_bad_projects_file_names_the_row_and_column(tmp_path: Path, text: str, says: str):
    path = tmp_path / "projects.txt"
    path.write_text(text)
    with pytest.raises(ProjectsError) as refused:
        read_projects(path)
    assert says in str(refused.value)


def rows_of(text: str) -> tuple[list[str], list[dict[str, object]]]:
    """The columns and projects of a projects file, as Python's own csv and json modules
    read it (a JSON Lines file when its first line starts with ``{``)."""
    lines = list(io.StringIO(text, newline=""))
    if lines and lines[0].lstrip().startswith("{"):
        records = [json.loads(line) for line in lines if line.strip()]
        names = list(dict.fromkeys(key for record in records for key in record))
        return names, [{k: r.get(k) for k in names} for r in records]
    header, *rows = csv.reader(io.StringIO(text, newline=""))
    return header, [
        {k: (c if c != "" else None) for k, c in zip(header, row, strict=True)} for row in rows
    ]


def expected_cell(key: str, cell: object) -> object:
    """What a cell reads as: its fact's default where not given; None where only the
    bounds are checked (a quantity written with a unit)."""
    spec = FACTS[key]
    if spec.kind == "quantity":
        if cell is None:
            return 0.0
        try:
            return float(cell)  # type: ignore[arg-type]  # a plain number, in the default unit
        except (TypeError, ValueError):
            return None
    if spec.kind == "bool":
        if cell is None:
            return bool(spec.default)
        return cell if isinstance(cell, bool) else str(cell).strip().lower() in {"true", "yes", "1"}
    choice = spec.default if cell is None else cell
    return spec.choices.index(choice) if choice in spec.choices else -1


@settings(deadline=2000, max_examples=60)
@given(st.text(max_size=300))
@example("disturbed_area,road_work,land_use\n5000,yes,residential\n,0,\n1.2 acre, TRUE ,other\n")
@example('{"disturbed_area": 5000, "road_work": true}\n\n{"land_use": "commercial"}\n')
@example("\n\n")
def test_any_text_is_read_or_refused_with_a_row(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("fuzz") / "projects"
    path.write_text(text, encoding="utf-8")
    try:
        columns = read_projects(path)
    except ProjectsError as exc:
        assert str(exc).startswith("row ")
        named = re.match(r"row (\d+)(?:, column (.+?))?: ", str(exc))
        assert named is not None, str(exc)
        assert int(named[1]) <= text.count("\n") + text.count("\r") + 1
        if named[2] is not None:  # the column named is one the file has
            assert ast.literal_eval(named[2]) in text
        return
    names, projects = rows_of(text)
    assert columns.n == len(projects)
    assert sorted(columns.values) == sorted(columns.given) == sorted(names)
    for key in names:
        cells = [project[key] for project in projects]
        assert list(columns.given[key]) == [cell is not None for cell in cells]
        for read, cell in zip(columns.values[key], cells, strict=True):
            expected = expected_cell(key, cell)
            if expected is None:
                assert FACTS[key].kind == "quantity" and 0 <= read <= MAX_MAGNITUDE
            else:
                assert read == expected, (key, cell)


def test_a_parquet_file_reads_like_the_csv(tmp_path: Path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = tmp_path / "projects.bin"  # the name does not decide the format
    pq.write_table(pa.table({"disturbed_area": [5000.0, None], "road_work": [False, True]}), path)
    columns = read_projects(path)
    assert list(columns.values["disturbed_area"]) == [5000.0, 0.0]
    assert list(columns.given["disturbed_area"]) == [True, False]
    assert list(columns.values["road_work"]) == [False, True]


def test_a_truncated_parquet_file_is_refused(tmp_path: Path):
    path = tmp_path / "projects.parquet"
    path.write_bytes(b"PAR1" + b"\x00" * 20)
    with pytest.raises(ProjectsError, match=r"^row 0: not a readable Parquet file"):
        read_projects(path)
