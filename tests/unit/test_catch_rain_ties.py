"""Rain on a rounding tie, and rain exactly at the threshold, worked out by hand.

NOAA's GHCN-Daily keeps precipitation in whole tenths of a millimetre. A day of 0.75 inch is
0.75 x 25.4 = 19.05 mm: a tie between 19.0 and 19.1, which NOAA writes as 19.1 (191 tenths:
rounded half up), and which siltfence must read the same way from every file (readings.py:
"rounding half up to the nearest tenth of a millimetre"), and from a rain typed on a
permit's record (timeline/rain.py). Read half to even it would be 19.0 mm.

Such a day is a rain of 0.5 inch or more (Spencer § 413-8E(3)(g), New Glarus § 135-7E(7):
"each rain of 0.5 inch or more"), and it is shown as what was kept: 19.1 mm, which is
19.1 / 25.4 = 0.75197 in: 0.752 to three places, 0.75 to two.

The threshold itself: 0.5 in = 12.7 mm exactly (127 tenths), and "0.5 inch or more" takes
it; 12.6 mm (0.49606 in) is less and does not.
"""

from __future__ import annotations

import datetime
import io
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from siltfence.core.ordinance.loader import load
from siltfence.core.rain import open_rain, storms_report
from siltfence.core.timeline import compute

CHICAGO = ZoneInfo("America/Chicago")
DAY = datetime.date(2024, 6, 10)
STATION = "USW00014839"
NAME = '"MILWAUKEE MITCHELL INTERNATIONAL AIRPORT, WI US"'


def _cdo(value: str) -> bytes:
    """A Climate Data Online "Daily Summaries" export of one station, three days."""
    rows = ['"STATION","NAME","DATE","PRCP"']
    for day, prcp in (("2024-06-09", "0.0"), ("2024-06-10", value), ("2024-06-11", "0.0")):
        if "." in value and len(value.split(".")[1]) == 2 and prcp == "0.0":
            prcp = "0.00"
        rows.append(f'"{STATION}",{NAME},"{day}","{prcp}"')
    return ("\n".join(rows) + "\n").encode()


def _ghcn_csv(tenths: int) -> bytes:
    """NOAA's GHCN-Daily by-station CSV: the value in tenths of a millimetre."""
    return (
        f"{STATION},20240609,PRCP,0,,,W,2400\n"
        f"{STATION},20240610,PRCP,{tenths},,,W,2400\n"
        f"{STATION},20240611,PRCP,0,,,W,2400\n"
    ).encode()


def _dly(tenths: int) -> bytes:
    """NOAA's GHCN-Daily .dly line for June 2024 (30 days, the 31st empty)."""
    days = "".join(f"{tenths if d == 10 else 0:5d}  W" for d in range(1, 31))
    return f"{STATION}202406PRCP{days}-9999   \n".encode()


def _daily_csv(inches: str) -> bytes:
    """The redistributed daily CSV, in inches."""
    return (
        "year,month,day,date,day_of_year,PRCP\n"
        "2024,6,9,2024-06-09,161,0.0\n"
        f"2024,6,10,2024-06-10,162,{inches}\n"
        "2024,6,11,2024-06-11,163,0.0\n"
    ).encode()


def _gauge(header: str, amounts: list[str]) -> bytes:
    """A site gauge's readings through the day."""
    lines = [header] + [f"2024-06-10T{8 + i:02d}:00,{a}" for i, a in enumerate(amounts)]
    lines.append("2024-06-11T08:00,0")
    return ("\n".join(lines) + "\n").encode()


def _read(content: bytes, **options: Any) -> Any:
    return open_rain(io.BytesIO(content), zone=CHICAGO, **options)


# The same day of rain, as each kind of file writes it.
SEVENTY_FIVE_HUNDREDTHS = {
    "CDO export, standard units: 0.75 in": (_cdo("0.75"), {}),
    "CDO export, metric, as NOAA writes it: 19.1 mm": (_cdo("19.1"), {}),
    "CDO export told mm: 19.05 mm": (_cdo("19.05"), {"units": "mm"}),
    "GHCN-Daily CSV: 191 tenths": (_ghcn_csv(191), {}),
    "GHCN-Daily .dly: 191 tenths": (_dly(191), {}),
    "daily CSV in inches: 0.75": (_daily_csv("0.75"), {"station": STATION}),
    "gauge in inches: 0.50 + 0.25": (_gauge("timestamp,rain_in", ["0.50", "0.25"]), {}),
    "gauge in mm: 10.00 + 9.05": (_gauge("time,rain (mm)", ["10.00", "9.05"]), {}),
}


