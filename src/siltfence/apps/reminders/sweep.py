"""The day's work, run by the worker's ``daily_sweep_task`` or by ``manage.py siltfence_sweep
--now``: the rain onto permits and their duties (``duties.rain_events``,
``duties.services``), then the reminders (``reminders.services``) and the emails that carry
them (``outbox.services``).

It sits above duties, in the reminders app, since the reminders read the stored duties:
nothing in ``duties`` calls the reminders; only this module, the task and the command do
(docs/decisions/0049-lower-apps-signal-higher-ones.md).
"""

from __future__ import annotations

import datetime

from django.utils import timezone

from siltfence.apps.duties.models import SweepRun
from siltfence.apps.duties.rain_events import rain_sweep
from siltfence.apps.duties.services import permit_duties_recompute, stale_permit_ids
from siltfence.apps.duties.stations import site_station_assign
from siltfence.apps.outbox.services import outbox_send
from siltfence.apps.permits.models import Site
from siltfence.apps.permits.stored_clocks import decision_clocks_refresh
from siltfence.apps.reminders.services import reminders_send


def daily_sweep(*, day: datetime.date, as_of: datetime.datetime | None = None) -> SweepRun:
    """The day's work: stations for sites that have none, the rain sweep, the duties of
    every permit whose stored duties are out of date (a rain landed on it; a duty fell due
    or a new inspection period began, which changes them without any event; the ordinance
    data, the office calendar or the code changed), then the reminders."""
    moment = as_of or timezone.now()
    run = SweepRun.objects.create(day=day, started_at=timezone.now())
    decision_clocks_refresh()  # the review queue's, after new ordinance data or code
    for site in Site.objects.filter(rain__isnull=True, applications__permit__status="active"):
        site_station_assign(site=site)
    result = rain_sweep(day=day)
    # The permits the rain landed on are among them: their events changed.
    recomputed = permit_duties_recompute(permit_ids=stale_permit_ids(moment), as_of=moment)
    sent = reminders_send(as_of=moment)
    outbox_send()  # the reminders' emails, and any message still waiting
    run.rain_events = result.rain_events
    run.permits_recomputed = recomputed
    run.reminders_sent = sent
    run.finished_at = timezone.now()
    run.save()
    return run
