"""Fences or bales along every sideslope and downslope side (Spencer § 413-7B(5)(c)[3]).

    "filter fences, straw bales, or equivalent control measures shall be placed along all
    sideslope and downslope sides of the site. If a channel or area of concentrated runoff
    passes through the site, filter fences shall be placed along the channel edges"

The plan preparer marks the sideslope and downslope edges (and any channel edges) as lines;
the plan's fence and bale lines are drawn beside them. An edge counts as covered where a
fence runs within ``tolerance`` of it: fences sit a few feet off the edge, and plans drawn
at the required 1 in = 100 ft scale are not more exact than that. What remains of the edges
outside that band is the uncovered length.

Geometries are shapely lines in a projected coordinate system: EPSG:3071 (Wisconsin
Transverse Mercator, metres) by default, or feet with ``units="ft"``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

import shapely  # type: ignore[import-untyped]
from shapely.geometry.base import BaseGeometry  # type: ignore[import-untyped]

from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.engineering.provisions import UNSTATED, Provisions
from siltfence.core.engineering.result import CheckResult, Method, Outcome, Step, make_result
from siltfence.core.engineering.units import fmt, to_float
from siltfence.core.quantities import FT

CHECK = "fence-coverage"
DEFAULT_TOLERANCE_FT = 3.0  # about 1 m
# Pieces shorter than this are drawing noise where a fence end meets an edge at an angle.
_NOISE_FT = 0.01
# Fence lines cut more often than this where they cross are buffered as drawn (_band).
_CUTS_BUFFERED = 100


def _lines(geometries: Iterable[BaseGeometry], field: str) -> BaseGeometry:
    parts = _parts(geometries, field)
    return shapely.union_all(parts) if parts else shapely.LineString()


def _parts(geometries: Iterable[BaseGeometry], field: str) -> list[BaseGeometry]:
    parts: list[BaseGeometry] = []
    for index, geometry in enumerate(geometries):
        if not isinstance(geometry, BaseGeometry):
            raise EngineeringInputError(
                f"{field}[{index}]", f"expected a shapely line, got {type(geometry).__name__}"
            )
        if geometry.geom_type not in {"LineString", "MultiLineString", "LinearRing"}:
            raise EngineeringInputError(
                f"{field}[{index}]",
                f"expected a LineString or MultiLineString, got {geometry.geom_type}",
            )
        if geometry.is_empty:
            raise EngineeringInputError(f"{field}[{index}]", "the line is empty")
        parts.append(geometry)
    return parts


def _band(fences: list[BaseGeometry], band: float) -> BaseGeometry:
    """The ground within ``band`` of the fence lines: the buffer of their union.

    The union cuts the lines where they cross one another, and buffering many short pieces
    costs a round end each (two fences drawn across each other as sawteeth, a hundred
    positions: seconds). Past ``_CUTS_BUFFERED`` cuts the lines as drawn are buffered
    instead: the same ground, its round joins drawn a little differently (to about 1e-5 of
    the uncovered length).
    """
    union = shapely.union_all(fences)
    drawn = list(shapely.get_parts(fences))
    if shapely.get_num_geometries(union) <= len(drawn) + _CUTS_BUFFERED:
        return shapely.buffer(union, band)
    return shapely.buffer(shapely.MultiLineString(drawn), band)


def uncovered_edges(
    edges: Iterable[BaseGeometry],
    fences: Iterable[BaseGeometry],
    *,
    tolerance: object = DEFAULT_TOLERANCE_FT,
    units: Literal["m", "ft"] = "m",
) -> list[BaseGeometry]:
    """The parts of ``edges`` farther than ``tolerance`` (ft, or a quantity) from any fence."""
    if units not in ("m", "ft"):
        raise EngineeringInputError("units", f"expected 'm' (EPSG:3071) or 'ft', got {units!r}")
    band_ft = to_float(tolerance, "ft", field="tolerance")
    band = band_ft * FT if units == "m" else band_ft
    per_ft = FT if units == "m" else 1.0
    edge_lines = _lines(edges, "edges")
    fence_parts = _parts(fences, "fences")
    rest = edge_lines.difference(_band(fence_parts, band)) if fence_parts else edge_lines
    pieces = list(shapely.get_parts(shapely.line_merge(rest) if not rest.is_empty else rest))
    return [piece for piece in pieces if piece.length / per_ft > _NOISE_FT]


def check_fence_coverage(
    *,
    edges: Iterable[BaseGeometry],
    fences: Iterable[BaseGeometry],
    tolerance: object = DEFAULT_TOLERANCE_FT,
    units: Literal["m", "ft"] = "m",
    provisions: Provisions = UNSTATED,
) -> CheckResult:
    """Are the marked sideslope, downslope and channel edges all lined with fences or bales?"""
    cite = provisions.cite(CHECK)
    edge_list = list(edges)
    fence_list = list(fences)
    if not edge_list:
        raise EngineeringInputError(
            "edges", "mark at least one sideslope or downslope edge of the site"
        )
    per_ft = FT if units == "m" else 1.0
    gaps = uncovered_edges(edge_list, fence_list, tolerance=tolerance, units=units)
    band_ft = to_float(tolerance, "ft", field="tolerance")
    total_ft = _lines(edge_list, "edges").length / per_ft
    fence_ft = _lines(fence_list, "fences").length / per_ft
    gap_ft = sum(piece.length for piece in gaps) / per_ft
    inputs = {
        "edges": f"{len(edge_list)} lines, {fmt(total_ft, 'ft')}",
        "fences": f"{len(fence_list)} lines, {fmt(fence_ft, 'ft')}",
        "tolerance": fmt(band_ft, "ft"),
        "units": "EPSG:3071 metres" if units == "m" else "feet",
    }
    steps = [
        Step.of("length of marked edges", "sum of edge lengths", total_ft, "ft"),
        Step.of("length of fence and bale lines", "sum of fence lengths", fence_ft, "ft"),
        Step.of(
            "uncovered edge length", "edges minus (fences buffered by the tolerance)", gap_ft, "ft"
        ),
        Step.of("uncovered share", "uncovered / edges x 100", gap_ft / total_ft * 100, "percent"),
        Step.of("uncovered stretches", "count of pieces", len(gaps)),
    ]
    method = Method(
        name="Edge coverage by buffered fence lines",
        formula="uncovered = edges - buffer(fences, tolerance)",
    )
    notes = [
        "The edges are the ones the plan preparer marked as sideslope, downslope or channel "
        "edges; which sides face downslope is not worked out from terrain here.",
    ]
    covered = not gaps
    return make_result(
        id="fence-coverage",
        title="Fences or bales along sideslope and downslope sides",
        citation=cite,
        inputs=inputs,
        method=method,
        steps=steps,
        result=Outcome.PASS if covered else Outcome.FAIL,
        says=(
            f"Fences or bales line all {fmt(total_ft, 'ft')} of the marked edges ({cite})."
            if covered
            else f"{fmt(gap_ft, 'ft')} of the {fmt(total_ft, 'ft')} of marked edges has no "
            f"fence or bales, in {len(gaps)} stretch{'es' if len(gaps) != 1 else ''} ({cite})."
        ),
        fix=None
        if covered
        else (
            "Extend filter fences, straw bales or an equivalent measure along the uncovered "
            f"stretches ({cite})."
        ),
        notes=notes,
    )
