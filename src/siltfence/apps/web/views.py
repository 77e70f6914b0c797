"""Public pages: "Do I need a permit?", and each chapter's verbatim sections.

Views stay thin: they turn the form into facts, ask the core, and render. Every finding
links its citation to the page holding that section's words.
"""

from __future__ import annotations

import datetime
import json
from typing import Any
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from siltfence.core.dates import DateRefused, read_date
from siltfence.core.errors import SiltfenceError, UnknownJurisdiction
from siltfence.core.facts import FACTS
from siltfence.core.ordinance.compare import compare
from siltfence.core.ordinance.loader import load, load_all
from siltfence.core.ordinance.model import Ordinance
from siltfence.core.rules import determine

DEFAULT_JURISDICTION = "spencer-wi"


def _ordinance_or_404(jurisdiction: str) -> Ordinance:
    try:
        return load(jurisdiction)
    except UnknownJurisdiction:
        raise Http404(f"No ordinance is encoded for {jurisdiction!r}") from None


def _today(ordinance: Ordinance) -> datetime.date:
    return datetime.datetime.now(ZoneInfo(ordinance.time_zone)).date()


def citation_href(ordinance: Ordinance, citation: str) -> str | None:
    section = ordinance.section_for(citation)
    if section is None:
        return None
    url = reverse("web:section-detail", args=[ordinance.id, section.number])
    return f"{url}?{urlencode({'cite': citation})}"


def _linked(ordinance: Ordinance, citation: str) -> dict[str, Any]:
    return {"text": citation, "href": citation_href(ordinance, citation)}


_EXAMPLES = {"ft**2": '"0.5 acre", "500 m^2"', "yd**3": '"300 m^3"', "ft": '"30 m"'}


def _fields() -> list[dict[str, Any]]:
    fields = []
    for spec in FACTS.values():
        fields.append(
            {
                "key": spec.key,
                "kind": spec.kind,
                "label": spec.meaning[0].upper() + spec.meaning[1:],
                "name": spec.key.replace("_", " "),
                "unit": spec.unit.replace("**2", "²").replace("**3", "³") if spec.unit else "",
                "choices": [(c, c.replace("_", " ")) for c in spec.choices],
                "default": spec.default,
                "example": _EXAMPLES.get(spec.unit or "", ""),
            }
        )
    return fields


def facts_from_form(data: Any) -> dict[str, Any]:
    """The form's fields as contract facts: blank quantities and choices are not given."""
    facts: dict[str, Any] = {}
    for spec in FACTS.values():
        if spec.kind == "bool":
            facts[spec.key] = data.get(spec.key) == "on"
        else:
            value = (data.get(spec.key) or "").strip()
            if value:
                facts[spec.key] = value
    return facts


@require_GET
def permit_check(request: HttpRequest) -> HttpResponse:
    ordinances = load_all()
    chosen = request.GET.get("jurisdiction", DEFAULT_JURISDICTION)
    ordinance = _ordinance_or_404(chosen)
    return render(
        request,
        "web/permit_check.html",
        {
            "ordinances": ordinances,
            "chosen": ordinance,
            "fields": _fields(),
            "today": _today(ordinance).isoformat(),
        },
    )


@require_POST
def permit_check_answer(request: HttpRequest) -> HttpResponse:
    jurisdiction = request.POST.get("jurisdiction", "")
    context: dict[str, Any] = {}
    status = 200
    try:
        ordinance = load(jurisdiction)
        on_text = request.POST.get("on") or ""
        try:
            on = read_date(on_text) if on_text else _today(ordinance)
        except DateRefused as exc:
            raise SiltfenceError(f"on: {exc}", field="on") from None
        result = determine(jurisdiction, facts_from_form(request.POST), on).to_json()
        context = {
            "d": _with_links(ordinance, result),
            "ordinance": ordinance,
            "facts_json": json.dumps(result["facts"]),
        }
    except SiltfenceError as exc:
        context = {"error": str(exc), "error_field": exc.field}
        status = 200 if request.htmx else 400
    return render(request, "web/_answer.html", context, status=status)


def _with_links(ordinance: Ordinance, d: dict[str, Any]) -> dict[str, Any]:
    for finding in d["findings"]:
        finding["cite"] = _linked(ordinance, finding["citation"])
    if d["plan"]:
        d["plan"]["cite"] = _linked(ordinance, d["plan"]["citation"])
        d["plan"]["kind_label"] = d["plan"]["kind"].replace("_", " ")
        for item in d["plan"]["contents"]:
            item["cite"] = _linked(ordinance, item["citation"])
    for requirement in d["requirements"]:
        requirement["cite"] = _linked(ordinance, requirement["citation"])
    for note in d["notes"]:
        note["cites"] = [_linked(ordinance, c) for c in note["citations"]]
    return d


@require_GET
def ordinance_list(request: HttpRequest) -> HttpResponse:
    return render(request, "web/ordinance_list.html", {"ordinances": load_all()})


@require_GET
def ordinance_detail(request: HttpRequest, jurisdiction: str) -> HttpResponse:
    ordinance = _ordinance_or_404(jurisdiction)
    on = _today(ordinance)
    parameters = []
    for name, parameter in ordinance.parameters.items():
        value = parameter.at(on)
        parameters.append(
            {
                "name": name,
                "description": parameter.description,
                "value": value.value,
                "unit": parameter.unit,
                "not_in_text": value.not_in_text,
                "cite": _linked(ordinance, value.citation),
                "effective": value.effective,
            }
        )
    others = [o for o in load_all() if o.id != ordinance.id]
    return render(
        request,
        "web/ordinance_detail.html",
        {"ordinance": ordinance, "parameters": parameters, "others": others},
    )


@require_GET
def section_detail(request: HttpRequest, jurisdiction: str, number: str) -> HttpResponse:
    ordinance = _ordinance_or_404(jurisdiction)
    section = ordinance.section(number)
    if section is None:
        raise Http404(f"Ch. {ordinance.chapter} has no section {number}")
    index = ordinance.sections.index(section)
    return render(
        request,
        "web/section_detail.html",
        {
            "ordinance": ordinance,
            "section": section,
            "previous": ordinance.sections[index - 1] if index > 0 else None,
            "next": ordinance.sections[index + 1] if index + 1 < len(ordinance.sections) else None,
            "cited": request.GET.get("cite", "")[:60],
        },
    )


@require_GET
def ordinance_diff(request: HttpRequest, left: str, right: str) -> HttpResponse:
    a, b = _ordinance_or_404(left), _ordinance_or_404(right)
    topics = compare(a, b, _today(a), _today(b))
    rows = [
        {
            "name": t.name,
            "same": t.same,
            "left": [{"says": s, "cite": _linked(a, c)} for s, c in t.left],
            "right": [{"says": s, "cite": _linked(b, c)} for s, c in t.right],
        }
        for t in topics
    ]
    return render(request, "web/ordinance_diff.html", {"a": a, "b": b, "rows": rows})
