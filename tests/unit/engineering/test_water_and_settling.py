import pytest

from siltfence.core.engineering.errors import EngineeringInputError
from siltfence.core.engineering.settling import settling_velocity
from siltfence.core.engineering.water import water_properties

from .reference import WATER, schiller_naumann_velocity, stokes_velocity


@pytest.mark.parametrize("celsius", sorted(WATER))
def test_water_density_matches_the_handbook_table(celsius):
    density, _ = WATER[celsius]
    assert water_properties(f"{celsius} degC").density == pytest.approx(density, rel=2e-4)


@pytest.mark.parametrize("celsius", sorted(WATER))
def test_water_viscosity_matches_the_handbook_table(celsius):
    _, viscosity = WATER[celsius]
    assert water_properties(f"{celsius} degC").viscosity == pytest.approx(viscosity, rel=3e-3)


def test_a_plain_temperature_is_read_in_fahrenheit():
    assert water_properties(50).temperature_c == pytest.approx(10.0)


@pytest.mark.parametrize("bad", [31, 105, "-5 degC", "50 degC"])
def test_water_outside_freezing_to_104_f_is_refused(bad):
    with pytest.raises(EngineeringInputError, match=r"^water_temperature: "):
        water_properties(bad)


def test_a_10_micron_grain_settles_at_the_stokes_velocity():
    # Re is about 0.001 here, so Stokes' law holds.
    expected = stokes_velocity(10e-6, 20)
    result = settling_velocity(10, water_temperature=68)
    assert result.reynolds < 0.01
    assert result.velocity == pytest.approx(expected, rel=5e-3)


def test_a_15_micron_grain_in_50_f_water_settles_at_the_stokes_velocity():
    assert settling_velocity(15).velocity == pytest.approx(stokes_velocity(15e-6, 10), rel=5e-3)


def test_a_100_micron_grain_settles_slower_than_stokes_says():
    result = settling_velocity(100, water_temperature=50)
    stokes = stokes_velocity(100e-6, 10)
    # Re about 0.5: drag is above Stokes' 24/Re, so the grain falls about 7% slower.
    assert 0.3 < result.reynolds < 1.0
    assert result.velocity < 0.95 * stokes
    assert result.stokes_velocity == pytest.approx(stokes, rel=5e-3)


def test_a_100_micron_grain_agrees_with_the_schiller_naumann_drag_law():
    expected = schiller_naumann_velocity(100e-6, 10)
    assert settling_velocity(100, water_temperature=50).velocity == pytest.approx(
        expected, rel=0.03
    )


def test_colder_water_settles_a_grain_more_slowly():
    cold = settling_velocity(100, water_temperature=35).velocity
    warm = settling_velocity(100, water_temperature=75).velocity
    assert cold < warm


def test_a_particle_lighter_than_water_is_refused():
    with pytest.raises(EngineeringInputError, match=r"^specific_gravity: "):
        settling_velocity(100, specific_gravity=0.9)


@pytest.mark.parametrize("bad", [0, -10, "2 cm"])
def test_a_particle_size_that_is_not_sediment_is_refused(bad):
    with pytest.raises(EngineeringInputError, match=r"^particle_size: "):
        settling_velocity(bad)


def test_particle_size_may_be_given_in_millimetres():
    assert settling_velocity("0.1 mm").velocity == pytest.approx(settling_velocity(100).velocity)
