"""Site geometry from GeoJSON: parsing, checks and measures in EPSG:3071."""

import json

import pytest
from pyproj import Geod

from siltfence.core.engineering.errors import GeometryError
from siltfence.core.engineering.geometry import (
    area_acres,
    area_ft2,
    distance_ft,
    length_ft,
    parse_geojson,
    parse_geometry,
)

GEOD = Geod(ellps="GRS80")
MADISON = (-89.40, 43.07)
POINT = [-89.4, 43.07]


def square_ring(lon, lat, side_m):
    """Corners of a side_m x side_m square walked out on the ellipsoid (pyproj.Geod)."""
    east = GEOD.fwd(lon, lat, 90, side_m)[:2]
    north_east = GEOD.fwd(*east, 0, side_m)[:2]
    north = GEOD.fwd(lon, lat, 0, side_m)[:2]
    return [[lon, lat], list(east), list(north_east), list(north), [lon, lat]]


def polygon(ring):
    return {"type": "Polygon", "coordinates": [ring]}


def test_a_100_m_square_near_madison_is_one_hectare():
    geometry = parse_geometry(polygon(square_ring(*MADISON, 100)))
    # 1 ha = 107,639 sq ft = 2.471 acres; WTM's scale error is under 0.1% in Wisconsin.
    assert area_ft2(geometry) == pytest.approx(10_000 / 0.3048**2, rel=1e-3)
    assert area_acres(geometry) == pytest.approx(2.4711, rel=1e-3)


def test_a_one_kilometre_line_is_3281_feet():
    end = GEOD.fwd(*MADISON, 45, 1_000)[:2]
    line = parse_geometry({"type": "LineString", "coordinates": [list(MADISON), list(end)]})
    assert length_ft(line) == pytest.approx(3_280.84, rel=1e-3)


def test_distance_between_two_points_100_m_apart_is_328_feet():
    other = GEOD.fwd(*MADISON, 0, 100)[:2]
    a = parse_geometry({"type": "Point", "coordinates": list(MADISON)})
    b = parse_geometry({"type": "Point", "coordinates": list(other)})
    assert distance_ft(a, b) == pytest.approx(328.084, rel=1e-3)


def test_a_feature_collection_keeps_properties_and_reads_json_text():
    collection = {
        "type": "FeatureCollection",
        "features": [
            {
                "type": "Feature",
                "properties": {"role": "site"},
                "geometry": polygon(square_ring(*MADISON, 50)),
            },
            {
                "type": "Feature",
                "properties": None,
                "geometry": {"type": "Point", "coordinates": [-89.39, 43.071, 260.0]},
            },
        ],
    }
    features = parse_geojson(json.dumps(collection), field="site")
    assert [f.properties.get("role") for f in features] == ["site", None]
    assert features[1].field == "site.features[1]"


def test_a_ring_that_is_not_closed_is_refused_by_member():
    ring = [*square_ring(*MADISON, 100)[:-1], [-89.3995, 43.0700]]
    with pytest.raises(GeometryError, match=r"^site\.coordinates\[0\]: the ring is not closed"):
        parse_geojson(polygon(ring), field="site")


def test_a_self_intersecting_polygon_is_refused_with_the_place():
    bowtie = [[-89.40, 43.00], [-89.30, 43.10], [-89.30, 43.00], [-89.40, 43.10], [-89.40, 43.00]]
    with pytest.raises(
        GeometryError, match=r"intersects itself \(Self-intersection at lon -89\.35"
    ):
        parse_geojson(polygon(bowtie), field="site")


def test_a_declared_state_plane_crs_is_refused():
    document = {
        "type": "FeatureCollection",
        "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::3071"}},
        "features": [],
    }
    with pytest.raises(GeometryError, match=r"^site\.crs: .*RFC 7946"):
        parse_geojson(document, field="site")


def test_a_crs_naming_wgs84_is_accepted():
    document = {
        "type": "Point",
        "coordinates": list(MADISON),
        "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:OGC:1.3:CRS84"}},
    }
    assert parse_geometry(document).geom_type == "Point"


@pytest.mark.parametrize(
    ("coordinates", "message"),
    [
        ([-95.0, 43.0], "outside Wisconsin"),
        ([-89.4, 41.9], "outside Wisconsin"),
        ([43.07, -89.4], "looks like latitude, longitude"),
    ],
)
def test_positions_outside_wisconsin_are_refused(coordinates, message):
    with pytest.raises(GeometryError, match=message):
        parse_geojson({"type": "Point", "coordinates": coordinates}, field="pile")


@pytest.mark.parametrize(
    ("document", "where"),
    [
        ("[1, 2", "site"),
        ('{"type": "Point", "coordinates": [NaN, 43]}', "site"),
        ([1, 2], "site"),
        ({"coordinates": [-89.4, 43.07]}, r"site\.type"),
        ({"type": "Circle", "coordinates": [-89.4, 43.07]}, r"site\.type"),
        ({"type": "Point", "coordinates": "-89.4, 43.07"}, r"site\.coordinates"),
        ({"type": "Point", "coordinates": [True, 43.07]}, r"site\.coordinates"),
        ({"type": "LineString", "coordinates": [[-89.4, 43.07]]}, r"site\.coordinates"),
        (
            {"type": "Polygon", "coordinates": [[[-89.4, 43.07], [-89.39, 43.07], [-89.4, 43.07]]]},
            r"site\.coordinates\[0\]",
        ),
        ({"type": "FeatureCollection", "features": {}}, r"site\.features"),
        (
            {"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": None}]},
            r"site\.features\[0\]\.geometry",
        ),
        (
            {
                "type": "Feature",
                "properties": [],
                "geometry": {"type": "Point", "coordinates": [-89.4, 43.07]},
            },
            r"site\.properties",
        ),
    ],
)
def test_bad_geojson_is_refused_naming_the_member(document, where):
    with pytest.raises(GeometryError, match=f"^{where}: "):
        parse_geojson(document, field="site")


def test_parse_geometry_wants_exactly_one():
    with pytest.raises(GeometryError, match="exactly one geometry, got 0"):
        parse_geometry({"type": "FeatureCollection", "features": []})
