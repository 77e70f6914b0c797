"""The session engine (decision 45): Django's cached sessions, kept in the database and in
the cache every worker shares (``SESSION_CACHE_ALIAS``), so a signed-in request reads its
session from the cache, and the database only when the cache does not have it.

One change to Django's engine: a session that ends (signing out, a new key at sign-in) leaves
a mark in the shared cache for as long as a session can live, instead of no entry. Without
it, a request of the same session on another worker that had just read the session from the
database (the cache did not have it) could put it back into the cache after it ended, where
it would go on being accepted. A request that finds the mark gets an empty session, as for a
session not in the database.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.sessions.backends.cached_db import SessionStore as CachedDBStore
from django.contrib.sessions.backends.db import SessionStore as DBStore

if TYPE_CHECKING:
    from django.contrib.sessions.models import Session
    from django.core.cache.backends.base import BaseCache

ENDED = "siltfence:session-ended"


class SessionStore(CachedDBStore):
    if TYPE_CHECKING:
        # Django's cached engine has these; its stubs leave them out (private).
        _cache: BaseCache

        def _get_session_from_db(self) -> Session | None: ...

    def load(self) -> dict[str, Any]:
        try:
            data = self._cache.get(self.cache_key)
        except Exception:  # as Django's engine: a key the backend refuses is no session
            data = None
        if data == ENDED:
            self._session_key = None
            return {}
        if data is None:
            found = self._get_session_from_db()
            if not found:
                return {}
            data = self.decode(found.session_data)
            # ``add``, not ``set``: the session may have ended since it was read.
            self._cache.add(self.cache_key, data, self.get_expiry_age(expiry=found.expire_date))
        session: dict[str, Any] = data
        return session

    def delete(self, session_key: str | None = None) -> None:
        if session_key is None:
            if self.session_key is None:
                return
            session_key = self.session_key
        # The mark first, then the database's row (``DBStore.delete``; Django's cached
        # engine would remove the cache's entry afterwards): from the mark on, no worker
        # accepts the session.
        self._cache.set(self.cache_key_prefix + session_key, ENDED, settings.SESSION_COOKIE_AGE)
        DBStore.delete(self, session_key)
