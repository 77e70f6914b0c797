"""Permissions as predicates (django-rules): "staff of this village", "applicant of this
application". Views and services both ask these, and querysets are scoped by the
selectors in ``siltfence.apps.permits.selectors`` the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from siltfence.apps.accounts.models import Role

if TYPE_CHECKING:
    # django-rules has no annotations. Its ``predicate`` makes a ``Predicate``, which, called,
    # calls the function it wraps.
    def predicate(fn: Callable[[Any, Any], bool]) -> Callable[[Any, Any], bool]: ...
else:
    from rules import predicate


def village_ids(user: Any, *roles: Role) -> set[str]:
    if not getattr(user, "is_authenticated", False):
        return set()
    cache = getattr(user, "_siltfence_roles", None)
    if cache is None:
        cache = list(user.memberships.values_list("village_id", "role"))
        user._siltfence_roles = cache
    wanted = {r.value for r in roles}
    return {village for village, role in cache if role in wanted}


def _village_of(obj: Any) -> str | None:
    meta = getattr(obj, "_meta", None)
    if meta is not None and meta.label == "permits.Village":
        return str(obj.pk)
    for attribute in ("village_id", "jurisdiction"):
        value = getattr(obj, attribute, None)
        if value:
            return str(value)
    return None


@predicate
def is_staff_of(user: Any, obj: Any) -> bool:
    return _village_of(obj) in village_ids(user, Role.STAFF)


@predicate
def is_inspector_of(user: Any, obj: Any) -> bool:
    return _village_of(obj) in village_ids(user, Role.INSPECTOR)


@predicate
def is_board_member_of(user: Any, obj: Any) -> bool:
    return _village_of(obj) in village_ids(user, Role.APPEALS_BOARD)


def sees_appeals_docket(user: Any) -> bool:
    """The docket of appeals is the appeals board's and the village's staff's."""
    return bool(village_ids(user, Role.STAFF, Role.APPEALS_BOARD))


@predicate
def is_applicant_of(user: Any, obj: Any) -> bool:
    application = getattr(obj, "application", obj)
    return bool(
        getattr(user, "is_authenticated", False)
        and getattr(application, "applicant_id", None) == user.pk
    )
