"""Reads about a village's people: who holds which role now, and who held one before."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model

from siltfence.apps.accounts.models import Membership, Role
from siltfence.presentation.today import village_today


def current_staff_count(village_id: str, *, excluding: int | None = None) -> int:
    """How many of the village's staff memberships give access today."""
    found = Membership.objects.filter(village_id=village_id, role=Role.STAFF)
    if excluding is not None:
        found = found.exclude(pk=excluding)
    return found.count()


@dataclass(frozen=True)
class PersonRow:
    membership: Membership
    status: str  # "active", "not yet", "term over", "removed"
    has_app: bool
    needs_password: bool


@dataclass(frozen=True)
class VillagePeople:
    today: datetime.date
    current: list[PersonRow]  # memberships not removed, by role then name
    past: list[PersonRow]  # removed, latest first


def _status(membership: Membership, today: datetime.date) -> str:
    if membership.ended_at is not None:
        return "removed"
    if membership.term_start is not None and membership.term_start > today:
        return "not yet"
    if membership.term_end is not None and membership.term_end < today:
        return "term over"
    return "active"


ROLE_ORDER = {Role.STAFF.value: 0, Role.INSPECTOR.value: 1, Role.APPEALS_BOARD.value: 2}


def village_people(village_id: str) -> VillagePeople:
    """Every membership of the village, ended or not, for its staff's people page."""
    from django_otp.plugins.otp_totp.models import TOTPDevice

    today = village_today(village_id)
    rows = list(
        Membership.all_objects.filter(village_id=village_id).select_related(
            "user", "added_by", "ended_by"
        )
    )
    with_app = set(
        TOTPDevice.objects.filter(
            user_id__in={m.user_id for m in rows}, confirmed=True
        ).values_list("user_id", flat=True)
    )

    def row(m: Membership) -> PersonRow:
        return PersonRow(
            membership=m,
            status=_status(m, today),
            has_app=m.user_id in with_app,
            needs_password=not m.user.has_usable_password(),
        )

    def name(m: Membership) -> str:
        return (m.user.get_full_name() or m.user.get_username()).lower()

    current = sorted(
        (row(m) for m in rows if m.ended_at is None),
        key=lambda r: (ROLE_ORDER.get(r.membership.role, 9), name(r.membership)),
    )
    past = sorted(
        (row(m) for m in rows if m.ended_at is not None),
        key=lambda r: (r.membership.ended_at, r.membership.pk),
        reverse=True,
    )
    return VillagePeople(today=today, current=current, past=past)


def membership_of_village(village_id: str, pk: int) -> Membership | None:
    """One membership of the village, ended or not; None for another village's."""
    return (
        Membership.all_objects.filter(village_id=village_id, pk=pk)
        .select_related("user", "added_by", "ended_by")
        .first()
    )


def active_user(*, user_id: Any) -> Any:
    """The active account ``user_id``; None when there is none, or it is turned off."""
    return get_user_model().objects.filter(pk=user_id, is_active=True).first()


def user_by_pk(*, user_id: Any) -> Any:
    """The account ``user_id``, active or not; ``DoesNotExist`` when there is none."""
    return get_user_model().objects.get(pk=user_id)


def account_with_email(*, email: str) -> Any:
    """The account holding ``email`` (in any case); None when there is none."""
    return get_user_model().objects.filter(email__iexact=email).first()


def username_taken(*, username: str) -> bool:
    """Whether an account has ``username`` already (in any case)."""
    return bool(get_user_model().objects.filter(username__iexact=username).exists())
