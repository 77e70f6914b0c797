"""A control plan as data: its measures, geometry and schedule (docs/plan-format.md).

``parse_plan`` reads the JSON a plan preparer sends and checks all of it before any design
check runs: every key is known, every quantity is a number in its default unit or a string
with a unit, every date is YYYY-MM-DD, every feature of the site has a known ``kind`` with
the geometry and properties that kind takes. A problem raises ``EngineeringInputError`` (or
``GeometryError`` for the GeoJSON) naming the path of the field, for example
``plan.site.features[3].properties.volume`` or ``plan.sheet_flow[0].slope``. Nothing is
ignored and nothing is guessed. A plan larger than a site's plan can be (the ``MAX_``
bounds below: features, positions, sheet-flow paths...) is refused the same way, before the
part past the bound is read, so no plan holds a worker for long.

The site is a GeoJSON FeatureCollection in WGS84 longitude, latitude; every geometry is
measured in Wisconsin Transverse Mercator (EPSG:3071, see ``geometry``).
"""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from shapely.geometry.base import BaseGeometry  # type: ignore[import-untyped]

from siltfence.core.dates import DateRefused, read_date
from siltfence.core.engineering.errors import EngineeringInputError, GeometryError
from siltfence.core.engineering.geometry import parse_geojson, segment_pairs
from siltfence.core.engineering.sheet_flow import TR55_SHEET_FLOW_N
from siltfence.core.engineering.stabilization import StabilizationMethod
from siltfence.core.engineering.tracking import LAND_USES
from siltfence.core.engineering.units import to_float

ROOT = "plan"

# -- limits ------------------------------------------------------------------------------
# A control plan is one construction site's: a boundary, a few phases, tens of fence lines,
# inlets and other measures, a few stockpiles, basins and sheet-flow paths (the worked plans
# in ordinances/*/cases/design have at most 14 features). Each bound is several times what
# a large site's plan holds, and together they keep the largest plan they allow under a
# second of processor time for its report, and under two for its PDF (the PDF costs about a
# millisecond a line; README, "Control plans and design checks"), so no plan sent to the
# public pages holds a worker for long. A plan over a bound is refused, naming the field,
# before anything past the bound is read.
MAX_FEATURES = 200  # plan.site.features, of every kind together
MAX_OF_KIND: Mapping[str, int] = MappingProxyType(
    {
        # Phases. The area disturbed at one time lists, for each day a phase starts, every
        # phase open that day, so the report grows with the phases times their start days.
        "disturbed_area": 30,
        # Each is a check of its own (some 20 lines), measured against every road and
        # channel; a site has a few piles.
        "stockpile": 10,
        # Each is a check over the design storms (some 90 lines); basins are called for from
        # ten acres disturbed at one time, and a site needs one or two.
        "sediment_basin": 4,
    }
)
# Positions (vertices) in all the site's geometries: a drawn site has tens per feature, a
# surveyed or imported one a few hundred on its longest outlines.
MAX_POSITIONS = 10_000
# Pairs of segments that cross or nearly cross (their extents overlap) among the outlines
# and lines the checks overlay (unions, the fence band; geometry.segment_pairs). Real plans
# have few, where edges are shared or lines meet: thirty lots drawn with 6,000 positions and
# a fence inside each, about 4,000 to 6,500. Outlines drawn across each other as sawteeth
# have one per pair of teeth, and every crossing is a node the overlays work through: at
# this bound, half a second to most of a second.
MAX_SEGMENT_PAIRS = 20_000
OVERLAID_KINDS = (
    "disturbed_area",
    "basin_drainage",
    "silt_fence",
    "straw_bale",
    "downslope_edge",
    "sideslope_edge",
)
# plan.sheet_flow: an upslope area draining onto the site is one path, some 45 lines of the
# report over the design storms; two on each of a site's four sides.
MAX_SHEET_FLOW = 8
MAX_SCHEDULE = 100  # plan.schedule activities (counted for the checklist, not checked)
MAX_INACTIVE_AREAS = 10  # plan.inactive_areas: stretches of inactive ground, a check each
MAX_CONTENTS = 50  # plan.contents item ids: each listed once; Spencer's plan names 18
# Characters of an id, and of a reference to one: the report names a feature by its id,
# a phase's once for every start day it is open.
MAX_ID_CHARS = 40
ID_PROPERTIES = ("id", "inlet", "basin")

