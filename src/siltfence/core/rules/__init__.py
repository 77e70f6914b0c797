"""Determinations: does a chapter apply to a project, which plan, which requirements."""

from siltfence.core.rules.determine import Determination, determine, facts_read

__all__ = ["Determination", "determine", "facts_read"]
