"""Files of projects for the amendment analysis: CSV, JSON Lines or Parquet, one project a
row, with the facts of the public contract as columns (DESIGN.md, "Facts").

Every value is checked as ``parse_facts`` would check it, but column by column: numbers
in a quantity column are read in one pass, and each distinct text with a unit ("1.2 acre")
is read once by the strict quantity grammar. A bad value is refused with its row (1 is
the first project) and its column. An empty cell, or a JSON ``null``, means not given.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from siltfence.core.analysis.vector import Columns, code_of
from siltfence.core.errors import SiltfenceError
from siltfence.core.facts import FACTS
from siltfence.core.quantities import UnitMismatch, to_unit

MAX_LINE = 10_000  # characters in one JSON line or CSV row
_TRUE = {"true", "yes", "1"}
_FALSE = {"false", "no", "0"}


class ProjectsError(SiltfenceError):
    """A projects file cannot be read; the message names the row and the column."""


def read_projects(path: Path) -> Columns:
    """Read a projects file, choosing the format by its first bytes, not its name."""
    with open(path, "rb") as handle:
        head = handle.read(4)
    if head == b"PAR1":
        return _parquet(path)
    with open(path, encoding="utf-8", newline="") as handle:
        first = handle.readline(MAX_LINE + 1).lstrip()
        handle.seek(0)
        if first.startswith("{"):
            return columns_from_records(_jsonl(handle))
        return _csv(handle)


def columns_from_records(records: Iterable[Mapping[str, Any]]) -> Columns:
    """Columns from projects given as mappings (JSON objects)."""
    raw: dict[str, list[Any]] = {}
    n = 0
    for row, record in enumerate(records, start=1):
        if not isinstance(record, Mapping):
            raise ProjectsError(f"row {row}: expected an object of facts")
        for key in record:
            if key not in FACTS:
                raise ProjectsError(
                    f"row {row}, column {key!r}: unknown fact; known facts are "
                    f"{', '.join(sorted(FACTS))}"
                )
            raw.setdefault(key, [None] * n)
        for key, cells in raw.items():
            cells.append(record.get(key))
        n += 1
    return _columns(raw, n)


def _jsonl(handle: io.TextIOBase) -> Iterator[Mapping[str, Any]]:
    for row, line in enumerate(handle, start=1):
        if len(line) > MAX_LINE:
            raise ProjectsError(f"row {row}: a line longer than {MAX_LINE} characters")
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            raise ProjectsError(f"row {row}: not a JSON object") from None
        yield record


def _csv(handle: io.TextIOBase) -> Columns:
    reader = csv.reader(handle)
    try:
        header = next(reader)
    except StopIteration:
        raise ProjectsError("row 0: the file is empty; the first row names the facts") from None
    for key in header:
        if key not in FACTS:
            raise ProjectsError(
                f"row 0, column {key!r}: unknown fact; known facts are {', '.join(sorted(FACTS))}"
            )
    raw: dict[str, list[Any]] = {key: [] for key in header}
    n = 0
    try:
        for row, cells in enumerate(reader, start=1):
            if len(cells) != len(header):
                raise ProjectsError(
                    f"row {row}: {len(cells)} cells where the header names {len(header)}"
                )
            for key, cell in zip(header, cells, strict=True):
                raw[key].append(cell if cell != "" else None)
            n += 1
    except csv.Error as exc:
        raise ProjectsError(f"row {n + 1}: {exc}") from None
    return _columns(raw, n)


def _parquet(path: Path) -> Columns:
    try:
        import pyarrow.parquet as pq  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:  # pragma: no cover - pyarrow is a dependency
        raise ProjectsError("Parquet files need the pyarrow package") from None
    try:
        table = pq.read_table(path)
    except Exception as exc:  # pyarrow raises its own error classes for a bad file
        raise ProjectsError(f"row 0: not a readable Parquet file ({type(exc).__name__})") from None
    raw = {name: table.column(name).to_pylist() for name in table.column_names}
    for key in raw:
        if key not in FACTS:
            raise ProjectsError(f"row 0, column {key!r}: unknown fact")
    return _columns(raw, table.num_rows)


def _columns(raw: Mapping[str, list[Any]], n: int) -> Columns:
    values: dict[str, Any] = {}
    given: dict[str, Any] = {}
    for key, cells in raw.items():
        spec = FACTS[key]
        mask = np.array([cell is not None for cell in cells], dtype=bool)
        given[key] = mask
        if spec.kind == "quantity":
            values[key] = _quantities(key, cells, spec.unit or "")
        elif spec.kind == "bool":
            values[key] = _bools(key, cells, bool(spec.default))
        else:
            values[key] = _choices(key, cells, spec.choices, spec.default)
    return Columns(n, values, given)


def _quantities(key: str, cells: list[Any], unit: str) -> Any:
    out = np.zeros(len(cells))
    known: dict[str, float] = {}
    for row, cell in enumerate(cells, start=1):
        if cell is None:
            continue
        if isinstance(cell, str) and cell in known:
            out[row - 1] = known[cell]
            continue
        try:
            number = to_unit(_number_or_text(cell), unit)
        except UnitMismatch as exc:
            raise ProjectsError(f"row {row}, column {key!r}: {exc}") from None
        if isinstance(cell, str):
            known[cell] = number
        out[row - 1] = number
    return out


def _number_or_text(cell: Any) -> Any:
    """A CSV cell is text; a plain number in it is a number in the default unit."""
    if isinstance(cell, str):
        try:
            return float(cell)
        except ValueError:
            return cell
    return cell


def _bools(key: str, cells: list[Any], default: bool) -> Any:
    out = np.full(len(cells), default, dtype=bool)
    for row, cell in enumerate(cells, start=1):
        if cell is None:
            continue
        if isinstance(cell, bool):
            out[row - 1] = cell
        elif isinstance(cell, str) and cell.strip().lower() in _TRUE | _FALSE:
            out[row - 1] = cell.strip().lower() in _TRUE
        else:
            raise ProjectsError(f"row {row}, column {key!r}: expected true or false, got {cell!r}")
    return out


def _choices(key: str, cells: list[Any], choices: tuple[str, ...], default: Any) -> Any:
    out = np.full(len(cells), code_of(key, default), dtype=np.int8)
    for row, cell in enumerate(cells, start=1):
        if cell is None:
            continue
        if not isinstance(cell, str) or cell not in choices:
            shown = repr(cell) if len(repr(cell)) < 40 else repr(cell)[:37] + "..."
            raise ProjectsError(
                f"row {row}, column {key!r}: expected one of {', '.join(choices)}; got {shown}"
            )
        out[row - 1] = choices.index(cell)
    return out