AREAS = ("Polygon", "MultiPolygon")
LINES = ("LineString", "MultiLineString")
POINTS = ("Point", "MultiPoint")


@dataclass(frozen=True)
class PropertySpec:
    kind: str  # "text", "quantity", "bool", "date", "coefficient"
    unit: str = "1"
    required: bool = False
    default: object = None


def _q(unit: str, *, required: bool = False) -> PropertySpec:
    return PropertySpec("quantity", unit, required)


_TEXT = PropertySpec("text")
_FLAG = PropertySpec("bool", default=False)

# Every feature may carry these besides its kind's own properties.
COMMON_PROPERTIES: Mapping[str, PropertySpec] = MappingProxyType(
    {"kind": PropertySpec("text", required=True), "id": _TEXT, "name": _TEXT, "note": _TEXT}
)


@dataclass(frozen=True)
class KindSpec:
    geometries: tuple[str, ...]
    properties: Mapping[str, PropertySpec]
    meaning: str


def _kind(geometries: tuple[str, ...], meaning: str, **properties: PropertySpec) -> KindSpec:
    return KindSpec(geometries, MappingProxyType(properties), meaning)


KINDS: Mapping[str, KindSpec] = MappingProxyType(
    {
        "site_boundary": _kind(AREAS, "the site's boundary"),
        "disturbed_area": _kind(
            AREAS,
            "ground disturbed in one phase, from start to end (dates inclusive)",
            phase=_TEXT,
            start=PropertySpec("date", required=True),
            end=PropertySpec("date", required=True),
        ),
        "stockpile": _kind(
            (*POINTS, *AREAS),
            "a soil or dirt storage pile",
            volume=_q("yd**3", required=True),
            days=_q("day", required=True),
            in_street=_FLAG,
            stabilized=_FLAG,
            barrier_around=_FLAG,
            downslope_drainage_length=_q("ft"),
        ),
        "road": _kind((*LINES, *AREAS), "a public or private roadway"),
        "drainage_channel": _kind((*LINES, *AREAS), "a drainage channel or ditch"),
        "storm_inlet": _kind(
            POINTS, "a storm drain inlet", id=PropertySpec("text", required=True), protected=_FLAG
        ),
        "silt_fence": _kind(LINES, "a filter (silt) fence"),
        "straw_bale": _kind(LINES, "a line of straw bales"),
        "inlet_protection": _kind(
            (*POINTS, *AREAS, *LINES),
            "protection of a storm drain inlet (inlet names the storm_inlet id)",
            inlet=_TEXT,
        ),
        "sediment_basin": _kind(
            AREAS,
            "a sedimentation basin, its polygon the basin's surface",
            depth=_q("ft", required=True),
            drainage_area=_q("ft**2"),
            runoff_coefficient=PropertySpec("coefficient"),
        ),
        "basin_drainage": _kind(
            AREAS,
            "the area draining to a basin (basin names the sediment_basin id)",
            basin=PropertySpec("text", required=True),
        ),
        "sediment_trap": _kind((*POINTS, *AREAS), "a sediment trap"),
        "tracking_pad": _kind(AREAS, "a graveled access drive or stone tracking pad"),
        "diversion": _kind(LINES, "a diversion carrying runoff around disturbed ground"),
        "downslope_edge": _kind(LINES, "a downslope side of the site"),
        "sideslope_edge": _kind(LINES, "a sideslope side of the site"),
    }
)

MEASURE_KINDS = (
    "silt_fence",
    "straw_bale",
    "inlet_protection",
    "sediment_basin",
    "sediment_trap",
    "tracking_pad",
    "diversion",
)


@dataclass(frozen=True)
class SiteFeature:
    kind: str
    id: str | None
    geometry: BaseGeometry  # EPSG:3071 metres
    properties: Mapping[str, Any]  # parsed: quantities as floats in their default unit
    field: str  # "plan.site.features[3]"

    @property
    def label(self) -> str:
        """How the report names the feature: its id, else its kind and place in the file."""
        if self.id:
            return self.id
        index = self.field.rsplit("[", 1)[-1].rstrip("]")
        return f"{self.kind} #{index}"


