"""Set-based writes for the generator: ids taken in blocks, rows written with COPY on
PostgreSQL and with one multi-row statement per batch on SQLite.

Rows are dicts of column names to values; JSON columns hold text already encoded. Ids are
taken before the rows are written, so rows can point at each other (an event at its
application, a site log entry at its event) without reading anything back. Call inside
the transaction that writes them.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection, models

SQLITE_BATCH = 200


def ids_take(model: type[models.Model], count: int) -> list[int]:
    """``count`` new primary keys of ``model``'s table, never handed out again."""
    if count <= 0:
        return []
    table = model._meta.db_table
    column = model._meta.pk.column
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
                [table, column, count],
            )
            return [row[0] for row in cursor.fetchall()]
        # SQLite: the transaction holds the database's write lock, so nobody else inserts.
        cursor.execute(f'SELECT COALESCE(MAX("{column}"), 0) FROM "{table}"')
        start = int(cursor.fetchone()[0]) + 1
    return list(range(start, start + count))


def commit_unsynced() -> None:
    """Inside a transaction of generated rows (PostgreSQL): its commit need not wait for
    the disk (a crash can lose the last transactions written, never half of one), and
    large values (the determinations) are compressed with lz4 where the server has it,
    several times faster to write than the default."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL synchronous_commit TO OFF")
        cursor.execute(
            "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'"
        )
        row = cursor.fetchone()
        if row and row[0]:
            cursor.execute("SET LOCAL default_toast_compression TO 'lz4'")


class Table:
    """Rows of one model's table, each a dict of column names (``site_id``, not ``site``)
    to values; every row names the same columns. A column no row names gets the field's
    default where it has one, and a text column the empty text Django itself would store
    (a column added to the model later, NOT NULL with a default only Django knows, is
    filled the same way)."""

    def __init__(self, model: type[models.Model]) -> None:
        self.model = model
        self.table = model._meta.db_table
        self.fields = {f.column: f for f in model._meta.concrete_fields}

    def write(self, rows: Sequence[dict[str, Any]]) -> int:
        if not rows:
            return 0
        columns = list(rows[0])
        unknown = [c for c in columns if c not in self.fields]
        if unknown:
            raise ValueError(f"{self.table} has no column {unknown[0]!r}")
        defaults: list[Any] = []
        for column, found in self.fields.items():
            if column in columns or found.primary_key or found.null:
                continue
            if not (found.has_default() or found.empty_strings_allowed):
                continue
            value = found.get_default()
            columns.append(column)
            defaults.append(json.dumps(value) if isinstance(found, models.JSONField) else value)
        named = len(rows[0])
        extra = tuple(defaults)
        tuples = (tuple(row[c] for c in columns[:named]) + extra for row in rows)
        if connection.vendor == "postgresql":
            return self._copy(columns, tuples)
        return self._insert(columns, tuples)

    def _copy(self, columns: list[str], rows: Iterable[tuple[Any, ...]]) -> int:
        names = ", ".join(f'"{c}"' for c in columns)
        count = 0
        with (
            connection.cursor() as cursor,
            cursor.copy(f'COPY "{self.table}" ({names}) FROM STDIN') as copy,
        ):
            for row in rows:
                copy.write_row(row)
                count += 1
        return count

    def _insert(self, columns: list[str], rows: Iterable[tuple[Any, ...]]) -> int:
        names = ", ".join(f'"{c}"' for c in columns)
        one = "(" + ", ".join(["%s"] * len(columns)) + ")"
        fields = [self.fields[c] for c in columns]
        count = 0
        batch: list[Any] = []
        with connection.cursor() as cursor:
            for row in rows:
                batch.extend(_adapt(fields, row))
                count += 1
                if count % SQLITE_BATCH == 0:
                    cursor.execute(self._statement(names, one, SQLITE_BATCH), batch)
                    batch = []
            if batch:
                cursor.execute(self._statement(names, one, len(batch) // len(columns)), batch)
        return count

    def _statement(self, names: str, one: str, rows: int) -> str:
        return f'INSERT INTO "{self.table}" ({names}) VALUES ' + ", ".join([one] * rows)


def _adapt(fields: list[models.Field[Any, Any]], row: tuple[Any, ...]) -> list[Any]:
    """Values as the SQLite backend stores them (JSON arrives as text already)."""
    values = []
    for field, value in zip(fields, row, strict=True):
        if value is None or isinstance(field, models.JSONField):
            values.append(value)
        elif isinstance(value, datetime.datetime):
            values.append(connection.ops.adapt_datetimefield_value(value))
        else:
            values.append(field.get_db_prep_save(value, connection))
    return values
