"""Reminders before a duty falls due and when it is overdue, each sent once; calendar
feeds at a secret address that parse as iCalendar and answer 404 once revoked."""

from __future__ import annotations

import datetime

import icalendar
import pytest
from django.core import mail
from django.test import Client
from sitework import local, permit_issued

from siltfence.apps.duties.services import permit_duties_recompute
from siltfence.apps.outbox.services import outbox_send
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.reminders.models import ReminderSent
from siltfence.apps.reminders.services import (
    calendar_feed_create,
    calendar_feed_revoke,
    preference_set,
    reminders_send,
)

pytestmark = pytest.mark.django_db
MARSHFIELD = "USC00475120"


def remind(*, as_of: datetime.datetime) -> int:
    """The reminders of ``as_of``, and then their emails sent (the worker's part)."""
    recorded = reminders_send(as_of=as_of)
    outbox_send()
    return recorded


def test_the_permittee_and_staff_are_reminded_once_before_the_rain_inspection_falls_due(
    rained_on, people
):
    as_of = local(2026, 7, 8, 20)
    permit_duties_recompute(permit_ids=[rained_on.pk], as_of=as_of)
    sent = remind(as_of=as_of)
    assert sent >= 2
    to_applicant = [m for m in mail.outbox if people.applicant_a.email in m.to]
    to_staff = [m for m in mail.outbox if people.staff["spencer-wi"].email in m.to]
    assert len(to_applicant) == 1 and len(to_staff) == 1
    body = to_applicant[0].body
    assert "inspection after rain is due by Thursday July 9, 2026" in body
    assert "§ 413-8E(3)(g)" in body
    # Marshfield Exp Farm is about 18 km from Spencer's centre (test_daily_sweep.py).
    assert "Rain read at MARSHFIELD EXP FARM (USC00475120), 18." in body
    assert remind(as_of=as_of) == 0
    assert remind(as_of=as_of + datetime.timedelta(hours=1)) == 0
    assert len(mail.outbox) == 2


def test_an_overdue_duty_is_reminded_once_more_as_overdue(rained_on, people):
    early = local(2026, 7, 8, 20)
    permit_duties_recompute(permit_ids=[rained_on.pk], as_of=early)
    remind(as_of=early)
    late = local(2026, 7, 10, 9)  # the rain inspection was due through July 9
    permit_duties_recompute(permit_ids=[rained_on.pk], as_of=late)
    remind(as_of=late)
    remind(as_of=late)
    kinds = ReminderSent.objects.filter(
        user=people.applicant_a, duty_kind="rain_inspection"
    ).values_list("kind", flat=True)
    assert sorted(kinds) == ["due_soon", "overdue"]
    overdue = [
        m for m in mail.outbox if "is overdue" in m.body and people.applicant_a.email in m.to
    ]
    assert len(overdue) == 1


def test_a_person_who_turns_off_reminders_before_duties_gets_none(rained_on, people):
    preference_set(user=people.applicant_a, due_soon=False, overdue=True, days_ahead="2")
    as_of = local(2026, 7, 8, 20)
    permit_duties_recompute(permit_ids=[rained_on.pk], as_of=as_of)
    remind(as_of=as_of)
    assert not [m for m in mail.outbox if people.applicant_a.email in m.to]


def test_a_reminder_is_sent_only_within_the_days_ahead_chosen(rained_on, people):
    # Due through 2026-07-09 (ends at midnight into July 10). One day ahead: not yet on the
    # morning of July 8 (more than 24 hours before), but on the morning of July 9.
    preference_set(user=people.applicant_a, due_soon=True, overdue=True, days_ahead="1")
    first = local(2026, 7, 8, 23, 0) - datetime.timedelta(hours=1)
    permit_duties_recompute(permit_ids=[rained_on.pk], as_of=first)
    remind(as_of=first)
    assert not [m for m in mail.outbox if people.applicant_a.email in m.to]
    second = local(2026, 7, 9, 8)
    permit_duties_recompute(permit_ids=[rained_on.pk], as_of=second)
    remind(as_of=second)
    assert len([m for m in mail.outbox if people.applicant_a.email in m.to]) == 1


