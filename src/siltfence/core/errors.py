"""Errors the core raises for bad input.

Every error names what was wrong (the field, the file and key) in one sentence that a
clerk or an applicant can act on. The CLI prints ``str(error)`` and exits 2; the API
answers 400 with the same text.
"""

from __future__ import annotations


class SiltfenceError(ValueError):
    """Bad input: the message names the field, what was expected and what was received."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class FactsError(SiltfenceError):
    """A project fact is unknown, of the wrong type, or in a unit that does not fit."""

    def __init__(self, key: str, reason: str) -> None:
        super().__init__(f"facts.{key}: {reason}", field=key)
        self.key = key
        self.reason = reason


class OrdinanceFileError(SiltfenceError):
    """An ordinance data file is malformed. Names the file, the key and the reason."""

    def __init__(self, file: str, key: str, reason: str) -> None:
        where = f"{file}: {key}" if key else file
        super().__init__(f"{where}: {reason}", field=key)
        self.file = file
        self.key = key
        self.reason = reason


class UnknownJurisdiction(SiltfenceError):
    def __init__(self, jurisdiction_id: str, known: list[str]) -> None:
        super().__init__(
            f"jurisdiction: no ordinance is encoded for {jurisdiction_id!r}; "
            f"known jurisdictions are {', '.join(known)}",
            field="jurisdiction",
        )


class NotInForce(SiltfenceError):
    """The evaluation date falls before the chapter was adopted."""

    def __init__(self, message: str) -> None:
        super().__init__(message, field="on")
