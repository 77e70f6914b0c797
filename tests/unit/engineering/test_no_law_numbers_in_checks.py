"""No village's law numbers in the engineering code: they live only in ``ordinances/<id>/``.

A check that defaulted a threshold to Spencer's number would let a unit test that omits it
run on Spencer's law as written in ``src/``, so a change to Spencer's data would go unseen.
Here every function of ``siltfence.core.engineering`` is read with ``inspect``, and no
parameter default may equal a number (or the seeding cutoff) of Spencer's ordinance data:
every value of ``parameters.yaml`` and every value ``rules.yaml`` states under ``design:``.

A few defaults are method constants (engineering practice, not the chapter's) that happen to
equal one of those numbers; each is listed in ``METHOD_DEFAULTS`` with why it is not law.
"""

from __future__ import annotations

import datetime
import importlib
import inspect
import pkgutil
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

import siltfence.core.engineering as engineering
from siltfence.core.engineering.standards import VALUE_SPECS
from siltfence.core.ordinance.loader import load

# (module, function qualname, parameter): the method constants whose value is also one of
# Spencer's numbers, by coincidence of value only.
METHOD_DEFAULTS = {
    # Rational-method C for bare graded soil (tables give 0.3-0.6), equal to 0.5 ft/s and 0.5 in.
    ("sediment_basin", "check_sediment_basin", "runoff_coefficient"),
    # C = 1, all rain runs off (the conservative reading), equal to 1 % and 1 acre.
    ("sheet_flow", "check_sheet_flow", "runoff_coefficient"),
    ("sheet_flow", "sheet_flow", "runoff_coefficient"),
    ("sheet_flow", "length_at_velocity", "runoff_coefficient"),
    # The drawing tolerance of a fence beside an edge (plans at 1 in = 100 ft), equal to 3 ft.
    ("fence_coverage", "uncovered_edges", "tolerance"),
    ("fence_coverage", "check_fence_coverage", "tolerance"),
}

# The parameter each value of the village's data reaches (as ``checks.design_checks`` passes
# them): it must have no default at all, whatever its value.
DATA_PARAMETERS = {
    ("dewatering", "check_dewatering", "particle_size"),
    ("dewatering", "required_settling_area", "particle_size"),
    ("settling", "settling_velocity", "particle_size"),
    ("measure_selection", "required_sediment_measure", "basin_area_at_one_time"),
    ("measure_selection", "check_sediment_measure", "basin_area_at_one_time"),
    ("sediment_basin", "check_sediment_basin", "particle_size"),
    ("sediment_basin", "check_sediment_basin", "surface_percent"),
    ("sediment_basin", "check_sediment_basin", "min_depth"),
    ("sheet_flow", "check_sheet_flow", "adjacent_area_limit"),
    ("sheet_flow", "check_sheet_flow", "velocity_limit"),
    ("stockpiles", "check_stockpile", "stockpile_volume"),
    ("stockpiles", "check_stockpile", "stockpile_setback"),
    ("stockpiles", "check_stockpile", "stockpile_days"),
    ("stabilization", "check_stabilization", "inactive_days"),
    ("stabilization", "check_stabilization", "seeding_cutoff"),
    ("stabilization", "seeding_available", "cutoff"),
}


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _leaves(node: object) -> Iterator[object]:
    if isinstance(node, dict):
        for value in node.values():
            yield from _leaves(value)
    elif isinstance(node, list | tuple):
        for value in node:
            yield from _leaves(value)
    else:
        yield node


def _law_values() -> tuple[set[float], set[object]]:
    """Spencer's numbers, and its other values (month-day text, and that day as a tuple)."""
    spencer = load("spencer-wi")
    values: list[object] = [
        entry.value for parameter in spencer.parameters.values() for entry in parameter.values
    ]
    # rules.yaml ``design``: what the chapter states in words (``stated``: value, citation).
    stated = spencer.rules.get("design", {}).get("stated", {})
    values.extend(leaf for entry in stated.values() for leaf in _leaves(entry.get("value")))
    numbers = {float(v) for v in values if _is_number(v)}
    others: set[object] = set()
    for value in values:
        if isinstance(value, str):
            others.add(value)
            try:
                day = datetime.date(2000, *(int(part) for part in value.split("-")))
            except (TypeError, ValueError):
                continue
            others.add((day.month, day.day))
    return numbers, others


def _modules() -> list[ModuleType]:
    return [
        importlib.import_module(f"{engineering.__name__}.{info.name}")
        for info in pkgutil.iter_modules(engineering.__path__)
    ] + [engineering]


def _functions(module: ModuleType) -> Iterator[tuple[str, Any]]:
    """Every function defined in ``module``, and the methods of its classes."""
    for name, member in vars(module).items():
        if inspect.isfunction(member) and member.__module__ == module.__name__:
            yield name, member
        elif inspect.isclass(member) and member.__module__ == module.__name__:
            for method_name, method in vars(member).items():
                if isinstance(method, staticmethod | classmethod):
                    method = method.__func__
                if inspect.isfunction(method):
                    yield f"{name}.{method_name}", method


def _defaults() -> Iterator[tuple[str, str, str, object]]:
    """(module, function, parameter, default) for every parameter with a default."""
    for module in _modules():
        short = module.__name__.rsplit(".", 1)[-1]
        for name, function in _functions(module):
            for parameter in inspect.signature(function).parameters.values():
                if parameter.default is not inspect.Parameter.empty:
                    yield short, name, parameter.name, parameter.default


def _is_law(default: object, numbers: set[float], others: set[object]) -> bool:
    if isinstance(default, int | float) and not isinstance(default, bool):
        return float(default) in numbers
    if isinstance(default, str | tuple):
        try:
            return default in others
        except TypeError:  # an unhashable tuple
            return False
    return False


def test_the_village_data_gives_the_numbers_this_test_looks_for():
    numbers, others = _law_values()
    spencer = load("spencer-wi")
    # Every design value the checks take is in Spencer's data (or stated in its text).
    design = set(spencer.parameters) | set(spencer.rules.get("design", {}).get("stated", {}))
    assert {n for n in VALUE_SPECS if n != "design_storms"} - design <= {
        "tracking_pad_required",
        "tracking_pad_length",
        "tracking_pad_width",
    }
    assert len(numbers) >= 10
    assert any(isinstance(o, tuple) for o in others)  # the seeding cutoff, as (month, day)


def test_no_engineering_function_defaults_a_parameter_to_a_number_of_the_village_data():
    numbers, others = _law_values()
    found = [
        f"{module}.{function}({parameter}={default!r})"
        for module, function, parameter, default in _defaults()
        if (module, function, parameter) not in METHOD_DEFAULTS
        and _is_law(default, numbers, others)
    ]
    assert not found, (
        "These defaults are numbers of ordinances/spencer-wi: a village's law numbers live only "
        "in its data, so make the parameter required and pass it from the data: " + ", ".join(found)
    )


def test_the_method_defaults_that_equal_a_law_number_are_still_there():
    # An entry of METHOD_DEFAULTS that no longer exists would hide a law number later.
    defaults = {(m, f, p) for m, f, p, _ in _defaults()}
    assert defaults >= METHOD_DEFAULTS


@pytest.mark.parametrize(("module", "function", "parameter"), sorted(DATA_PARAMETERS))
def test_every_parameter_the_village_data_fills_is_required(module, function, parameter):
    target = importlib.import_module(f"{engineering.__name__}.{module}")
    signature = inspect.signature(getattr(target, function))
    assert signature.parameters[parameter].default is inspect.Parameter.empty, (
        f"{module}.{function}({parameter}=...) has a default; the village's data gives it"
    )