@pytest.mark.parametrize("form", list(SEVENTY_FIVE_HUNDREDTHS))
def test_a_day_of_three_quarters_of_an_inch_is_read_as_19_1_mm(form: str) -> None:
    content, options = SEVENTY_FIVE_HUNDREDTHS[form]
    if content.startswith(b"timestamp") or content.startswith(b"time,"):
        options = {**options, "station": "SITE-1"}
    source = _read(content, **options)
    assert source.record.days[DAY] == 191, f"{form}: 19.05 mm is 19.1 mm, rounded half up"


@pytest.mark.parametrize("jurisdiction", ["spencer-wi", "new-glarus-wi"])
@pytest.mark.parametrize("form", list(SEVENTY_FIVE_HUNDREDTHS))
def test_the_day_meets_the_half_inch_rule_and_shows_its_inches(
    form: str, jurisdiction: str
) -> None:
    content, options = SEVENTY_FIVE_HUNDREDTHS[form]
    if content.startswith(b"timestamp") or content.startswith(b"time,"):
        options = {**options, "station": "SITE-1"}
    report = storms_report(_read(content, **options), load(jurisdiction), DAY, DAY, CHICAGO)
    assert report["threshold"]["inches"] == 0.5 and report["threshold"]["mm"] == 12.7
    (storm,) = report["storms"]
    assert storm["qualifies"] is True
    assert storm["mm"] == 19.1
    assert storm["inches"] == 0.752  # 19.1 / 25.4 = 0.75197
    assert storm["days"] == [{"day": "2024-06-10", "mm": 19.1}]
    assert storm["says"] == ("rain of 0.75 in (19.1 mm) on 2024-06-10: 0.5 inch (12.7 mm) or more")


@pytest.mark.parametrize(
    ("content", "options", "tenths", "qualifies"),
    [
        (_cdo("12.7"), {}, 127, True),  # 12.7 mm: exactly 0.5 in
        (_cdo("0.50"), {}, 127, True),  # 0.50 in = 12.7 mm
        (_ghcn_csv(127), {}, 127, True),
        (_cdo("12.6"), {}, 126, False),  # 12.6 mm = 0.49606 in
        (_ghcn_csv(126), {}, 126, False),
        (_daily_csv("0.4960629921"), {"station": STATION}, 126, False),  # 12.6 mm in inches
    ],
)
@pytest.mark.parametrize("jurisdiction", ["spencer-wi", "new-glarus-wi"])
def test_a_day_at_the_threshold_qualifies_and_a_tenth_less_does_not(
    content: bytes, options: dict[str, Any], tenths: int, qualifies: bool, jurisdiction: str
) -> None:
    source = _read(content, **options)
    assert source.record.days[DAY] == tenths
    (storm,) = storms_report(source, load(jurisdiction), DAY, DAY, CHICAGO)["storms"]
    assert storm["mm"] == tenths / 10
    assert storm["qualifies"] is qualifies


# -- the same rain typed on a permit's record -------------------------------------------------

PERMIT = {"type": "permit_issued", "at": "2026-04-01"}
STARTED = {"type": "work_started", "at": "2026-06-01T07:00"}


def _rain_duties(jurisdiction: str, amount: Any) -> list[dict[str, Any]]:
    events = [PERMIT, STARTED, {"type": "rain", "at": "2026-06-10", "inches": amount}]
    answer = compute(jurisdiction, events, None, None).to_json()
    return [d for d in answer["duties"] if d["kind"] == "rain_inspection"]


@pytest.mark.parametrize("jurisdiction", ["spencer-wi", "new-glarus-wi"])
@pytest.mark.parametrize("amount", [0.75, "0.75 in", "19.05 mm"])
def test_a_rain_of_three_quarters_of_an_inch_on_the_record_sets_the_inspection(
    jurisdiction: str, amount: Any
) -> None:
    (duty,) = _rain_duties(jurisdiction, amount)
    assert duty["rain"]["mm"] == 19.1
    assert duty["rain"]["inches"] == 0.75
    assert duty["rain"]["threshold_mm"] == 12.7
    assert duty["because"].startswith("rain of 0.75 in (19.1 mm) on 2026-06-10")


@pytest.mark.parametrize("jurisdiction", ["spencer-wi", "new-glarus-wi"])
@pytest.mark.parametrize(
    ("amount", "due"),
    [(0.5, True), ("12.7 mm", True), ("12.6 mm", False), (0.4960629921, False)],
)
def test_a_rain_on_the_record_at_the_threshold_sets_the_inspection(
    jurisdiction: str, amount: Any, due: bool
) -> None:
    found = _rain_duties(jurisdiction, amount)
    assert bool(found) is due
    if due:
        assert found[0]["rain"]["mm"] == 12.7
