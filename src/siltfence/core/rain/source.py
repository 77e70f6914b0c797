"""A rain file opened for one station: the record, the station and its distance."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from siltfence.core.errors import SiltfenceError
from siltfence.core.rain.errors import RainFileError
from siltfence.core.rain.lines import MAX_BYTES
from siltfence.core.rain.record import StationRecord, collect
from siltfence.core.rain.sniff import RainFile
from siltfence.core.rain.stations import (
    STATION_WORDS,
    Station,
    geodesic_km,
    is_station_id,
    nearest,
    registry,
)

NAMES_STATIONS = ("ghcn-dly", "ghcn-csv", "cdo-csv")


class RegisteredAndFirst:
    """The stations to keep when none was named: the registered ones, and the first the
    file holds (so a one-station file of any station is read, and a by_year file keeps
    only the registered stations)."""

    def __init__(self, registered: set[bytes]) -> None:
        self.ids = set(registered)
        self.first: bytes | None = None

    def __contains__(self, key: object) -> bool:
        if key in self.ids:
            return True
        if self.first is None and isinstance(key, bytes):
            self.first = key
            self.ids.add(key)
            return True
        return False


@dataclass
class RainSource:
    format: str
    description: str
    station: dict[str, Any]
    record: StationRecord
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        span = self.record.span()
        return {
            "format": self.format,
            "description": self.description,
            "days": len(self.record.lines),
            "first_day": span[0].isoformat() if span else None,
            "last_day": span[1].isoformat() if span else None,
        }


def check_station_id(station: str, field_name: str = "station") -> str:
    """A station ID someone typed (``--station``, the upload form, the API's ``station``),
    in capitals: NOAA's IDs are, and a gauge's is kept the same way."""
    cleaned = station.strip().upper()
    if not (cleaned.isascii() and is_station_id(cleaned)):
        raise SiltfenceError(
            f"{field_name}: expected {STATION_WORDS}; got {station[:40]!r}",
            field=field_name,
        )
    return cleaned


def open_rain(
    stream: BinaryIO,
    *,
    zone: datetime.tzinfo,
    station: str | None = None,
    site: tuple[float, float] | None = None,
    units: str | None = None,
    max_bytes: int = MAX_BYTES,
    read_on: datetime.date | None = None,
) -> RainSource:
    """Read a rain file (any supported layout) and pick its station.

    ``station``: the station to use (and the label of a file that names none). Without it,
    a file of one station gives that station; a file of several gives the registered
    station nearest ``site``, or asks which. ``site``: (latitude, longitude) of the site,
    for the distance to the station, which is part of every answer that uses the rain.
    ``read_on``: the day the file is read, in the village's zone; a day of the file after
    the next one is refused (``RainFile``).
    """
    if station is not None:
        station = check_station_id(station)
    rain = RainFile(
        stream, zone=zone, station=station, units=units, max_bytes=max_bytes, read_on=read_on
    )
    if rain.format in NAMES_STATIONS:
        if station is not None:
            rain.keep_only({station.encode("ascii")})
        else:
            rain.keep_only(RegisteredAndFirst({s.encode() for s in registry()}))
    records = collect(rain.readings())
    notes: list[str] = []
    if rain.format in NAMES_STATIONS:
        record = _choose(records, station, site)
    else:
        record = records.get(station) or StationRecord(station)
        if not record.lines:
            raise RainFileError("the file holds no precipitation values")
    described = _station_json(record.station, rain.format, site, notes)
    if record.dropped:
        listed = ", ".join(
            f"{d.isoformat()} ({why})" for d, why in sorted(record.dropped.items())[:10]
        )
        more = f" and {len(record.dropped) - 10} more" if len(record.dropped) > 10 else ""
        notes.append(
            f"{len(record.dropped)} day(s) were set aside and count as missing: {listed}{more}"
        )
    return RainSource(rain.format, rain.description, described, record, notes)


def _choose(
    records: dict[str | None, StationRecord], station: str | None, site: tuple[float, float] | None
) -> StationRecord:
    if station is not None:
        found = records.get(station)
        if found is None or not found.lines:
            raise RainFileError(f"the file holds no precipitation values of station {station}")
        return found
    present = [r for r in records.values() if r.lines]
    if not present:
        raise RainFileError("the file holds no precipitation values")
    if len(present) == 1:
        return present[0]
    known = registry()
    if site is not None:
        among = [known[r.station] for r in present if r.station in known]
        found_near = nearest(site[0], site[1], among)
        if found_near is not None:
            return records[found_near[0].id]
    names = ", ".join(sorted(str(r.station) for r in present)[:5])
    raise RainFileError(
        f"the file holds {len(present)} stations ({names}{', ...' if len(present) > 5 else ''}); "
        "say which with --station, or give the site (--site LAT,LON) to use the nearest"
    )


def _station_json(
    station_id: str | None, format: str, site: tuple[float, float] | None, notes: list[str]
) -> dict[str, Any]:
    known: Station | None = registry().get(station_id) if station_id else None
    if known is not None:
        described = known.to_json()
        described["distance_km"] = (
            None
            if site is None
            else round(geodesic_km(site[0], site[1], known.latitude, known.longitude), 2)
        )
        if site is None:
            notes.append(
                "The distance from the site to the station is not shown: give the site (--site "
                "LAT,LON) to see it"
            )
        return described
    described = {
        "id": station_id,
        "name": None,
        "state": None,
        "latitude": None,
        "longitude": None,
        "elevation_m": None,
        "distance_km": None,
    }
    if format == "gauge-csv":
        described["name"] = "the site's own gauge"
        notes.append("The rain is the site's own gauge, read where the gauge stands")
    elif station_id is None:
        notes.append(
            "The file does not name its station: say which with --station, so the distance "
            "to the site can be shown"
        )
    else:
        notes.append(
            f"Station {station_id} is not in siltfence's station list, so its place and its "
            "distance from the site cannot be shown"
        )
    return described
