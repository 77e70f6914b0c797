"""Plain JSON views of an ordinance, shared by the CLI, the API and the web pages."""

from __future__ import annotations

from typing import Any

from siltfence.core.ordinance.model import Ordinance


def jurisdiction_summary(o: Ordinance) -> dict[str, Any]:
    return {
        "id": o.id,
        "name": o.name,
        "state": o.state,
        "county": o.county,
        "time_zone": o.time_zone,
        "chapter": o.chapter,
        "title": o.title,
        "adopted": o.adopted.isoformat(),
        "versions": [v.effective.isoformat() for v in o.versions],
        "authority": o.authority_title,
        "appeals_body": o.appeals_body["title"],
        "words": dict(o.words),
        "time_counting": {
            "rule": o.time_counting["rule"],
            "citation": o.time_counting["citation"],
            "stands_in": o.time_counting["stands_in"],
            "says": o.time_counting["says"],
        },
        "business_days": o.office_calendar["business_days"],
    }


def ordinance_detail(o: Ordinance) -> dict[str, Any]:
    return {
        **jurisdiction_summary(o),
        "history": o.history,
        "sections": [
            {
                "section": s.number,
                "citation": s.citation,
                "heading": s.heading,
                "reconstructed": s.reconstructed,
                "received": s.received,
                "text": s.text,
                "note": s.note,
            }
            for s in o.sections
        ],
        "parameters": {
            name: {
                "description": p.description,
                "unit": p.unit,
                "values": [
                    {
                        "effective": v.effective.isoformat(),
                        "value": v.value,
                        "citation": v.citation,
                        "text": v.text,
                    }
                    | ({"not_in_text": v.not_in_text} if v.not_in_text else {})
                    for v in p.values
                ],
            }
            for name, p in o.parameters.items()
        },
    }
