"""The cache every worker shares, for the sessions and what signed-in requests keep
(decision 45): Django's file-based cache, each entry a JSON file instead of a pickle.

Django's own file cache unpickles what it reads, which runs whatever code a file holds: who
could write the folder could run code as the server. JSON gives back only text, numbers,
true/false, nulls, lists and mappings, as the ordinance cache does (decision 37); a file
that is not such an entry is taken for no entry. What is kept here is JSON already: Django's
sessions are (its JSON session serializer), and ``accounts.signed_in`` writes its answers
so. A value JSON cannot hold as it is (a time, a decimal) is written as Django's JSON
encoder writes it, as text; a tuple comes back as a list.

Each entry is written to a new file and renamed over the old one (Django's way), so a
reader sees the old entry or the new one, whole.
"""

from __future__ import annotations

import json
import time
from typing import Any, BinaryIO

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.filebased import FileBasedCache
from django.core.files import locks
from django.core.serializers.json import DjangoJSONEncoder

_NONE = object()


class JSONFileCache(FileBasedCache):
    cache_suffix = ".json"
    # The file names of the keys asked for lately (an md5 each, made once a process).
    PATHS_KEPT = 10_000

    def __init__(self, dir: str, params: dict[str, Any]) -> None:
        super().__init__(dir, params)
        self._paths: dict[tuple[str, int | None], str] = {}

    def _key_to_file(self, key: str, version: int | None = None) -> str:
        path = self._paths.get((key, version))
        if path is None:
            if len(self._paths) >= self.PATHS_KEPT:
                self._paths.clear()
            # ``_key_to_file`` and ``_delete`` of Django's file cache are missing from the
            # stubs (private).
            path = self._paths[(key, version)] = super()._key_to_file(  # type: ignore[misc]
                key, version
            )
        return path

    def _entry(self, f: BinaryIO) -> Any:
        """The value of the open entry ``f``, or ``_NONE`` when it has run out (it is then
        removed) or is not an entry of this cache."""
        try:
            entry = json.loads(f.read())
            expires, value = entry["expires"], entry["value"]
            if expires is not None and not isinstance(expires, int | float):
                return _NONE
        except (ValueError, TypeError, KeyError, RecursionError):
            return _NONE
        if expires is not None and expires < time.time():
            f.close()
            self._delete(f.name)  # type: ignore[attr-defined]
            return _NONE
        return value

    def _is_expired(self, f: BinaryIO) -> bool:
        return self._entry(f) is _NONE

    def _write_content(self, file: BinaryIO, timeout: Any, value: Any) -> None:
        expires = self.get_backend_timeout(timeout)
        file.write(json.dumps({"expires": expires, "value": value}, cls=DjangoJSONEncoder).encode())

    def get(self, key: str, default: Any = None, version: int | None = None) -> Any:
        try:
            with open(self._key_to_file(key, version), "rb") as f:
                value = self._entry(f)
        except FileNotFoundError:
            return default
        return default if value is _NONE else value

    def touch(self, key: str, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        try:
            with open(self._key_to_file(key, version), "r+b") as f:
                try:
                    locks.lock(f, locks.LOCK_EX)
                    value = self._entry(f)
                    if value is _NONE:
                        return False
                    f.seek(0)
                    f.truncate()
                    self._write_content(f, timeout, value)
                    return True
                finally:
                    if not f.closed:
                        locks.unlock(f)
        except FileNotFoundError:
            return False
