"""The set of one-year design storms.

Spencer § 413-4, "SET OF ONE-YEAR DESIGN STORMS":

    "The following rain intensities and rain volumes or corresponding values specific to
    the community for the storm durations of 0.5, 1, 2, 3, 6, 12 and 24 hours that occur
    approximately one per year. The following are typical characteristics of these
    one-year storms for most of Wisconsin."

The text allows "corresponding values specific to the community", so every check takes the
storms as an argument. A chapter's own table is data (``design_storms`` in its
``rules.yaml``, read by ``storms_of``); a village whose chapter states none enters them
from the standards it incorporates.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.engineering.units import to_float


@dataclass(frozen=True)
class DesignStorm:
    duration_h: float
    intensity_in_per_h: float
    total_in: float

    @property
    def name(self) -> str:
        hours = f"{self.duration_h:g}"
        return f"{hours}-hour storm"


def storms_of(table: Mapping[str, Any]) -> tuple[DesignStorm, ...]:
    """The storms of a chapter's ``design_storms`` table (``rules.yaml``), in its order."""
    return tuple(
        DesignStorm(
            float(row["duration_hours"]),
            float(row["intensity_in_per_hour"]),
            float(row["total_inches"]),
        )
        for row in table["storms"]
    )


def design_storm(duration: object, intensity: object, total: object) -> DesignStorm:
    """One storm from numbers (h, in/h, in) or quantities ("30 min", "46 mm/h", "23 mm")."""
    return DesignStorm(
        duration_h=to_float(duration, "hour", field="storm.duration", positive=True),
        intensity_in_per_h=to_float(intensity, "in/h", field="storm.intensity", positive=True),
        total_in=to_float(total, "inch", field="storm.total", positive=True),
    )


def checked_storms(storms: Iterable[DesignStorm], field: str = "storms") -> tuple[DesignStorm, ...]:
    result = tuple(storms)
    if not result:
        raise EngineeringInputError(field, "at least one design storm is needed")
    for index, storm in enumerate(result):
        if not isinstance(storm, DesignStorm):
            raise EngineeringInputError(
                f"{field}[{index}]", f"expected a DesignStorm, got {type(storm).__name__}"
            )
    return result
