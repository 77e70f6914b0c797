"""API schemas: the public contract v1 shapes (DESIGN.md), for validation and OpenAPI."""

from __future__ import annotations

from typing import Any

from ninja import Schema
from pydantic import ConfigDict, Field


class Strict(Schema):
    model_config = ConfigDict(extra="forbid")


class DeterminationIn(Strict):
    jurisdiction: str = Field(description="Jurisdiction id, e.g. spencer-wi or new-glarus-wi")
    on: str | None = Field(
        default=None, description="Evaluation date YYYY-MM-DD; default: today in the village"
    )
    facts: dict[str, Any] = Field(
        default_factory=dict,
        description='Project facts; quantities as numbers in the default unit or "1.2 acre"',
    )


class FindingOut(Schema):
    id: str
    holds: bool
    citation: str
    says: str
    kind: str


class PlanItemOut(Schema):
    item: str
    citation: str


class PlanOut(Schema):
    kind: str
    citation: str
    says: str
    contents: list[PlanItemOut]


class RequirementOut(Schema):
    id: str
    citation: str
    says: str
    because: str | None = None


class NoteOut(Schema):
    id: str
    says: str
    citations: list[str]
    gap: int | None = None


class OrdinanceRefOut(Schema):
    title: str
    version: str
    chapter: str


class DeterminationOut(Schema):
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


class TimeCountingOut(Schema):
    rule: str
    citation: str
    stands_in: bool
    says: str


class JurisdictionOut(Schema):
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


class ErrorOut(Schema):
    detail: str = Field(description="One sentence naming the field, as the CLI prints it")
    field: str | None = None