@pytest.mark.parametrize("bad", ["0", "15", "two", "", "1.5"])
def test_days_ahead_outside_1_to_14_is_refused_naming_the_field(people, bad):
    with pytest.raises(ActionRefused) as refused:
        preference_set(user=people.applicant_a, due_soon=True, overdue=True, days_ahead=bad)
    assert refused.value.field == "days_ahead"


def test_the_calendar_feed_parses_and_a_revoked_address_answers_404(rained_on, people):
    permit_duties_recompute(permit_ids=[rained_on.pk], as_of=local(2026, 7, 8, 20))
    feed = calendar_feed_create(user=people.applicant_a, permit=rained_on)
    everything = calendar_feed_create(user=people.applicant_a)
    client = Client()
    answer = client.get(f"/calendar/{feed.token}.ics")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/calendar")
    calendar = icalendar.Calendar.from_ical(answer.content)
    events = [c for c in calendar.walk("VEVENT")]
    rain = [e for e in events if str(e["SUMMARY"]).startswith("Inspection after rain")]
    assert len(rain) == 1
    assert rain[0].decoded("DTSTART") == datetime.date(2026, 7, 9)
    assert "§ 413-8E(3)(g)" in str(rain[0]["DESCRIPTION"])
    assert client.get(f"/calendar/{everything.token}.ics").status_code == 200
    calendar_feed_revoke(user=people.applicant_a, feed_id=feed.pk)
    assert client.get(f"/calendar/{feed.token}.ics").status_code == 404
    assert client.get("/calendar/not-a-token.ics").status_code == 404
    assert client.get(f"/calendar/{everything.token}.ics").status_code == 200
    with pytest.raises(ActionRefused):
        calendar_feed_revoke(user=people.applicant_b, feed_id=everything.pk)


def test_another_persons_feed_shows_only_what_its_owner_may_see(rained_on, people):
    permit_duties_recompute(permit_ids=[rained_on.pk], as_of=local(2026, 7, 8, 20))
    feed = calendar_feed_create(user=people.applicant_b)
    calendar = icalendar.Calendar.from_ical(Client().get(f"/calendar/{feed.token}.ics").content)
    assert list(calendar.walk("VEVENT")) == []


@pytest.fixture
def ending(people):
    """A Spencer permit approved Sunday 2026-05-03: valid 180 days from the date of issuance
    (§ 413-8E(1)), May 3 + 180 (28 to May 31, 58 Jun 30, 89 Jul 31, 120 Aug 31, 150 Sep 30,
    180 Oct 30): through Friday 2026-10-30."""
    permit = permit_issued(
        applicant=people.applicant_a,
        staff=people.staff["spencer-wi"],
        village="spencer-wi",
        filed=local(2026, 5, 1, 9),
    )
    assert permit.expires_on == datetime.date(2026, 10, 30)
    return permit


def _expiry_mail(people):
    return [m for m in mail.outbox if "the permit is valid through" in m.body]


def test_the_permittee_and_staff_are_told_thirty_days_before_the_permit_ends_once(ending, people):
    # Sep 29 is 31 days before Oct 30: not yet, also at 03:00 UTC on Sep 30, which is still
    # Sep 29 in Spencer (22:00 CDT).
    remind(as_of=local(2026, 9, 29, 20))
    remind(as_of=datetime.datetime(2026, 9, 30, 3, tzinfo=datetime.UTC))
    assert _expiry_mail(people) == []
    # Sep 30 is 30 days before: the permittee and the staff, once each.
    remind(as_of=local(2026, 9, 30, 8))
    told = _expiry_mail(people)
    assert sorted(m.to[0] for m in told) == sorted(
        [people.applicant_a.email, people.staff["spencer-wi"].email]
    )
    body = told[0].body
    assert "valid through Friday October 30, 2026 (30 days)" in body
    assert "once it has ended it cannot be extended" in body and "§ 413-8E(1)" in body
    remind(as_of=local(2026, 10, 20, 8))
    assert len(_expiry_mail(people)) == 2


