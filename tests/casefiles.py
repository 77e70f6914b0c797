"""Reading the worked-case files beside the ordinances, strictly, for the collectors: by
the core's own reader of YAML (duplicate keys refused, only true/false as booleans)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from siltfence.core.errors import OrdinanceFileError
from siltfence.core.ordinance.yamlfile import read_yaml

REPO = Path(__file__).resolve().parent.parent


class MalformedCase(Exception):
    """A case file that does not follow the format; collection stops on it."""


def read_cases(path: Path, *, dates_as_text: bool) -> Any:
    """The parsed content of one case file (a file that is not YAML, or has a duplicate
    key, is a ``MalformedCase``)."""
    try:
        return read_yaml(path, path.name, dates_as_text=dates_as_text)
    except OrdinanceFileError as exc:
        raise MalformedCase(str(exc)) from None
