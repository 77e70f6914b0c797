"""What an amendment would change, on projects whose answers are worked out by hand."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
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
from siltfence.core.ordinance.loader import load

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


@settings(deadline=2000, max_examples=60)
@given(st.text(max_size=300))
def test_any_text_is_read_or_refused_with_a_row(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("fuzz") / "projects"
    path.write_text(text, encoding="utf-8")
    try:
        read_projects(path)
    except ProjectsError as exc:
        assert str(exc).startswith("row ")


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
