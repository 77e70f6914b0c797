"""The ``terms`` filter: a defined term in a text opens to its meaning and citation with no
script (a <details>), and the text around it stays escaped."""

from __future__ import annotations

from django.template import Context, Template

from siltfence.core.ordinance.loader import load


def render(text: str, jurisdiction: str) -> str:
    template = Template("{% load terms %}{{ text|terms:ordinance }}")
    return template.render(Context({"text": text, "ordinance": load(jurisdiction)}))


def test_a_defined_term_opens_to_its_meaning_and_section():
    html = render("Keep a copy of the control plan on the site", "spencer-wi")
    assert (
        '<details class="term"><summary title="Defined in § 413-4">control plan</summary>' in html
    )
    assert "A written description of the number, locations, sizes" in html
    assert '<span class="cite">§ 413-4</span>' in html


def test_text_around_terms_is_escaped():
    html = render("<script>alert(1)</script> runoff", "spencer-wi")
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<summary" in html


def test_a_text_without_terms_is_only_escaped():
    assert render("a & b", "spencer-wi") == "a &amp; b"
