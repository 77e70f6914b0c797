"""Dates from outside are exactly YYYY-MM-DD, datetimes exactly YYYY-MM-DDTHH:MM[:SS][offset].

Python's own ``fromisoformat`` reads ``20260601`` and the week date ``2026-W22-1`` (Monday
of ISO week 22 of 2026, 2026-05-25) without a word; every message asks for YYYY-MM-DD, so
each entry point refuses them and names its field.
"""

from __future__ import annotations

import copy
import datetime
import json
import re
from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.unit.engineering.spencer import STABILIZATION

from siltfence.core.dates import DateRefused, read_date, read_date_or_datetime, read_datetime
from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.engineering.plan import parse_plan
from siltfence.core.engineering.stabilization import check_stabilization
from siltfence.core.errors import SiltfenceError
from siltfence.core.timeline import parse_as_of, parse_office_closures
from siltfence.core.timeline.events import parse_events

CHICAGO = ZoneInfo("America/Chicago")
FAST = settings(deadline=timedelta(milliseconds=500), max_examples=200)
REPO = Path(__file__).resolve().parents[2]
PHASED = json.loads((REPO / "ordinances/spencer-wi/cases/design/phased-site.json").read_text())

NOT_DATES = [
    "20260601",  # ISO 8601 basic format
    "2026-W22-1",  # ISO week date
    "2026-W22",
    "2026-152",  # ordinal date
    "2026-6-1",
    "06/01/2026",
    "2026-06-01T00:00",  # a datetime where a date is asked
    "2026-02-30",
    "2026-13-01",
    "1899-12-31",
    "2200-01-01",
    "+2026-06-01",
    "２０２６-06-01",
    "2026-06-01\x00",
    "2026-06-01 " * 1000,
    "",
]
NOT_DATETIMES = [
    "20260601T0930",
    "2026-06-01T0930",
    "2026-06-01T09",
    "2026-06-01 09:30",
    "2026-W22-1T09:30",
    "2026-06-01T24:00",
    "2026-06-01T09:60",
    "2026-06-01T09:30+0500",
    "2026-06-01T09:30+24:00",
    "2026-06-01T09:30:00.1234567",
    "2026-06-01T09:30:00,5",
]


@pytest.mark.parametrize("text", NOT_DATES, ids=lambda t: repr(t)[:30])
def test_only_yyyy_mm_dd_reads_as_a_date(text):
    with pytest.raises(DateRefused, match="expected a date"):
        read_date(text)


def test_python_itself_would_have_read_the_week_date_as_another_day():
    # The reason for this module: the week date is a real, different day to Python.
    assert datetime.date.fromisoformat("2026-W22-1") == datetime.date(2026, 5, 25)
    with pytest.raises(DateRefused):
        read_date("2026-W22-1")


def test_a_date_reads_at_the_ends_of_the_years_counted_and_not_beyond():
    assert read_date("1900-01-01") == datetime.date(1900, 1, 1)
    assert read_date("2100-12-31") == datetime.date(2100, 12, 31)
    assert read_date("2028-02-29") == datetime.date(2028, 2, 29)
    for beyond in ("1899-12-31", "2101-01-01", "2199-12-31"):
        with pytest.raises(DateRefused, match="from 1900 to 2100"):
            read_date(beyond)


@pytest.mark.parametrize("text", ["2026-06-01\n", " 2026-06-01", "2026-06-01 ", "\t2026-06-01"])
def test_a_date_with_a_space_or_line_end_around_it_is_refused(text):
    with pytest.raises(DateRefused):
        read_date(text)
    with pytest.raises(DateRefused):
        read_date_or_datetime(text)
    with pytest.raises(DateRefused):
        read_datetime(text.replace("2026-06-01", "2026-06-01T10:00"))


