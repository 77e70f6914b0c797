"""The set of one-year design storms (§ 413-4, "SET OF ONE-YEAR DESIGN STORMS").

    "The following rain intensities and rain volumes or corresponding values specific to
    the community for the storm durations of 0.5, 1, 2, 3, 6, 12 and 24 hours that occur
    approximately one per year. The following are typical characteristics of these
    one-year storms for most of Wisconsin."

The text allows "corresponding values specific to the community", so every check takes the
storms as an argument; ``SPENCER_DESIGN_STORMS`` is the chapter's own table.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.engineering.units import to_float

DESIGN_STORMS_CITATION = "§ 413-4"


@dataclass(frozen=True)
class DesignStorm:
    duration_h: float
    intensity_in_per_h: float
    total_in: float

    @property
    def name(self) -> str:
        hours = f"{self.duration_h:g}"
        return f"{hours}-hour storm"


SPENCER_DESIGN_STORMS: tuple[DesignStorm, ...] = (
    DesignStorm(0.5, 1.8, 0.9),
    DesignStorm(1, 1.1, 1.1),
    DesignStorm(2, 0.7, 1.3),
    DesignStorm(3, 0.5, 1.5),
    DesignStorm(6, 0.3, 1.7),
    DesignStorm(12, 0.2, 2.0),
    DesignStorm(24, 0.1, 2.3),
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
