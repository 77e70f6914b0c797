"""The outbox: an email is recorded with the change it tells of, sent by the worker, marked
sent only once the mail server took it, tried again after a growing pause when it did not,
and shown to the village's staff, who can send a failed one again."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core import mail
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from factories import make_user
from mail_backends import REFUSING, TAKING
from sitework import local

from siltfence.apps.accounts.models import Role
from siltfence.apps.duties.services import permit_duties_recompute
from siltfence.apps.outbox import services as outbox
from siltfence.apps.outbox.models import Message, MessageStatus
from siltfence.apps.outbox.services import (
    MAX_ATTEMPTS,
    message_record,
    message_send_again,
    outbox_send,
)
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.reminders.models import ReminderSent
from siltfence.apps.reminders.services import reminders_send

pytestmark = pytest.mark.django_db
MARSHFIELD = "USC00475120"


def _remind(permit: Any) -> int:
    """The evening of the rain: the permit's duties worked out, and its reminders recorded."""
    as_of = local(2026, 7, 8, 20)
    permit_duties_recompute(permit_ids=[permit.pk], as_of=as_of)
    return reminders_send(as_of=as_of)


def _due_now() -> None:
    """Let the time of the next try arrive (the pause is minutes to hours)."""
    Message.objects.filter(status=MessageStatus.WAITING).update(
        next_attempt_at=timezone.now() - datetime.timedelta(seconds=1)
    )


def test_reminders_are_recorded_with_their_email_and_sent_only_by_the_sender(rained_on, people):
    recorded = _remind(rained_on)
    assert recorded >= 2
    # Recorded in the sweep's transaction; nothing has reached the mail server yet.
    assert mail.outbox == []
    waiting = Message.objects.filter(status=MessageStatus.WAITING)
    assert {m.to_address for m in waiting} == {
        people.applicant_a.email,
        people.staff["spencer-wi"].email,
    }
    assert all(m.village_id == "spencer-wi" and m.permit_id == rained_on.pk for m in waiting)
    run = outbox_send()
    assert (run.sent, run.failed, run.waiting) == (2, 0, 0)
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        [people.applicant_a.email, people.staff["spencer-wi"].email]
    )
    assert "inspection after rain is due by Thursday July 9, 2026" in mail.outbox[0].body
    assert set(Message.objects.values_list("status", flat=True)) == {MessageStatus.SENT}
    assert outbox_send().sent == 0  # sent once


def test_a_crash_before_the_sweep_commits_loses_no_reminder(rained_on, people, monkeypatch):
    """The reminder and its email are one transaction: a crash while writing the emails
    leaves neither, so the next run sends every reminder (before, 740 were marked sent and
    none ever went out)."""
    real = outbox.message_record
    calls = []

    def crash_on_the_second(**kwargs: Any) -> Any:
        calls.append(kwargs["to"])
        if len(calls) == 2:
            raise RuntimeError("the process was killed")
        return real(**kwargs)

    monkeypatch.setattr(outbox, "message_record", crash_on_the_second)
    with pytest.raises(RuntimeError):
        _remind(rained_on)
    assert ReminderSent.objects.count() == 0 and Message.objects.count() == 0
    monkeypatch.setattr(outbox, "message_record", real)
    assert _remind(rained_on) >= 2
    outbox_send()
    assert {m.to[0] for m in mail.outbox} == {
        people.applicant_a.email,
        people.staff["spencer-wi"].email,
    }


def test_a_refused_email_waits_and_is_sent_on_a_later_try(rained_on, people):
    _remind(rained_on)
    before = timezone.now()
    with override_settings(MAILERS=REFUSING):
        run = outbox_send()
    assert (run.sent, run.failed, run.waiting) == (0, 2, 2)
    message = Message.objects.filter(to_address=people.applicant_a.email).get()
    assert message.status == MessageStatus.WAITING and message.attempts == 1
    assert "SMTPRecipientsRefused" in message.last_error and "550" in message.last_error
    # The first pause is one minute: not tried again before then.
    pause = message.next_attempt_at - before
    assert datetime.timedelta(seconds=59) < pause < datetime.timedelta(seconds=75)
    assert outbox_send().sent == 0
    assert mail.outbox == []
    _due_now()
    with override_settings(MAILERS=TAKING):
        assert outbox_send().sent == 2
    message.refresh_from_db()
    assert message.status == MessageStatus.SENT and message.attempts == 2
    assert message.last_error == ""


@pytest.mark.parametrize(
    ("attempts", "minutes"),
    [(1, 1), (2, 2), (3, 4), (9, 256), (10, 360), (11, 360)],
)
def test_the_pause_doubles_from_a_minute_up_to_six_hours(attempts, minutes):
    assert outbox._pause(attempts) == datetime.timedelta(minutes=minutes)


