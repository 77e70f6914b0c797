"""Synthetic projects for the amendment analysis, its tests and its benchmark.

The mix is made up, not measured: mostly house lots and small utility jobs, some
subdivisions and road work, a few large sites, and a sprinkling of every exemption, so
that each rule of both chapters is exercised on both sides of its threshold. The same
seed gives the same projects.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from siltfence.core.analysis.vector import Columns, codes
from siltfence.core.facts import FACTS
from siltfence.core.quantities import ACRE_FT2


def sample_projects(n: int, seed: int = 0) -> Columns:
    """``n`` projects as columns; every fact is present, some not given."""
    rng = np.random.default_rng(seed)
    values: dict[str, Any] = {}
    given: dict[str, Any] = {}
    # Lognormal areas: a median near 3,000 sq ft, one site in a hundred over 10 acres.
    area = np.round(np.exp(rng.normal(8.0, 1.5, n)), 0)
    exact = rng.random(n)
    area[exact < 0.02] = 4000.0  # both sides of the thresholds, exactly on them
    area[(exact >= 0.02) & (exact < 0.03)] = ACRE_FT2
    area[(exact >= 0.03) & (exact < 0.035)] = 10 * ACRE_FT2
    values["disturbed_area"] = area
    given["disturbed_area"] = rng.random(n) > 0.03
    at_once = area * rng.uniform(0.2, 1.0, n)
    values["area_disturbed_at_one_time"] = np.round(at_once, 0)
    given["area_disturbed_at_one_time"] = rng.random(n) < 0.4
    for key, scale, share in (
        ("excavation_fill_volume", 5.5, 0.6),
        ("underground_pipe_length", 4.5, 0.3),
        ("channel_length_disturbed", 3.5, 0.15),
        ("common_plan_disturbed_area", 9.5, 0.1),
    ):
        values[key] = np.round(np.exp(rng.normal(scale, 1.2, n)), 0)
        given[key] = rng.random(n) < share
    for key, share in (
        ("subdivision_plat", 0.05),
        ("certified_survey", 0.05),
        ("road_work", 0.05),
        ("routine_maintenance", 0.05),
        ("state_funded", 0.02),
        ("state_agency", 0.02),
        ("federal_npdes_exempt", 0.02),
        ("designated_by_authority", 0.02),
        ("runoff_leaves_site", 0.9),
        ("channel_originates_on_site", 0.05),
        ("part_of_common_plan", 0.1),
    ):
        values[key] = rng.random(n) < share
        given[key] = rng.random(n) < 0.8
        default = bool(FACTS[key].default)
        values[key] = np.where(given[key], values[key], default)
    for key, weights in (
        ("activity_kind", (0.9, 0.03, 0.03, 0.02, 0.02)),
        ("location", (0.85, 0.1, 0.05)),
        ("land_use", (0.6, 0.15, 0.05, 0.05, 0.05, 0.1)),
    ):
        choices = FACTS[key].choices
        picked = rng.choice(np.array(choices, dtype=object), size=n, p=weights)
        given[key] = rng.random(n) < 0.9
        fallback = np.full(n, FACTS[key].default, dtype=object)
        values[key] = codes(key, np.where(given[key], picked, fallback))
    for key in values:
        if FACTS[key].kind == "quantity":
            values[key] = np.where(given[key], values[key], 0.0)
    return Columns(n, values, given)


def project_facts(columns: Columns, row: int) -> dict[str, Any]:
    """One project of ``columns`` as the facts JSON ``determine()`` takes."""
    facts: dict[str, Any] = {}
    for key, column in columns.values.items():
        if not columns.given[key][row]:
            continue
        value = column[row]
        spec = FACTS[key]
        if spec.kind == "quantity":
            facts[key] = float(value)
        elif spec.kind == "bool":
            facts[key] = bool(value)
        else:
            facts[key] = spec.choices[int(value)]
    return facts
