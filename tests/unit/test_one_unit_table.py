"""One table of units in the core: each conversion factor is written in one module.

``siltfence.core.quantities`` holds the units, their labels and the exact factors between
them (``FT``, ``INCH``, ``GALLON``, ``ACRE_FT2``); the design checks import them. The scan
reads every module of ``src/siltfence/core`` with ``ast`` and finds the numbers (and
``Decimal("...")`` texts) that are one of the factors or a tenth, hundredth... of one
(0.0254 m is 25.4 mm, 3.785411784e-3 m³ is 3.785411784 L). The conversions are checked
both ways against values worked out by hand.
"""

from __future__ import annotations

import ast
import math
from collections import defaultdict
from pathlib import Path

import pytest

from siltfence.core.engineering.units import LABELS, to_float
from siltfence.core.quantities import (
    ACRE_FT2,
    FT,
    GALLON,
    INCH,
    TARGETS,
    UNITS,
    convert_between,
    read_quantity,
)

CORE = Path(__file__).resolve().parents[2] / "src" / "siltfence" / "core"

# ft in m, sq ft per acre, in in mm, US gallon in L, cu ft in m³ (rounded, as people write it).
FACTORS = (0.3048, 43_560, 25.4, 3.785411784, 0.0283168)

# Factors still written outside the two unit modules, in modules this change did not touch
# (other people's work in progress): module -> factors. Remove an entry once its module
# imports the factor from siltfence.core.quantities; the test says when.


def _factor_of(number: float) -> float | None:
    """The factor ``number`` is, or is a tenth, hundredth... of (down to a millionth)."""
    if not math.isfinite(number) or number <= 0:
        return None
    for factor in FACTORS:
        scale = round(math.log10(number / factor))
        if -6 <= scale <= 0 and math.isclose(number, factor * 10.0**scale, rel_tol=1e-6):
            return factor
    return None


def factor_literals(source: str) -> set[float]:
    """The factors written as numbers in ``source``."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        number: object = None
        if isinstance(node, ast.Constant):
            number = node.value
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "Decimal"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            try:
                number = float(node.args[0].value)
            except ValueError:
                continue
        if isinstance(number, int | float) and not isinstance(number, bool):
            factor = _factor_of(float(number))
            if factor is not None:
                found.add(factor)
    return found


def factors_by_module(root: Path) -> dict[float, list[str]]:
    """factor -> the modules under ``root`` that write it."""
    where: dict[float, list[str]] = defaultdict(list)
    for path in sorted(root.rglob("*.py")):
        for factor in factor_literals(path.read_text(encoding="utf-8")):
            where[factor].append(path.relative_to(root).as_posix())
    return where


def test_the_scanner_finds_factors_in_any_power_of_ten_and_in_decimal_text():
    source = (
        "from decimal import Decimal\n"
        "FT = 0.3048\nINCH = 0.0254\nGALLON = 3.785411784e-3\nCFT = 0.0283168\n"
        "SQ_FT = {'acre': Decimal(43560)}\nMM = Decimal('25.4')\n"
        "OTHER = (0.3, 1.0, 12, 231, True, 'v / 0.3048', -0.3048)\n"
    )
    assert factor_literals(source) == {0.3048, 25.4, 3.785411784, 0.0283168, 43_560}
    assert factor_literals("x = 0.305\ny = 43561\nz = 'Decimal'\nw = 254\n") == set()


def test_every_factor_is_written_in_one_module_of_the_core():
    where = factors_by_module(CORE)
    twice = {factor: modules for factor, modules in where.items() if len(modules) > 1}
    assert not twice, f"written in more than one module (import it from quantities): {twice}"
    for factor in (0.3048, 43_560, 25.4, 3.785411784):
        assert "quantities.py" in where[factor], factor


def test_the_exact_factors_are_their_definitions():
    assert FT == 0.3048
    assert INCH == 0.0254
    assert GALLON == 0.003785411784
    assert ACRE_FT2 == 66 * 660  # a chain by a furlong
    assert INCH / FT == 1 / 12  # to the last bit, so 12 in is 1 ft exactly
    assert GALLON / FT**3 == 231 / 12**3  # to the last bit


def test_an_acre_is_43560_square_feet_both_ways():
    assert read_quantity("1 acre", "ft**2") == 43_560.0
    assert read_quantity("43,560 sq ft", "acre") == 1.0
    assert read_quantity("2.5 acres", "ft**2") == 108_900.0
    assert convert_between(1.0, "acre", "ft**2") == 43_560.0
    assert convert_between(87_120.0, "ft**2", "acre") == 2.0
    assert to_float("1 acre", "ft**2", field="area") == 43_560.0
    assert to_float("43,560 sq ft", "acre", field="area") == 1.0


def test_a_foot_is_0_3048_metres_both_ways():
    assert read_quantity("1 ft", "m") == pytest.approx(0.3048, rel=1e-15)
    assert read_quantity("0.3048 m", "ft") == pytest.approx(1.0, rel=1e-15)
    assert read_quantity("1,000 ft", "m") == pytest.approx(304.8, rel=1e-15)
    assert read_quantity("30.48 cm", "ft") == pytest.approx(1.0, rel=1e-15)
    assert read_quantity("12 in", "ft") == 1.0
    assert read_quantity("1 in", "m") == pytest.approx(0.0254, rel=1e-15)
    assert to_float("1 m", "ft", field="length") == pytest.approx(1 / 0.3048, rel=1e-15)
    assert to_float("10 ft", "m", field="length") == pytest.approx(3.048, rel=1e-15)


def test_a_us_gallon_is_231_cubic_inches_both_ways():
    assert read_quantity("1 gal", "ft**3") == 231 / 1_728
    assert read_quantity("231 cu in", "ft**3") == pytest.approx(231 / 1_728, rel=1e-15)
    assert read_quantity("1,728 cu in", "ft**3") == pytest.approx(1.0, rel=1e-15)
    assert read_quantity("1 gal", "m**3") == pytest.approx(0.003785411784, rel=1e-15)
    assert read_quantity("3.785411784 l", "ft**3") == pytest.approx(231 / 1_728, rel=1e-15)
    assert read_quantity("1 cu ft", "m**3") == pytest.approx(0.028316846592, rel=1e-15)
    # 7.48 gallons to the cubic foot (1,728 / 231 = 7.4805...).
    assert read_quantity("1 cu ft/s", "gal/min") == pytest.approx(60 * 1_728 / 231, rel=1e-15)
    assert to_float("60 gal/min", "ft**3/s", field="flow") == pytest.approx(231 / 1_728, rel=1e-15)


def test_labels_of_the_checks_are_the_table_s_own():
    own = {"hour": "h", "ft**2/s": "sq ft/s", "kg/m**3": "kg/m³", "Pa*s": "Pa·s"}
    assert {unit: LABELS[unit] for unit in TARGETS} | own == LABELS
    assert all(LABELS[unit] == words for unit, (_, words) in TARGETS.items() if unit not in own)
    assert all(UNITS[unit] == TARGETS[unit][1] for unit in UNITS if unit != "USD")
