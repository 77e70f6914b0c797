"""Weather stations: a registry in NOAA's ``ghcnd-stations.txt`` layout, and the nearest one.

The layout, from NOAA's GHCN-Daily readme (section IV, "FORMAT OF ghcnd-stations.txt"),
columns counted from 1::

    ID            1-11   Character
    LATITUDE     13-20   Real
    LONGITUDE    22-30   Real
    ELEVATION    32-37   Real      (metres; -999.9 when unknown)
    STATE        39-40   Character
    NAME         42-71   Character
    GSN FLAG     73-75   Character
    HCN/CRN FLAG 77-79   Character
    WMO ID       81-85   Character

siltfence ships the lines of Wisconsin stations near its villages, copied unchanged from
NOAA's list (``data/ghcnd-stations-wi.txt``). Distances are geodesic, on the WGS 84
ellipsoid.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from siltfence.core.errors import SiltfenceError
from siltfence.core.rain.errors import RainFileError

STATIONS_FILE = "ghcnd-stations-wi.txt"
# A station's ID, in the forms a rain record names it (decision 34). NOAA's: 11 letters and
# digits, "the first two characters denote the FIPS country code, the third character is a
# network code that identifies the station numbering system used, and the remaining eight
# characters contain the actual station ID" (GHCN-Daily readme, section IV): USW00014839
# (a first-order station), USC00475120 (a cooperative observer), US1WIDN0004 (a CoCoRaHS
# volunteer). A gauge NOAA does not list, the village's own or a site's: SITE- or GAUGE-
# and a number or name, 40 characters at most (SITE-7, GAUGE-PUBLIC-WORKS).
GHCN_ID = re.compile(r"[A-Z]{2}[A-Z0-9]{9}")
GAUGE_ID = re.compile(r"(SITE|GAUGE)-[A-Z0-9][A-Z0-9-]{0,33}")
STATION_WORDS = (
    "a NOAA station ID of 11 letters and digits like USW00014839 or US1WIDN0004, or for a "
    "gauge of the village's own or a site's, SITE- or GAUGE- and a number or name, like SITE-7"
)
_REAL = re.compile(r" *-?[0-9]+(\.[0-9]+)?")


class StationListError(SiltfenceError):
    def __init__(self, file: str, line: int, reason: str) -> None:
        super().__init__(f"{file}: line {line}: {reason}", field="stations")


@dataclass(frozen=True)
class Station:
    id: str
    latitude: float
    longitude: float
    elevation_m: float | None
    state: str
    name: str
    wmo: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "state": self.state,
            "latitude": self.latitude,
            "longitude": self.longitude,
            "elevation_m": self.elevation_m,
        }


def is_station_id(text: str) -> bool:
    """Whether ``text`` is a station ID in one of the forms a rain record names it."""
    return bool(GHCN_ID.fullmatch(text) or GAUGE_ID.fullmatch(text))


def check_ghcn_id(text: str, line: int, what: str) -> str:
    """A station ID a NOAA file gives (a .dly or CSV line, a Climate Data Online row)."""
    if not GHCN_ID.fullmatch(text):
        raise RainFileError(
            f"{what}: expected a NOAA station ID of 11 letters and digits like USW00014839, "
            f"got {text[:40]!r}",
            line,
        )
    return text


def parse_stations(lines: Iterable[str], file: str = STATIONS_FILE) -> dict[str, Station]:
    """Stations of a ``ghcnd-stations.txt`` file, by ID; a malformed line is an error."""
    found: dict[str, Station] = {}
    for number, line in enumerate(lines, 1):
        line = line.rstrip("\r\n")
        if not line.strip():
            continue
        if len(line) < 41 or len(line) > 85:
            raise StationListError(
                file, number, f"a station line is 41 to 85 characters, got {len(line)}"
            )
        station_id = line[0:11]
        if not re.fullmatch(r"[A-Z0-9]{11}", station_id):
            raise StationListError(file, number, f"ID (columns 1-11): got {station_id!r}")
        numbers = []
        for name, (start, end) in {
            "LATITUDE": (12, 20),
            "LONGITUDE": (21, 30),
            "ELEVATION": (31, 37),
        }.items():
            field = line[start:end]
            if not _REAL.fullmatch(field):
                raise StationListError(
                    file, number, f"{name} (columns {start + 1}-{end}): got {field!r}"
                )
            numbers.append(float(field))
        latitude, longitude, elevation = numbers
        if not (-90 <= latitude <= 90 and -180 <= longitude <= 180):
            raise StationListError(file, number, "LATITUDE or LONGITUDE out of range")
        if station_id in found:
            raise StationListError(file, number, f"station {station_id} is listed twice")
        wmo = line[80:85].strip() or None
        found[station_id] = Station(
            id=station_id,
            latitude=latitude,
            longitude=longitude,
            elevation_m=None if elevation <= -999 else elevation,
            state=line[38:40].strip(),
            name=line[41:71].strip(),
            wmo=wmo,
        )
    return found


@functools.cache
def registry() -> dict[str, Station]:
    """The stations siltfence ships."""
    text = resources.files("siltfence.core.rain").joinpath("data", STATIONS_FILE).read_text("ascii")
    return parse_stations(text.splitlines())


def geodesic_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """The geodesic distance on the WGS 84 ellipsoid, in kilometres."""
    from pyproj import Geod  # a heavy import, only where a distance is asked for

    _, _, metres = Geod(ellps="WGS84").inv(lon1, lat1, lon2, lat2)
    return float(metres) / 1000


def nearest(
    latitude: float, longitude: float, among: Iterable[Station] | None = None
) -> tuple[Station, float] | None:
    """The station nearest a point, and its distance in km (None if there is none)."""
    candidates = list(registry().values() if among is None else among)
    if not candidates:
        return None
    measured = [(geodesic_km(latitude, longitude, s.latitude, s.longitude), s) for s in candidates]
    distance, station = min(measured, key=lambda pair: (pair[0], pair[1].id))
    return station, distance


def parse_point(text: str, field: str = "site") -> tuple[float, float]:
    """``"LAT,LON"`` in decimal degrees (north and east positive)."""
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        latitude, longitude = float(parts[0]), float(parts[1])
    except ValueError:
        raise SiltfenceError(
            f"{field}: expected LAT,LON in decimal degrees like 42.8305,-89.6385, "
            f"got {text[:40]!r}",
            field=field,
        ) from None
    if not (math.isfinite(latitude) and math.isfinite(longitude)) or not (
        -90 <= latitude <= 90 and -180 <= longitude <= 180
    ):
        raise SiltfenceError(
            f"{field}: latitude must be -90 to 90 and longitude -180 to 180, got {text[:40]!r}",
            field=field,
        )
    return latitude, longitude