@dataclass(frozen=True)
class Dewatering:
    highest_pumping_rate: float  # gal/min
    device_area: float | None  # sq ft
    device_diameter: float | None  # ft
    water_temperature: float | None  # °F
    shown_free_of_particles: bool
    field: str


@dataclass(frozen=True)
class SheetFlowEntry:
    id: str | None
    adjacent_area: float  # sq ft
    flow_length: float  # ft
    slope: float  # ft/ft
    surface: str | None
    manning_n: float | None
    runoff_coefficient: float | None
    diverted_by: str | None
    field: str


@dataclass(frozen=True)
class ScheduleItem:
    activity: str
    start: datetime.date
    end: datetime.date
    field: str


@dataclass(frozen=True)
class InactiveArea:
    area: str | None
    inactive_from: datetime.date
    inactive_until: datetime.date | None
    method: str | None
    stabilize_on: datetime.date | None
    field: str


@dataclass(frozen=True)
class ControlPlan:
    jurisdiction: str
    on: datetime.date | None
    features: tuple[SiteFeature, ...]
    land_use: str
    runoff_leaves_site: bool
    channel_originates_on_site: bool
    dewatering: Dewatering | None
    sheet_flow: tuple[SheetFlowEntry, ...]
    schedule: tuple[ScheduleItem, ...]
    inactive_areas: tuple[InactiveArea, ...]
    maintenance: str | None
    description: str | None
    contents: tuple[str, ...]
    facts: Mapping[str, Any]

    def of_kind(self, *kinds: str) -> list[SiteFeature]:
        return [f for f in self.features if f.kind in kinds]

    def by_id(self, kind: str, ident: str) -> SiteFeature | None:
        for feature in self.features:
            if feature.kind == kind and feature.id == ident:
                return feature
        return None


# -- parsing -----------------------------------------------------------------------------

TOP_LEVEL: Mapping[str, bool] = MappingProxyType(
    {  # key -> required
        "jurisdiction": True,
        "on": False,
        "site": True,
        "land_use": True,
        "runoff_leaves_site": True,
        "channel_originates_on_site": True,
        "dewatering": False,
        "sheet_flow": False,
        "schedule": False,
        "inactive_areas": False,
        "maintenance": False,
        "description": False,
        "contents": False,
        "facts": False,
    }
)
# Facts the plan computes from its geometry or states at the top level: never retyped.
COMPUTED_FACTS = {
    "disturbed_area": "it is computed from the disturbed_area polygons of plan.site",
    "area_disturbed_at_one_time": "it is computed from the disturbed_area polygons and their dates",
    "land_use": "give it as plan.land_use",
    "runoff_leaves_site": "give it as plan.runoff_leaves_site",
    "channel_originates_on_site": "give it as plan.channel_originates_on_site",
}


def parse_plan(data: object) -> ControlPlan:
    """Check a plan (parsed JSON) and return it as a ``ControlPlan``; raises on any problem."""
    plan = _object(data, ROOT)
    _keys(plan, ROOT, TOP_LEVEL)
    jurisdiction = _text(plan["jurisdiction"], f"{ROOT}.jurisdiction")
    on = _date(plan["on"], f"{ROOT}.on") if "on" in plan else None
    land_use = plan["land_use"]
    if land_use not in LAND_USES:
        raise EngineeringInputError(
            f"{ROOT}.land_use", f"expected one of {', '.join(LAND_USES)}, got {land_use!r}"
        )
    features = _site(plan["site"])
    parsed = ControlPlan(
        jurisdiction=jurisdiction,
        on=on,
        features=features,
        land_use=land_use,
        runoff_leaves_site=_bool(plan["runoff_leaves_site"], f"{ROOT}.runoff_leaves_site"),
        channel_originates_on_site=_bool(
            plan["channel_originates_on_site"], f"{ROOT}.channel_originates_on_site"
        ),
        dewatering=_dewatering(plan["dewatering"]) if "dewatering" in plan else None,
        sheet_flow=_list(
            plan.get("sheet_flow", []), f"{ROOT}.sheet_flow", _sheet_flow, MAX_SHEET_FLOW, "paths"
        ),
        schedule=_list(
            plan.get("schedule", []), f"{ROOT}.schedule", _schedule_item, MAX_SCHEDULE, "activities"
        ),
        inactive_areas=_list(
            plan.get("inactive_areas", []),
            f"{ROOT}.inactive_areas",
            _inactive,
            MAX_INACTIVE_AREAS,
            "stretches of inactive ground",
        ),
        maintenance=_optional_text(plan.get("maintenance"), f"{ROOT}.maintenance"),
        description=_optional_text(plan.get("description"), f"{ROOT}.description"),
        contents=_contents(plan.get("contents", [])),
        facts=_facts(plan.get("facts", {})),
    )
    _cross_references(parsed)
    return parsed


