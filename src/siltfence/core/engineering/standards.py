"""Technical standards a chapter incorporates by reference, as data the village fills.

New Glarus Ch. 135 puts no design number in the chapter itself:

    "All drainage facilities and practices required to comply with this chapter shall
    incorporate technical standards and design methods specified in the document 'Village of
    New Glarus Erosion Control and Stormwater Management Requirements,' ... Where not
    superseded by stricter requirements in [it], the following standards are also
    incorporated by reference: (1) ... WDNR Pub. WR-222, November 1993 Revision. (2) Other
    design guidance and technical standards ... under Subchapter V of Chapter NR 151 ...
    B. Other technical standards ... may be used, provided that the methods have been approved
    by the Village Administrator."  (§ 135-5)

``ordinances/<id>/standards.yaml`` lists those standards, each with its title, citation and a
``values`` mapping the village fills, one entry per design value (``VALUE_SPECS``) with the
place in the standard it came from. A design check that needs a value nobody has entered
reports it; it never falls back on a number from another village's chapter.

Precedence follows § 135-5A: the Village's own document first, then the standards it
incorporates "where not superseded", in file order, then standards approved under § 135-5B.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.engineering.storms import DesignStorm, design_storm
from siltfence.core.engineering.units import LABELS, to_float
from siltfence.core.errors import OrdinanceFileError

FILE_NAME = "standards.yaml"


@dataclass(frozen=True)
class ValueSpec:
    """A design value a check can take from a standard: its kind, unit and meaning."""

    name: str
    kind: str  # "quantity", "bool", "month-day" or "storms"
    meaning: str
    unit: str = "1"


VALUE_SPECS: Mapping[str, ValueSpec] = MappingProxyType(
    {
        spec.name: spec
        for spec in (
            ValueSpec(
                "dewatering_particle_size",
                "quantity",
                "the particle size that pumped water must be cleared of",
                "um",
            ),
            ValueSpec(
                "basin_area_at_one_time",
                "quantity",
                "the area disturbed at one time from which sedimentation basins are required",
                "acre",
            ),
            ValueSpec(
                "basin_surface_fraction",
                "quantity",
                "the least basin surface area, as a share of the area draining to it",
                "percent",
            ),
            ValueSpec("basin_depth", "quantity", "the least depth of a sedimentation basin", "ft"),
            ValueSpec(
                "basin_particle_size",
                "quantity",
                "the particle size a sedimentation basin must trap",
                "um",
            ),
            ValueSpec(
                "design_storms",
                "storms",
                "the design storms (duration, intensity, total depth) basins and sheet flow are "
                "checked against",
            ),
            ValueSpec(
                "sheet_flow_adjacent_area",
                "quantity",
                "the adjacent area above which sheet flow must be diverted or shown slow",
                "ft**2",
            ),
            ValueSpec(
                "sheet_flow_velocity",
                "quantity",
                "the sheet-flow velocity across disturbed ground below which no diversion is "
                "needed",
                "ft/s",
            ),
            ValueSpec(
                "perimeter_fences",
                "bool",
                "whether silt fence, straw bales or an equivalent must line the downslope and "
                "sideslope sides",
            ),
            ValueSpec(
                "stockpile_volume",
                "quantity",
                "the pile volume above which the stockpile rules apply",
                "yd**3",
            ),
            ValueSpec(
                "stockpile_setback",
                "quantity",
                "the least downslope drainage length from a pile to a roadway or channel",
                "ft",
            ),
            ValueSpec(
                "stockpile_days",
                "quantity",
                "the days after which a pile must be stabilized",
                "day",
            ),
            ValueSpec(
                "inactive_stabilization_days",
                "quantity",
                "the days of inactivity after which disturbed ground must be stabilized",
                "day",
            ),
            ValueSpec(
                "seeding_cutoff",
                "month-day",
                "the day of the year (MM-DD) before which seeding or sodding counts as "
                "stabilization; on it and after, it does not",
            ),
            ValueSpec(
                "tracking_pad_required",
                "bool",
                "whether a site needs a stone tracking pad at its access",
            ),
            ValueSpec("tracking_pad_length", "quantity", "the least tracking pad length", "ft"),
            ValueSpec("tracking_pad_width", "quantity", "the least tracking pad width", "ft"),
            ValueSpec(
                "inlet_protection_required",
                "bool",
                "whether every storm drain inlet must be protected",
            ),
        )
    }
)


@dataclass(frozen=True)
class StandardValue:
    """One value the village has entered from a standard."""

    name: str
    value: float | bool | str | tuple[DesignStorm, ...]
    unit: str
    reference: str  # where in the standard: chapter, table, page
    text: str | None
    standard: StandardRef

    @property
    def citation(self) -> str:
        """'WR-222, Sediment Basin standard, p. 4 (§ 135-5A(1))'."""
        return f"{self.standard.short}, {self.reference} ({self.standard.citation})"


@dataclass(frozen=True)
class StandardRef:
    """Which standard a value came from."""

    id: str
    title: str
    short: str
    citation: str


@dataclass(frozen=True)
class Standard:
    ref: StandardRef
    says: str
    note: str | None
    approved: datetime.date | None  # § 135-5B standards: the day the Administrator approved them
    values: Mapping[str, StandardValue]

    @property
    def id(self) -> str:
        return self.ref.id

    @property
    def title(self) -> str:
        return self.ref.title

    @property
    def citation(self) -> str:
        return self.ref.citation


@dataclass(frozen=True)
class Standards:
    """A jurisdiction's incorporated standards, in order of precedence."""

    jurisdiction: str
    file: str
    says: str
    standards: tuple[Standard, ...]

    def value(self, name: str) -> StandardValue | None:
        """The value in force under the precedence of the file, or None if nobody entered it."""
        if name not in VALUE_SPECS:
            raise KeyError(name)
        for standard in self.standards:
            if name in standard.values:
                return standard.values[name]
        return None

    def also_given(self, name: str) -> list[StandardValue]:
        """Values of ``name`` in standards of lower precedence than the one used."""
        found = [s.values[name] for s in self.standards if name in s.values]
        return found[1:]

    def missing_text(self, name: str) -> str:
        """'the Village has not entered <value> from <standard>' in words, with citations."""
        spec = VALUE_SPECS[name]
        if not self.standards:
            where = "any incorporated standard"
        else:
            first, *rest = self.standards
            where = f"the {first.title} ({first.citation})"
            if rest:
                where += ", nor from " + ", ".join(f"{s.ref.short} ({s.citation})" for s in rest)
        return f"the Village has not entered {name} ({spec.meaning}) from {where}"


