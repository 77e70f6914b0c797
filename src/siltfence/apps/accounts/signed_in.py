"""What a signed-in request knows without asking the database (decision 45).

Three answers are kept in the cache every worker shares (``SESSION_CACHE_ALIAS``, beside the
sessions; JSON files, ``accounts.cache``), in one entry for each person:

- the person's row, as Django's sign-in backend returned it for the session (Django reads
  it on every request otherwise);
- the session's second-factor device still exists, is confirmed and is theirs (django-otp
  loads it on every request otherwise);
- they need no code at all: an applicant with no village role and no admin rights
  (``SecondFactorMiddleware`` reads their roles on every request otherwise).

The entry is kept together with the person's *version*: a random token in the same cache,
removed whenever the person's row, one of their devices or one of their village roles is
saved or deleted, at once and again when the transaction commits. The answers count only
while the version they were found under is the current one; a missing version is made anew
before the database is read. So a device revoked (turned off, a new phone, a reset), a
password changed, an account made inactive or a new role is seen by the next request on any
worker, and an answer read from the database just before such a change commits is never
taken for one read after it. A cache that lost an entry (it was full, or cleared) only costs
one more reading of the database. The answers are kept five minutes at most, for a change
made without the model's ``save`` (an ``update()`` of the table, an edit in SQL) or by a
process with another cache folder: that is seen within five minutes.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare

VERSION = "siltfence:sign-in-version:{user}"
ANSWERS = "siltfence:sign-in-answers:{user}"
KEPT_SECONDS = 5 * 60


def _cache() -> Any:
    return caches[settings.SESSION_CACHE_ALIAS]


def _answers(request: HttpRequest, user_pk: Any) -> dict[str, Any]:
    """The answers kept for the person under the current version (``"version"``), read
    once a request: the answers a request keeps are all read from the database after it."""
    read: dict[Any, dict[str, Any]] = request.__dict__.setdefault("_siltfence_sign_in", {})
    if user_pk not in read:
        version_key = VERSION.format(user=user_pk)
        found = _cache().get_many([version_key, ANSWERS.format(user=user_pk)])
        version = found.get(version_key)
        if version is None:
            version = secrets.token_hex(8)
            _cache().set(version_key, version, settings.SESSION_COOKIE_AGE)
        kept = found.get(ANSWERS.format(user=user_pk))
        current = isinstance(kept, dict) and kept.get("version") == version
        read[user_pk] = kept if current else {"version": version}
    return read[user_pk]


def _remember(request: HttpRequest, user_pk: Any, **answers: Any) -> None:
    """Add to the person's answers, under the version this request read. Two requests
    adding at once may lose one's addition (it is then asked again), never keep one under a
    newer version than it was read under."""
    kept = _answers(request, user_pk)
    kept.update(answers)
    _cache().set(ANSWERS.format(user=user_pk), kept, KEPT_SECONDS)


# --- the person -----------------------------------------------------------------------------------


def _user_kept(model: Any, kept: Any) -> Any:
    """The person's row from what ``_user_keep`` wrote, or None when it is of another shape
    (the table has changed since)."""
    fields = model._meta.concrete_fields
    names = [f.attname for f in fields]
    if not (isinstance(kept, dict) and sorted(kept) == sorted(names)):
        return None
    try:
        values = [None if kept[f.attname] is None else f.to_python(kept[f.attname]) for f in fields]
    except Exception:  # not a value of that column: read the row again
        return None
    return model.from_db("default", names, values)


def _user_keep(user: Any) -> dict[str, Any]:
    """The row's columns as JSON keeps them (a time as ISO text: ``to_python`` reads it)."""
    return {f.attname: getattr(user, f.attname) for f in user._meta.concrete_fields}


