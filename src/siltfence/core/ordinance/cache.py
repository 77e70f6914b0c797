"""The cache of checked ordinance folders.

A folder that passed its checks is kept, as JSON, in the user's cache directory
(``$SILTFENCE_CACHE_DIR``, else ``~/.cache/siltfence``). Its key is made of each file's size
and modification time and of the loader's own code, so the next process skips reading and
checking unchanged files, and any change is a fresh read.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from siltfence.core.board import rule as _board
from siltfence.core.ordinance import checks as _checks
from siltfence.core.ordinance import schema as _schema
from siltfence.core.ordinance import sentences as _sentences
from siltfence.core.ordinance import specs as _specs
from siltfence.core.ordinance import state_law as _state_law
from siltfence.core.ordinance import states as _states
from siltfence.core.ordinance import yamlfile as _yamlfile
from siltfence.core.ordinance.specs import FILES


def _cache_dir() -> Path:
    explicit = os.environ.get("SILTFENCE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "siltfence"


def _cache_key(folder: Path) -> str:
    import hashlib

    # Imported here, not above: the loader imports this module.
    from siltfence.core.ordinance import loader as _loader

    parts = [str(folder.resolve())]
    code = (
        Path(_loader.__file__),
        Path(_specs.__file__),
        Path(_checks.__file__),
        Path(__file__),
        Path(_schema.__file__),
        Path(_sentences.__file__),
        Path(_board.__file__),
        Path(_states.__file__),
        Path(_state_law.__file__),
        Path(_yamlfile.__file__),
    )
    for path in [*(folder / name for name in FILES), *code]:
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
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:32]


# The cache holds the checked files as JSON (what YAML gave: text, numbers, true/false,
# lists and mappings), never a format that can run code when read.
CACHE_SUFFIX = ".json"


def _cache_read(key: str) -> dict[str, Any] | None:
    if not key:
        return None
    import json

    try:
        with open(_cache_dir() / f"ordinance-{key}{CACHE_SUFFIX}", encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def _cache_write(key: str, raw: dict[str, Any]) -> None:
    if not key:
        return
    import json
    import tempfile

    directory = _cache_dir()
    try:
        text = json.dumps(raw, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return  # something JSON cannot hold exactly: not cached, read each time
    try:
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=directory, delete=False
        ) as handle:
            handle.write(text)
        os.replace(handle.name, directory / f"ordinance-{key}{CACHE_SUFFIX}")
    except OSError:
        pass  # a read-only home only costs speed
