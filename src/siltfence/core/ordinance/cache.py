"""The cache of checked ordinance folders.

A folder that passed its checks is kept, as JSON, in the user's cache directory
(``$SILTFENCE_CACHE_DIR``, else ``~/.cache/siltfence``), one file per folder. Its key is made
of each file's size and modification time and of the loader's own code, and is kept whole
in the file beside the checked data: the next process skips reading and checking unchanged
files, and any change is a fresh read.
"""

from __future__ import annotations

import functools
import importlib.util
import os
from pathlib import Path

from siltfence.core.ordinance import states as _states
from siltfence.core.ordinance.specs import FILES

TYPE_CHECKING = False  # typing is not imported at run time: see siltfence/core/__init__.py
if TYPE_CHECKING:
    from typing import Any

# The modules whose code reads or checks a chapter: a change to any is a fresh read. Found
# by name, not imported: a process that finds its chapter in the cache (a determination
# on the command line) never needs the YAML reader or the checks.
_CODE = (
    "siltfence.core.ordinance.loader",
    "siltfence.core.ordinance.specs",
    "siltfence.core.ordinance.checks",
    "siltfence.core.ordinance.cache",
    "siltfence.core.ordinance.schema",
    "siltfence.core.ordinance.sentences",
    "siltfence.core.board.rule",
    "siltfence.core.ordinance.states",
    "siltfence.core.ordinance.state_law",
    "siltfence.core.ordinance.yamlfile",
)


@functools.cache
def _code_files() -> tuple[Path, ...]:
    found = []
    for name in _CODE:
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin is not None, name
        found.append(Path(spec.origin))
    return tuple(found)


def _cache_dir() -> Path:
    explicit = os.environ.get("SILTFENCE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "siltfence"


def _cache_key(folder: Path) -> str:
    """What a cached folder must have been read from, in full ("" when a file is missing)."""
    # Imported here, not above: the loader imports this module.
    from siltfence.core.ordinance import loader as _loader

    parts = [str(folder.resolve())]
    for path in [*(folder / name for name in FILES), *_code_files()]:
        try:
            stat = path.stat()
        except OSError:
            return ""  # a missing file is reported by the full load, never cached
        parts.append(f"{path.name}:{stat.st_size}:{stat.st_mtime_ns}")
    # Every state folder the village's could be (its state is named in a file not yet
    # read): a change to any of them is a fresh read.
    for root in _states.state_roots(folder, _loader.installed_root()):
        parts.append(str(root.resolve()))
        for path in sorted(root.glob("*/*.yaml")):
            try:
                stat = path.stat()
            except OSError:
                return ""
            parts.append(f"{path.parent.name}/{path.name}:{stat.st_size}:{stat.st_mtime_ns}")
    return "|".join(parts)


def _cache_file(folder: Path) -> Path:
    """The folder's entry, named by the folder and a checksum of where it is (not a digest of
    the key: the key is compared whole when read, so the name need only tell folders apart,
    and a cold determination does not load a hashing library for it)."""
    import binascii

    where = binascii.crc32(str(folder.resolve()).encode())
    return _cache_dir() / f"ordinance-{folder.name}-{where:08x}{CACHE_SUFFIX}"


# The cache holds the checked files as JSON (what YAML gave: text, numbers, true/false,
# lists and mappings), never a format that can run code when read.
CACHE_SUFFIX = ".json"


def _cache_read(folder: Path, key: str) -> dict[str, Any] | None:
    """The checked data kept for ``folder`` if it was read from ``key``, else None."""
    if not key:
        return None
    import json

    try:
        with open(_cache_file(folder), encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("key") != key:
        return None
    raw = data.get("raw")
    return raw if isinstance(raw, dict) else None


def _cache_write(folder: Path, key: str, raw: dict[str, Any]) -> None:
    if not key:
        return
    import json
    import tempfile

    entry = _cache_file(folder)
    directory = entry.parent
    try:
        text = json.dumps({"key": key, "raw": raw}, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return  # something JSON cannot hold exactly: not cached, read each time
    try:
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=directory, delete=False
        ) as handle:
            handle.write(text)
        os.replace(handle.name, entry)
    except OSError:
        pass  # a read-only home only costs speed
