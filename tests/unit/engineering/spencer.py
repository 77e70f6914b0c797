"""Spencer's design provisions, design storms and design values, read from its ordinance data.

The checks hold no village's citations, storms or thresholds: the design review passes them
from the village's data. A test that calls a check as the review does for Spencer takes them
here, so a change to ``ordinances/spencer-wi`` reaches the tests and no number comes from a
default in ``src/``.

The values are read exactly as the design review reads them (``values.Values``, the chapter's
stated rules first, then ``parameters.yaml`` on the evaluation date, then the standards it
incorporates), and handed to each check under the keyword ``checks.design_checks`` uses.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from siltfence.core.engineering.standards import load_standards
from siltfence.core.engineering.storms import storms_of
from siltfence.core.engineering.values import Values, chapter_provisions
from siltfence.core.ordinance.loader import load

SPENCER = load("spencer-wi")
PROVISIONS = chapter_provisions(SPENCER)
STORMS = storms_of(SPENCER.rules["design_storms"])

# The day the values are read for: any day the chapter's current numbers are in force.
ON = datetime.date(2026, 6, 1)
VALUES = Values(SPENCER, ON, load_standards(SPENCER.folder))


def design_value(name: str) -> Any:
    """The value of ``name`` (a ``standards.VALUE_SPECS`` key) as the design review reads it."""
    found = VALUES.get(name)
    if found is None:
        raise LookupError(f"spencer-wi gives no {name} on {ON.isoformat()}")
    return found.value


def _kwargs(**names: str) -> Mapping[str, Any]:
    """Check keyword -> the value of the data name ``checks.design_checks`` passes for it."""
    return MappingProxyType({keyword: design_value(name) for keyword, name in names.items()})


# The thresholds of each check, as ``checks.design_checks`` passes them: ``**STOCKPILE`` etc.
DEWATERING = _kwargs(particle_size="dewatering_particle_size")
MEASURE = _kwargs(basin_area_at_one_time="basin_area_at_one_time")
BASIN = _kwargs(
    particle_size="basin_particle_size",
    surface_percent="basin_surface_fraction",
    min_depth="basin_depth",
)
SHEET_FLOW = _kwargs(
    adjacent_area_limit="sheet_flow_adjacent_area", velocity_limit="sheet_flow_velocity"
)
STOCKPILE = _kwargs(
    stockpile_volume="stockpile_volume",
    stockpile_setback="stockpile_setback",
    stockpile_days="stockpile_days",
)
# checks.design_checks passes int(inactive_stabilization_days).
STABILIZATION = MappingProxyType(
    {
        "inactive_days": int(design_value("inactive_stabilization_days")),
        "seeding_cutoff": design_value("seeding_cutoff"),
    }
)