def user_of(request: HttpRequest) -> Any:
    """``django.contrib.auth.get_user``, the person's row read from the shared cache when it
    is current. Only a session whose hash matches the row's under the current secret key is
    answered from the cache; anything else (no one signed in, an older secret key, a changed
    password, an account gone or inactive) is Django's own ``get_user``, which reads the
    database and ends the session where it must."""
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user,
        get_user_model,
    )

    session = request.session
    backend = session.get(BACKEND_SESSION_KEY)
    given = session.get(HASH_SESSION_KEY)
    if (
        SESSION_KEY not in session
        or backend not in settings.AUTHENTICATION_BACKENDS
        or not isinstance(given, str)
    ):
        return get_user(request)
    model = get_user_model()
    try:
        user_pk = model._meta.pk.to_python(session[SESSION_KEY])
    except Exception:  # not a key of this table: Django's own answer
        return get_user(request)
    kept = _answers(request, user_pk).get("user")
    user = None
    if isinstance(kept, dict) and kept.get("backend") == backend:
        user = _user_kept(model, kept.get("row"))
    if user is not None and constant_time_compare(given, user.get_session_auth_hash()):
        return user
    user = get_user(request)
    if user.is_authenticated and user.pk == user_pk and user._state.db == "default":
        _remember(request, user_pk, user={"backend": backend, "row": _user_keep(user)})
    return user


# --- the second factor ----------------------------------------------------------------------------


def device_known(request: HttpRequest, user_pk: Any, persistent_id: str) -> bool:
    """The device was found valid for the person since their last change."""
    devices = _answers(request, user_pk).get("devices")
    return isinstance(devices, list) and persistent_id in devices


def device_remember(request: HttpRequest, user_pk: Any, persistent_id: str) -> None:
    devices = _answers(request, user_pk).get("devices")
    known = devices if isinstance(devices, list) else []
    _remember(request, user_pk, devices=sorted({*known, persistent_id}))


def code_required(request: HttpRequest, user: Any) -> bool:
    """``second_factor.second_factor_required``, its "no" kept for a person with no village
    role, ended or not yet begun (a term that begins later gives access at a midnight,
    with nothing saved then: such a person is asked about each time)."""
    from siltfence.apps.accounts.models import Membership
    from siltfence.apps.accounts.second_factor import second_factor_required

    if user.is_staff or user.is_superuser:
        return True
    if _answers(request, user.pk).get("no_code") is True:
        return False
    if second_factor_required(user):
        return True
    if not Membership.all_objects.filter(user_id=user.pk, ended_at__isnull=True).exists():
        _remember(request, user.pk, no_code=True)
    return False


# --- what ends the answers ------------------------------------------------------------------------


def changed(user_pk: Any) -> None:
    """The person's row, devices or roles changed: every answer kept for them stops
    counting, now and again once the change is committed (a request that read the database
    before then kept its answer under the old version)."""
    key = VERSION.format(user=user_pk)
    _cache().delete(key)
    transaction.on_commit(lambda: _cache().delete(key))


def _on_person_change(sender: Any, instance: Any, **kwargs: Any) -> None:
    changed(instance.pk)


def _on_change(sender: Any, instance: Any, **kwargs: Any) -> None:
    user_pk = getattr(instance, "user_id", None)
    if user_pk is not None:
        changed(user_pk)


def install() -> None:
    """Watch the people, every django-otp device model and the village roles."""
    from django.apps import apps
    from django.contrib.auth import get_user_model
    from django_otp.models import Device

    from siltfence.apps.accounts.models import Membership

    person = get_user_model()
    post_save.connect(_on_person_change, sender=person, dispatch_uid="accounts.signed_in.user")
    post_delete.connect(_on_person_change, sender=person, dispatch_uid="accounts.signed_in.user-")
    watched = [m for m in apps.get_models() if issubclass(m, Device)] + [Membership]
    for model in watched:
        uid = f"accounts.signed_in.{model._meta.label_lower}"
        post_save.connect(_on_change, sender=model, dispatch_uid=uid)
        post_delete.connect(_on_change, sender=model, dispatch_uid=uid + "-")
