"""Public pages: "Do I need a permit?", and each chapter's verbatim sections.

Views stay thin: they turn the form into facts, ask the core, and render. Every finding
links its citation to the page holding that section's words.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_POST

from siltfence.apps.web.diffing import differences
from siltfence.apps.web.htmx import HtmxHttpRequest
from siltfence.core.dates import DateRefused, read_date
from siltfence.core.errors import FactsError, SiltfenceError, UnknownJurisdiction
from siltfence.core.facts import FACTS
from siltfence.core.ordinance.compare import compare
from siltfence.core.ordinance.loader import load, load_all
from siltfence.core.ordinance.model import Ordinance
from siltfence.core.ordinance.terms import definitions_citation
from siltfence.core.quantities import format_quantity
from siltfence.core.rules import determine, facts_read
from siltfence.presentation import labels
from siltfence.presentation.sections import citation_href, cited_anchor, subsections


def _ordinance_or_404(jurisdiction: str) -> Ordinance:
    try:
        return load(jurisdiction)
    except UnknownJurisdiction:
        raise Http404(f"No ordinance is encoded for {jurisdiction!r}") from None


def _today(ordinance: Ordinance) -> datetime.date:
    return datetime.datetime.now(ZoneInfo(ordinance.time_zone)).date()


def _linked(ordinance: Ordinance, citation: str) -> dict[str, Any]:
    return {"text": citation, "href": citation_href(ordinance, citation)}


_EXAMPLES = {"ft**2": '"0.5 acre", "500 m^2"', "yd**3": '"300 m^3"', "ft": '"30 m"'}


def _fields(ordinance: Ordinance, values: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """The questions of the permit check for one village: only the facts its rules read
    (``facts_read``), in plain words, each showing ``values[key]`` if given (what the
    person typed before choosing this village), else its default."""
    values = values or {}
    asked = facts_read(ordinance)
    fields = []
    for spec in FACTS.values():
        if spec.key not in asked:
            continue
        shown = labels.label(spec.key)
        hint = labels.HINTS.get(spec.key, spec.meaning)
        default = "" if spec.kind == "quantity" else spec.default
        fields.append(
            {
                "key": spec.key,
                "kind": spec.kind,
                "label": shown,
                "hint": hint[0].upper() + hint[1:] if hint.lower() != shown.lower() else "",
                "unit": labels.UNITS.get(spec.unit or "", spec.unit or ""),
                "choices": [(c, labels.choice(spec.key, c)) for c in spec.choices],
                "default": spec.default,
                "value": values.get(spec.key, default),
                "example": _EXAMPLES.get(spec.unit or "", ""),
            }
        )
    return fields


# What the permit check's form sends besides the facts: the village, the date the work is
# judged on, the village whose questions the form shows, and the form's token. Its button
# has no name, so it sends nothing.
FORM_FIELDS = frozenset({"jurisdiction", "on", "questions_for", "csrfmiddlewaretoken"})
# A ticked box sends "yes" (a page shown before the box had a value sends "on"); a box
# left empty sends nothing, which is no. "no" is accepted from anyone who writes it out.
YES = frozenset({"yes", "on"})
NO = frozenset({"no"})
NOT_YES_OR_NO = "answer yes or no (tick the box for yes, leave it empty for no); got {got}"
UNKNOWN_FIELD = (
    "{name} is not a question on this form. Reload the page and answer only the questions it shows"
)
GIVEN_TWICE = "answered more than once; answer it once"


def _quoted(text: str) -> str:
    """What was sent, quoted and cut short, for a message."""
    return repr(text if len(text) <= 40 else text[:40] + "…")


def _refuse_strays(data: Any) -> None:
    """Refuse, naming it, a field the form does not have or a field sent twice."""
    for name in data:
        if name not in FACTS and name not in FORM_FIELDS:
            raise SiltfenceError(UNKNOWN_FIELD.format(name=_quoted(name)), field=name)
        if name != "csrfmiddlewaretoken" and len(data.getlist(name)) > 1:
            if name in FACTS:
                raise FactsError(name, GIVEN_TWICE)
            raise SiltfenceError(f"{name}: {GIVEN_TWICE}", field=name)


def facts_from_form(data: Any, asked: Collection[str] | None = None) -> dict[str, Any]:
    """The form's fields as contract facts: blank quantities and choices are not given.

    ``asked`` are the facts the form shows (all of them if None). A box it shows and that
    was left empty sends nothing, which is no; a box it does not show is not given unless
    sent. Refuses, naming the field, what the form never sends: a field it does not have,
    a field sent twice, or a yes/no answer other than yes or no. Nothing is silently read
    as no."""
    _refuse_strays(data)
    facts: dict[str, Any] = {}
    for spec in FACTS.values():
        if spec.kind == "bool":
            answer = data.get(spec.key)
            if answer is not None and answer not in YES | NO:
                raise FactsError(spec.key, NOT_YES_OR_NO.format(got=_quoted(answer)))
            if answer is not None or asked is None or spec.key in asked:
                facts[spec.key] = answer in YES
        else:
            value = (data.get(spec.key) or "").strip()
            if value:
                facts[spec.key] = value
    return facts


def fact_given(facts: Mapping[str, Any]) -> bool:
    """Whether the person has said anything about the work: a quantity typed (even 0,
    which says "none", and the answer to "none" is an answer), or a box or a choice
    changed from what the form shows at first. The form as it opens describes no work, so
    it gets no answer."""
    return any(
        FACTS[key].kind == "quantity" or value != FACTS[key].default for key, value in facts.items()
    )


@require_GET
def permit_check(request: HttpRequest) -> HttpResponse:
    ordinances = load_all()
    default = settings.SILTFENCE_DEFAULT_JURISDICTION or ordinances[0].id
    chosen = request.GET.get("jurisdiction", default)
    ordinance = _ordinance_or_404(chosen)
    return render(
        request,
        "web/permit_check.html",
        {
            "ordinances": ordinances,
            "chosen": ordinance,
            "fields": _fields(ordinance),
            "today": _today(ordinance).isoformat(),
        },
    )


@require_POST
def permit_check_answer(request: HtmxHttpRequest) -> HttpResponse:
    """The answer to the permit check's form, or none yet while it states no fact.

    The form shows the questions of one village (``questions_for``). When the village
    chosen is another, the answer comes with that village's questions, to replace the
    form's, keeping what was typed for the facts both villages read; the facts only the
    other village reads are dropped with its questions."""
    jurisdiction = request.POST.get("jurisdiction", "")
    context: dict[str, Any] = {}
    status = 200
    try:
        _refuse_strays(request.POST)
        ordinance = load(jurisdiction)
        shown = _shown_for(request.POST.get("questions_for") or "", ordinance)
        facts = facts_from_form(request.POST, facts_read(shown))
        if shown.id != ordinance.id:
            read = facts_read(ordinance)
            facts = {key: value for key, value in facts.items() if key in read}
            context["questions"] = {"chosen": ordinance, "fields": _fields(ordinance, facts)}
        on_text = request.POST.get("on") or ""
        try:
            on = read_date(on_text) if on_text else _today(ordinance)
        except DateRefused as exc:
            raise SiltfenceError(f"on: {exc}", field="on") from None
        if not fact_given(facts):
            context["waiting"] = True
        else:
            result = determine(jurisdiction, facts, on).to_json()
            context |= {
                "d": _with_links(ordinance, result),
                "ordinance": ordinance,
                "facts_json": json.dumps(result["facts"]),
            }
    except SiltfenceError as exc:
        context |= {"error": str(exc), "error_field": exc.field}
        status = 200 if request.htmx else 400
    return render(request, "web/_answer.html", context, status=status)


def _shown_for(jurisdiction: str, chosen: Ordinance) -> Ordinance:
    """The village whose questions the form showed: ``chosen`` if it names none known."""
    try:
        return load(jurisdiction) if jurisdiction else chosen
    except UnknownJurisdiction:
        return chosen


def _with_links(ordinance: Ordinance, d: dict[str, Any]) -> dict[str, Any]:
    for finding in d["findings"]:
        finding["cite"] = _linked(ordinance, finding["citation"])
    if d["plan"]:
        d["plan"]["cite"] = _linked(ordinance, d["plan"]["citation"])
        d["plan"]["kind_label"] = labels.label(d["plan"]["kind"])
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
                "shown": _shown(value.value, parameter.unit),
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


def _shown(value: object, unit: str | None) -> str:
    """A parameter's value as the screens write it: ``4000.0, ft**2`` -> ``4,000 sq ft``."""
    if unit == "month-day" and isinstance(value, str):
        month, day = (int(part) for part in value.split("-"))
        return datetime.date(2000, month, day).strftime("%B %-d")
    if unit == "percent" and isinstance(value, int | float):
        return f"{value:g}%"
    if isinstance(value, bool) or not isinstance(value, int | float):
        return labels.say(str(value))
    return labels.say(format_quantity(float(value), unit or "1").replace(" 1", "").strip())