@pytest.mark.parametrize("text", NOT_DATETIMES, ids=lambda t: repr(t)[:30])
def test_only_the_documented_datetime_shape_reads_as_a_datetime(text):
    with pytest.raises(DateRefused):
        read_datetime(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-06-01T09:30", datetime.datetime(2026, 6, 1, 9, 30)),
        ("2026-06-01T09:30:15", datetime.datetime(2026, 6, 1, 9, 30, 15)),
        (
            "2026-06-01T09:30:15.25-05:00",
            datetime.datetime(
                2026, 6, 1, 9, 30, 15, 250_000, tzinfo=datetime.timezone(timedelta(hours=-5))
            ),
        ),
        ("2026-06-01T14:30Z", datetime.datetime(2026, 6, 1, 14, 30, tzinfo=datetime.UTC)),
    ],
)
def test_a_datetime_reads_with_its_seconds_fraction_and_offset(text, expected):
    assert read_datetime(text) == expected


def test_a_date_or_datetime_says_whether_a_time_was_written():
    assert read_date_or_datetime("2026-06-01") == (datetime.date(2026, 6, 1), False)
    assert read_date_or_datetime("2026-06-01T00:00") == (datetime.datetime(2026, 6, 1), True)


# -- every entry point of the core ---------------------------------------------------------


def _event_error(events: list[dict]) -> SiltfenceError:
    with pytest.raises(SiltfenceError) as refused:
        parse_events(events, CHICAGO)
    return refused.value


@pytest.mark.parametrize("text", ["20260601", "2026-W22-1"])
def test_an_events_at_refuses_other_spellings_naming_the_field(text):
    assert _event_error([{"type": "work_started", "at": text}]).field == "events[0].at"


@pytest.mark.parametrize(
    ("event", "field"),
    [
        ({"type": "permit_issued", "building_permit_expires": "2026-W40-1"}, "building_permit_expires"),  # noqa: E501
        ({"type": "violation", "from": "20260601", "to": "2026-06-02"}, "from"),
        ({"type": "violation", "from": "2026-06-01", "to": "2026-W23-1"}, "to"),
        ({"type": "work_planned", "start": "2026-06-01T0900"}, "start"),
        ({"type": "rain", "inches": 1, "ended_at": "20260601T1200"}, "ended_at"),
    ],
)  # fmt: skip
def test_each_date_field_of_an_event_refuses_other_spellings_naming_itself(event, field):
    assert _event_error([{"at": "2026-06-01", **event}]).field == f"events[0].{field}"


def test_a_local_time_takes_the_village_zone_and_an_offset_is_converted_to_it():
    (local,) = parse_events([{"type": "work_started", "at": "2026-06-01T09:00"}], CHICAGO)
    assert local.at.isoformat() == "2026-06-01T09:00:00-05:00"
    (utc,) = parse_events([{"type": "work_started", "at": "2026-06-01T14:00Z"}], CHICAGO)
    assert utc.at == local.at


@pytest.mark.parametrize("text", ["20261201", "2026-W49-2", "2026-12-01T0900"])
def test_as_of_refuses_other_spellings_naming_itself(text):
    with pytest.raises(SiltfenceError) as refused:
        parse_as_of(text, CHICAGO)
    assert refused.value.field == "as_of"


def test_as_of_a_date_means_the_end_of_that_day():
    assert parse_as_of("2026-12-01", CHICAGO).date() == datetime.date(2026, 12, 1)
    assert parse_as_of("2026-12-01", CHICAGO).hour == 23


@pytest.mark.parametrize("text", ["20261126", "2026-W48-4", "2026-330"])
def test_an_office_closure_refuses_other_spellings_naming_its_place(text):
    with pytest.raises(SiltfenceError) as refused:
        parse_office_closures(["2026-11-27", text])
    assert refused.value.field == "office_closures[1]"


def _disturbed(plan: dict) -> tuple[int, dict]:
    return next(
        (i, f)
        for i, f in enumerate(plan["site"]["features"])
        if f["properties"]["kind"] == "disturbed_area"
    )


@pytest.mark.parametrize("text", ["20260601", "2026-W22-1"])
def test_a_plans_dates_refuse_other_spellings_naming_their_paths(text):
    plan = copy.deepcopy(PHASED) | {"on": text}
    with pytest.raises(EngineeringInputError) as refused:
        parse_plan(plan)
    assert refused.value.field == "plan.on"
    plan = copy.deepcopy(PHASED)
    index, feature = _disturbed(plan)
    feature["properties"]["start"] = text
    with pytest.raises(EngineeringInputError) as refused:
        parse_plan(plan)
    assert refused.value.field == f"plan.site.features[{index}].properties.start"


