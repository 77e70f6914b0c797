"""Helpers for the timeline tests: run the engine and pick duties out of its answer."""

from __future__ import annotations

import datetime
from typing import Any

from siltfence.core.timeline import compute


def run(
    jurisdiction: str,
    events: list[dict[str, Any]],
    as_of: str | None = None,
    closures: set[str] | None = None,
) -> dict[str, Any]:
    when = None if as_of is None else datetime.datetime.fromisoformat(as_of)
    office = (
        None if closures is None else frozenset(datetime.date.fromisoformat(d) for d in closures)
    )
    return compute(jurisdiction, events, when, office).to_json()


def duties(result: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [d for d in result["duties"] if d["kind"] == kind]


def one(result: dict[str, Any], kind: str) -> dict[str, Any]:
    found = duties(result, kind)
    assert len(found) == 1, found
    return found[0]


def actions(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {a["action"]: a for a in result["allowed_actions"]}


def notes(result: dict[str, Any]) -> set[str]:
    return {n["id"] for n in result["notes"]}


def ev(type: str, at: str, **fields: Any) -> dict[str, Any]:
    return {"type": type, "at": at, **fields}
