"""What the stored, computed values are computed from, as digests: the code that computes
them and a village's ordinance data. A stored value made from other inputs is out of date,
and the daily sweep recomputes it (docs/decisions/0025-stored-duties-know-their-inputs.md).

The digests read the installed files once per process, as the ordinance loader does."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from siltfence.core.ordinance.loader import FILES, load

# The code that turns events into stored values: the core, the stored decision clocks and
# the stored duties. A release that changes any of them changes every digest.
_COMPUTING = ("siltfence.apps.permits.stored_clocks", "siltfence.apps.duties.services")


@functools.cache
def code_digest() -> str:
    import importlib

    import siltfence.core

    digest = hashlib.sha256()
    core = Path(siltfence.core.__file__).parent
    modules = [Path(str(importlib.import_module(name).__file__)) for name in _COMPUTING]
    for path in [*sorted(core.rglob("*.py")), *modules]:
        digest.update(path.read_bytes())
    return digest.hexdigest()


@functools.cache
def ordinance_digest(village_id: str) -> str:
    """The village's ordinance files as loaded, and the code: 24 hex digits."""
    digest = hashlib.sha256(code_digest().encode())
    folder = load(village_id).folder
    for name in FILES:
        digest.update(name.encode())
        digest.update((folder / name).read_bytes())
    return digest.hexdigest()[:24]
