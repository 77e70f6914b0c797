"""Site geometry from GeoJSON: parse, check, reproject to EPSG:3071, measure.

GeoJSON is WGS84 longitude, latitude (RFC 7946). Everything is measured in Wisconsin
Transverse Mercator (EPSG:3071, metres; NAD83(HARN)), whose scale error is under about
0.1% anywhere in the state, then given in feet, square feet and acres.

Bad input raises ``GeometryError(field, reason)`` naming the member, for example
``site.features[2].geometry.coordinates[0]: the ring is not closed ...``.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np
import shapely  # type: ignore[import-untyped]
from pyproj import Transformer
from shapely.geometry import shape  # type: ignore[import-untyped]
from shapely.geometry.base import BaseGeometry  # type: ignore[import-untyped]

from siltfence.core.engineering.errors import GeometryError
from siltfence.core.errors import SiltfenceError
from siltfence.core.jsonread import read_json
from siltfence.core.quantities import ACRE_FT2, FT

# About the state's extent, with a little margin: lon -92.9..-86.2, lat 42.4..47.4.
WISCONSIN_LON = (-92.9, -86.2)
WISCONSIN_LAT = (42.4, 47.4)
TARGET_CRS = "EPSG:3071"
WGS84_NAMES = {
    "urn:ogc:def:crs:OGC:1.3:CRS84",
    "urn:ogc:def:crs:OGC::CRS84",
    "OGC:CRS84",
    "CRS84",
    "EPSG:4326",
    "urn:ogc:def:crs:EPSG::4326",
    "urn:ogc:def:crs:EPSG:4326",
}
GEOMETRY_TYPES = (
    "Point",
    "MultiPoint",
    "LineString",
    "MultiLineString",
    "Polygon",
    "MultiPolygon",
    "GeometryCollection",
)

# segment_pairs compares at most about this many pairs of extents at once (memory).
_PAIRS_PER_BATCH = 1_000_000

_local = threading.local()  # pyproj Transformers must not be shared between threads


def _transformer() -> Transformer:
    transformer: Transformer | None = getattr(_local, "transformer", None)
    if transformer is None:
        transformer = Transformer.from_crs("EPSG:4326", TARGET_CRS, always_xy=True)
        _local.transformer = transformer
    return transformer


@dataclass(frozen=True)
class Feature:
    """One GeoJSON feature: its geometry in EPSG:3071 metres, and its properties."""

    geometry: BaseGeometry
    properties: Mapping[str, Any]
    field: str


def parse_geojson(
    data: str | bytes | Mapping[str, Any], *, field: str = "geojson"
) -> tuple[Feature, ...]:
    """Features of a FeatureCollection, a Feature or a bare geometry, in EPSG:3071 metres."""
    document = _load(data, field)
    _check_crs(document, field)
    kind = document.get("type")
    if kind == "FeatureCollection":
        features = document.get("features")
        if not isinstance(features, list):
            raise GeometryError(
                f"{field}.features", f"expected a list of features, got {_name(features)}"
            )
        return tuple(
            _feature(item, f"{field}.features[{index}]") for index, item in enumerate(features)
        )
    if kind == "Feature":
        return (_feature(document, field),)
    if kind in GEOMETRY_TYPES:
        return (Feature(to_wtm(_geometry(document, field)), MappingProxyType({}), field),)
    raise GeometryError(
        f"{field}.type",
        f"expected FeatureCollection, Feature or a geometry type, got {kind!r}",
    )


def parse_geometry(
    data: str | bytes | Mapping[str, Any], *, field: str = "geojson"
) -> BaseGeometry:
    """One geometry (a geometry, a Feature, or a collection of one feature), in EPSG:3071."""
    features = parse_geojson(data, field=field)
    if len(features) != 1:
        raise GeometryError(field, f"expected exactly one geometry, got {len(features)}")
    return features[0].geometry


def to_wtm(geometry: BaseGeometry) -> BaseGeometry:
    """Reproject a WGS84 lon/lat geometry to Wisconsin Transverse Mercator (EPSG:3071)."""
    transformer = _transformer()

    def project(x: Any, y: Any) -> Any:
        return transformer.transform(x, y)

    return shapely.transform(geometry, project, interleaved=False)


def area_ft2(geometry: BaseGeometry) -> float:
    """Area in sq ft of a geometry in EPSG:3071 metres."""
    return float(geometry.area) / FT**2


def area_acres(geometry: BaseGeometry) -> float:
    return area_ft2(geometry) / ACRE_FT2


def length_ft(geometry: BaseGeometry) -> float:
    """Length in ft of a line (or perimeter of a polygon) in EPSG:3071 metres."""
    return float(geometry.length) / FT


def distance_ft(a: BaseGeometry, b: BaseGeometry) -> float:
    """Least straight-line distance in ft between two geometries in EPSG:3071 metres."""
    return float(a.distance(b)) / FT


def segment_pairs(geometries: Iterable[BaseGeometry], limit: int) -> int:
    """Pairs of segments of the lines and outlines of ``geometries`` whose extents overlap
    (two segments of one line or ring too, but not two that follow each other in it).
    Counting stops once past ``limit``: a count over ``limit`` may not be all of them.

    It bounds what overlaying them costs (a union, a difference, a buffer): GEOS nodes
    segments whose extents overlap, and each crossing adds a node. Real plans have few such
    pairs (shared edges, lines that meet); two sawteeth drawn across each other have one for
    every pair of their teeth. The extents are compared in an index, a bounded batch of
    segments at a time, so counting past ``limit`` costs little more than ``limit`` pairs
    whatever was drawn.
    """
    outlines = [
        shapely.boundary(g) if g.geom_type in ("Polygon", "MultiPolygon") else g for g in geometries
    ]
    if not outlines:
        return 0
    lines = shapely.get_parts(shapely.get_parts(outlines))
    coordinates, line = shapely.get_coordinates(lines, return_index=True)
    same = line[1:] == line[:-1]
    a, b = coordinates[:-1][same], coordinates[1:][same]
    segment_line = line[:-1][same]
    if len(a) == 0:
        return 0
    boxes = shapely.box(
        np.minimum(a[:, 0], b[:, 0]),
        np.minimum(a[:, 1], b[:, 1]),
        np.maximum(a[:, 0], b[:, 0]),
        np.maximum(a[:, 1], b[:, 1]),
    )
    tree = shapely.STRtree(boxes)
    batch = max(1, _PAIRS_PER_BATCH // len(boxes))
    pairs = 0
    for first in range(0, len(boxes), batch):
        mine, theirs = tree.query(boxes[first : first + batch])
        mine = mine + first
        next_in_line = (theirs == mine + 1) & (segment_line[theirs] == segment_line[mine])
        pairs += int(np.count_nonzero((theirs > mine) & ~next_in_line))  # each pair once
        if pairs > limit:
            break
    return pairs


# -- parsing -----------------------------------------------------------------------------


def _name(value: object) -> str:
    if value is None:
        return "null"
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false"}.get(
        type(value), type(value).__name__
    )


def _load(data: str | bytes | Mapping[str, Any], field: str) -> Mapping[str, Any]:
    if isinstance(data, str | bytes):
        try:
            data = read_json(data, what=field)
        except SiltfenceError as exc:
            raise GeometryError(field, str(exc).removeprefix(f"{field}: ")) from None
    if not isinstance(data, Mapping):
        raise GeometryError(field, f"expected a GeoJSON object, got {_name(data)}")
    return data


def _check_crs(member: Mapping[str, Any], field: str) -> None:
    if "crs" not in member:
        return
    crs = member["crs"]
    name: object = None
    if isinstance(crs, Mapping):
        properties = crs.get("properties")
        if isinstance(properties, Mapping):
            name = properties.get("name")
    if isinstance(name, str) and name in WGS84_NAMES:
        return
    raise GeometryError(
        f"{field}.crs",
        f"declares the coordinate system {name or crs!r}; GeoJSON must be WGS84 longitude, "
        "latitude (RFC 7946): reproject the file to WGS84 and leave out 'crs'",
    )


def _feature(item: object, field: str) -> Feature:
    if not isinstance(item, Mapping) or item.get("type") != "Feature":
        raise GeometryError(field, f"expected a Feature object, got {_name(item)}")
    _check_crs(item, field)
    geometry = item.get("geometry")
    if geometry is None:
        raise GeometryError(f"{field}.geometry", "the feature has no geometry")
    properties = item.get("properties")
    if properties is not None and not isinstance(properties, Mapping):
        raise GeometryError(
            f"{field}.properties", f"expected an object or null, got {_name(properties)}"
        )
    shaped = _geometry(geometry, f"{field}.geometry")
    return Feature(to_wtm(shaped), MappingProxyType(dict(properties or {})), field)


def _geometry(member: object, field: str) -> BaseGeometry:
    if not isinstance(member, Mapping):
        raise GeometryError(field, f"expected a geometry object, got {_name(member)}")
    _check_crs(member, field)
    kind = member.get("type")
    if kind not in GEOMETRY_TYPES:
        raise GeometryError(
            f"{field}.type", f"expected one of {', '.join(GEOMETRY_TYPES)}, got {kind!r}"
        )
    if kind == "GeometryCollection":
        parts = member.get("geometries")
        if not isinstance(parts, list):
            raise GeometryError(f"{field}.geometries", f"expected a list, got {_name(parts)}")
        return shapely.GeometryCollection(
            [_geometry(part, f"{field}.geometries[{i}]") for i, part in enumerate(parts)]
        )
    where = f"{field}.coordinates"
    coordinates = member.get("coordinates")
    depth = {
        "Point": 0,
        "MultiPoint": 1,
        "LineString": 1,
        "MultiLineString": 2,
        "Polygon": 2,
        "MultiPolygon": 3,
    }[str(kind)]
    clean = _coordinates(coordinates, depth, where)
    if kind == "LineString":
        _line(clean, where)
    elif kind == "MultiLineString":
        for i, line in enumerate(clean):
            _line(line, f"{where}[{i}]")
    elif kind == "Polygon":
        _polygon(clean, where)
    elif kind == "MultiPolygon":
        for i, polygon in enumerate(clean):
            _polygon(polygon, f"{where}[{i}]")
    geometry = shape({"type": kind, "coordinates": clean})
    if not geometry.is_valid:
        reason = shapely.is_valid_reason(geometry)
        if "Self-intersection" in reason or "Ring Self-intersection" in reason:
            raise GeometryError(where, f"the {kind} intersects itself ({_lonlat_reason(reason)})")
        raise GeometryError(where, f"the {kind} is not valid ({_lonlat_reason(reason)})")
    return geometry


def _lonlat_reason(reason: str) -> str:
    """'Self-intersection[-89.4 43.07]' -> 'Self-intersection at lon -89.4, lat 43.07'."""
    if "[" in reason and reason.endswith("]"):
        text, point = reason[:-1].split("[", 1)
        parts = point.split()
        if len(parts) == 2:
            return f"{text} at lon {parts[0]}, lat {parts[1]}"
    return reason


def _coordinates(value: object, depth: int, field: str) -> Any:
    if depth == 0:
        return _position(value, field)
    if not isinstance(value, list) or not value:
        raise GeometryError(field, f"expected a non-empty list, got {_name(value)}")
    return [_coordinates(item, depth - 1, f"{field}[{i}]") for i, item in enumerate(value)]


def _position(value: object, field: str) -> tuple[float, float]:
    if not isinstance(value, list) or len(value) < 2:
        raise GeometryError(field, f"expected a position [longitude, latitude], got {value!r}")
    numbers = value[:2]
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value[:3]):
        raise GeometryError(field, f"expected numbers [longitude, latitude], got {value!r}")
    lon, lat = float(numbers[0]), float(numbers[1])
    if not (math.isfinite(lon) and math.isfinite(lat)):
        raise GeometryError(field, f"expected finite numbers, got {value!r}")
    in_lon = WISCONSIN_LON[0] <= lon <= WISCONSIN_LON[1]
    in_lat = WISCONSIN_LAT[0] <= lat <= WISCONSIN_LAT[1]
    if not (in_lon and in_lat):
        swapped = (
            WISCONSIN_LON[0] <= lat <= WISCONSIN_LON[1]
            and WISCONSIN_LAT[0] <= lon <= WISCONSIN_LAT[1]
        )
        hint = (
            "; it looks like latitude, longitude: GeoJSON puts longitude first" if swapped else ""
        )
        raise GeometryError(
            field,
            f"[{lon:g}, {lat:g}] is outside Wisconsin (longitude -92.9 to -86.2, latitude 42.4 to "
            f"47.4){hint}",
        )
    return (lon, lat)


def _line(points: list[tuple[float, float]], field: str) -> None:
    if len(points) < 2:
        raise GeometryError(field, f"a line needs at least 2 positions, got {len(points)}")


def _polygon(rings: list[list[tuple[float, float]]], field: str) -> None:
    for i, ring in enumerate(rings):
        where = f"{field}[{i}]"
        if not isinstance(ring, list) or len(ring) < 4:
            count = len(ring) if isinstance(ring, list) else 0
            raise GeometryError(where, f"a polygon ring needs at least 4 positions, got {count}")
        if ring[0] != ring[-1]:
            raise GeometryError(
                where,
                f"the ring is not closed: it starts at {list(ring[0])} and ends at "
                f"{list(ring[-1])}; repeat the first position at the end",
            )