def _site(value: object) -> tuple[SiteFeature, ...]:
    where = f"{ROOT}.site"
    site = _object(value, where)
    if site.get("type") != "FeatureCollection":
        raise GeometryError(
            f"{where}.type", f"expected a GeoJSON FeatureCollection, got {site.get('type')!r}"
        )
    _site_within_limits(site.get("features"), f"{where}.features")
    features = [
        _site_feature(parsed.geometry, parsed.properties, parsed.field)
        for parsed in parse_geojson(site, field=where)
    ]
    _segments_within_limit(features, f"{where}.features")
    ids: dict[tuple[str, str], str] = {}
    for feature in features:
        if feature.id is None:
            continue
        key = (feature.kind, feature.id)
        if key in ids:
            raise EngineeringInputError(
                f"{feature.field}.properties.id",
                f"{feature.kind} id {feature.id!r} is also used by {ids[key]}",
            )
        ids[key] = feature.field
    return tuple(features)


def _site_feature(geometry: BaseGeometry, properties: Mapping[str, Any], field: str) -> SiteFeature:
    where = f"{field}.properties"
    kind = properties.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise EngineeringInputError(
            f"{where}.kind", f"expected one of {', '.join(KINDS)}, got {kind!r}"
        )
    spec = KINDS[kind]
    if geometry.geom_type not in spec.geometries:
        raise GeometryError(
            f"{field}.geometry.type",
            f"a {kind} is drawn as {' or '.join(spec.geometries)}, got {geometry.geom_type}",
        )
    if geometry.is_empty:
        raise GeometryError(f"{field}.geometry", "the geometry is empty")
    allowed = {**COMMON_PROPERTIES, **spec.properties}
    for name in properties:
        if name not in allowed:
            raise EngineeringInputError(
                f"{where}.{name}",
                f"unknown property for a {kind}; expected {', '.join(sorted(allowed))}",
            )
    values: dict[str, Any] = {}
    for name, prop in allowed.items():
        if name == "kind":
            continue
        path = f"{where}.{name}"
        if name not in properties or properties[name] is None:
            if prop.required:
                raise EngineeringInputError(path, f"a {kind} needs {name}")
            values[name] = prop.default
            continue
        values[name] = _property(properties[name], prop, path)
        if name in ID_PROPERTIES:
            _id_within_limit(values[name], path)
    if kind == "disturbed_area" and values["end"] < values["start"]:
        raise EngineeringInputError(
            f"{where}.end", f"{values['end'].isoformat()} is before start {values['start']}"
        )
    ident = values.pop("id")
    return SiteFeature(kind, ident, geometry, MappingProxyType(values), field)


def _property(value: object, spec: PropertySpec, path: str) -> Any:
    if spec.kind == "text":
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)  # phase 1, id 7: numbers read as names
        return _text(value, path)
    if spec.kind == "bool":
        return _bool(value, path)
    if spec.kind == "date":
        return _date(value, path)
    if spec.kind == "coefficient":
        return _coefficient(value, path)
    return to_float(value, spec.unit, field=path, positive=spec.required)


