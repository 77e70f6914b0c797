"""API schemas: the public contract v1 shapes (DESIGN.md), for validation and OpenAPI."""

from __future__ import annotations

from typing import Any, Literal

from ninja import Schema
from pydantic import BaseModel, ConfigDict, Field


class Strict(Schema):
    model_config = ConfigDict(extra="forbid")


class DeterminationIn(Strict):
    jurisdiction: str = Field(description="Jurisdiction id (GET /api/v1/jurisdictions lists them)")
    on: str | None = Field(
        default=None, description="Evaluation date YYYY-MM-DD; default: today in the village"
    )
    facts: dict[str, Any] = Field(
        default_factory=dict,
        description='Project facts; quantities as numbers in the default unit or "1.2 acre"',
    )


class Out(BaseModel):
    """An output shape: a plain pydantic model. The answers are dicts the core built, so
    ninja's ``Schema``, which reads each nested object through a getter made for ORM
    objects, only added its cost: a fifth of a determination's time in the server. The
    answer and the OpenAPI document are the same either way."""


class FindingOut(Out):
    id: str
    holds: bool
    citation: str
    says: str
    kind: str


class PlanItemOut(Out):
    item: str
    citation: str


class PlanOut(Out):
    kind: str
    citation: str
    says: str
    contents: list[PlanItemOut]


class RequirementOut(Out):
    id: str
    citation: str
    says: str
    because: str | None = None
    # "permit": attaches because a permit is required; "every_site": binds every
    # construction site in the territory, with or without a permit.
    scope: Literal["permit", "every_site"] = "permit"
    responsible: str | None = None


class NoteOut(Out):
    id: str
    says: str
    citations: list[str]
    gap: int | None = None


class OrdinanceRefOut(Out):
    title: str
    version: str
    chapter: str


class DeterminationOut(Out):
    jurisdiction: str
    ordinance: OrdinanceRefOut
    evaluated_on: str
    applies: bool
    authority: str
    facts: dict[str, Any]
    findings: list[FindingOut]
    plan: PlanOut | None
    requirements: list[RequirementOut]
    notes: list[NoteOut]


class TimeCountingOut(Out):
    rule: str
    citation: str
    stands_in: bool
    says: str


class JurisdictionOut(Out):
    id: str
    name: str
    state: str
    county: str
    time_zone: str
    chapter: str
    title: str
    adopted: str
    versions: list[str]
    authority: str
    appeals_body: str
    words: dict[str, str]
    time_counting: TimeCountingOut
    business_days: bool


class ErrorOut(Out):
    detail: str = Field(description="One sentence naming the field, as the CLI prints it")
    field: str | None = None


# -- the timeline (events in, duties out) ------------------------------------------------


# A rain file in a request body: a century of the daily CSV is 2 MB, and the whole body
# is bounded at 5 MiB by the JSON reader.
RAIN_TEXT_MAX = 4_000_000


class DutiesIn(Strict):
    jurisdiction: str = Field(description="Jurisdiction id (GET /api/v1/jurisdictions lists them)")
    events: Any = Field(
        description=(
            'A permit\'s events, each {"type", "at": ISO 8601 date or datetime, ...fields}, '
            "in any order"
        ),
        json_schema_extra={"type": "array", "items": {"type": "object"}},
    )
    as_of: str | None = Field(
        default=None,
        description="Judge the duties at this ISO 8601 date or datetime; default: now there",
    )
    office_closures: list[Any] | None = Field(
        default=None,
        description=(
            "Office closure days YYYY-MM-DD replacing the configured ones (the legal holidays) "
            "for business-day clocks; [] means weekends only"
        ),
    )
    rain: str | None = Field(
        default=None,
        max_length=RAIN_TEXT_MAX,
        description=(
            f"A rain file's text (any layout siltfence rain storms reads, at most "
            f"{RAIN_TEXT_MAX:,} characters): its wet days within the record's span join the events"
        ),
    )
    station: str | None = Field(default=None, description="Station ID of the rain file to use")
    site: str | None = Field(
        default=None, description="The site as LAT,LON: the distance to the station is shown"
    )
    units: str | None = Field(
        default=None,
        description='Units of a Climate Data Online rain file that cannot tell: "inch" or "mm"',
    )


class Open(BaseModel):
    """An output shape that keeps the additive fields the core adds (a plain pydantic model:
    ninja's ``Schema`` reads attributes and would drop them)."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)


class CountingOut(Open):
    rule: str
    citation: str
    says: str


class EventRefOut(Open):
    type: str
    at: str
    index: int


class DutyOut(Open):
    kind: str
    party: str
    due: str = Field(description="A date (inclusive last day) or a local datetime with offset")
    status: str = Field(description="open, met or overdue as of as_of")
    citation: str
    because: str
    met_by: EventRefOut | None = None
    late: bool | None = None
    counting: CountingOut | None = None
    moved: str | None = None


class PermitOut(Open):
    expires: str
    issued: str
    citation: str


class AllowedActionOut(Open):
    action: str
    from_: str = Field(alias="from")
    citation: str


class ForfeitureOut(Open):
    days: int
    min: int | float | None
    max: int | float | None
    # null where the amount lives outside the chapter and is not in hand.
    plus_costs: bool | None
    citation: str


class TimelineNoteOut(Open):
    id: str
    says: str
    citations: list[str]
    gap: int | None = None


class DutiesOut(Open):
    permit: PermitOut | None
    duties: list[DutyOut]
    allowed_actions: list[AllowedActionOut]
    forfeiture: ForfeitureOut | None
    notes: list[TimelineNoteOut]
