"""Stabilization of inactive ground and the September 15 cutoff, § 413-7B(5)(c)[1]."""

import datetime

import pytest

from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.engineering.result import Outcome
from siltfence.core.engineering.stabilization import check_stabilization, seeding_available

from .spencer import STABILIZATION

D = datetime.date
MAY = {"inactive_from": D(2026, 5, 1), "inactive_until": D(2026, 5, 9)}


def test_ground_inactive_6_days_need_not_be_stabilized_yet():
    result = check_stabilization(
        **STABILIZATION, inactive_from=D(2026, 5, 1), inactive_until=D(2026, 5, 7)
    )
    assert result.result is Outcome.INFO


def test_ground_inactive_7_days_must_be_stabilized():
    result = check_stabilization(
        **STABILIZATION, inactive_from=D(2026, 5, 1), inactive_until=D(2026, 5, 8)
    )
    assert result.result is Outcome.FAIL
    assert "seeding" in result.fix  # still available in May


def test_seeding_on_september_14_is_available():
    result = check_stabilization(
        **STABILIZATION,
        inactive_from=D(2026, 9, 1),
        inactive_until=D(2026, 9, 30),
        method="seeding",
        stabilize_on=D(2026, 9, 14),
    )
    assert result.result is Outcome.PASS


def test_seeding_on_september_15_is_not_prior_to_september_15():
    result = check_stabilization(
        **STABILIZATION,
        inactive_from=D(2026, 9, 1),
        inactive_until=D(2026, 9, 30),
        method="seeding",
        stabilize_on=D(2026, 9, 15),
    )
    assert result.result is Outcome.FAIL
    assert "mulching" in result.fix


def test_sodding_after_the_cutoff_is_refused_but_mulching_is_accepted():
    sod = check_stabilization(
        **STABILIZATION, inactive_from="2026-10-01", inactive_until="2026-11-15", method="sodding"
    )
    assert sod.result is Outcome.FAIL
    mulch = check_stabilization(
        **STABILIZATION, inactive_from="2026-10-01", inactive_until="2026-11-15", method="mulching"
    )
    assert mulch.result is Outcome.PASS


def test_without_a_stabilization_day_the_seventh_day_is_used():
    # Inactive from September 8: day 7 is September 15, too late for seeding.
    result = check_stabilization(
        **STABILIZATION,
        inactive_from=D(2026, 9, 8),
        inactive_until=D(2026, 10, 1),
        method="seeding",
    )
    assert result.result is Outcome.FAIL
    early = check_stabilization(
        **STABILIZATION,
        inactive_from=D(2026, 9, 7),
        inactive_until=D(2026, 10, 1),
        method="seeding",
    )
    assert early.result is Outcome.PASS


def test_the_cutoff_may_come_from_ordinance_data_as_month_day_text():
    assert seeding_available(D(2026, 9, 30), cutoff=(10, 1))
    result = check_stabilization(
        inactive_from=D(2026, 9, 1),
        inactive_until=D(2026, 10, 1),
        method="seeding",
        stabilize_on=D(2026, 9, 20),
        inactive_days=STABILIZATION["inactive_days"],
        seeding_cutoff="10-01",
    )
    assert result.result is Outcome.PASS


def test_ground_after_the_cutoff_with_no_stabilization_is_told_to_mulch_or_cover():
    result = check_stabilization(
        **STABILIZATION, inactive_from=D(2026, 10, 1), inactive_until=D(2026, 10, 20)
    )
    assert "seeding and sodding are no longer available" in result.fix


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"inactive_from": "2026-13-01", "inactive_until": "2026-12-01"}, "inactive_from"),
        ({"inactive_from": D(2026, 5, 9), "inactive_until": D(2026, 5, 1)}, "inactive_until"),
        (
            {
                "inactive_from": datetime.datetime(2026, 5, 1, 8),
                "inactive_until": D(2026, 5, 9),
            },
            "inactive_from",
        ),
        (
            {"inactive_from": D(2026, 5, 1), "inactive_until": D(2026, 5, 9), "method": "gravel"},
            "method",
        ),
        (
            {
                "inactive_from": D(2026, 5, 1),
                "inactive_until": D(2026, 5, 9),
                "seeding_cutoff": "9/15",
            },
            "seeding_cutoff",
        ),
    ],
)
def test_bad_dates_and_methods_are_refused_by_name(arguments, field):
    with pytest.raises(EngineeringInputError, match=f"^{field}: "):
        check_stabilization(**{**STABILIZATION, **arguments})
