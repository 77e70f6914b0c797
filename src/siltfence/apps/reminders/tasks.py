"""Background work of the daily sweep, run by the database-backed worker
(``manage.py db_worker``).

The daily trigger is a timer outside the application (cron or a systemd timer) that runs
``manage.py siltfence_sweep``, which puts ``daily_sweep_task`` on the queue; the worker
runs it. See the README, "Running it in production".
"""

from __future__ import annotations

import datetime
from typing import Any

from django.tasks import task


@task()
def daily_sweep_task(day: str | None = None) -> dict[str, Any]:
    """The rain sweep, the recomputed duties and the reminders, for ``day`` (YYYY-MM-DD;
    today in the village by default)."""
    from django.utils import timezone

    from siltfence.apps.reminders.sweep import daily_sweep

    when = datetime.date.fromisoformat(day) if day else timezone.localdate()
    run = daily_sweep(day=when)
    return {
        "day": run.day.isoformat(),
        "rain_events": run.rain_events,
        "permits_recomputed": run.permits_recomputed,
        "reminders_sent": run.reminders_sent,
    }
