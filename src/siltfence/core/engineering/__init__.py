"""Engineering design checks of a control plan (DESIGN.md capability 3).

Pure functions: no Django, no clock. Each check takes numbers in a documented default unit
(or pint Quantities, or strings with a unit), takes every threshold as a required parameter
(no village's number is written here: the thresholds live in ``ordinances/<id>/``), takes the
design storms and the ``Provisions`` it cites from the village's data, and returns a
``CheckResult`` that shows its inputs, method, steps, result and the provision it applies.

Heavy libraries load on first use: ``fluids`` (scipy) when a settling velocity or sheet
flow is computed, pint only when a pint Quantity arrives (text with a unit is read by
``siltfence.core.quantities``, without pint). shapely and pyproj load with
the geometry-based modules (``geometry``, ``fence_coverage``, ``stockpiles``), which are
imported from here by name only when used.
"""

from __future__ import annotations

from siltfence.core.engineering.dewatering import (
    NOTE_EXAMPLES,
    check_dewatering,
    required_settling_area,
    round_device_area,
    round_device_diameter,
)
from siltfence.core.engineering.errors import EngineeringInputError, GeometryError
from siltfence.core.engineering.inlet_protection import check_inlet_protection
from siltfence.core.engineering.measure_selection import (
    MeasureChoice,
    SedimentMeasure,
    check_sediment_measure,
    required_sediment_measure,
)
from siltfence.core.engineering.provisions import Provisions
from siltfence.core.engineering.result import CheckResult, Method, Outcome, Step
from siltfence.core.engineering.sediment_basin import check_sediment_basin
from siltfence.core.engineering.settling import Settling, settling_velocity
from siltfence.core.engineering.sheet_flow import (
    TR55_SHEET_FLOW_N,
    check_sheet_flow,
    length_at_velocity,
    sheet_flow,
)
from siltfence.core.engineering.stabilization import (
    StabilizationMethod,
    check_stabilization,
    seeding_available,
)
from siltfence.core.engineering.storms import DesignStorm, design_storm, storms_of
from siltfence.core.engineering.tracking import check_tracking
from siltfence.core.engineering.water import WaterProperties, water_properties

__all__ = [
    "NOTE_EXAMPLES",
    "TR55_SHEET_FLOW_N",
    "CheckResult",
    "DesignStorm",
    "EngineeringInputError",
    "GeometryError",
    "MeasureChoice",
    "Method",
    "Outcome",
    "Provisions",
    "SedimentMeasure",
    "Settling",
    "StabilizationMethod",
    "Step",
    "WaterProperties",
    "check_dewatering",
    "check_inlet_protection",
    "check_sediment_basin",
    "check_sediment_measure",
    "check_sheet_flow",
    "check_stabilization",
    "check_tracking",
    "design_storm",
    "length_at_velocity",
    "required_sediment_measure",
    "required_settling_area",
    "round_device_area",
    "round_device_diameter",
    "seeding_available",
    "settling_velocity",
    "sheet_flow",
    "storms_of",
    "water_properties",
]