def _dewatering(value: object) -> Dewatering:
    where = f"{ROOT}.dewatering"
    data = _object(value, where)
    _keys(
        data,
        where,
        {
            "highest_pumping_rate": True,
            "device_area": False,
            "device_diameter": False,
            "water_temperature": False,
            "shown_free_of_particles": False,
        },
    )
    if "device_area" in data and "device_diameter" in data:
        raise EngineeringInputError(
            f"{where}.device_diameter",
            "give device_area or device_diameter (for a round device), not both",
        )
    return Dewatering(
        highest_pumping_rate=to_float(
            data["highest_pumping_rate"],
            "gal/min",
            field=f"{where}.highest_pumping_rate",
            positive=True,
        ),
        device_area=to_float(
            data["device_area"], "ft**2", field=f"{where}.device_area", positive=True
        )
        if "device_area" in data
        else None,
        device_diameter=to_float(
            data["device_diameter"], "ft", field=f"{where}.device_diameter", positive=True
        )
        if "device_diameter" in data
        else None,
        water_temperature=to_float(
            data["water_temperature"], "degF", field=f"{where}.water_temperature", minimum=32.0
        )
        if "water_temperature" in data
        else None,
        shown_free_of_particles=_bool(
            data.get("shown_free_of_particles", False), f"{where}.shown_free_of_particles"
        ),
        field=where,
    )


def _sheet_flow(value: object, where: str) -> SheetFlowEntry:
    data = _object(value, where)
    _keys(
        data,
        where,
        {
            "id": False,
            "adjacent_area": True,
            "flow_length": True,
            "slope": True,
            "surface": False,
            "manning_n": False,
            "runoff_coefficient": False,
            "diverted_by": False,
        },
    )
    surface = data.get("surface")
    if surface is not None and surface not in TR55_SHEET_FLOW_N:
        raise EngineeringInputError(
            f"{where}.surface",
            f"expected one of {', '.join(TR55_SHEET_FLOW_N)}, got {surface!r}",
        )
    if surface is not None and "manning_n" in data:
        raise EngineeringInputError(
            f"{where}.manning_n", "give the surface (TR-55 Table 3-1) or manning_n, not both"
        )
    return SheetFlowEntry(
        id=_optional_id(data.get("id"), f"{where}.id"),
        adjacent_area=to_float(data["adjacent_area"], "ft**2", field=f"{where}.adjacent_area"),
        flow_length=to_float(
            data["flow_length"], "ft", field=f"{where}.flow_length", positive=True
        ),
        slope=to_float(data["slope"], "ft/ft", field=f"{where}.slope", positive=True),
        surface=surface,
        manning_n=to_float(data["manning_n"], "1", field=f"{where}.manning_n", positive=True)
        if "manning_n" in data
        else None,
        runoff_coefficient=_coefficient(data["runoff_coefficient"], f"{where}.runoff_coefficient")
        if "runoff_coefficient" in data
        else None,
        diverted_by=_optional_id(data.get("diverted_by"), f"{where}.diverted_by"),
        field=where,
    )


def _schedule_item(value: object, where: str) -> ScheduleItem:
    data = _object(value, where)
    _keys(data, where, {"activity": True, "start": True, "end": True})
    start = _date(data["start"], f"{where}.start")
    end = _date(data["end"], f"{where}.end")
    if end < start:
        raise EngineeringInputError(f"{where}.end", f"{end} is before start {start}")
    return ScheduleItem(_text(data["activity"], f"{where}.activity"), start, end, where)


def _inactive(value: object, where: str) -> InactiveArea:
    data = _object(value, where)
    _keys(
        data,
        where,
        {"area": False, "from": True, "until": False, "method": False, "stabilize_on": False},
    )
    method = data.get("method")
    if method is not None and method not in {m.value for m in StabilizationMethod}:
        raise EngineeringInputError(
            f"{where}.method",
            f"expected one of {', '.join(m.value for m in StabilizationMethod)}, got {method!r}",
        )
    start = _date(data["from"], f"{where}.from")
    until = _date(data["until"], f"{where}.until") if "until" in data else None
    if until is not None and until < start:
        raise EngineeringInputError(f"{where}.until", f"{until} is before from {start}")
    return InactiveArea(
        area=_optional_id(data.get("area"), f"{where}.area"),
        inactive_from=start,
        inactive_until=until,
        method=method,
        stabilize_on=_date(data["stabilize_on"], f"{where}.stabilize_on")
        if "stabilize_on" in data
        else None,
        field=where,
    )


