"""The kinds of notice a person may turn off, and whether they receive each."""

from __future__ import annotations

from typing import Any

from siltfence.apps.notices.services import GROUPS
from siltfence.apps.outbox.models import NoticePreference


def notice_choices(user: Any) -> list[dict[str, Any]]:
    """The kinds of notice a person may turn off, each with whether they receive it."""
    found = NoticePreference.objects.filter(user=user).first()
    off = set(found.off) if found else set()
    return [{"name": g, "label": label, "on": g not in off} for g, label in GROUPS.items()]