def test_the_stabilization_check_refuses_a_week_date():
    with pytest.raises(EngineeringInputError) as refused:
        check_stabilization(
            inactive_from="2026-W22-1", inactive_until="2026-06-10", **STABILIZATION
        )
    assert refused.value.field == "inactive_from"


# -- fuzzing ---------------------------------------------------------------------------------

SHAPED = st.builds(
    "{:04d}-{:02d}-{:02d}".format,
    st.integers(0, 9999),
    st.integers(0, 99),
    st.integers(0, 99),
)
ANY_TEXT = st.one_of(st.text(max_size=60), SHAPED, st.from_regex(r"\d{8}", fullmatch=True))
DATE_RE = re.compile(r"\s*\d{4}-\d{2}-\d{2}\s*", re.ASCII)


@FAST
@given(text=ANY_TEXT)
def test_any_text_is_a_date_only_when_written_yyyy_mm_dd_and_it_round_trips(text):
    try:
        day = read_date(text)
    except DateRefused:
        return
    assert DATE_RE.fullmatch(text)
    assert day.isoformat() == text.strip()


@FAST
@given(text=st.one_of(st.text(max_size=60), SHAPED.map(lambda d: d + "T09:30")))
def test_any_text_given_as_an_events_at_is_read_or_refused_naming_the_field(text):
    try:
        (event,) = parse_events([{"type": "work_started", "at": text}], CHICAGO)
    except SiltfenceError as exc:
        assert exc.field == "events[0].at"
        return
    assert event.at.tzinfo is not None
    assert text.strip()[:10] == event.at.date().isoformat() or "T" in text


@FAST
@given(items=st.lists(ANY_TEXT, max_size=4))
def test_any_office_closures_are_read_or_refused_naming_the_place(items):
    try:
        days = parse_office_closures(items)
    except SiltfenceError as exc:
        assert re.fullmatch(r"office_closures\[\d\]", exc.field or "")
        return
    assert {day.isoformat() for day in days} == {item.strip() for item in items}


@FAST
@given(text=ANY_TEXT)
def test_any_text_as_a_plan_date_is_read_or_refused_naming_the_path(text):
    plan = copy.deepcopy(PHASED) | {"on": text}
    try:
        parsed = parse_plan(plan)
    except EngineeringInputError as exc:
        assert exc.field == "plan.on"
        return
    assert parsed.on is not None and parsed.on.isoformat() == text.strip()


EVENT_DATE_FIELDS = {
    "building_permit_expires": {"type": "permit_issued"},
    "from": {"type": "violation", "to": "2026-06-30"},
    "to": {"type": "violation", "from": "2026-05-01"},
    "start": {"type": "work_planned"},
    "ended_at": {"type": "rain", "inches": 1},
}


@FAST
@given(field=st.sampled_from(sorted(EVENT_DATE_FIELDS)), text=ANY_TEXT)
def test_any_text_in_an_events_date_field_is_read_or_refused_naming_the_field(field, text):
    event = {"at": "2026-05-01", **EVENT_DATE_FIELDS[field], field: text}
    try:
        parse_events([event], CHICAGO)
    except SiltfenceError as exc:
        # a violation's days that read but run backwards are named at "to"
        assert exc.field in (f"events[0].{field}", "events[0].to")
        return
    assert text.strip()[:4].isdigit()


@FAST
@given(field=st.sampled_from(["start", "end"]), text=ANY_TEXT)
def test_any_text_as_a_phase_date_is_read_or_refused_naming_the_path(field, text):
    plan = copy.deepcopy(PHASED)
    index, feature = _disturbed(plan)
    feature["properties"][field] = text
    try:
        parse_plan(plan)
    except EngineeringInputError as exc:
        # a date that reads but falls on the wrong side of the other is named at "end"
        where = f"plan.site.features[{index}].properties."
        assert exc.field in (where + field, where + "end")
        return
    assert DATE_RE.fullmatch(text)
