"""``{{ text|terms:ordinance }}``: the chapter's defined terms in a text, each shown with
its meaning and citation on hover, tap or keyboard (a ``<details>``, so no script is
needed to read it).

A ``<details>`` is flow content: put the text in a ``<div>`` or an ``<li>``, never in a
``<p>``, which the HTML parser closes at the ``<details>``, breaking the sentence there.
``duties/terms.css`` lays the term out inline, wrapping with its sentence."""

from __future__ import annotations

from html import escape
from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

from siltfence.core.ordinance.terms import Mention, defined_terms, mentions

register = template.Library()


@register.filter
def terms(text: Any, ordinance: Any) -> SafeString:
    raw = str(text or "")
    found = mentions(raw, defined_terms(ordinance)) if ordinance is not None else []
    return _marked(raw, found)


@register.simple_tag(takes_context=True)
def terms_once(context: template.Context, text: Any, ordinance: Any) -> SafeString:
    """``{% terms_once text ordinance %}``: like the filter, but each term is explained
    only where it first appears on the page, so a page that says "site" in every line
    explains it once."""
    raw = str(text or "")
    if ordinance is None:
        return _marked(raw, [])
    # The stubs type ``setdefault``'s value as ``list[Origin] | int | None``; a render
    # context holds any value.
    seen: set[str] = context.render_context.setdefault(  # type: ignore[assignment]
        "defined_terms_seen",
        set(),  # type: ignore[arg-type]
    )
    found = [m for m in mentions(raw, defined_terms(ordinance)) if m.term.names[0] not in seen]
    seen.update(m.term.names[0] for m in found)
    return _marked(raw, found)


def _marked(raw: str, found: list[Mention]) -> SafeString:
    parts: list[str] = []
    at = 0
    for mention in found:
        parts.append(escape(raw[at : mention.start]))
        word = escape(raw[mention.start : mention.end])
        names = " or ".join(n.lower() for n in mention.term.names)
        parts.append(
            f'<details class="term"><summary title="Defined in {escape(mention.term.citation)}">'
            f'{word}</summary><span class="term-meaning"><strong>{escape(names)}</strong>: '
            f'{escape(mention.term.meaning)} <span class="cite">'
            f"{escape(mention.term.citation)}</span></span></details>"
        )
        at = mention.end
    parts.append(escape(raw[at:]))
    return mark_safe("".join(parts))  # every piece above is escaped