def load_standards(folder: Path) -> Standards | None:
    """Read ``<folder>/standards.yaml``; None when the jurisdiction has no such file.

    Raises ``OrdinanceFileError`` naming the file and key for anything malformed.
    """
    path = folder / FILE_NAME
    if not path.is_file():
        return None
    from siltfence.core.ordinance.yamlfile import read_yaml

    display = f"{folder.name}/{FILE_NAME}"
    data = read_yaml(path, display)
    return parse_standards(data, jurisdiction=folder.name, file=display)


_TOP_KEYS = {"says", "standards"}
_STANDARD_KEYS = {
    "id",
    "title",
    "short",
    "citation",
    "says",
    "note",
    "approval_required",
    "approved",
    "values",
}
_VALUE_KEYS = {"value", "unit", "reference", "text"}


def parse_standards(data: object, *, jurisdiction: str, file: str) -> Standards:
    def bad(key: str, reason: str) -> OrdinanceFileError:
        return OrdinanceFileError(file, key, reason)

    if not isinstance(data, dict):
        raise bad("", "expected a mapping with 'says' and 'standards'")
    for key in data:
        if key not in _TOP_KEYS:
            raise bad(str(key), f"unknown key; expected one of {', '.join(sorted(_TOP_KEYS))}")
    says = _text(data.get("says"), "says", bad)
    items = data.get("standards")
    if not isinstance(items, list) or not items:
        raise bad("standards", "expected a non-empty list of standards")
    standards: list[Standard] = []
    seen: set[str] = set()
    for index, item in enumerate(items):
        where = f"standards[{index}]"
        if not isinstance(item, dict):
            raise bad(where, "expected a mapping")
        for key in item:
            if key not in _STANDARD_KEYS:
                raise bad(
                    f"{where}.{key}",
                    f"unknown key; expected one of {', '.join(sorted(_STANDARD_KEYS))}",
                )
        ident = _text(item.get("id"), f"{where}.id", bad)
        if ident in seen:
            raise bad(f"{where}.id", f"the id {ident!r} is used twice")
        seen.add(ident)
        citation = _text(item.get("citation"), f"{where}.citation", bad)
        if not citation.startswith("§ "):
            raise bad(
                f"{where}.citation",
                f"expected a citation of the chapter like '§ <chapter>-5A(1)', got {citation!r}",
            )
        approved_raw = item.get("approved")
        approved: datetime.date | None = None
        if approved_raw is not None:
            try:
                approved = datetime.date.fromisoformat(str(approved_raw))
            except ValueError:
                raise bad(
                    f"{where}.approved", f"expected a date YYYY-MM-DD, got {approved_raw!r}"
                ) from None
        approval_required = item.get("approval_required", False)
        if not isinstance(approval_required, bool):
            raise bad(
                f"{where}.approval_required", f"expected true or false, got {approval_required!r}"
            )
        note = item.get("note")
        if note is not None and not isinstance(note, str):
            raise bad(f"{where}.note", "expected text")
        ref = StandardRef(
            id=ident,
            title=_text(item.get("title"), f"{where}.title", bad),
            short=_text(item.get("short"), f"{where}.short", bad),
            citation=citation,
        )
        raw_values = item.get("values")
        if not isinstance(raw_values, dict):
            raise bad(f"{where}.values", "expected a mapping of value name to entry ({} if none)")
        values = {
            str(name): _value(str(name), entry, ref, f"{where}.values.{name}", bad)
            for name, entry in raw_values.items()
        }
        if values and approval_required and approved is None:
            raise bad(
                f"{where}.approved",
                "this standard may be used only once the village's authority has approved it: "
                "give the day of approval (YYYY-MM-DD) before entering its values",
            )
        standards.append(
            Standard(
                ref=ref,
                says=_text(item.get("says"), f"{where}.says", bad),
                note=note,
                approved=approved,
                values=MappingProxyType(values),
            )
        )
    return Standards(jurisdiction=jurisdiction, file=file, says=says, standards=tuple(standards))


