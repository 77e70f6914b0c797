"""The bounds on what a rain file may say (decision 34), both sides of each, in every layout:
a day's rain of at most 1,000 mm (10,000 tenths of a millimetre, 39.37 in), a day from
1700 to 2100 and no later than the day after the file is read, and a station ID of NOAA's
form (11 letters and digits, the first two the country) or a gauge's (SITE- or GAUGE-).

Each refusal names the line and the field, as a clerk sees it on the upload page."""

from __future__ import annotations

import datetime
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.unit.rain.helpers import CHICAGO, FIXTURES, readings_of

from siltfence.core.errors import SiltfenceError
from siltfence.core.rain import RainFileError, open_rain
from siltfence.core.rain.source import check_station_id

TOO_MUCH = (
    "is more than 1,000 mm (39.37 in), the most rain siltfence reads for one day (the world "
    "record is 1,825 mm in 24 hours); check the file's values and units"
)
DAILY_HEADER = b"year,month,day,date,day_of_year,PRCP\n"


def refusal(content: bytes, **options: object) -> str:
    with pytest.raises(RainFileError) as caught:
        readings_of(content, **options)
    return str(caught.value)


def ghcn_row(value: int | str, date: str = "20240507", station: str = "USW00014839") -> bytes:
    return f"{station},{date},PRCP,{value},,,W,2400\n".encode()


def amounts(content: bytes, **options: object) -> list[int | None]:
    return [r.tenths for r in readings_of(content, **options)]


# A day's rain ----------------------------------------------------------------------------


def test_a_ghcn_csv_day_of_exactly_1000_mm_is_read_and_one_tenth_more_is_refused():
    assert amounts(ghcn_row(10000)) == [10000]
    assert refusal(ghcn_row(10001)) == f"rain: line 1: DATA VALUE: 1,000.1 mm {TOO_MUCH}"


def test_a_day_of_9999_9_mm_is_refused_naming_the_line_and_the_field():
    content = ghcn_row(0, "20240506") + ghcn_row(99999, "20240507")
    assert refusal(content) == f"rain: line 2: DATA VALUE: 9,999.9 mm {TOO_MUCH}"


def test_a_dly_day_of_1000_mm_is_read_and_1000_1_mm_is_refused_naming_the_day():
    line = (FIXTURES / "USW00014839-2024.dly").read_bytes().splitlines()[2]  # May 2024
    # Day d's value is in columns 22 + 8 * (d - 1) to 26 + 8 * (d - 1), so day 7's in 70-74:
    # the fixture's 31.0 mm there becomes 1,000 mm, then 1,000.1 mm.
    start = 21 + 8 * 6
    assert line[start : start + 5] == b"  310"
    exactly = line[:start] + b"10000" + line[start + 5 :]
    more = line[:start] + b"10001" + line[start + 5 :]
    assert [r.tenths for r in readings_of(exactly) if r.day.day == 7] == [10000]
    assert refusal(more) == f"rain: line 1: day 7: 1,000.1 mm {TOO_MUCH}"


def test_a_daily_csv_in_inches_is_bounded_after_converting_to_tenths_of_a_mm():
    # 39.372 in = 10,000.488 tenths, rounded to 10,000; 39.3721 in = 10,000.5134, to 10,001.
    def row(inches: str) -> bytes:
        return DAILY_HEADER + f"2024,05,07,2024-05-07,128,{inches}\n".encode()

    assert amounts(row("39.37"), station="USW00014839") == [10000]
    assert amounts(row("39.372"), station="USW00014839") == [10000]
    assert refusal(row("39.3721"), station="USW00014839") == (
        f"rain: line 2: PRCP: '39.3721' in {TOO_MUCH}"
    )
    # Far past any day's rain, and never multiplied out.
    assert (
        refusal(row("1e999"), station="USW00014839") == f"rain: line 2: PRCP: '1e999' in {TOO_MUCH}"
    )


def test_a_cdo_export_in_mm_is_bounded_at_1000_mm():
    def row(mm: str) -> bytes:
        return f'"STATION","DATE","PRCP"\n"USW00014839","2024-05-07","{mm}"\n'.encode()

    assert amounts(row("1000.0")) == [10000]
    assert refusal(row("1000.1")) == f"rain: line 2: PRCP: '1000.1' mm {TOO_MUCH}"


def test_a_gauge_s_readings_may_add_up_to_1000_mm_a_day_and_no_more():
    exactly = b"timestamp,rain_mm\n2024-05-07T01:00,600\n2024-05-07T02:00,400\n"
    more = b"timestamp,rain_mm\n2024-05-07T01:00,600\n2024-05-07T02:00,400.1\n"
    assert amounts(exactly, station="SITE-7") == [10000]
    # Refused at the reading that takes the day over, naming the day.
    assert refusal(more, station="SITE-7") == (
        f"rain: line 3: amount: the readings of 2024-05-07 add up to 1,000.1 mm, more than "
        f"{TOO_MUCH.removeprefix('is more than ')}"
    )
    # The same readings on two days are two days of 600 and 400.1 mm: both read.
    two_days = b"timestamp,rain_mm\n2024-05-07T01:00,600\n2024-05-08T02:00,400.1\n"
    assert amounts(two_days, station="SITE-7") == [6000, 4001]


