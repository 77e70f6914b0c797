"""Errors for bad engineering input: each names the field and the reason."""

from __future__ import annotations

from siltfence.core.errors import SiltfenceError


class EngineeringInputError(SiltfenceError):
    """An input to a design check is missing, of the wrong type, or in a unit that does not fit."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}", field=field)
        self.reason = reason


class GeometryError(EngineeringInputError):
    """Site geometry (GeoJSON) that cannot be used: the message names the member and why."""