def _text(value: object, key: str, bad: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise bad(key, f"expected non-empty text, got {value!r}")
    return value.strip()


def _value(name: str, entry: object, standard: StandardRef, key: str, bad: Any) -> StandardValue:
    spec = VALUE_SPECS.get(name)
    if spec is None:
        raise bad(key, f"unknown design value; expected one of {', '.join(VALUE_SPECS)}")
    if not isinstance(entry, dict):
        raise bad(key, "expected a mapping with value, reference and (for quantities) unit")
    for inner in entry:
        if inner not in _VALUE_KEYS:
            raise bad(
                f"{key}.{inner}", f"unknown key; expected one of {', '.join(sorted(_VALUE_KEYS))}"
            )
    reference = _text(entry.get("reference"), f"{key}.reference", bad)
    text = entry.get("text")
    if text is not None and not isinstance(text, str):
        raise bad(f"{key}.text", "expected the standard's words as text")
    raw = entry.get("value")
    parsed: float | bool | str | tuple[DesignStorm, ...]
    try:
        if spec.kind == "quantity":
            unit = entry.get("unit")
            if unit != spec.unit:
                raise bad(
                    f"{key}.unit",
                    f"expected {spec.unit!r} ({LABELS.get(spec.unit, spec.unit)}), got {unit!r}",
                )
            parsed = to_float(raw, spec.unit, field=f"{key}.value", positive=True)
        elif spec.kind == "bool":
            if not isinstance(raw, bool):
                raise bad(f"{key}.value", f"expected true or false, got {raw!r}")
            parsed = raw
        elif spec.kind == "month-day":
            text_value = str(raw)
            try:
                month, day = (int(part) for part in text_value.split("-"))
                datetime.date(2000, month, day)
            except ValueError:
                raise bad(f"{key}.value", f"expected MM-DD, got {raw!r}") from None
            parsed = f"{month:02d}-{day:02d}"
        else:
            if not isinstance(raw, list) or not raw:
                raise bad(f"{key}.value", "expected a list of {duration, intensity, total}")
            storms = []
            for i, storm in enumerate(raw):
                if not isinstance(storm, dict) or set(storm) != {"duration", "intensity", "total"}:
                    raise bad(
                        f"{key}.value[{i}]",
                        "expected {duration: h, intensity: in/h, total: in}",
                    )
                storms.append(design_storm(storm["duration"], storm["intensity"], storm["total"]))
            parsed = tuple(storms)
    except EngineeringInputError as exc:
        raise bad(f"{key}.value", exc.reason) from None
    return StandardValue(name, parsed, spec.unit, reference, text, standard)
