"""Any text given as a rain file gives readings or a RainFileError: no other exception,
and no hang (each example has a deadline)."""

from __future__ import annotations

import datetime
import io

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.unit.rain.helpers import CHICAGO, FIXTURES

from siltfence.core.rain import RainFileError, open_rain

FIRST_LINES = [
    (FIXTURES / "USW00014839-2024.dly").read_text().splitlines()[2],
    "USW00014839,20240501,PRCP,0,,,W,2400",
    "ID,DATE,ELEMENT,DATA_VALUE,M_FLAG,Q_FLAG,S_FLAG,OBS_TIME",
    "year,month,day,date,day_of_year,PRCP,SNOW,SNWD,TMAX,TMIN",
    '"STATION","NAME","DATE","PRCP","PRCP_ATTRIBUTES"',
    "timestamp,rain_in",
    "time,rain (mm)",
]
# Characters the layouts are made of, so generated rows get deep into each reader.
PIECES = st.text(alphabet='0123456789-.,:"TZWNAPRCUS +eE\t\r\x00\xff\u0661', max_size=60)
ROWS = st.lists(
    st.one_of(
        PIECES,
        st.sampled_from(
            [
                "USW00014839,20240502,PRCP,64,,,W,2400",
                "2024,05,01,2024-05-01,122,0.25196864,0,0,60,40",
                '"USW00014839","X, WI US","2024-05-01","0.25",",,W,2400"',
                "2024-05-07T01:15,0.25",
                "2024-05-07T01:15-05:00,0.40",
            ]
        ),
    ),
    max_size=8,
)


def check(content: bytes) -> None:
    try:
        source = open_rain(io.BytesIO(content), zone=CHICAGO, max_bytes=100_000)
    except RainFileError as error:
        assert str(error).startswith("rain: ")
        return
    for day, tenths in source.record.days.items():
        assert isinstance(day, datetime.date)
        assert isinstance(tenths, int) and tenths >= 0


@settings(deadline=2000, max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2000))
def test_any_bytes_give_readings_or_the_clear_error(content):
    check(content)


@settings(deadline=2000, max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(FIRST_LINES), ROWS)
def test_rows_under_any_known_header_give_readings_or_the_clear_error(first, rows):
    check("\n".join([first, *rows]).encode("utf-8", "surrogatepass"))


@settings(deadline=2000, max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300))
def test_any_text_gives_readings_or_the_clear_error(text):
    check(text.encode("utf-8", "surrogatepass"))


@settings(deadline=1000, max_examples=300)
@given(st.text(max_size=60))
def test_any_site_text_is_a_point_or_a_site_error(text):
    from siltfence.core.errors import SiltfenceError
    from siltfence.core.rain import parse_point

    try:
        latitude, longitude = parse_point(text)
    except SiltfenceError as error:
        assert str(error).startswith("site: ")
        return
    assert -90 <= latitude <= 90 and -180 <= longitude <= 180


@settings(deadline=1000, max_examples=300)
@given(st.text(max_size=60), st.sampled_from([None, "inch", "mm", "furlong"]))
def test_any_station_and_units_give_an_answer_or_a_clear_error(station, units):
    from siltfence.core.errors import SiltfenceError

    content = (FIXTURES / "cdo-standard.csv").read_bytes()
    try:
        open_rain(io.BytesIO(content), zone=CHICAGO, station=station, units=units)
    except SiltfenceError as error:
        assert str(error).startswith(("station: ", "rain: "))