def _contents(value: object) -> tuple[str, ...]:
    where = f"{ROOT}.contents"
    if not isinstance(value, list):
        raise EngineeringInputError(where, f"expected a list of item ids, got {_name(value)}")
    _at_most(len(value), MAX_CONTENTS, where, "item ids")
    items: dict[str, None] = {}
    for index, item in enumerate(value):
        text = _text(item, f"{where}[{index}]")
        _id_within_limit(text, f"{where}[{index}]")
        if text in items:
            raise EngineeringInputError(f"{where}[{index}]", f"{text!r} is listed twice")
        items[text] = None
    return tuple(items)


def _facts(value: object) -> Mapping[str, Any]:
    where = f"{ROOT}.facts"
    data = _object(value, where)
    for key in data:
        if key in COMPUTED_FACTS:
            raise EngineeringInputError(f"{where}.{key}", f"not given here: {COMPUTED_FACTS[key]}")
    return MappingProxyType(dict(data))


def _cross_references(plan: ControlPlan) -> None:
    """Ids that one part of the plan uses must name a feature of the right kind."""
    basins = {f.id for f in plan.of_kind("sediment_basin") if f.id}
    for feature in plan.of_kind("basin_drainage"):
        if feature.properties["basin"] not in basins:
            raise EngineeringInputError(
                f"{feature.field}.properties.basin",
                f"no sediment_basin has the id {feature.properties['basin']!r}",
            )
    inlets = {f.id for f in plan.of_kind("storm_inlet")}
    for feature in plan.of_kind("inlet_protection"):
        inlet = feature.properties["inlet"]
        if inlet is not None and inlet not in inlets:
            raise EngineeringInputError(
                f"{feature.field}.properties.inlet", f"no storm_inlet has the id {inlet!r}"
            )
    for basin in plan.of_kind("sediment_basin"):
        drawn = [
            f
            for f in plan.of_kind("basin_drainage")
            if basin.id and f.properties["basin"] == basin.id
        ]
        given = basin.properties["drainage_area"] is not None
        if given and drawn:
            raise EngineeringInputError(
                f"{basin.field}.properties.drainage_area",
                f"give drainage_area or draw a basin_drainage polygon for {basin.label}, not both",
            )
        if not given and not drawn:
            raise EngineeringInputError(
                f"{basin.field}.properties.drainage_area",
                "give the area draining to the basin (drainage_area), or give the basin an id "
                "and draw a basin_drainage polygon with that basin id",
            )
    diversions = {f.id for f in plan.of_kind("diversion") if f.id}
    for entry in plan.sheet_flow:
        if entry.diverted_by is not None and entry.diverted_by not in diversions:
            raise EngineeringInputError(
                f"{entry.field}.diverted_by", f"no diversion has the id {entry.diverted_by!r}"
            )
    disturbed = {f.id for f in plan.of_kind("disturbed_area") if f.id}
    for area in plan.inactive_areas:
        if area.area is not None and area.area not in disturbed:
            raise EngineeringInputError(
                f"{area.field}.area", f"no disturbed_area has the id {area.area!r}"
            )


# -- small readers -----------------------------------------------------------------------


def _name(value: object) -> str:
    if value is None:
        return "null"
    return {dict: "an object", list: "a list", str: "text", bool: "true/false"}.get(
        type(value), type(value).__name__
    )