@require_GET
def section_detail(request: HttpRequest, jurisdiction: str, number: str) -> HttpResponse:
    ordinance = _ordinance_or_404(jurisdiction)
    section = ordinance.section(number)
    if section is None:
        raise Http404(f"Ch. {ordinance.chapter} has no section {number}")
    index = ordinance.sections.index(section)
    cited = request.GET.get("cite", "")[:60]
    return render(
        request,
        "web/section_detail.html",
        {
            "ordinance": ordinance,
            "section": section,
            "previous": ordinance.sections[index - 1] if index > 0 else None,
            "next": ordinance.sections[index + 1] if index + 1 < len(ordinance.sections) else None,
            "cited": cited,
            "cited_anchor": cited_anchor(section.number, section.text or "", cited),
            "parts": subsections(section.number, section.text or ""),
            # Defined terms are explained on hover or tap, except where they are defined.
            "explain_terms": definitions_citation(ordinance) != section.citation,
        },
    )


@require_GET
def ordinance_diff(request: HttpRequest, left: str, right: str) -> HttpResponse:
    a, b = _ordinance_or_404(left), _ordinance_or_404(right)
    topics = compare(a, b, _today(a), _today(b))
    rows = []
    for t in topics:
        left_says = [labels.say_names(s) for s, _ in t.left]
        right_says = [labels.say_names(s) for s, _ in t.right]
        marked_left, marked_right = (
            differences(left_says, right_says) if not t.same else (left_says, right_says)
        )
        rows.append(
            {
                "name": t.name,
                "same": t.same,
                "left": [
                    {"says": m, "cite": _linked(a, c)}
                    for m, (_, c) in zip(marked_left, t.left, strict=True)
                ],
                "right": [
                    {"says": m, "cite": _linked(b, c)}
                    for m, (_, c) in zip(marked_right, t.right, strict=True)
                ],
            }
        )
    return render(request, "web/ordinance_diff.html", {"a": a, "b": b, "rows": rows})