def test_after_every_try_fails_staff_see_it_and_can_send_it_again(rained_on, people):
    _remind(rained_on)
    with override_settings(MAILERS=REFUSING):
        for _ in range(MAX_ATTEMPTS - 1):
            _due_now()
            outbox_send()
        assert Message.objects.filter(status=MessageStatus.FAILED).count() == 0
        _due_now()
        outbox_send()
    assert Message.objects.filter(status=MessageStatus.FAILED).count() == 2
    _due_now()
    assert outbox_send().sent == 0  # a failed message is not tried by itself again

    staff = people.staff["spencer-wi"]
    client = Client()
    client.force_login(staff)
    page = client.get(reverse("outbox:messages") + "?status=failed")
    assert page.status_code == 200
    text = page.content.decode()
    assert "2 emails could not be sent" in text
    assert "mailbox unavailable" in text
    failed = Message.objects.get(to_address=people.applicant_a.email)
    answer = client.post(reverse("outbox:send-again", args=[failed.pk]))
    assert answer.status_code == 302
    failed.refresh_from_db()
    assert failed.status == MessageStatus.WAITING and failed.attempts == 0
    assert outbox_send().sent == 1
    assert mail.outbox[0].to == [people.applicant_a.email]
    # The permit page lists the emails about it, for staff.
    permit_page = client.get(reverse("web:permit", args=[rained_on.pk])).content.decode()
    assert "Emails about this permit" in permit_page and "not sent" in permit_page


def test_only_the_village_s_staff_see_its_emails_and_send_them_again(rained_on, people):
    _remind(rained_on)
    with override_settings(MAILERS=REFUSING):
        for _ in range(MAX_ATTEMPTS):
            _due_now()
            outbox_send()
    failed = Message.objects.filter(status=MessageStatus.FAILED).first()
    other = people.staff["new-glarus-wi"]
    with pytest.raises(ActionRefused) as refused:
        message_send_again(staff=other, message_id=failed.pk)
    assert refused.value.field == "message"
    with pytest.raises(ActionRefused):
        message_send_again(staff=people.inspector["spencer-wi"], message_id=failed.pk)
    client = Client()
    client.force_login(other)
    assert people.applicant_a.email not in client.get(reverse("outbox:messages")).content.decode()
    client.force_login(people.applicant_a)
    assert client.get(reverse("outbox:messages")).status_code == 403
    assert client.post(reverse("outbox:send-again", args=[failed.pk])).status_code == 403
    failed.refresh_from_db()
    assert failed.status == MessageStatus.FAILED
    permit_page = client.get(reverse("web:permit", args=[rained_on.pk])).content.decode()
    assert "Emails about this permit" not in permit_page  # the permittee's page


def test_a_message_another_sender_holds_is_left_alone(rained_on):
    _remind(rained_on)
    Message.objects.update(claimed_until=timezone.now() + datetime.timedelta(minutes=4))
    assert outbox_send().sent == 0
    # A sender that died holding them frees them when its claim runs out.
    Message.objects.update(claimed_until=timezone.now() - datetime.timedelta(seconds=1))
    assert outbox_send().sent == 2


def test_a_transaction_of_many_messages_asks_the_worker_once(
    people, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        for n in range(3):
            message_record(kind="t", to=f"p{n}@example.org", subject="s", body="b")
    assert DBTaskResult.objects.filter(task_path__endswith="outbox_send_task").count() == 1
    with django_capture_on_commit_callbacks(execute=True):
        message_record(kind="t", to="q@example.org", subject="s", body="b")
    # Still one: a send is already queued to run now.
    assert DBTaskResult.objects.filter(task_path__endswith="outbox_send_task").count() == 1


def test_a_refused_try_queues_the_next_for_when_it_falls_due(people):
    message_record(kind="t", to="p@example.org", subject="s", body="b")
    DBTaskResult.objects.all().delete()
    with override_settings(MAILERS=REFUSING):
        outbox_send()
    (queued,) = DBTaskResult.objects.filter(task_path__endswith="outbox_send_task")
    assert queued.run_after == Message.objects.get().next_attempt_at


@pytest.mark.parametrize("to", ["", "no-at-sign", "a@" + "b" * 260])
def test_a_message_needs_an_address(people, to):
    with pytest.raises(ActionRefused) as refused:
        message_record(kind="t", to=to, subject="s", body="b")
    assert refused.value.field == "to"


def test_the_staff_page_hides_a_secret_body_and_a_sent_secret_is_emptied(people):
    staff = people.staff["spencer-wi"]
    message_record(
        kind="t",
        to="p@example.org",
        subject="Private",
        body="https://example.org/reset/SECRET-TOKEN",
        village_id="spencer-wi",
        secret=True,
    )
    client = Client()
    client.force_login(staff)
    assert "SECRET-TOKEN" not in client.get(reverse("outbox:messages")).content.decode()
    outbox_send()
    assert "SECRET-TOKEN" in mail.outbox[0].body
    assert "SECRET-TOKEN" not in Message.objects.get().body


def test_the_outbox_command_fails_when_an_email_could_not_be_sent(people):
    from django.core.management import CommandError, call_command

    message_record(kind="t", to="p@example.org", subject="s", body="b")
    call_command("siltfence_outbox")
    assert len(mail.outbox) == 1
    Message.objects.update(status=MessageStatus.FAILED)
    with pytest.raises(CommandError, match="1 email"):
        call_command("siltfence_outbox")


def test_staff_of_a_village_are_the_only_members_who_see_its_emails(people):
    page = Client().get(reverse("outbox:messages"))
    assert page.status_code == 302 and page["Location"].startswith(reverse("web:login"))
    # An inspector and a board member of the village: members, not its staff.
    for user in (people.inspector["spencer-wi"], people.board["spencer-wi"]):
        client = Client()
        client.force_login(user)
        assert client.get(reverse("outbox:messages")).status_code == 403
    staff_two = make_user("second-staff", village="spencer-wi", role=Role.STAFF)
    client = Client()
    client.force_login(staff_two)
    assert client.get(reverse("outbox:messages")).status_code == 200
