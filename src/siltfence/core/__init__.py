"""The law as code: no Django, no clock.

The modules a determination on the command line imports (the chapter's loader and its
model, the facts, the rules) name their types for the type checker only: ``typing`` is
imported under ``TYPE_CHECKING`` (a constant that is False at run time and that the type
checker reads as True), so a cold ``siltfence determine`` does not load it (decision 60).
"""
