"""The vectorised determination gives, project by project, the same answer as
``determine()``: 10,000 random projects through both chapters."""

from __future__ import annotations

import datetime

import pytest

from siltfence.core.analysis import judge, sample_projects
from siltfence.core.analysis.sample import project_facts
from siltfence.core.ordinance.loader import jurisdiction_ids, load
from siltfence.core.rules import determine

ON = datetime.date(2026, 6, 1)
N = 10_000


@pytest.mark.parametrize("jurisdiction", jurisdiction_ids())
def test_every_random_project_gets_the_same_answer_both_ways(jurisdiction):
    ordinance = load(jurisdiction)
    columns = sample_projects(N, seed=7)
    judged = judge(ordinance, columns, ON)
    mismatches = []
    for row in range(N):
        facts = project_facts(columns, row)
        one = determine(jurisdiction, facts, ON)
        findings = {f.id: f.holds for f in one.findings}
        expected = {
            "applies": one.applies,
            "plan": one.plan.kind if one.plan else None,
            "requirements": {r.id for r in one.requirements if r.scope == "permit"},
            "triggers": {k: findings[k] for k in judged.triggers},
            "exemptions": {k: findings[k] for k in judged.exemptions},
        }
        got = {
            "applies": bool(judged.applies[row]),
            "plan": judged.plan_of(row),
            "requirements": {k for k, v in judged.requirements.items() if v[row]},
            "triggers": {k: bool(v[row]) for k, v in judged.triggers.items()},
            "exemptions": {k: bool(v[row]) for k, v in judged.exemptions.items()},
        }
        if got != expected:
            mismatches.append((row, facts, expected, got))
    assert mismatches == []


def test_the_sample_reaches_both_sides_of_the_area_trigger():
    columns = sample_projects(N, seed=7)
    judged = judge(load("spencer-wi"), columns, ON)
    area = judged.triggers["area-trigger"]
    assert 0 < area.sum() < N
    assert (columns.values["disturbed_area"] == 4000.0).any()
