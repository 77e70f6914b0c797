"""The county's rain: stations, and years of daily amounts at each.

The stations are the ones siltfence ships (``siltfence.core.rain.registry``); asked for
more, the generator adds a public-works gauge at a municipality for each one more, as a
village with its own gauge would import it. Amounts are resampled from a real daily
record when one is given (any layout the rain readers take): each year of the county is
a year of the record, shared by most stations so that a storm is a county's storm, and
scaled day by day at each station (a storm is not the same everywhere). Without a
record they follow a wet/dry chain with gamma-distributed amounts fitted to
Wisconsin's monthly normals. Which rains count for a permit is the core's reading of
each chapter's rain rule (``storm_summaries``), as the daily sweep reads it.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools.scale.places import Municipality

SOURCE_RESAMPLED = "scale (resampled)"
SOURCE_SYNTHETIC = "scale (synthetic)"
# Share of a year's stations that see the same year of the record (the same storms).
SHARED_YEAR = 0.65
DAY_SCALE_SIGMA = 0.3
# Wisconsin's monthly normal precipitation (inches, Madison 1991-2020, rounded) and the
# chance of a wet day after a dry and after a wet one.
MONTHLY_INCHES = (1.2, 1.3, 2.1, 3.5, 3.7, 4.9, 4.2, 4.3, 3.3, 2.6, 2.2, 1.7)
P_WET_AFTER_DRY = 0.24
P_WET_AFTER_WET = 0.45
GAMMA_SHAPE = 0.75
MIN_DAYS_IN_A_YEAR = 355  # a year of the record with fewer days with a value is not used


@dataclass(frozen=True)
class StationSpec:
    id: str
    name: str
    latitude: float
    longitude: float
    elevation_m: float | None
    state: str


def stations(count: int, places: list[Municipality]) -> list[StationSpec]:
    """The shipped stations first (all of them, up to ``count``), then a gauge at each of
    the first municipalities for the rest."""
    from siltfence.core.rain import registry

    shipped = [
        StationSpec(s.id, s.name, s.latitude, s.longitude, s.elevation_m, s.state)
        for s in sorted(registry().values(), key=lambda s: s.id)
    ][:count]
    gauges = [
        StationSpec(
            f"GAUGE-{p.id}"[:40],
            f"{p.name} public works gauge",
            p.latitude,
            p.longitude,
            None,
            "WI",
        )
        for p in places[: max(count - len(shipped), 0)]
    ]
    return shipped + gauges


def record_days(
    path: Path, zone: datetime.tzinfo, station: str | None = None
) -> dict[datetime.date, int]:
    """The days with a value of a real record (tenths of mm), read by the rain readers;
    ``station`` picks one from a file of several."""
    from siltfence.core.rain import open_rain

    with path.open("rb") as stream:
        source = open_rain(stream, zone=zone, station=station, max_bytes=1 << 31)
    return dict(source.record.days)


def daily_amounts(
    specs: list[StationSpec],
    first: datetime.date,
    last: datetime.date,
    *,
    seed: int,
    record: Mapping[datetime.date, int] | None,
) -> dict[str, dict[datetime.date, int]]:
    """Every station's amount for every day from ``first`` to ``last`` (tenths of mm)."""
    rng = random.Random(f"rain-{seed}")
    if record:
        by_year: dict[int, int] = {}
        for day in record:
            by_year[day.year] = by_year.get(day.year, 0) + 1
        years = sorted(y for y, n in by_year.items() if n >= MIN_DAYS_IN_A_YEAR)
        if not years:
            raise ValueError("rain file: no year of the record has a value for most of its days")
        shared = {y: rng.choice(years) for y in range(first.year, last.year + 1)}
        return {
            spec.id: _resampled(
                record, years, shared, first, last, random.Random(f"{seed}-{spec.id}")
            )
            for spec in specs
        }
    return {spec.id: _synthetic(first, last, random.Random(f"{seed}-{spec.id}")) for spec in specs}


def _resampled(
    record: Mapping[datetime.date, int],
    years: list[int],
    shared: dict[int, int],
    first: datetime.date,
    last: datetime.date,
    rng: random.Random,
) -> dict[datetime.date, int]:
    source_year = {
        y: (shared[y] if rng.random() < SHARED_YEAR else rng.choice(years)) for y in shared
    }
    days: dict[datetime.date, int] = {}
    day = first
    while day <= last:
        source = source_year[day.year]
        try:
            there = day.replace(year=source)
        except ValueError:  # 29 February in a year that has none: the 28th
            there = day.replace(year=source, day=28)
        tenths = record.get(there, 0)
        if tenths > 0:
            tenths = round(tenths * rng.lognormvariate(0, DAY_SCALE_SIGMA))
        days[day] = tenths
        day += datetime.timedelta(days=1)
    return days


def _synthetic(
    first: datetime.date, last: datetime.date, rng: random.Random
) -> dict[datetime.date, int]:
    wet_share = P_WET_AFTER_DRY / (1 - P_WET_AFTER_WET + P_WET_AFTER_DRY)
    days: dict[datetime.date, int] = {}
    wet = False
    day = first
    while day <= last:
        wet = rng.random() < (P_WET_AFTER_WET if wet else P_WET_AFTER_DRY)
        tenths = 0
        if wet:
            per_wet_day = MONTHLY_INCHES[day.month - 1] * 254 / (30.4 * wet_share)
            tenths = round(rng.gammavariate(GAMMA_SHAPE, per_wet_day / GAMMA_SHAPE))
        days[day] = tenths
        day += datetime.timedelta(days=1)
    return days


def qualifying_days(
    days: Mapping[datetime.date, int],
    ordinance: Any,
    first: datetime.date,
    last: datetime.date,
    zone: datetime.tzinfo,
) -> list[tuple[datetime.date, int]]:
    """The wet days of every storm that meets the chapter's rain rule: the days the daily
    sweep writes onto a permit in force, each with its amount."""
    from siltfence.core.rain import storm_summaries

    wanted = []
    for storm in storm_summaries(days, ordinance, first, last, zone):
        if storm["qualifies"]:
            for item in storm["days"]:
                day = datetime.date.fromisoformat(item["day"])
                wanted.append((day, days[day]))
    return sorted(wanted)
