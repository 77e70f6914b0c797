"""The daily trigger and the worker: `manage.py siltfence_sweep` puts the day's sweep on
the queue, and the database-backed worker runs it (rain written, duties stored, reminders
sent); a bad --day is refused naming the option."""

from __future__ import annotations

import datetime
import io

import pytest
from django.core import mail
from django.core.management import CommandError, call_command
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from sitework import permit_issued, station_with_record

from siltfence.apps.duties.models import PermitDuties, SweepRun
from siltfence.apps.duties.stations import stations_sync
from siltfence.apps.outbox.models import Message
from siltfence.apps.permits.models import TimelineEvent
from siltfence.apps.rain.days import rain_days_record

pytestmark = pytest.mark.django_db
MARSHFIELD = "USC00475120"


@pytest.mark.django_db(transaction=True)
def test_the_queued_sweep_is_run_by_the_worker(people):
    stations_sync()
    now = timezone.now()
    permit = permit_issued(
        applicant=people.applicant_a,
        staff=people.staff["spencer-wi"],
        village="spencer-wi",
        filed=now - datetime.timedelta(days=10),
    )
    station_with_record(site=permit.application.site)
    yesterday = timezone.localdate() - datetime.timedelta(days=1)
    rain_days_record(station_id=MARSHFIELD, days={yesterday: 200}, source="test")
    out = io.StringIO()
    call_command("siltfence_sweep", stdout=out)
    assert "queued for the worker" in out.getvalue()
    sweeps = DBTaskResult.objects.filter(task_path__endswith="daily_sweep_task")
    assert sweeps.filter(status="READY").count() == 1
    assert SweepRun.objects.count() == 0  # nothing runs until the worker takes it
    call_command("db_worker", "--batch", "--no-startup-delay", stdout=io.StringIO())
    assert sweeps.get().status == "SUCCESSFUL"
    run = SweepRun.objects.get()
    assert run.rain_events == 1 and run.day == timezone.localdate()
    assert TimelineEvent.objects.filter(application=permit.application, type="rain").count() == 1
    assert PermitDuties.objects.filter(permit=permit).exists()
    assert any(
        people.applicant_a.email in m.to and "duty reminder" in m.subject for m in mail.outbox
    )
    # The notices of the filing and the approval, queued when they were made, went too.
    assert not Message.objects.exclude(status="sent").exists()
    assert {m.subject for m in mail.outbox} >= {
        f"New application {permit.application.number}",
        f"Application {permit.application.number} approved",
    }


def test_a_bad_day_is_refused_naming_the_option():
    with pytest.raises(CommandError) as refused:
        call_command("siltfence_sweep", "--day", "2026-02-30", "--now")
    assert str(refused.value).startswith("--day: ")
