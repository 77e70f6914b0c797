"""`manage.py check --deploy`: a production server signs the audit checkpoints."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Tags, Warning, register

from siltfence.apps.audit.anchor import KEY_MIN_LENGTH


@register(Tags.security, deploy=True)
def audit_key_check(app_configs: Any = None, **kwargs: Any) -> list[Warning]:
    key = getattr(settings, "SILTFENCE_AUDIT_KEY", "")
    if len(key) >= KEY_MIN_LENGTH:
        return []
    return [
        Warning(
            "SILTFENCE_AUDIT_KEY is not set, or shorter than "
            f"{KEY_MIN_LENGTH} characters: the audit checkpoints cannot be signed, so a "
            "rewritten audit history would go unnoticed.",
            hint="Set SILTFENCE_AUDIT_KEY from the environment and keep it out of the "
            "database and its backups (docs/deploy.md).",
            id="siltfence.W001",
        )
    ]
