"""Each reader on a file written in its published layout, with values checked by hand.

The fixtures hold the real May and June 2024 record of Milwaukee Mitchell (USW00014839) as
NOAA publishes it, in tenths of a millimetre: on 2024-05-07 the station measured 31.0 mm,
so the .dly line carries `  310` in columns 70-74 (day 7 starts at column 22 + 6 x 8).
"""

from __future__ import annotations

from tests.unit.rain.helpers import FIXTURES, MILWAUKEE, day, readings_of, source_of


def by_day(readings):
    return {r.day: r for r in readings}


def test_a_dly_file_gives_each_days_prcp_in_tenths_of_a_millimetre():
    readings = by_day(readings_of((FIXTURES / "USW00014839-2024.dly").read_bytes()))
    assert readings[day("2024-05-07")].tenths == 310
    assert readings[day("2024-05-04")].tenths == 198
    assert readings[day("2024-05-28")].tenths == 480
    assert readings[day("2024-05-05")].tenths == 0  # a trace (M flag T) is no measurable rain
    assert readings[day("2024-05-07")].station == "USW00014839"


def test_a_dly_file_skips_other_elements_and_the_days_a_month_does_not_have():
    readings = readings_of((FIXTURES / "USW00014839-2024.dly").read_bytes())
    # 29 days of February 2024 (a leap year), 31 of May, 30 of June + its -9999 day 31 dropped
    assert len(readings) == 29 + 31 + 30
    february = [r for r in readings if r.day.month == 2]
    assert max(r.day for r in february) == day("2024-02-29")
    # The TMAX line of May (17.2 degC on May 1) is not read as rain.
    assert by_day(readings)[day("2024-05-01")].tenths == 0


def test_a_dly_value_with_a_quality_flag_is_not_used_and_says_why():
    june22 = by_day(readings_of((FIXTURES / "USW00014839-2024.dly").read_bytes()))[
        day("2024-06-22")
    ]
    assert june22.tenths is None
    assert june22.dropped == "failed NOAA's quality control (Q flag I)"


def test_a_by_station_csv_gives_prcp_and_drops_a_quality_flagged_value():
    readings = by_day(readings_of((FIXTURES / "USW00014839-by_station.csv").read_bytes()))
    assert len(readings) == 31  # PRCP only; the TMAX rows are skipped
    assert readings[day("2024-05-20")].tenths == 297
    assert readings[day("2024-05-16")].tenths is None
    assert "Q flag K" in readings[day("2024-05-16")].dropped


def test_a_by_year_csv_keeps_only_the_stations_asked_for():
    content = (FIXTURES / "2024-by_year-sample.csv").read_bytes()
    readings = readings_of(content, stations=["USC00475573"])
    assert {r.station for r in readings} == {"USC00475573"}
    assert [r.tenths for r in readings] == [51, 0, 142, 3, 0]


def test_the_by_year_missing_value_is_missing_not_zero():
    content = (FIXTURES / "2024-by_year-sample.csv").read_bytes()
    readings = by_day(readings_of(content, stations=["ASN00001019"]))
    assert readings[day("2024-06-03")].tenths is None
    assert readings[day("2024-06-02")].tenths == 12


def test_the_redistributed_csv_in_inches_is_decided_at_a_tenth_of_a_millimetre():
    source = source_of(MILWAUKEE, station="USW00014839")
    days = source.record.days
    # 0.50000027 in (12.7 mm written in inches) and 0.48818924 in (12.4 mm), by hand.
    assert days[day("2016-09-25")] == 127
    assert days[day("2022-07-15")] == 124
    assert days[day("2024-05-07")] == 310  # 1.2204731 in
    assert day("1938-04-01") in source.record.missing  # "NA"
    assert source.record.span() == (day("1938-04-01"), day("2026-08-19"))


def test_a_cdo_export_in_standard_units_is_read_as_inches():
    source = source_of(FIXTURES / "cdo-standard.csv")
    days = source.record.days
    # 0.31 in = 7.874 mm -> 7.9; 0.49 in = 12.446 -> 12.4; 0.47 in = 11.938 -> 11.9
    assert days[day("2017-04-26")] == 79
    assert days[day("2017-04-27")] == 124
    assert days[day("2017-04-29")] == 119
    assert day("2017-04-30") in source.record.missing
    assert source.station["id"] == "USW00014839"


def test_a_cdo_export_in_metric_units_with_attributes_is_read_as_millimetres():
    source = source_of(FIXTURES / "cdo-metric-attributes.csv")
    days = source.record.days
    assert days[day("2017-04-26")] == 79
    assert days[day("2017-04-27")] == 124
    assert days[day("2017-04-28")] == 0
    # "11.9" carries quality flag G in PRCP_ATTRIBUTES: set aside, with the reason
    assert source.record.dropped[day("2017-04-29")] == "failed NOAA's quality control (Q flag G)"


def test_a_cdo_unit_given_by_the_user_is_used_as_given():
    source = source_of(FIXTURES / "cdo-metric-attributes.csv", units="inch")
    assert source.record.days[day("2017-04-27")] == 3150  # 12.4 "inches" = 315.0 mm


def test_a_gauge_file_is_summed_to_local_days_in_the_villages_time_zone():
    source = source_of(FIXTURES / "gauge-minutes.csv", station="SITE-1")
    days = source.record.days
    # May 7 local: 0.25 + 0.40 + 0.05 + 0.30 (04:30Z is 23:30 CDT) = 1.00 in = 25.4 mm
    assert days[day("2024-05-07")] == 254
    # 05:30Z on May 8 is 00:30 CDT: 0.02 in = 0.508 mm -> 0.5 mm
    assert days[day("2024-05-08")] == 5
    assert days[day("2024-05-06")] == 3  # 0.01 in = 0.254 mm -> 0.3 mm
    assert day("2024-05-09") in source.record.missing
    assert source.station["id"] == "SITE-1"
    assert source.station["distance_km"] is None


def test_a_gauge_in_millimetres_sums_exactly_before_rounding():
    content = b"time,rain (mm)\n2024-05-07T01:00,0.04\n2024-05-07T02:00,0.04\n"
    [reading] = readings_of(content)
    assert reading.tenths == 1  # 0.08 mm, not two readings of 0.0 mm each


def test_the_format_is_chosen_by_content_not_by_the_file_name(tmp_path):
    misnamed = tmp_path / "rain.dly"
    misnamed.write_bytes((FIXTURES / "cdo-standard.csv").read_bytes())
    assert source_of(misnamed).format == "cdo-csv"


def test_a_gzip_file_is_read_as_its_content(tmp_path):
    import gzip

    packed = tmp_path / "USW00014839.csv.gz"
    packed.write_bytes(gzip.compress((FIXTURES / "USW00014839-by_station.csv").read_bytes()))
    source = source_of(packed)
    assert source.format == "ghcn-csv"
    assert source.record.days[day("2024-05-28")] == 480
