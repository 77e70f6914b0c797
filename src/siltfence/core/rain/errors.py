"""The one error a rain file raises: the line and the reason, in one sentence."""

from __future__ import annotations

from siltfence.core.errors import SiltfenceError


class RainFileError(SiltfenceError):
    """A rain file is malformed, too big, or not a rain file siltfence reads.

    The message starts with ``rain: line N:`` where a line is at fault, so a clerk can open
    the file at that line; the CLI prints it and exits 2, the API answers 400 with it.
    """

    def __init__(self, reason: str, line: int | None = None) -> None:
        where = f"rain: line {line}: " if line is not None else "rain: "
        super().__init__(where + reason, field="rain")
        self.line = line
        self.reason = reason
