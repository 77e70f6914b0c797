"""Bad rain files end with RainFileError naming the line and the reason."""

from __future__ import annotations

import io

import pytest
from tests.unit.rain.helpers import CHICAGO, FIXTURES

from hanging import returns_within
from siltfence.core.rain import RainFile, RainFileError, open_rain


def error_of(content: bytes, **options: object) -> RainFileError:
    with pytest.raises(RainFileError) as caught:
        open_rain(io.BytesIO(content), zone=CHICAGO, **options)  # type: ignore[arg-type]
    return caught.value


def test_a_file_of_no_known_layout_names_line_one_and_what_is_read():
    error = error_of(b"\n\nhello,world\n1,2\n")
    assert str(error).startswith("rain: line 3: not a rain file siltfence reads")
    assert error.line == 3


def test_an_empty_file_is_an_error():
    assert str(error_of(b"")) == "rain: the file is empty"


def test_a_dly_value_that_is_not_a_number_names_the_line_day_and_columns():
    lines = (FIXTURES / "USW00014839-2024.dly").read_bytes().splitlines()
    broken = lines[2][:29] + b"  x64" + lines[2][34:]  # day 2 of May, columns 30-34
    error = error_of(b"\n".join([lines[0], lines[1], broken]))
    assert str(error) == (
        "rain: line 3: day 2: expected a whole number of tenths of mm or -9999 in "
        "columns 30-34, got '  x64'"
    )


def test_a_negative_dly_precipitation_is_an_error():
    line = (FIXTURES / "USW00014839-2024.dly").read_bytes().splitlines()[2]
    broken = line[:21] + b"  -12" + line[26:]
    assert "day 1: precipitation -12 is negative" in str(error_of(broken))


def test_a_day_that_does_not_exist_with_a_value_is_an_error():
    line = (FIXTURES / "USW00014839-2024.dly").read_bytes().splitlines()[0]  # February 2024
    broken = line[: 21 + 8 * 29] + b"   10  W" + line[21 + 8 * 30 :]  # Feb 30 = 1.0 mm
    assert "2024-02-30 is not a date" in str(error_of(broken))


def test_a_ghcn_csv_row_with_too_few_fields_names_its_line():
    content = b"USW00014839,20240501,PRCP,0,,,W,2400\nUSW00014839,20240502,PRCP\n"
    error = error_of(content)
    assert error.line == 2
    assert "expected ID,YYYYMMDD,ELEMENT,VALUE" in str(error)


def test_a_second_value_for_the_same_day_names_both_lines():
    content = b"USW00014839,20240501,PRCP,0,,,W,2400\nUSW00014839,20240501,PRCP,5,,,W,2400\n"
    assert str(error_of(content)) == (
        "rain: line 2: a second value for USW00014839 2024-05-01 (the first is on line 1)"
    )


def test_a_daily_csv_row_whose_date_disagrees_with_its_parts_is_an_error():
    content = b"year,month,day,date,day_of_year,PRCP\n2024,05,01,2024-05-02,122,0.1\n"
    error = error_of(content)
    assert error.line == 2
    assert "do not match the date 2024-05-02" in str(error)


def test_a_negative_or_wordy_amount_is_an_error_naming_the_column():
    content = b"year,month,day,date,day_of_year,PRCP\n2024,05,01,2024-05-01,122,-0.1\n"
    assert str(error_of(content)) == (
        "rain: line 2: PRCP: expected an amount of 0 or more, got '-0.1'"
    )


def test_a_cdo_file_whose_values_switch_units_asks_for_the_unit():
    content = (
        b'"STATION","DATE","PRCP"\n'
        b'"USW00014839","2024-05-01","0.25"\n'
        b'"USW00014839","2024-05-02","6.4"\n'
    )
    error = error_of(content)
    assert error.line == 3
    assert 'units "inch" or "mm"' in str(error)


def test_a_cdo_file_with_only_whole_numbers_cannot_tell_its_unit():
    content = (
        b'"STATION","DATE","PRCP"\n"USW00014839","2024-05-01","0"\n"USW00014839","2024-05-02","6"\n'
    )
    assert "has no decimals, so the unit is unclear" in str(error_of(content))


def test_a_gauge_time_that_is_not_iso_8601_is_an_error():
    content = b"timestamp,rain_mm\n05/07/2024 01:00,1.0\n"
    error = error_of(content)
    assert error.line == 2
    assert "time: expected an ISO 8601 date or date and time" in str(error)