# A day's date ----------------------------------------------------------------------------


def test_a_rain_day_is_from_1700_to_2100_and_2199_is_refused():
    assert [r.day for r in readings_of(ghcn_row(5, "21001231"))] == [datetime.date(2100, 12, 31)]
    assert [r.day for r in readings_of(ghcn_row(5, "17000101"))] == [datetime.date(1700, 1, 1)]
    assert refusal(ghcn_row(5, "21010101")) == (
        "rain: line 1: DATE: the year 2101 is outside 1700 to 2100"
    )
    assert refusal(ghcn_row(5, "21990507")) == (
        "rain: line 1: DATE: the year 2199 is outside 1700 to 2100"
    )
    assert refusal(ghcn_row(5, "16991231")) == (
        "rain: line 1: DATE: the year 1699 is outside 1700 to 2100"
    )
    gauge = b"timestamp,rain_in\n2199-05-07T01:00,0.25\n"
    assert refusal(gauge, station="SITE-7") == (
        "rain: line 2: time: the year 2199 is outside 1700 to 2100"
    )


READ_ON = datetime.date(2026, 6, 1)


def test_a_day_up_to_the_day_after_the_file_is_read_is_taken_and_a_later_one_refused():
    assert [r.day for r in readings_of(ghcn_row(5, "20260602"), read_on=READ_ON)] == [
        datetime.date(2026, 6, 2)
    ]
    assert refusal(ghcn_row(5, "20260603"), read_on=READ_ON) == (
        "rain: line 1: DATE: 2026-06-03 is in the future (the file was read on 2026-06-01, and "
        "a day up to 2026-06-02 is taken): a rain record holds only days already measured, "
        "not a forecast"
    )


def test_a_forecast_in_any_layout_is_refused_naming_its_day_column():
    gauge = b"timestamp,rain_in\n2026-06-01T10:00,0.10\n2026-06-03T00:30,0.25\n"
    assert refusal(gauge, station="SITE-7", read_on=READ_ON).startswith(
        "rain: line 3: time: 2026-06-03 is in the future"
    )
    daily = DAILY_HEADER + b"2026,06,03,2026-06-03,154,0.25\n"
    assert refusal(daily, station="USW00014839", read_on=READ_ON).startswith(
        "rain: line 2: date: 2026-06-03 is in the future"
    )
    cdo = b'"STATION","DATE","PRCP"\n"USW00014839","2026-06-03","0.25"\n'
    assert refusal(cdo, read_on=READ_ON).startswith("rain: line 2: DATE: 2026-06-03 is in")
    dly = b"USW00014839202606PRCP" + b"    0  W" * 2 + b"   25  W" + b"    0  W" * 27 + b"-9999   "
    assert refusal(dly, read_on=READ_ON).startswith(
        "rain: line 1: YEAR and MONTH (columns 12-17): 2026-06-03 is in the future"
    )


def test_a_future_value_that_failed_noaa_s_quality_check_is_refused_all_the_same():
    flagged = b"USW00014839,20260603,PRCP,25,,K,W,2400\n"
    assert refusal(flagged, read_on=READ_ON).startswith(
        "rain: line 1: DATE: 2026-06-03 is in the future"
    )
    missing = b"USW00014839,20260603,PRCP,-9999,,,W,2400\n"
    assert [(r.day, r.tenths) for r in readings_of(missing, read_on=READ_ON)] == [
        (datetime.date(2026, 6, 3), None)
    ]


def test_the_days_of_this_month_still_to_come_that_noaa_fills_as_missing_are_read():
    # A .dly file fetched on 2026-06-01 holds June with -9999 (missing) from day 2 on.
    dly = b"USW00014839202606PRCP" + b"   25  W" + b"-9999   " * 30
    readings = readings_of(dly, read_on=READ_ON)
    assert [(r.day, r.tenths) for r in readings][:3] == [
        (datetime.date(2026, 6, 1), 25),
        (datetime.date(2026, 6, 2), None),
        (datetime.date(2026, 6, 3), None),
    ]
    assert len(readings) == 30


def test_a_gauge_time_in_utc_counts_on_the_village_s_day():
    # 2026-06-03T03:30Z is 22:30 on 2026-06-02 in Wisconsin (CDT, UTC-5): the day after the
    # file is read, taken. 05:30Z is 00:30 on 2026-06-03: refused.
    taken = b"timestamp,rain_in\n2026-06-03T03:30Z,0.25\n"
    assert [r.day for r in readings_of(taken, station="SITE-7", read_on=READ_ON)] == [
        datetime.date(2026, 6, 2)
    ]
    later = b"timestamp,rain_in\n2026-06-03T05:30Z,0.25\n"
    assert "2026-06-03 is in the future" in refusal(later, station="SITE-7", read_on=READ_ON)


