"""The station list (NOAA's ghcnd-stations.txt layout) and geodesic distances."""

from __future__ import annotations

import pytest

from siltfence.core.errors import SiltfenceError
from siltfence.core.rain import nearest, parse_point, registry
from siltfence.core.rain.stations import StationListError, geodesic_km, parse_stations


def test_milwaukee_mitchell_has_noaas_published_figures():
    station = registry()["USW00014839"]
    assert station.name == "MILWAUKEE MITCHELL AP"
    assert (station.latitude, station.longitude) == (42.9550, -87.9044)
    assert station.elevation_m == 203.3
    assert station.state == "WI"
    assert station.wmo == "72640"


def test_every_shipped_station_is_in_wisconsin():
    assert {s.state for s in registry().values()} == {"WI"}


def test_one_degree_of_latitude_at_43_north_is_the_meridian_arc_of_wgs84():
    # Meridian degree at 43 deg: 111132.954 - 559.822 cos 86 deg + 1.175 cos 172 deg
    # = 111,092.7 m (the standard series for the WGS 84 ellipsoid).
    assert geodesic_km(42.5, -89.0, 43.5, -89.0) == pytest.approx(111.093, abs=0.01)


def test_the_nearest_station_to_new_glarus_is_mount_horeb_and_to_spencer_marshfield():
    # New Glarus about 42.8147 N, 89.6351 W. By hand, on a flat patch of the Earth at 42.9 N
    # (1 deg of latitude 111.05 km, of longitude 81.5 km): Mt Horeb WWTP (42.9906, -89.7419)
    # is 19.53 km north and 8.71 km west, 21.4 km; Monroe WWTP (42.5992, -89.6669) is 23.93
    # km south and 2.59 km west, 24.1 km.
    horeb, to_horeb = nearest(42.8147, -89.6351)
    assert horeb.id == "USC00475674"
    assert to_horeb == pytest.approx(21.4, abs=0.2)
    assert geodesic_km(42.8147, -89.6351, 42.5992, -89.6669) == pytest.approx(24.1, abs=0.2)
    # Spencer about 44.7572 N, 90.2968 W: Marshfield Exp Farm is 12.9 km south and 12.9 km
    # east, 18.3 km; Wausau ASOS is 53 km east.
    marshfield, to_marshfield = nearest(44.7572, -90.2968)
    assert marshfield.id == "USC00475120"
    assert to_marshfield == pytest.approx(18.3, abs=0.3)


def test_a_point_reads_as_lat_lon_and_a_bad_one_is_refused():
    assert parse_point("42.8147,-89.6351") == (42.8147, -89.6351)
    with pytest.raises(SiltfenceError, match="site: expected LAT,LON"):
        parse_point("New Glarus")
    with pytest.raises(SiltfenceError, match="latitude must be -90 to 90"):
        parse_point("95,10")


def test_a_malformed_station_line_names_the_file_the_line_and_the_columns():
    good = "USW00014839  42.9550  -87.9044  203.3 WI MILWAUKEE MITCHELL AP                  72640"
    bad = good[:12] + " 42.95xx" + good[20:]
    with pytest.raises(StationListError) as caught:
        parse_stations([good.replace("14839", "14840"), bad], file="stations.txt")
    assert str(caught.value) == "stations.txt: line 2: LATITUDE (columns 13-20): got ' 42.95xx'"