def test_an_extended_permit_is_told_again_before_its_new_last_day(ending, people):
    from siltfence.apps.permits.services import permit_extend

    remind(as_of=local(2026, 10, 1, 8))
    assert len(_expiry_mail(people)) == 2
    # 30 more days from Oct 30: through Sunday Nov 29; told from Oct 30 on.
    permit_extend(
        permit=ending, staff=people.staff["spencer-wi"], days=30, on=local(2026, 10, 5, 9).date()
    )
    remind(as_of=local(2026, 10, 29, 8))
    assert len(_expiry_mail(people)) == 2
    remind(as_of=local(2026, 10, 30, 8))
    new = _expiry_mail(people)[2:]
    assert len(new) == 2 and "valid through Sunday November 29, 2026 (30 days)" in new[0].body


def test_a_closed_permit_and_a_person_who_turned_off_reminders_are_not_told(ending, people):
    from siltfence.apps.permits.services import permit_close

    preference_set(user=people.applicant_a, due_soon=False, overdue=True, days_ahead=2)
    remind(as_of=local(2026, 10, 1, 8))
    assert [m.to[0] for m in _expiry_mail(people)] == [people.staff["spencer-wi"].email]
    mail.outbox.clear()
    ReminderSent.objects.all().delete()
    permit_close(
        permit=ending,
        staff=people.staff["spencer-wi"],
        on=local(2026, 10, 2, 9).date(),
        cover_percent=90,
    )
    remind(as_of=local(2026, 10, 3, 8))
    assert _expiry_mail(people) == []


def _expired_mail(people):
    return [m for m in mail.outbox if "the permit expired" in m.body]


def test_the_permittee_and_staff_are_told_once_when_the_last_day_has_passed(ending, people):
    # Valid "for a period of 180 days ... from the date of issuance" (§ 413-8E(1)): through
    # Friday Oct 30. At 20:00 on Oct 30 it is still valid; on Saturday Oct 31 it has expired.
    remind(as_of=local(2026, 10, 30, 20))
    assert _expired_mail(people) == []
    remind(as_of=local(2026, 10, 31, 8))
    told = _expired_mail(people)
    assert sorted(m.to[0] for m in told) == sorted(
        [people.applicant_a.email, people.staff["spencer-wi"].email]
    )
    body = " ".join(told[0].body.split())
    assert "Its last day was Friday October 30, 2026" in body
    assert "needs a new permit (§ 413-8E(1))" in body
    remind(as_of=local(2026, 11, 2, 8))
    assert len(_expired_mail(people)) == 2


@pytest.mark.parametrize(("day", "told"), [(6, True), (7, False)])
def test_an_expiry_is_told_within_a_week_of_the_last_day_only(ending, people, day, told):
    # Nov 6 is the 7th day after Oct 30 (EXPIRED_NOTICE_DAYS); Nov 7 the 8th: by then a
    # sweep that did not run sends no stale news.
    remind(as_of=local(2026, 11, day, 8))
    assert bool(_expired_mail(people)) is told


def test_an_expiry_is_not_told_to_who_turned_off_overdue_reminders_nor_on_a_closed_permit(
    ending, people
):
    from siltfence.apps.permits.services import permit_close

    preference_set(user=people.applicant_a, due_soon=True, overdue=False, days_ahead=2)
    remind(as_of=local(2026, 10, 31, 8))
    assert [m.to[0] for m in _expired_mail(people)] == [people.staff["spencer-wi"].email]
    mail.outbox.clear()
    ReminderSent.objects.all().delete()
    permit_close(
        permit=ending,
        staff=people.staff["spencer-wi"],
        on=local(2026, 10, 30, 9).date(),
        cover_percent=90,
    )
    remind(as_of=local(2026, 11, 1, 8))
    assert _expired_mail(people) == []
