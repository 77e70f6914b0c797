"""Run vendor-specific SQL from a migration (the append-only triggers)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any


def for_vendor(statements_by_vendor: Mapping[str, Sequence[str]]) -> Callable[[Any, Any], None]:
    """A RunPython function executing the statements written for the database in use."""

    def run(apps: Any, schema_editor: Any) -> None:
        vendor = schema_editor.connection.vendor
        statements = statements_by_vendor.get(vendor)
        if statements is None:
            raise RuntimeError(
                f"no append-only triggers for {vendor}; siltfence supports SQLite and PostgreSQL"
            )
        with schema_editor.connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)  # no parameters: '%' in PL/pgSQL stays as written

    return run