def _plan_format_path() -> Path:
    """The plan format's text: packaged beside the app, or at the top of a source tree."""
    installed = Path(__file__).resolve().parents[2] / "docs" / "plan-format.md"
    if installed.is_file():
        return installed
    return Path(__file__).resolve().parents[4] / "docs" / "plan-format.md"


@require_GET
def plan_format(request: HttpRequest) -> HttpResponse:
    """How to write a control plan file, as a page (the same text as the repository's)."""
    from markdown_it import MarkdownIt

    text = _plan_format_path().read_text(encoding="utf-8")
    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(text)
    body = body.replace("<table>", '<table class="usa-table usa-table--borderless">')
    return render(request, "web/plan_format.html", {"body": body})


def _schema_fields(schema: dict[str, Any], components: dict[str, Any]) -> list[dict[str, Any]]:
    """The fields of a request or response schema, one level deep, for the API page."""
    ref = schema.get("$ref", "")
    if ref:
        schema = components.get(ref.rsplit("/", 1)[-1], {})
    required = set(schema.get("required", []))
    fields = []
    for name, spec in schema.get("properties", {}).items():
        kind = spec.get("type") or spec.get("$ref", "").rsplit("/", 1)[-1]
        if not kind and "anyOf" in spec:
            kind = " or ".join(
                s.get("type") or s.get("$ref", "").rsplit("/", 1)[-1] for s in spec["anyOf"]
            )
        fields.append(
            {
                "name": name,
                "type": kind or "any",
                "required": name in required,
                "description": spec.get("description") or spec.get("title", ""),
            }
        )
    return fields


@require_GET
def api_reference(request: HttpRequest) -> HttpResponse:
    """The HTTP API, read from its own OpenAPI description, as a plain page of this site
    (the interactive Swagger page stays at /api/docs)."""
    from siltfence.apps.api.api import api

    schema = api.get_openapi_schema(path_prefix="/api/")
    components = schema.get("components", {}).get("schemas", {})
    operations = []
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            operations.append(
                {
                    "method": method.upper(),
                    "path": path,
                    "summary": operation.get("summary", ""),
                    "description": operation.get("description", ""),
                    "body": _schema_fields(body["schema"], components) if body else [],
                    "responses": [
                        {"status": status, "description": answer.get("description", "")}
                        for status, answer in operation.get("responses", {}).items()
                    ],
                }
            )
    return render(
        request, "web/api_reference.html", {"info": schema["info"], "operations": operations}
    )
