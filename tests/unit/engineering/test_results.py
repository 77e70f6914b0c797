"""Every check's result is complete, cited and JSON-safe; the package stays pure."""

import ast
import datetime
import json
import pathlib

import pytest
from shapely import LineString

import siltfence.core.engineering as engineering
from siltfence.core.engineering import (
    check_dewatering,
    check_inlet_protection,
    check_sediment_basin,
    check_sediment_measure,
    check_sheet_flow,
    check_stabilization,
    check_tracking,
)
from siltfence.core.engineering.fence_coverage import check_fence_coverage
from siltfence.core.engineering.stockpiles import check_stockpile

from .spencer import (
    BASIN,
    DEWATERING,
    MEASURE,
    PROVISIONS,
    SHEET_FLOW,
    STABILIZATION,
    STOCKPILE,
    STORMS,
)

# Each check as the design review runs it for Spencer, with the provisions of its data.
CHECKS = [
    lambda: check_dewatering(
        **DEWATERING, highest_pumping_rate=100, device_diameter=3, provisions=PROVISIONS
    ),
    lambda: check_sediment_basin(
        **BASIN,
        storms=STORMS,
        drainage_area=500_000,
        basin_surface_area=5_000,
        basin_depth=3,
        provisions=PROVISIONS,
    ),
    lambda: check_sheet_flow(
        **SHEET_FLOW,
        storms=STORMS,
        adjacent_area=20_000,
        flow_length=280,
        slope=0.05,
        provisions=PROVISIONS,
    ),
    lambda: check_fence_coverage(
        edges=[LineString([(0, 0), (10, 0)])],
        fences=[LineString([(0, 0.2), (5, 0.2)])],
        provisions=PROVISIONS,
    ),
    lambda: check_stockpile(
        **STOCKPILE, volume=40, days_in_place=9, downslope_drainage_length=10, provisions=PROVISIONS
    ),
    lambda: check_stabilization(
        **STABILIZATION,
        inactive_from=datetime.date(2026, 9, 10),
        inactive_until=datetime.date(2026, 9, 30),
        provisions=PROVISIONS,
    ),
    lambda: check_tracking(land_use="commercial", graveled_access=False, provisions=PROVISIONS),
    lambda: check_inlet_protection(inlets=["A"], protected=[], provisions=PROVISIONS),
]


@pytest.mark.parametrize("make", CHECKS)
def test_a_failing_check_shows_inputs_method_steps_citation_and_a_fix(make):
    result = make()
    assert result.result.value == "fail"
    assert result.citation.startswith("§ 413-7B")
    assert result.inputs and result.steps and result.method.formula
    assert result.fix and result.citation in result.fix
    assert result.says.endswith(".") and result.citation in result.says


@pytest.mark.parametrize(
    "make", [*CHECKS, lambda: check_sediment_measure(**MEASURE, area_disturbed_at_one_time=435_600)]
)
def test_a_result_round_trips_through_strict_json(make):
    data = make().to_dict()
    text = json.dumps(data, allow_nan=False)
    assert json.loads(text) == data
    assert set(data) == {
        "id",
        "title",
        "citation",
        "inputs",
        "method",
        "steps",
        "result",
        "says",
        "fix",
        "notes",
    }


def test_a_result_cannot_be_changed():
    result = CHECKS[0]()
    with pytest.raises(AttributeError):
        result.result = "pass"  # type: ignore[misc]
    with pytest.raises(TypeError):
        result.inputs["highest_pumping_rate"] = "0"  # type: ignore[index]


def test_the_engineering_package_never_imports_django_or_reads_the_clock():
    root = pathlib.Path(engineering.__file__).parent
    for path in root.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                assert not any(n.startswith("django") for n in names), path.name
            if isinstance(node, ast.Attribute) and node.attr in {"today", "now", "utcnow"}:
                raise AssertionError(f"{path.name} reads the clock ({node.attr})")
