"""Who sees which messages: a village's staff see their village's, never a secret body."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import village_ids
from siltfence.apps.outbox.models import Message


def messages_visible_to(user: Any) -> QuerySet[Message]:
    return Message.objects.filter(village_id__in=village_ids(user, Role.STAFF))


def messages_about_permit(user: Any, permit: Any) -> list[Message]:
    return list(messages_visible_to(user).filter(permit=permit)[:50])


def messages_about_case(user: Any, case: Any) -> list[Message]:
    """The emails that told of the case's steps, newest first, for its village's staff."""
    return list(messages_visible_to(user).filter(case=case)[:50])
