"""The facts of a project, as the public contract (DESIGN.md, "Facts") defines them.

``parse_facts`` turns the JSON an applicant or a tool sends into a ``Facts`` value: every
quantity as a float in its default unit, every flag a bool, every choice checked. An
unknown key, a wrong type or a unit that does not fit is a ``FactsError`` naming the key;
nothing is ever ignored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from siltfence.core.errors import FactsError
from siltfence.core.quantities import UnitMismatch, to_unit

TYPE_CHECKING = False  # typing is not imported at run time: see siltfence/core/__init__.py
if TYPE_CHECKING:
    from typing import Any


@dataclass(frozen=True)
class FactSpec:
    key: str
    kind: str  # "quantity", "bool" or "choice"
    meaning: str
    unit: str | None = None
    choices: tuple[str, ...] = ()
    default: object = None
    label: str = ""  # how a quantity reads after its number: "5,000 sq ft disturbed"


FACTS: Mapping[str, FactSpec] = MappingProxyType(
    {
        spec.key: spec
        for spec in (
            FactSpec(
                "disturbed_area",
                "quantity",
                "land surface disturbed: grading, cover or vegetation removal, excavation, filling",
                unit="ft**2",
                label="disturbed",
            ),
            FactSpec(
                "excavation_fill_volume",
                "quantity",
                "excavation plus fill",
                unit="yd**3",
                label="of excavation and fill",
            ),
            FactSpec(
                "underground_pipe_length",
                "quantity",
                "underground pipe or facility laid, repaired, replaced or enlarged",
                unit="ft",
                label="of underground pipe or facility",
            ),
            FactSpec(
                "channel_length_disturbed",
                "quantity",
                "road ditch, grassed waterway or other open channel disturbed, incl. pipes "
                "and utilities in its cross section",
                unit="ft",
                label="of open channel disturbed",
            ),
            FactSpec(
                "subdivision_plat",
                "bool",
                "needs subdivision plat approval, or puts buildings on a lot of an approved plat",
                default=False,
            ),
            FactSpec(
                "certified_survey",
                "bool",
                "needs certified survey map approval, or builds on a lot of an approved one",
                default=False,
            ),
            FactSpec(
                "road_work",
                "bool",
                "street, highway, road or bridge construction, enlargement, relocation or "
                "reconstruction",
                default=False,
            ),
            FactSpec(
                "activity_kind",
                "choice",
                "what kind of work disturbs the land",
                choices=(
                    "construction",
                    "agricultural",
                    "gardening",
                    "tree_harvesting",
                    "landscaping",
                ),
                default="construction",
            ),
            FactSpec(
                "routine_maintenance",
                "bool",
                "keeps the original line and grade, hydraulic capacity or purpose of a facility",
                default=False,
            ),
            FactSpec("state_funded", "bool", "funded or conducted by the state", default=False),
            FactSpec(
                "state_agency",
                "bool",
                "conducted by a state agency (§ 227.01(1) Wis. Stats.)",
                default=False,
            ),
            FactSpec(
                "federal_npdes_exempt",
                "bool",
                "exempted by federal law from an NPDES construction permit",
                default=False,
            ),
            FactSpec(
                "designated_by_authority",
                "bool",
                "the administering authority finds the site needs control regardless of size",
                default=False,
            ),
            FactSpec(
                "location",
                "choice",
                "relative to the village's jurisdiction",
                choices=("inside", "extraterritorial", "outside"),
                default="inside",
            ),
            FactSpec(
                "land_use",
                "choice",
                "the land use after construction",
                choices=(
                    "residential",
                    "commercial",
                    "industrial",
                    "institutional",
                    "agricultural",
                    "other",
                ),
            ),
            FactSpec(
                "runoff_leaves_site",
                "bool",
                "runoff from the work leaves the site",
                default=True,
            ),
            FactSpec(
                "area_disturbed_at_one_time",
                "quantity",
                "the largest area disturbed at one time (for basins or fences)",
                unit="ft**2",
                label="disturbed at one time",
            ),
            FactSpec(
                "channel_originates_on_site",
                "bool",
                "a channel originates in the disturbed area",
                default=False,
            ),
            FactSpec(
                "part_of_common_plan",
                "bool",
                "the site is part of a larger common plan of development or sale, where "
                "separate land-disturbing activities may run at different times under one plan",
                default=False,
            ),
            FactSpec(
                "common_plan_disturbed_area",
                "quantity",
                "land surface disturbed by the whole common plan of development or sale",
                unit="ft**2",
                label="disturbed by the whole common plan",
            ),
        )
    }
)


@dataclass(frozen=True)
class Facts:
    """Checked facts. ``given`` holds what the user said; ``value`` fills in defaults."""

    given: Mapping[str, Any]

    def value(self, key: str) -> Any:
        if key in self.given:
            return self.given[key]
        if key == "area_disturbed_at_one_time" and "disturbed_area" in self.given:
            # Not stated: assume the whole disturbed area may be open at once, the
            # reading that never lets a site escape the basin requirement.
            return self.given["disturbed_area"]
        spec = FACTS[key]
        if spec.kind == "quantity":
            return 0.0
        return spec.default

    def is_given(self, key: str) -> bool:
        return key in self.given

    def as_json(self) -> dict[str, Any]:
        return dict(self.given)


def parse_facts(raw: object) -> Facts:
    """Check and normalise facts sent by a person or a tool; see the module docstring."""
    if not isinstance(raw, Mapping):
        raise FactsError("(all)", f"expected an object of facts, got {type(raw).__name__}")
    given: dict[str, Any] = {}
    for key, value in raw.items():
        if not isinstance(key, str) or key not in FACTS:
            raise FactsError(str(key), f"unknown fact; known facts are {', '.join(sorted(FACTS))}")
        if value is None:
            continue  # "not known" is the same as not given
        spec = FACTS[key]
        given[key] = _parse_one(spec, value)
    return Facts(MappingProxyType(given))


def _parse_one(spec: FactSpec, value: object) -> Any:
    if spec.kind == "bool":
        if not isinstance(value, bool):
            raise FactsError(spec.key, f"expected true or false, got {value!r}")
        return value
    if spec.kind == "choice":
        if value not in spec.choices:
            raise FactsError(spec.key, f"expected one of {', '.join(spec.choices)}; got {value!r}")
        return value
    assert spec.unit is not None
    try:
        return to_unit(value, spec.unit)
    except UnitMismatch as exc:
        raise FactsError(spec.key, str(exc)) from None
