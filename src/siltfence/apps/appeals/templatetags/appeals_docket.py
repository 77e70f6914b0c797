"""``{% load appeals_docket %}``: how many appeals wait for the person's board."""

from __future__ import annotations

from typing import Any

from django import template

from siltfence.apps.appeals.models import AppealStatus
from siltfence.apps.appeals.selectors import docket

register = template.Library()


@register.simple_tag
def undecided_appeals(user: Any) -> int:
    return docket(user).exclude(status=AppealStatus.DECIDED).count()
