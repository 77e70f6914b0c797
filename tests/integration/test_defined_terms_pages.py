"""Defined terms (Spencer § 413-4, New Glarus § 135-13) on the permit check's answer and
on the chapter's section pages: each term opens to its meaning where it first appears on
the page, not at every mention, and the definitions section itself is left as it is.

The meanings are the chapters' own words: Spencer § 413-4 "CONTROL MEASURE: A practice or
combination of practices to control erosion and attendant pollution"; "SITE: The entire
area included in the legal description of the land on which the land disturbing or land
development activity is proposed in the permit application"; New Glarus § 135-13 "FINAL
STABILIZATION: All land-disturbing construction activities at the construction site have
been completed and a uniform perennial vegetative cover has been established, with a
density of at least 70% of the cover ...".
"""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template

from siltfence.core.ordinance.loader import load

pytestmark = pytest.mark.django_db
SUMMARY = re.compile(r'<summary title="Defined in ([^"]+)">([^<]+)</summary>')


def explained(html: str) -> list[tuple[str, str]]:
    return [(cite, word.lower()) for cite, word in SUMMARY.findall(html)]


def test_the_spencer_answer_explains_site_once_though_it_says_site_many_times(client):
    response = client.post(
        "/permit-check/answer",
        {
            "jurisdiction": "spencer-wi",
            "on": "2026-06-01",
            "disturbed_area": "5000",
            "runoff_leaves_site": "on",
        },
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert len(re.findall(r"\bsites?\b", SUMMARY.sub("", html))) >= 3
    assert explained(html).count(("§ 413-4", "site")) == 1
    assert "The entire area included in the legal description of the land" in html


def test_the_new_glarus_answer_explains_final_stabilization_from_section_135_13(client):
    response = client.post(
        "/permit-check/answer",
        {"jurisdiction": "new-glarus-wi", "on": "2026-06-01", "disturbed_area": "5000"},
    )
    html = response.content.decode()
    assert ("§ 135-13", "final stabilization") in explained(html)
    assert "a uniform perennial vegetative cover has been established" in html
    assert all(cite == "§ 135-13" for cite, _ in explained(html))


def test_a_refused_answer_explains_nothing(client):
    response = client.post(
        "/permit-check/answer", {"jurisdiction": "spencer-wi", "disturbed_area": "lots"}
    )
    assert response.status_code == 400
    assert explained(response.content.decode()) == []


def test_a_spencer_section_page_explains_control_measure_from_section_413_4(client):
    html = client.get("/ordinances/spencer-wi/sections/413-7/").content.decode()
    assert ("§ 413-4", "control measure") in explained(html)
    assert "A practice or combination of practices to control erosion" in html
    words = [word for _, word in explained(html)]
    assert len(words) == len(set(words))  # once each on the page


@pytest.mark.parametrize(
    ("jurisdiction", "section"), [("spencer-wi", "413-4"), ("new-glarus-wi", "135-13")]
)
def test_the_definitions_section_is_shown_as_written(client, jurisdiction, section):
    html = client.get(f"/ordinances/{jurisdiction}/sections/{section}/").content.decode()
    assert "CONTROL" in html or "BEST MANAGEMENT PRACTICE" in html
    assert explained(html) == []


def test_terms_once_explains_a_term_at_its_first_mention_on_the_page_only():
    template = Template(
        "{% load terms %}<p>{% terms_once a ordinance %}</p><p>{% terms_once b ordinance %}</p>"
    )
    html = template.render(
        Context(
            {
                "a": "Runoff from the site",
                "b": "More runoff, and a control plan <b>",
                "ordinance": load("spencer-wi"),
            }
        )
    )
    assert explained(html) == [
        ("§ 413-4", "runoff"),
        ("§ 413-4", "site"),
        ("§ 413-4", "control plan"),
    ]
    assert "More runoff" in html and "&lt;b&gt;" in html
