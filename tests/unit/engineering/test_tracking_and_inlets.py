"""Tracking, § 413-7B(3), and storm drain inlet protection, § 413-7B(4)."""

import pytest

from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.engineering.inlet_protection import check_inlet_protection
from siltfence.core.engineering.result import Outcome
from siltfence.core.engineering.tracking import check_tracking

from .spencer import PROVISIONS


def test_a_commercial_site_without_gravel_fails_tracking():
    result = check_tracking(land_use="commercial", graveled_access=False, provisions=PROVISIONS)
    assert result.result is Outcome.FAIL
    assert result.citation == "§ 413-7B(3)"


def test_a_residential_site_is_not_held_to_the_gravel_rule():
    assert check_tracking(land_use="residential", graveled_access=False).result is Outcome.INFO


def test_a_graveled_industrial_site_passes_and_a_village_size_is_checked_on_both_sides():
    assert check_tracking(land_use="industrial", graveled_access=True).result is Outcome.PASS
    long_enough = check_tracking(
        land_use="industrial", graveled_access=True, access_length=50, min_length=50
    )
    assert long_enough.result is Outcome.PASS
    short = check_tracking(
        land_use="industrial", graveled_access=True, access_length=49.9, min_length=50
    )
    assert short.result is Outcome.FAIL


def test_an_unknown_land_use_is_refused():
    with pytest.raises(EngineeringInputError, match=r"^land_use: "):
        check_tracking(land_use="farm", graveled_access=True)


def test_every_inlet_protected_passes():
    result = check_inlet_protection(inlets=["CB-1", "CB-2"], protected=["CB-2", "CB-1"])
    assert result.result is Outcome.PASS


def test_an_unprotected_inlet_is_named():
    result = check_inlet_protection(inlets=["CB-1", "CB-2", "CB-3"], protected=["CB-1"])
    assert result.result is Outcome.FAIL
    assert "CB-2, CB-3" in result.says


def test_protection_listed_for_an_unknown_inlet_is_noted():
    result = check_inlet_protection(inlets=["CB-1"], protected=["CB-1", "CB-9"])
    assert any("CB-9" in note for note in result.notes)


def test_a_site_with_no_inlets_has_nothing_to_protect():
    assert check_inlet_protection(inlets=[], protected=[]).result is Outcome.INFO


@pytest.mark.parametrize(
    ("inlets", "field"), [("CB-1", "inlets"), (["CB-1", 3], r"inlets\[1\]"), (["A", "A"], "inlets")]
)
def test_bad_inlet_lists_are_refused(inlets, field):
    with pytest.raises(EngineeringInputError, match=f"^{field}: "):
        check_inlet_protection(inlets=inlets, protected=[])