def test_a_line_longer_than_the_bound_is_refused_without_reading_it_whole():
    content = b"USW00014839,20240501,PRCP,0,,,W,2400\n" + b"9" * 100_000 + b"\n"
    rain = RainFile(io.BytesIO(content), zone=CHICAGO, max_line=4096)
    with pytest.raises(RainFileError) as caught:
        list(rain.readings())
    assert str(caught.value) == "rain: line 2: the line is longer than 4,096 characters"


def test_a_file_larger_than_the_bound_is_refused_at_the_line_that_crosses_it():
    content = (FIXTURES / "USW00014839-by_station.csv").read_bytes()
    rain = RainFile(io.BytesIO(content), zone=CHICAGO, max_bytes=1000)
    with pytest.raises(RainFileError) as caught:
        list(rain.readings())
    # PRCP rows are 37 to 39 bytes with their newline, TMAX rows 35: lines 1-27 add up to
    # 982 bytes and line 28 (35 bytes) takes the total to 1,017, past the bound
    assert caught.value.line == 28
    assert "larger than 1,000 bytes" in str(caught.value)


def test_a_damaged_gzip_file_is_an_error_not_a_crash():
    import gzip

    packed = gzip.compress((FIXTURES / "USW00014839-by_station.csv").read_bytes())
    assert "damaged or cut short" in str(error_of(packed[: len(packed) // 2]))


def test_text_that_is_not_utf8_names_its_line():
    content = b"year,month,day,date,day_of_year,PRCP\n2024,05,01,2024-05-01,122,0.\xff\n"
    assert str(error_of(content)) == "rain: line 2: not UTF-8 text"


def test_a_file_of_several_stations_without_a_choice_asks_which():
    content = (FIXTURES / "2024-by_year-sample.csv").read_bytes()
    error = error_of(content)
    assert "the file holds 4 stations" in str(error) or "the file holds 3 stations" in str(error)
    assert "--station" in str(error)


def test_a_station_the_file_does_not_hold_is_an_error():
    content = (FIXTURES / "USW00014839-by_station.csv").read_bytes()
    assert str(error_of(content, station="USW00014837")) == (
        "rain: the file holds no precipitation values of station USW00014837"
    )


def test_a_gzip_bomb_of_empty_lines_is_refused_at_once_naming_the_limit():
    import gzip

    # 64 MB of newlines packs into about 64 KB: read line by line it held a worker for
    # minutes. The 1,001st empty line in a row ends it (how fast: bench/run.py).
    bomb = gzip.compress(b"\n" * (64 * 1024**2), compresslevel=9)
    assert len(bomb) < 200_000
    error = returns_within(error_of, bomb)
    assert error.line == 1001
    assert "more than 1,000 empty lines in a row" in str(error)


def test_a_compressed_file_that_expands_beyond_any_record_is_refused_naming_the_ratio():
    import gzip

    from siltfence.core.rain.lines import numbered_lines

    # One valid row a million times (38 MB) packs into about 100 KB: it expands hundreds of
    # times, where a real record expands 5 to 30 times. Refused once 8 MB are read.
    bomb = gzip.compress(b"USW00014839,20240501,PRCP,0,,,W,2400\n" * 1_000_000, compresslevel=9)
    with pytest.raises(RainFileError) as caught:
        for number, _ in numbered_lines(io.BytesIO(bomb)):
            assert number < 300_000, "read far past the point of the check"
    assert "expands more than 100 times" in str(caught.value)


def test_a_file_with_more_lines_than_the_bound_is_refused_naming_it():
    from siltfence.core.rain.lines import numbered_lines

    lines = numbered_lines(io.BytesIO(b"a\n" * 11), max_lines=10)
    with pytest.raises(RainFileError) as caught:
        list(lines)
    assert caught.value.line == 11
    assert "more than 10 lines" in str(caught.value)


def test_an_honest_compressed_record_is_read_whole(tmp_path):
    import gzip

    from tests.rainfiles import many_days_file

    from siltfence.core.rain.lines import numbered_lines

    # 75,000 days at three stations, each value different: about 8.6 MB, past the point
    # where the expansion is checked, and it packs only about ten times.
    plain = tmp_path / "days.csv"
    many_days_file(plain, days=75_000)
    content = plain.read_bytes()
    assert len(content) > 8 * 1024**2
    packed = gzip.compress(content)
    assert len(content) / len(packed) < 30
    assert sum(1 for _ in numbered_lines(io.BytesIO(packed))) == content.count(b"\n")