def _object(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise EngineeringInputError(where, f"expected an object, got {_name(value)}")
    return value


def _keys(data: Mapping[str, Any], where: str, spec: Mapping[str, bool]) -> None:
    for key in data:
        if key not in spec:
            raise EngineeringInputError(
                f"{where}.{key}", f"unknown field; expected one of {', '.join(spec)}"
            )
    for key, required in spec.items():
        if required and key not in data:
            raise EngineeringInputError(f"{where}.{key}", "is required")


def _text(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise EngineeringInputError(where, f"expected non-empty text, got {_name(value)}")
    return value.strip()


def _optional_text(value: object, where: str) -> str | None:
    return None if value is None else _text(value, where)


def _bool(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise EngineeringInputError(where, f"expected true or false, got {value!r}")
    return value


def _date(value: object, where: str) -> datetime.date:
    try:
        return read_date(value)
    except DateRefused as exc:
        raise EngineeringInputError(where, str(exc)) from None


def _coefficient(value: object, where: str) -> float:
    number = to_float(value, "1", field=where, positive=True)
    if number > 1:
        raise EngineeringInputError(where, f"a runoff coefficient is at most 1, got {number:g}")
    return number


def _list[T](
    value: object, where: str, read: Callable[[object, str], T], limit: int, things: str
) -> tuple[T, ...]:
    if not isinstance(value, list):
        raise EngineeringInputError(where, f"expected a list, got {_name(value)}")
    _at_most(len(value), limit, where, things)
    return tuple(read(item, f"{where}[{index}]") for index, item in enumerate(value))


# -- limits ------------------------------------------------------------------------------


def _at_most(count: int, limit: int, where: str, things: str) -> None:
    if count > limit:
        raise EngineeringInputError(where, f"at most {limit:,} {things}; got {count:,}")


def _site_within_limits(features: object, where: str) -> None:
    """The site's features, their kinds and their positions, counted before any is read
    (``parse_geojson`` then names anything malformed)."""
    if not isinstance(features, list):
        return
    _at_most(len(features), MAX_FEATURES, where, "features")
    properties = [f.get("properties") if isinstance(f, dict) else None for f in features]
    kinds = Counter(
        kind
        for kind in (p.get("kind") if isinstance(p, dict) else None for p in properties)
        if isinstance(kind, str)
    )
    for kind, limit in MAX_OF_KIND.items():
        _at_most(kinds[kind], limit, where, f"{kind} features")
    positions = 0
    for feature in features:
        if isinstance(feature, dict):
            positions += _positions(feature.get("geometry"))
    _at_most(positions, MAX_POSITIONS, where, "positions (vertices) in all the geometries")


def _positions(geometry: object, depth: int = 0) -> int:
    """The positions of a GeoJSON geometry as sent; what is not a position counts none."""
    if not isinstance(geometry, dict) or depth > _GEOMETRY_NESTING:
        return 0
    if geometry.get("type") == "GeometryCollection":
        parts = geometry.get("geometries")
        if not isinstance(parts, list):
            return 0
        return sum(_positions(part, depth + 1) for part in parts)
    return _count_positions(geometry.get("coordinates"), 0)


# Lists in coordinates (a MultiPolygon's: polygons, rings, positions) and geometry collections
# in one another, at most; anything deeper is not a position (parse_geojson refuses it).
_COORDINATE_NESTING = 4
_GEOMETRY_NESTING = 8


def _count_positions(value: object, depth: int) -> int:
    if not isinstance(value, list) or not value or depth >= _COORDINATE_NESTING:
        return 0
    if not isinstance(value[0], list):
        return 1  # [longitude, latitude]
    return sum(_count_positions(item, depth + 1) for item in value)


def _segments_within_limit(features: list[SiteFeature], where: str) -> None:
    overlaid = [f.geometry for f in features if f.kind in OVERLAID_KINDS]
    pairs = segment_pairs(overlaid, MAX_SEGMENT_PAIRS)
    if pairs > MAX_SEGMENT_PAIRS:
        raise GeometryError(
            where,
            f"at most {MAX_SEGMENT_PAIRS:,} pairs of segments that cross or nearly cross "
            f"(their extents overlap) among the {', '.join(OVERLAID_KINDS)} lines and "
            f"outlines; got more than {MAX_SEGMENT_PAIRS:,}: simplify the geometry",
        )


def _id_within_limit(value: object, where: str) -> None:
    if isinstance(value, str) and len(value) > MAX_ID_CHARS:
        raise EngineeringInputError(where, f"at most {MAX_ID_CHARS} characters; got {len(value):,}")


def _optional_id(value: object, where: str) -> str | None:
    text = _optional_text(value, where)
    _id_within_limit(text, where)
    return text
