"""The outbox: record a message with the change it tells of; the worker sends it.

``message_record`` is called inside the transaction that decides the message, and asks the
worker to send once that transaction commits (a rolled-back change sends nothing).
``outbox_send`` is what the worker runs: it takes each message that is due, hands it to the
mail server, and marks it sent only once the server has accepted it. A refusal, a timeout
or an unreachable server leaves the message waiting, tried again after a growing pause
(1, 2, 4 … minutes, at most six hours between tries); after ``MAX_ATTEMPTS`` tries it is
marked failed, and staff see it with the server's answer and can send it again.

A crash between the server accepting a message and the program marking it sent sends that
one message twice on the next run: a reminder twice is better than none.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from siltfence.apps.outbox.models import Message, MessageStatus
from siltfence.apps.permits.errors import ActionRefused

MAX_ATTEMPTS = 12  # about 20 hours of tries before a message is marked failed
LONGEST_PAUSE = datetime.timedelta(hours=6)
# A sender holds a message this long; one that died holding it frees it after.
CLAIM = datetime.timedelta(minutes=5)
# One run sends at most this many, so one run of the worker has an end.
BATCH = 500
MAX_SUBJECT = 200
MAX_BODY = 100_000
SENT_SECRET = "(Removed once sent: it held a private link.)"


def message_record(
    *,
    kind: str,
    to: str,
    subject: str,
    body: str,
    user: Any = None,
    village_id: str | None = None,
    permit: Any = None,
    case: Any = None,
    secret: bool = False,
) -> Message:
    """Record one email to ``to``; the worker sends it once the current transaction commits."""
    if not to or "@" not in to or len(to) > 254:
        raise ActionRefused("to: an email address is needed to send a message", field="to")
    message = Message.objects.create(
        kind=kind[:40],
        to_address=to,
        user=user,
        village_id=village_id if village_id is not None else getattr(permit, "village_id", None),
        permit=permit,
        case=case,
        subject=subject[:MAX_SUBJECT],
        body=body[:MAX_BODY],
        secret=secret,
        next_attempt_at=timezone.now(),
    )
    _wake_after_commit()
    return message


def _queued_before(moment: datetime.datetime) -> bool:
    """Whether a send is already queued to run by ``moment`` (so none is added)."""
    from django_tasks_db.models import DBTaskResult, get_date_max

    from siltfence.apps.outbox.tasks import outbox_send_task

    return (
        DBTaskResult.objects.filter(status="READY", task_path=outbox_send_task.module_path)
        .filter(Q(run_after=get_date_max()) | Q(run_after__lte=moment))
        .exists()
    )


def _wake() -> None:
    from siltfence.apps.outbox.tasks import outbox_send_task

    if _uses_queue_table() and _queued_before(timezone.now()):
        return
    outbox_send_task.enqueue()


def _uses_queue_table() -> bool:
    return settings.TASKS["default"]["BACKEND"] == "django_tasks_db.DatabaseBackend"


def _wake_after_commit() -> None:
    """Ask the worker once per transaction, however many messages it records."""
    # Each entry is (savepoints, function, robust); the stubs know only the first two.
    if any(entry[1] is _wake for entry in connection.run_on_commit):
        return
    transaction.on_commit(_wake)


def _pause(attempts: int) -> datetime.timedelta:
    """The wait before the next try, after ``attempts`` tries that failed."""
    return min(datetime.timedelta(minutes=2 ** (attempts - 1)), LONGEST_PAUSE)


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return f"{type(exc).__name__}: {text}"[:300]


@dataclass
class SendRun:
    sent: int = 0
    failed: int = 0  # tries that failed this run (the message waits, or is marked failed)
    waiting: int = 0  # messages still waiting after the run


def outbox_send(*, limit: int = BATCH) -> SendRun:
    """Send the messages that are due; each is marked sent only after the server took it."""
    run = SendRun()
    now = timezone.now()
    due = list(
        Message.objects.filter(status=MessageStatus.WAITING, next_attempt_at__lte=now)
        .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
        .order_by("next_attempt_at", "pk")
        .values_list("pk", flat=True)[:limit]
    )
    for pk in due:
        now = timezone.now()
        claimed = (
            Message.objects.filter(pk=pk, status=MessageStatus.WAITING)
            .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
            .update(claimed_until=now + CLAIM)
        )
        if not claimed:
            continue  # another sender has it
        message = Message.objects.get(pk=pk)
        try:
            EmailMessage(
                subject=message.subject,
                body=message.body,
                from_email=settings.DEFAULT_FROM_EMAIL,
                to=[message.to_address],
            ).send()
        except Exception as exc:
            _failed(message, exc)
            run.failed += 1
            continue
        Message.objects.filter(pk=pk).update(
            status=MessageStatus.SENT,
            sent_at=timezone.now(),
            attempts=message.attempts + 1,
            claimed_until=None,
            last_error="",
            **({"body": SENT_SECRET} if message.secret else {}),
        )
        run.sent += 1
    run.waiting = Message.objects.filter(status=MessageStatus.WAITING).count()
    _wake_for_retry()
    return run


def _failed(message: Message, exc: BaseException) -> None:
    attempts = message.attempts + 1
    gave_up = attempts >= MAX_ATTEMPTS
    Message.objects.filter(pk=message.pk).update(
        attempts=attempts,
        status=MessageStatus.FAILED if gave_up else MessageStatus.WAITING,
        next_attempt_at=timezone.now() + _pause(attempts),
        claimed_until=None,
        last_error=_one_line(exc),
    )


def _wake_for_retry() -> None:
    """Ask the worker to come back when the next waiting message falls due."""
    following = (
        Message.objects.filter(status=MessageStatus.WAITING)
        .order_by("next_attempt_at")
        .values_list("next_attempt_at", flat=True)
        .first()
    )
    if following is None:
        return
    from siltfence.apps.outbox.tasks import outbox_send_task

    if not outbox_send_task.get_backend().supports_defer:
        return  # a backend that runs tasks at once is asked again by the next message
    when = max(following, timezone.now())
    if _uses_queue_table() and _queued_before(when):
        return
    outbox_send_task.using(run_after=when).enqueue()


def message_send_again(*, staff: Any, message_id: int) -> Message:
    """Staff put a failed message back in the queue, to be sent at once."""
    from siltfence.apps.outbox.selectors import messages_visible_to

    message = messages_visible_to(staff).filter(pk=message_id).first()
    if message is None:
        raise ActionRefused("message: no such message of your village", field="message")
    if message.status != MessageStatus.FAILED:
        raise ActionRefused(
            f"message: it is {message.get_status_display().lower()}; only a message that "
            "could not be sent is sent again",
            field="message",
        )
    with transaction.atomic():
        Message.objects.filter(pk=message.pk).update(
            status=MessageStatus.WAITING, attempts=0, next_attempt_at=timezone.now()
        )
        _wake_after_commit()
    message.refresh_from_db()
    return message
