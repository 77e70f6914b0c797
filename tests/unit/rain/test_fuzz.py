"""Any text given as a rain file gives readings or a RainFileError: no other exception,
and no hang (each example has a deadline)."""

from __future__ import annotations

import datetime
import io
import re

from hypothesis import HealthCheck, example, given, settings
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


# The Climate Data Online fixture, worked out by hand: its station, and each day's PRCP as
# written, in tenths of a mm (half up) read as inches (x 254) and as millimetres (x 10).
CDO_STATION = "USW00014839"
CDO_DAYS = {  # day: hundredths as written ("0.31")
    datetime.date(2017, 4, 25): 0,
    datetime.date(2017, 4, 26): 31,
    datetime.date(2017, 4, 27): 49,
    datetime.date(2017, 4, 28): 0,
    datetime.date(2017, 4, 29): 47,
}
CDO_MISSING = {datetime.date(2017, 4, 30)}  # PRCP empty
# A station as typed is its ID once spaces are trimmed and letters capitalized: NOAA's 11
# letters and digits, or SITE-/GAUGE- and a name.
STATION_FORMS = re.compile(r"[A-Z]{2}[A-Z0-9]{9}|(SITE|GAUGE)-[A-Z0-9][A-Z0-9-]{0,33}")


def cdo_tenths(hundredths: int, units: str | None) -> int:
    if units == "mm":  # "0.31" mm is 3.1 tenths of a mm
        return (hundredths * 10 + 50) // 100
    return (hundredths * 254 + 50) // 100  # inches, given or decided by the two decimals


@settings(deadline=1000, max_examples=300)
@given(st.text(max_size=60), st.sampled_from([None, "inch", "mm", "furlong"]))
@example(CDO_STATION, None)
@example(f"  {CDO_STATION.lower()}\t", "inch")
@example(CDO_STATION, "mm")
@example(CDO_STATION, "furlong")
@example("USW00014838", "inch")
def test_any_station_and_units_give_an_answer_or_a_clear_error(station, units):
    from siltfence.core.errors import SiltfenceError

    content = (FIXTURES / "cdo-standard.csv").read_bytes()
    cleaned = station.strip().upper()
    try:
        source = open_rain(io.BytesIO(content), zone=CHICAGO, station=station, units=units)
    except SiltfenceError as error:
        assert str(error).startswith(("station: ", "rain: "))
        if not (cleaned.isascii() and STATION_FORMS.fullmatch(cleaned)):
            assert error.field == "station"
            assert str(error).startswith("station: expected a NOAA station ID")
        elif units == "furlong":
            assert error.field == "rain"
            assert str(error) == 'rain: units: expected "inch" or "mm", got \'furlong\''
        else:
            assert cleaned != CDO_STATION
            assert error.field == "rain"
            assert (
                str(error) == f"rain: the file holds no precipitation values of station {cleaned}"
            )
        return
    assert cleaned == CDO_STATION and units != "furlong"
    assert source.record.station == CDO_STATION
    assert source.record.days == {day: cdo_tenths(h, units) for day, h in CDO_DAYS.items()}
    assert source.record.missing == CDO_MISSING
