"""Determinations: does a chapter apply to a project, which plan, which requirements."""

from siltfence.core.rules.determine import Determination, determine

__all__ = ["Determination", "determine"]