# A station's ID --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "typed, kept",
    [
        ("USW00014839", "USW00014839"),  # Milwaukee Mitchell, a first-order station
        ("USC00475120", "USC00475120"),  # Marshfield, a cooperative observer
        ("US1WIDN0004", "US1WIDN0004"),  # the form of a CoCoRaHS volunteer's
        ("ASN00001019", "ASN00001019"),  # Australia's network
        (" usw00014839 ", "USW00014839"),  # typed in small letters, with spaces
        ("SITE-7", "SITE-7"),
        ("site-7", "SITE-7"),
        ("GAUGE-PUBLIC-WORKS", "GAUGE-PUBLIC-WORKS"),
        ("GAUGE-" + "A" * 34, "GAUGE-" + "A" * 34),  # 40 characters, the most kept
    ],
)
def test_a_station_id_of_noaa_s_form_or_a_gauge_s_is_taken(typed, kept):
    assert check_station_id(typed) == kept


@pytest.mark.parametrize(
    "typed",
    [
        "nope",
        "X1",
        "USW0001483",  # 10 characters
        "USW000148391",  # 12
        "1SW00014839",  # the country is two letters
        "USW-0014839",
        "SITE-",
        "SITE7",
        "GAUGE-" + "A" * 35,  # 41 characters
        "SITE--7",
        "USW 0014839",  # a space inside
        "ＵＳＷ00014839",  # full-width letters
    ],
)
def test_a_station_id_of_no_documented_form_is_refused_naming_the_field(typed):
    with pytest.raises(SiltfenceError) as caught:
        check_station_id(typed)
    assert caught.value.field == "station"
    assert str(caught.value).startswith(
        "station: expected a NOAA station ID of 11 letters and digits like USW00014839 or "
        "US1WIDN0004, or for a gauge of the village's own or a site's, SITE- or GAUGE- and a "
        "number or name, like SITE-7; got "
    )


def test_a_station_called_nope_is_refused_before_the_file_is_read():
    with pytest.raises(SiltfenceError) as caught:
        open_rain(
            io.BytesIO((FIXTURES / "gauge-minutes.csv").read_bytes()), zone=CHICAGO, station="nope"
        )
    assert caught.value.field == "station"
    assert str(caught.value).endswith("like SITE-7; got 'nope'")


def test_a_station_in_a_noaa_file_must_be_of_noaa_s_form_naming_its_column():
    cdo = b'"STATION","DATE","PRCP"\n"nope","2024-05-07","0.25"\n'
    assert refusal(cdo) == (
        "rain: line 2: STATION: expected a NOAA station ID of 11 letters and digits like "
        "USW00014839, got 'nope'"
    )
    assert "line 1: ID: expected a NOAA station ID" in refusal(ghcn_row(5, station="12345678901"))
    dly_line = (FIXTURES / "USW00014839-2024.dly").read_bytes().splitlines()[2]
    assert "line 1: ID (columns 1-11): expected a NOAA station ID" in refusal(
        b"99999999999" + dly_line[11:]
    )


# Any value -------------------------------------------------------------------------------


@settings(deadline=2000, max_examples=60)
@given(tenths=st.integers(min_value=0, max_value=99_999), offset=st.integers(-3, 3))
def test_any_day_s_amount_and_date_is_stored_as_given_or_refused_at_its_bound(tenths, offset):
    day = READ_ON + datetime.timedelta(days=offset)
    content = ghcn_row(tenths, day.strftime("%Y%m%d"))
    if tenths <= 10_000 and offset <= 1:
        [reading] = readings_of(content, read_on=READ_ON)
        assert (reading.day, reading.tenths) == (day, tenths)
    elif tenths > 10_000:
        mm = f"{tenths // 10:,}.{tenths % 10} mm"
        assert refusal(content, read_on=READ_ON) == f"rain: line 1: DATA VALUE: {mm} {TOO_MUCH}"
    else:
        assert refusal(content, read_on=READ_ON).startswith(
            f"rain: line 1: DATE: {day.isoformat()} is in the future"
        )


@settings(deadline=2000, max_examples=60)
@given(hundredths=st.integers(min_value=0, max_value=8_000))
def test_any_amount_in_inches_is_stored_as_its_tenths_of_a_mm_or_refused(hundredths):
    # Worked out in whole numbers: h hundredths of an inch are h * 2.54 tenths of a mm,
    # that is (h * 254) / 100, rounded half up.
    expected = (hundredths * 254 + 50) // 100
    inches = f"{hundredths // 100}.{hundredths % 100:02d}"
    content = DAILY_HEADER + f"2024,05,07,2024-05-07,128,{inches}\n".encode()
    if expected <= 10_000:
        assert amounts(content, station="USW00014839") == [expected]
    else:
        assert refusal(content, station="USW00014839") == (
            f"rain: line 2: PRCP: '{inches}' in {TOO_MUCH}"
        )
