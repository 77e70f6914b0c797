"""A rain record corrected after the rain was written onto the permits: the permits follow
the record, so a rain corrected below the threshold owes no inspection, one corrected up
owes it again, and a day the record no longer holds is withdrawn. The permittee's own word
on a rain (no station) is never touched, and each change is on the audit record.

Worked by hand, Spencer (§ 413-8E(3)(g): "Inspect the construction control measures after
each rain of 0.5 inch or more"; the next day is taken as the deadline, gap 3). The site of
a permit issued July 3, 2026 reads Marshfield Exp Farm (USC00475120). Amounts are stored in
tenths of a millimetre (25.4 mm to the inch):
- July 8, 20.3 mm (0.80 in): a rain of 0.5 inch or more, an inspection owed by July 9.
- corrected to 7.6 mm (0.30 in): below 0.5 inch (12.7 mm), no inspection owed.
- corrected to 15.2 mm (0.60 in): owed again by July 9.
- July 8 and 9, 7.6 mm each: consecutive wet days, 15.2 mm (0.60 in) together, one rain
  owing an inspection by July 10; July 9 corrected to 2.5 mm (0.10 in): 10.1 mm (0.40 in)
  together, below 0.5 inch, no inspection owed.
The permittee, reminded of an inspection a correction withdrew, is told by email that it
is no longer owed; a correction that leaves an inspection owed tells nobody.
"""

from __future__ import annotations

import datetime

import pytest
from factories import SPENCER, text_of
from sitework import local, permit_issued, station_with_record

from siltfence.apps.audit.models import AuditEvent
from siltfence.apps.duties.models import PermitDuties
from siltfence.apps.duties.stations import stations_sync
from siltfence.apps.outbox.models import Message
from siltfence.apps.permits.models import TimelineEvent
from siltfence.apps.rain.days import rain_days_record
from siltfence.apps.rain.signals import rain_recorded_send

pytestmark = pytest.mark.django_db
MARSHFIELD = "USC00475120"
JULY_8, JULY_9 = datetime.date(2026, 7, 8), datetime.date(2026, 7, 9)


@pytest.fixture
def permit(people):
    stations_sync()
    found = permit_issued(
        applicant=people.applicant_a,
        staff=people.staff[SPENCER],
        village=SPENCER,
        filed=local(2026, 7, 1, 9),
    )
    station_with_record(site=found.application.site)
    return found


def record(days: dict[datetime.date, int | None]) -> str:
    """The station's days into the record, then onto the permits, as an import does."""
    rain_days_record(station_id=MARSHFIELD, days=days, source="test")
    return rain_recorded_send(stations=[MARSHFIELD], first=min(days), last=max(days))


def owed(permit) -> list[tuple[str, float]]:
    stored = PermitDuties.objects.get(permit=permit)
    return [(d["due"], d["rain"]["mm"]) for d in stored.duties if d["kind"] == "rain_inspection"]


def station_rain(permit) -> list[float]:
    return [
        e.fields["inches"]
        for e in TimelineEvent.objects.filter(application=permit.application, type="rain")
        if "station" in e.fields
    ]


def test_a_rain_corrected_below_the_threshold_owes_nothing_and_corrected_up_owes_again(
    client, people, permit
):
    record({JULY_8: 203})
    assert owed(permit) == [("2026-07-09", 20.3)]

    said = record({JULY_8: 76})
    assert "1 rain day(s) on permits now show the corrected amount" in said
    assert station_rain(permit) == [0.2992]
    assert owed(permit) == []
    client.force_login(people.staff[SPENCER])
    page = text_of(client.get(f"/permits/{permit.pk}/"))
    assert "mm) on 2026-07-08" not in page  # no duty lists the rain of July 8
    [audit] = AuditEvent.objects.filter(action="rain_corrected")
    assert (audit.entity, audit.entity_id) == ("application", permit.application_id)
    assert (audit.before["inches"], audit.after["inches"]) == (0.7992, 0.2992)

    # The permittee (applicant A) is told, once, that the inspection is withdrawn.
    [told] = withdrawn_told(people)
    assert told.subject == f"Inspection after rain no longer owed: permit {permit.number}"
    body = " ".join(told.body.split())
    assert "The rain record for July 8, 2026 was corrected." in body
    assert "The rain of 0.8 inch (20.3 mm)" in body
    assert "due July 9, 2026, is no longer in the record at that amount" in body
    assert "Section: § 413-8E(3)(g)." in body
    [withdrawn] = AuditEvent.objects.filter(action="rain_inspection_withdrawn")
    assert (withdrawn.entity, withdrawn.entity_id) == ("permit", permit.pk)
    assert withdrawn.before["due"] == "2026-07-09"

    record({JULY_8: 152})
    assert station_rain(permit) == [0.5984]
    assert owed(permit) == [("2026-07-09", 15.2)]
    page = text_of(client.get(f"/permits/{permit.pk}/"))
    assert "rain of 0.6 in (15.2 mm) on 2026-07-08" in page
    # Corrected 0.6 to 0.9 inch: still owed, nobody told of a withdrawal.
    record({JULY_8: 229})
    assert owed(permit) == [("2026-07-09", 22.9)]
    assert len(withdrawn_told(people)) == 1


def withdrawn_told(people) -> list[Message]:
    return list(
        Message.objects.filter(to_address=people.applicant_a.email, kind="inspection_withdrawn")
    )


def test_a_day_the_record_no_longer_holds_rain_for_is_withdrawn(people, permit):
    record({JULY_8: 203})
    said = record({JULY_8: 0})
    assert "1 were withdrawn" in said
    assert station_rain(permit) == []
    assert owed(permit) == []
    [audit] = AuditEvent.objects.filter(action="rain_corrected")
    assert (audit.before["inches"], audit.after["inches"]) == (0.7992, None)
    assert len(withdrawn_told(people)) == 1


def test_a_two_day_rain_corrected_below_the_threshold_together_owes_nothing(people, permit):
    record({JULY_8: 76, JULY_9: 76})
    assert owed(permit) == [("2026-07-10", 15.2)]
    record({JULY_9: 25})
    assert sorted(station_rain(permit)) == [0.0984, 0.2992]
    assert owed(permit) == []
    # Neither day alone crossed 0.5 inch; the rain of the two days together did.
    [told] = withdrawn_told(people)
    assert "The rain record for July 8 to July 9, 2026 was corrected." in told.body
    assert "The rain of 0.6 inch (15.2 mm)" in told.body


def test_the_permittee_s_own_word_on_a_rain_is_left_alone(permit):
    record({JULY_8: 203})
    # The event the site log writes for "this rain caused no runoff" (no station).
    own = TimelineEvent.objects.create(
        application=permit.application,
        type="rain",
        at=local(2026, 7, 8, 18),
        fields={"inches": 0, "runoff": False, "id": "log-1"},
    )
    record({JULY_8: 0})
    assert station_rain(permit) == []
    own.refresh_from_db()
    assert own.fields == {"inches": 0, "runoff": False, "id": "log-1"}


@pytest.mark.django_db(transaction=True)
def test_a_correction_outside_any_transaction_records_the_withdrawal(people, permit):
    """As an import run from the command line does: no transaction around it."""
    record({JULY_8: 203})
    record({JULY_8: 76})
    assert AuditEvent.objects.filter(action="rain_inspection_withdrawn").count() == 1
    assert len(withdrawn_told(people)) == 1
