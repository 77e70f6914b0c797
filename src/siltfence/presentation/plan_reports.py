"""A control plan's design-check report as the pages show it: the plan's JSON read and
checked to be an object, and each citation of the report linked to its section's words.

The design-check page (web) and an application's control plan page (plans) both show the
report; its PDF is ``design_pdf``.
"""

from __future__ import annotations

from typing import Any

from siltfence.core.errors import SiltfenceError
from siltfence.core.jsonread import read_json
from siltfence.core.ordinance.loader import load
from siltfence.presentation.sections import citation_href

# Plans are text: a large site's GeoJSON runs to a few hundred kB. The same bound as the
# settings' FILE_UPLOAD_MAX_MEMORY_SIZE, so an upload is never spooled to disk.
MAX_PLAN_BYTES = 5 * 1024 * 1024
TOO_LARGE = "plan: the plan is larger than 5 MB"


def parse_plan_json(text: str) -> Any:
    """JSON, checked to be an object: the actual type, whatever the file claims. Read by
    the core's bounded reader: size and nesting are checked before anything is parsed."""
    data = read_json(text, what="plan", max_bytes=MAX_PLAN_BYTES)
    if not isinstance(data, dict):
        raise SiltfenceError("plan: expected a JSON object (docs/plan-format.md)", field="plan")
    return data


def linked_report(report: dict[str, Any]) -> dict[str, Any]:
    """Each citation with the link to the words of its section, where the chapter holds it."""
    ordinance = load(report["jurisdiction"])

    def cites(text: str) -> list[dict[str, Any]]:
        return [
            {"text": part, "href": citation_href(ordinance, part) if part.startswith("§") else None}
            for part in (p.strip() for p in text.split(";"))
            if part
        ]

    for check in report["checks"]:
        check["cites"] = cites(check["citation"])
    site = report["site"]["measured"]
    site["cites"] = cites(site["citation"])
    for item in report["checklist"]["items"]:
        item["cites"] = cites(item["citation"])
    report["needs_action"] = report["summary"]["needs-action"]
    if report["checklist"]["citation"]:
        report["checklist"]["cites"] = cites(report["checklist"]["citation"])
    return report
