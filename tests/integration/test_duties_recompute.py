"""The full recompute of stored duties (after the ordinance data or the office calendar
changed): every active permit once, the same result in several processes as in one.

Rain of 0.55 inch (140 tenths of a millimetre, over the half inch of § 413-8E(3)(g)) at
Marshfield on Wednesday 2026-07-08 sets each Spencer permit a rain inspection; the text
gives no deadline (gap 3) and the reading taken is the next day, Thursday 2026-07-09.
"""

from __future__ import annotations

import datetime

import pytest
from django.core.management import CommandError, call_command
from sitework import local, permit_issued

from siltfence.apps.duties.models import PermitDuties
from siltfence.apps.duties.services import (
    duties_recompute_all,
    rain_days_record,
    rain_sweep,
    site_station_assign,
    stations_sync,
)
from siltfence.apps.permits.models import PermitStatus

MARSHFIELD = "USC00475120"
RAIN_DAY = datetime.date(2026, 7, 8)


def _permits(people, count):
    stations_sync()
    permits = []
    for i in range(count):
        permit = permit_issued(
            applicant=people.applicant_a,
            staff=people.staff["spencer-wi"],
            village="spencer-wi",
            filed=local(2026, 7, 1, 9),
            address=f"{i} Recompute Rd",
        )
        site_station_assign(site=permit.application.site)
        permits.append(permit)
    rain_days_record(station_id=MARSHFIELD, days={RAIN_DAY: 140}, source="t")
    rain_sweep(day=RAIN_DAY)
    return permits


def _stored():
    return {
        row.permit_id: (row.duties, row.next_due, row.open_count, row.overdue_count)
        for row in PermitDuties.objects.all()
    }


@pytest.mark.django_db(transaction=True)
def test_a_full_recompute_in_two_processes_stores_what_one_process_stores(people):
    permits = _permits(people, 5)
    moment = local(2026, 7, 8, 18)
    assert duties_recompute_all(jobs=1, as_of=moment) == 5
    one = _stored()
    PermitDuties.objects.all().delete()
    # Chunks of two permits: three chunks shared by two processes on PostgreSQL.
    assert duties_recompute_all(jobs=2, as_of=moment, chunk=2) == 5
    two = _stored()
    assert two == one
    assert set(two) == {p.pk for p in permits}
    for duties, _, _, _ in two.values():
        [rain] = [d for d in duties if d["kind"] == "rain_inspection"]
        assert (rain["due"], rain["status"], rain["citation"]) == (
            "2026-07-09",
            "open",
            "§ 413-8E(3)(g)",
        )


@pytest.mark.django_db
def test_a_full_recompute_leaves_permits_that_are_not_active_alone(people):
    active, closed = _permits(people, 2)
    closed.status = PermitStatus.CLOSED
    closed.save(update_fields=["status"])
    assert duties_recompute_all(as_of=local(2026, 7, 8, 18)) == 1
    assert set(PermitDuties.objects.values_list("permit_id", flat=True)) == {active.pk}


@pytest.mark.django_db
def test_the_command_recomputes_one_village_and_says_how_many(people, capsys):
    _permits(people, 2)
    call_command("duties_recompute", "--village", "spencer-wi", "--jobs", "2")
    assert "Recomputed the duties of 2 permit(s)" in capsys.readouterr().out
    assert PermitDuties.objects.count() == 2


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--jobs", "0"], "--jobs"),
        (["--jobs", "65"], "--jobs"),
        (["--village", "nowhere-wi"], "--village"),
    ],
)
def test_the_command_refuses_bad_options_naming_them(villages, args, field):
    with pytest.raises(CommandError, match=f"^{field}:"):
        call_command("duties_recompute", *args)
