"""The worker's part of the outbox: send what is due (``services.outbox_send``)."""

from __future__ import annotations

from typing import Any

from django.tasks import task


@task()
def outbox_send_task() -> dict[str, Any]:
    from siltfence.apps.outbox.services import outbox_send

    run = outbox_send()
    return {"sent": run.sent, "failed": run.failed, "waiting": run.waiting}
